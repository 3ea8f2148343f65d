package web_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/posterior-playground/playground/web"
)

const chromiumPath = "/usr/bin/chromium"

// TestBrowserMeanFieldVsGIP drives Debian's Chromium through the scenario a
// newcomer opens first: play both panels, move a prior scale slider, and
// check that the plots drew, the change reached the running loop, the band
// moved, a bad value is refused inline, and reloading the link restores the
// experiment. Screenshots go to $SCREENSHOT_DIR (or a temporary directory).
func TestBrowserMeanFieldVsGIP(t *testing.T) {
	b := startBrowserTest(t)

	b.openScenario("mfvi-vs-gip-gap", "gip", 2, "1-home")
	b.wait(`playground.panels.every(p => p.status === "paused")`, 20*time.Second)

	b.do(chromedp.Click(chromedp.CSS(`[data-all="play"]`)))
	b.wait(`playground.panels.every(p => p.status === "running" && p.step >= 100 && p.band && p.objective.length > 20)`, 30*time.Second)
	b.shot("2-playing")
	b.elementShot("2-playing-panels", "section.panels")
	t.Logf("while playing: %s", b.eval(`playground.panels.map(p => p.method + " " + Math.round(p.stepsPerSec) + " steps/s, " + p.frameTimes.filter(t => performance.now() - t < 1000).length + " frames/s").join("; ")`))

	// Every plot drew coloured pixels: band, mean, samples, curves. The
	// objectives sit in a closed fold, which redraws at most once a second.
	drawn := []string{"#panel-mfvi [data-plot=predictive] canvas", "#panel-gip [data-plot=predictive] canvas",
		"#panel-mfvi [data-plot=objective] canvas", "#panel-gip [data-plot=objective] canvas"}
	b.settle(inked(500, drawn...), 3*time.Second)
	for _, sel := range drawn {
		if n := b.ink(sel); n < 500 {
			t.Errorf("%s has %d coloured pixels; the plot looks blank", sel, n)
		}
	}

	// Move mean-field's prior scale slider to 0.5 as a person would: the
	// slider moves (input), then is let go (change).
	b.do(chromedp.Click(chromedp.CSS(`#panel-mfvi [data-op=snapshot]`))) // freeze the band for comparison
	before := b.band("mfvi")
	beforeInk := b.eval(`playground.ink(document.querySelector("#panel-mfvi [data-plot=predictive] canvas"))`)
	stepAtMove := b.evalInt(`playground.panels[0].step`)
	b.do(chromedp.Evaluate[chromedp.Void](`(() => {
		const s = document.querySelector("#ctl-mfvi-prior_scale");
		s.value = String(Math.log10(0.5));
		s.dispatchEvent(new Event("input", {bubbles: true}));
		s.dispatchEvent(new Event("change", {bubbles: true}));
	})()`))
	start := time.Now()
	b.wait(`playground.panels[0].inspect().controls.prior_scale === 0.5`, 5*time.Second)
	t.Logf("the new prior scale came back in a frame after %v (the page measured %s ms from send to frame)",
		time.Since(start).Round(time.Millisecond), b.eval(`Math.round(playground.panels[0].latency)`))
	b.wait(`playground.panels[0].marks.some(m => m.name === "prior_scale" && m.value === 0.5)`, 5*time.Second)
	b.wait(fmt.Sprintf(`playground.panels[0].step >= %d`, stepAtMove+300), 20*time.Second)
	b.shot("3-after-prior-scale")
	b.elementShot("3-after-prior-scale-mfvi", "#panel-mfvi [data-plot=predictive]")
	if b.eval(`playground.panels[0].predictive.snapshot !== null`) != "true" {
		t.Error("the snapshot overlay is missing")
	}
	after := b.band("mfvi")
	if d := maxDiff(before, after); d < 1e-3 {
		t.Errorf("mean-field's band did not change after the prior scale moved (max |Δ| = %g)", d)
	}
	if afterInk := b.eval(`playground.ink(document.querySelector("#panel-mfvi [data-plot=predictive] canvas"))`); afterInk == beforeInk {
		t.Errorf("the predictive plot's pixels did not change (%s coloured pixels before and after)", afterInk)
	}
	if !strings.Contains(b.eval(`location.search`), "mfvi.prior_scale=0.5") {
		t.Errorf("the link does not hold the new prior scale: %s", b.eval(`location.search`))
	}

	// The export buttons: catch the downloads they start and keep the PNG.
	b.do(chromedp.Evaluate[chromedp.Void](`window.__downloads = []; HTMLAnchorElement.prototype.click = function () { window.__downloads.push({name: this.download, href: this.href}); };`))
	b.openExports("gip")
	b.do(chromedp.Click(chromedp.CSS(`#panel-gip [data-plot=predictive] button.png`)))
	b.openExports("gip")
	b.do(chromedp.Click(chromedp.CSS(`#panel-gip [data-op=csv]`)))
	png := b.waitString(`window.__downloads.length === 2 && window.__downloads[0].href`, 5*time.Second)
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(png, "data:image/png;base64,"))
	if err != nil || !bytes.HasPrefix(raw, []byte("\x89PNG")) {
		t.Errorf("the PNG export is not a PNG (%v)", err)
	} else if err := os.WriteFile(filepath.Join(b.shots, "6-export-gip-predictive.png"), raw, 0o644); err != nil {
		t.Error(err)
	}
	csv := b.waitString(`(async () => { const t = await (await fetch(window.__downloads[1].href)).text(); return t; })()`, 5*time.Second)
	if !strings.HasPrefix(csv, "series,step,value\nobjective,") || !strings.Contains(csv, "\ntrace:kl,") {
		t.Errorf("the CSV export starts %q", csv[:min(len(csv), 80)])
	}

	// A value outside the range, typed into the number field, is refused
	// by the server and shown next to the control.
	b.do(chromedp.Evaluate[chromedp.Void](`(() => {
		const n = document.querySelector('#panel-gip .control[data-name="prior_scale"] input.num');
		n.value = "50";
		n.dispatchEvent(new Event("change", {bubbles: true}));
	})()`))
	msg := b.waitString(`(() => { const e = document.querySelector('#panel-gip .control[data-name="prior_scale"] .control-error'); return !e.hidden && e.textContent; })()`, 5*time.Second)
	if !strings.Contains(msg, "10") {
		t.Errorf("the inline error %q does not give the allowed range", msg)
	}
	b.shot("4-inline-error")
	b.elementShot("4-inline-error-controls", "#panel-gip form.controls")
	if v := b.eval(`playground.panels[1].inspect().controls.prior_scale`); v != "4" { // the scenario's
		t.Errorf("gip's prior scale is %s after a refused change, want 4", v)
	}

	// Reloading the link reopens the same experiment.
	b.do(chromedp.Reload())
	b.do(chromedp.WaitVisible(chromedp.CSS("#panel-gip")))
	b.wait(`window.playground && playground.panels.every(p => p.frames > 0)`, 20*time.Second)
	if v := b.eval(`document.querySelector("#ctl-mfvi-prior_scale").value`); !closeTo(v, math.Log10(0.5)) {
		t.Errorf("after reload the mean-field prior scale slider is at %s, want log10(0.5)", v)
	}
	if v := b.eval(`document.querySelector('#panel-mfvi .control[data-name="prior_scale"] input.num').value`); v != "0.5" {
		t.Errorf("after reload the mean-field prior scale field shows %s, want 0.5", v)
	}
	if v := b.eval(`playground.panels[0].inspect().controls.prior_scale`); v != "0.5" {
		t.Errorf("after reload the mean-field run has prior_scale %s, want 0.5", v)
	}

	// Bring your own data: a bad CSV is refused inline with the row and
	// column; a good one restarts both panels on it.
	b.do(chromedp.Evaluate[chromedp.Void](dropCSV("bad.csv", "x,y\n1,2\n2,abc\n")))
	msg = b.waitString(`(() => { const e = document.querySelector("#upload-error"); return !e.hidden && e.textContent; })()`, 5*time.Second)
	if !strings.Contains(msg, "row 3") || !strings.Contains(msg, "abc") {
		t.Errorf("the upload error %q does not name the row and the cell", msg)
	}
	b.do(chromedp.Evaluate[chromedp.Void](dropCSV("wave.csv", waveCSV())))
	b.wait(`location.search.includes("data=upload:") && playground.panels.every(p => p.frames > 0 && p.runId) && playground.config.points.x.length === 40`, 20*time.Second)
	b.do(chromedp.Click(chromedp.CSS(`[data-all="play"]`)))
	b.wait(`playground.panels.every(p => p.step >= 30 && p.band)`, 30*time.Second)
	b.shot("5-uploaded")
}

