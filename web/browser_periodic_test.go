package web_test

import (
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/posterior-playground/playground/web"
)

// Functional VI runs live in the dashboard: the periodic-extrapolation
// scenario plays fbnn beside mfvi and both bands draw.
func TestBrowserPeriodicExtrapolation(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end browser test skipped with -short")
	}
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Skipf("no browser at %s: %v", chromiumPath, err)
	}
	srv, err := web.New(web.Config{}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()

	ctx, errs := newBrowser(t)
	b := &browser{t: t, ctx: ctx, shots: screenshotDir(t)}
	b.do(chromedp.Navigate(ts.URL + "/"))
	b.do(chromedp.WaitVisible(chromedp.CSS("#scenario-periodic-extrapolation a.button")))
	b.do(chromedp.Click(chromedp.CSS("#scenario-periodic-extrapolation a.button")))
	b.do(chromedp.WaitVisible(chromedp.CSS("#panel-fbnn")))
	b.wait(`window.playground && playground.panels.length === 2 && playground.panels.every(p => p.frames > 0)`, 20*time.Second)
	b.do(chromedp.Click(chromedp.CSS(`[data-all="play"]`)))
	b.wait(`playground.panels.every(p => p.status === "running" && p.step >= 300 && p.band)`, 60*time.Second)
	b.shot("periodic-playing")
	for _, sel := range []string{"#panel-fbnn [data-plot=predictive] canvas", "#panel-mfvi [data-plot=predictive] canvas",
		"#panel-fbnn [data-plot=objective] canvas"} {
		if n := b.ink(sel); n < 500 {
			t.Errorf("%s has %d coloured pixels; the plot looks blank", sel, n)
		}
	}
	if e := errs.list(); len(e) > 0 {
		t.Errorf("browser errors: %v", e)
	}
}
