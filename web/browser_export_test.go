package web_test

import (
	"bytes"
	"encoding/base64"
	"encoding/csv"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/posterior-playground/playground/sim/datasets"
)

// TestBrowserExports clicks a panel's exports for slides and checks what
// they download: the PNG is drawn at twice the screen's resolution (its
// width 2 × devicePixelRatio × the plot canvas' CSS width) with a caption
// under the plot; the band CSV has one
// row per grid point with lo = mean − 2 std; the data CSV one row per
// training point; a sampler's draws CSV one row per chain and kept draw.
// Downloads are caught at the anchor's click, as TestBrowserMeanFieldVsGIP
// does.
func TestBrowserExports(t *testing.T) {
	b := startBrowserTest(t)
	b.do(chromedp.Navigate(b.url + "/play?data=linreg&methods=mfvi,hmc&seed=1&hmc.warmup=100"))
	b.wait(`window.playground && playground.panels.length === 2 && playground.panels.every(p => p.frames > 0)`, 20*time.Second)
	b.do(chromedp.Click(chromedp.CSS(`[data-all="play"]`)))
	b.wait(`playground.panels.every(p => p.band && p.step > 300) && playground.panels[1].mcmc.draws?.retained > 50`, 30*time.Second)
	b.do(chromedp.Click(chromedp.CSS(`[data-all="pause"]`)))
	// Paused, a sampler's last draw set is drawn at its final step.
	b.wait(`playground.panels.every(p => p.status === "paused") && playground.panels[1].mcmc.draws.step === playground.panels[1].step`, 10*time.Second)
	b.elementShot("export-buttons-hmc", "#panel-hmc [data-plot=predictive] figcaption")
	b.do(chromedp.Evaluate[chromedp.Void](`window.__downloads = []; HTMLAnchorElement.prototype.click = function () { window.__downloads.push({name: this.download, href: this.href}); };`))

	// PNG, with a snapshot so the legend has every entry.
	b.do(chromedp.Click(chromedp.CSS(`#panel-mfvi [data-op=snapshot]`)))
	b.openExports("mfvi")
	b.do(chromedp.Click(chromedp.CSS(`#panel-mfvi [data-plot=predictive] button.png`)))
	href := b.waitString(`window.__downloads.length === 1 && window.__downloads[0].href`, 5*time.Second)
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(href, "data:image/png;base64,"))
	if err != nil {
		t.Fatalf("the PNG export is not a data URL of base64: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("the PNG export does not decode: %v", err)
	}
	if err := os.WriteFile(filepath.Join(b.shots, "export-mfvi-predictive.png"), raw, 0o644); err != nil {
		t.Error(err)
	}
	cssW := evalAs[float64](b, `document.querySelector("#panel-mfvi [data-plot=predictive] canvas").getBoundingClientRect().width`)
	dpr := evalAs[float64](b, `window.devicePixelRatio`)
	if want := int(math.Round(2 * dpr * cssW)); img.Bounds().Dx() != want {
		t.Errorf("PNG %d px wide; the plot canvas is %g CSS px at devicePixelRatio %g, want %d", img.Bounds().Dx(), cssW, dpr, want)
	}
	// The caption is the last text block: its bottom 30 CSS px (two of its
	// 15 px lines at most) hold dark text pixels, the plot's are above.
	// One line of 11 px text over ≥ 300 px has thousands of dark pixels at
	// scale 2; an empty strip has none, the background being white.
	scale := float64(img.Bounds().Dx()) / cssW
	if n := darkPixels(img, img.Bounds().Dy()-int(30*scale), img.Bounds().Dy()); n < 200 {
		t.Errorf("%d dark pixels in the PNG's caption strip: no caption", n)
	}
	captionJS := `(() => { const p = playground.panels[0]; return [p.spec.label, p.app.config.data, "seed " + p.app.config.seed, "step " + p.step.toLocaleString("en-US")]; })()`
	captionParts := evalAs[[]string](b, captionJS)
	t.Logf("PNG %dx%d for a %g px canvas; caption should read %v", img.Bounds().Dx(), img.Bounds().Dy(), cssW, captionParts)

	// Band and data CSV.
	b.openExports("mfvi")
	b.do(chromedp.Click(chromedp.CSS(`#panel-mfvi [data-plot=predictive] button.band-csv`)))
	b.openExports("mfvi")
	b.do(chromedp.Click(chromedp.CSS(`#panel-mfvi [data-plot=predictive] button.data-csv`)))
	b.wait(`window.__downloads.length === 3`, 5*time.Second)
	band := b.fetchCSV(t, 1)
	if got := strings.Join(band[0], ","); got != "x,mean,std,lo,hi" {
		t.Errorf("band CSV header %q", got)
	}
	if len(band)-1 != datasets.GridPoints {
		t.Errorf("band CSV has %d rows, want one per grid point (%d)", len(band)-1, datasets.GridPoints)
	}
	for i, row := range band[1:] {
		v := floats(t, row)
		// The stream carries bands to 6 significant digits (wire.Band), and
		// std is (hi − lo)/4 of those: lo and hi agree with mean ∓ 2·std to
		// about 1e-6 of the largest of them.
		tol := 1e-5 * (1 + math.Abs(v[1]) + 2*math.Abs(v[2]))
		if math.Abs(v[3]-(v[1]-2*v[2])) > tol || math.Abs(v[4]-(v[1]+2*v[2])) > tol {
			t.Fatalf("band row %d: %v is not mean ± 2 std", i+1, v)
		}
	}
	data := b.fetchCSV(t, 2)
	if got := strings.Join(data[0], ","); got != "x,y" || len(data)-1 != 30 {
		t.Errorf("data CSV: header %q, %d rows, want x,y and linreg's 30 points", got, len(data)-1)
	}

	// A sampler's draws, from the server.
	b.openExports("hmc")
	b.do(chromedp.Click(chromedp.CSS(`#panel-hmc [data-plot=predictive] button.draws-csv`)))
	b.wait(`window.__downloads.length === 4`, 5*time.Second)
	draws := b.fetchCSV(t, 3)
	chains := evalAs[int](b, `playground.panels[1].mcmc.draws.chains`)
	retained := evalAs[int](b, `playground.panels[1].mcmc.draws.retained`)
	if !strings.HasPrefix(strings.Join(draws[0], ","), ".chain,.iteration,.draw,") || len(draws)-1 != chains*retained {
		t.Errorf("draws CSV: header %v, %d rows, want %d chains × %d kept draws", draws[0], len(draws)-1, chains, retained)
	}
	if n := b.evalInt(`document.querySelectorAll("#panel-mfvi button.draws-csv").length`); n != 0 {
		t.Errorf("mean-field VI, not a sampler, has %d draws buttons", n)
	}
}