// browser is a Chromium tab on a server of its own.
type browser struct {
	t     testing.TB
	ctx   context.Context
	url   string // the server's, without a trailing slash
	shots string // the screenshot directory
}

// startBrowserTest skips without Chromium or under -short, serves the real
// server on a loopback port and opens Chromium, both for the rest of the
// test. When the test ends, every uncaught exception and console error the
// page had fails it.
func startBrowserTest(t testing.TB) *browser {
	t.Helper()
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
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() {
		ts.Close()
		srv.Close()
	})
	ctx, errs := newBrowser(t)
	b := &browser{t: t, ctx: ctx, url: ts.URL, shots: screenshotDir(t)}
	t.Cleanup(func() { // before the browser's own cleanups: they run last in, first out
		for _, e := range errs.list() {
			t.Errorf("browser error: %s", e)
		}
		t.Logf("screenshots in %s", b.shots)
	})
	return b
}

// openScenario follows a scenario's card in the home page's gallery, as a
// person would, and waits until its n panels (one of them #panel-<panel>)
// have their first frames. homeShot, unless empty, names a screenshot of
// the gallery.
func (b *browser) openScenario(slug, panel string, n int, homeShot string) {
	b.t.Helper()
	card := chromedp.CSS("#scenario-" + slug + " a.button")
	b.do(chromedp.Navigate(b.url + "/"))
	b.do(chromedp.WaitVisible(card))
	if homeShot != "" {
		b.shot(homeShot)
	}
	b.do(chromedp.Click(card))
	b.do(chromedp.WaitVisible(chromedp.CSS("#panel-" + panel)))
	b.wait(fmt.Sprintf(`window.playground && playground.panels.length === %d && playground.panels.every(p => p.frames > 0)`, n), 20*time.Second)
}

// openExports opens a panel's Export menu under its predictive plot.
func (b *browser) openExports(panel string) {
	b.t.Helper()
	b.eval(`document.querySelectorAll("#panel-` + panel + ` details.export-menu").forEach(d => { d.open = true; })`)
}

func (b *browser) do(a chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, a); err != nil {
		b.shot("failed")
		b.t.Fatal(err)
	}
}

// eval returns a JavaScript value as JSON text.
func (b *browser) eval(js string) string {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[any](js))
	if err != nil {
		b.t.Fatalf("%s: %v", js, err)
	}
	return fmt.Sprint(v)
}

func (b *browser) evalInt(js string) int {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[int](js))
	if err != nil {
		b.t.Fatalf("%s: %v", js, err)
	}
	return v
}

// wait polls a JavaScript condition until it holds.
func (b *browser) wait(cond string, d time.Duration) {
	b.t.Helper()
	if _, err := chromedp.Run(b.ctx, chromedp.Poll[chromedp.Void](cond, chromedp.WithPollingTimeout(d), chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
		b.shot("failed")
		b.t.Fatalf("waiting %v for %s: %v\npanels: %s", d, cond, err, b.eval(`JSON.stringify((window.playground?.panels ?? []).map(p => ({method: p.method, status: p.status, step: p.step, frames: p.frames, error: p.el.querySelector("[data-role=error]").textContent})))`))
	}
}

// settle polls a JavaScript condition for up to d and reports whether it
// held, without failing: the assertions after it say what is wrong. It
// replaces a pause "for the plots to draw" by waiting for the ink itself.
func (b *browser) settle(cond string, d time.Duration) bool {
	b.t.Helper()
	_, err := chromedp.Run(b.ctx, chromedp.Poll[chromedp.Void](cond, chromedp.WithPollingTimeout(d), chromedp.WithPollingInterval(50*time.Millisecond)))
	return err == nil
}

// inked is a JavaScript condition: every canvas matched by sels has at
// least n coloured pixels.
func inked(n int, sels ...string) string {
	q, _ := json.Marshal(sels)
	return fmt.Sprintf(`%s.every(s => playground.ink(document.querySelector(s)) >= %d)`, q, n)
}

func (b *browser) waitString(cond string, d time.Duration) string {
	b.t.Helper()
	s, err := chromedp.Run(b.ctx, chromedp.Poll[string](cond, chromedp.WithPollingTimeout(d), chromedp.WithPollingInterval(50*time.Millisecond)))
	if err != nil {
		b.shot("failed")
		b.t.Fatalf("waiting %v for %s: %v", d, cond, err)
	}
	return s
}

// band returns a panel's latest lo and hi, concatenated.
func (b *browser) band(method string) []float64 {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]float64](fmt.Sprintf(
		`(() => { const p = playground.panels.find(p => p.method === %q); return [...p.band.lo, ...p.band.hi]; })()`, method)))
	if err != nil {
		b.t.Fatal(err)
	}
	return v
}