// fetchCSV reads the i-th caught download (a blob or an API URL) as CSV.
func (b *browser) fetchCSV(t *testing.T, i int) [][]string {
	t.Helper()
	text := b.waitString(fmt.Sprintf(`(async () => (await fetch(window.__downloads[%d].href)).text())()`, i), 10*time.Second)
	rows, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil || len(rows) == 0 {
		t.Fatalf("download %d is not CSV (%v): %q", i, err, text[:min(len(text), 120)])
	}
	return rows
}

func floats(t *testing.T, row []string) []float64 {
	t.Helper()
	out := make([]float64, len(row))
	for i, s := range row {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("%q in %v: %v", s, row, err)
		}
		out[i] = v
	}
	return out
}

// darkPixels counts pixels darker than mid-grey in rows [y0, y1).
func darkPixels(img image.Image, y0, y1 int) int {
	n := 0
	bd := img.Bounds()
	for y := max(y0, bd.Min.Y); y < min(y1, bd.Max.Y); y++ {
		for x := bd.Min.X; x < bd.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if (r+g+bl)/3 < 0x8000 {
				n++
			}
		}
	}
	return n
}

// evalAs evaluates a JavaScript expression into a T.
func evalAs[T any](b *browser, js string) T {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](js))
	if err != nil {
		b.t.Fatalf("%s: %v", js, err)
	}
	return v
}