func (b *browser) ink(sel string) int {
	return b.evalInt(fmt.Sprintf(`playground.ink(document.querySelector(%q))`, sel))
}

func (b *browser) shot(name string) {
	buf, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Logf("screenshot %s: %v", name, err)
		return
	}
	path := filepath.Join(b.shots, name+".png")
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		b.t.Logf("screenshot %s: %v", name, err)
	}
}

// elementShot saves a screenshot of one element, at full resolution.
func (b *browser) elementShot(name, sel string) {
	buf, err := chromedp.Run(b.ctx, chromedp.Screenshot(chromedp.CSS(sel)))
	if err != nil {
		b.t.Logf("screenshot %s: %v", name, err)
		return
	}
	if err := os.WriteFile(filepath.Join(b.shots, name+".png"), buf, 0o644); err != nil {
		b.t.Logf("screenshot %s: %v", name, err)
	}
}

// errorLog collects uncaught exceptions and console errors of the page.
type errorLog struct {
	mu   sync.Mutex
	errs []string
}

func (e *errorLog) add(s string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.errs = append(e.errs, s)
}

func (e *errorLog) list() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.errs...)
}

func newBrowser(t testing.TB) (context.Context, *errorLog) {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1400, 1000),
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	errs := &errorLog{}
	ctx, cancel := chromedp.NewContext(alloc, chromedp.WithListener(func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			errs.add((&chromedp.ExceptionError{ExceptionDetails: ev.ExceptionDetails}).Error())
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError {
				var parts []string
				for _, a := range ev.Args {
					parts = append(parts, string(a.Value)+a.Description)
				}
				errs.add("console.error: " + strings.Join(parts, " "))
			}
		}
	}))
	t.Cleanup(cancel)
	// Start the browser on the untimed context (a timeout on the first Run
	// would end the browser); every later wait has its own limit.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", chromiumPath, err)
	}
	return ctx, errs
}

func screenshotDir(t testing.TB) string {
	dir := os.Getenv("SCREENSHOT_DIR")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "playground-screenshots")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// dropCSV is JavaScript that drops a file on the page's drop zone.
func dropCSV(name, text string) string {
	return fmt.Sprintf(`(() => {
		const dt = new DataTransfer();
		dt.items.add(new File([%q], %q, {type: "text/csv"}));
		document.querySelector("#dropzone").dispatchEvent(new DragEvent("drop", {dataTransfer: dt, bubbles: true}));
	})()`, text, name)
}

// waveCSV is 40 points of sin 2x in two clusters.
func waveCSV() string {
	var sb strings.Builder
	sb.WriteString("x,y\n")
	for i := range 40 {
		x := -3 + 0.05*float64(i)
		if i >= 20 {
			x = 2 + 0.05*float64(i-20)
		}
		fmt.Fprintf(&sb, "%g,%g\n", x, math.Sin(2*x))
	}
	return sb.String()
}

func maxDiff(a, b []float64) float64 {
	if len(a) != len(b) {
		return math.Inf(1)
	}
	d := 0.0
	for i := range a {
		d = math.Max(d, math.Abs(a[i]-b[i]))
	}
	return d
}

func closeTo(s string, want float64) bool {
	var v float64
	if _, err := fmt.Sscan(s, &v); err != nil {
		return false
	}
	return math.Abs(v-want) < 1e-6
}
