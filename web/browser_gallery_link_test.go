package web_test

import (
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// measuresJS is each gallery panel's step and measures line, which the
// server computes from the run's state: equal lines are equal states.
const measuresJS = `galleryPage.panels.map(p => p.step + " | " + p.measure.textContent).join(" || ")`

// TestBrowserGalleryLinks plays HMC beside a full-rank fit on a
// correlated Gaussian, changes the fit's live learning rate on the way,
// copies the link to this state and opens it: every panel is replayed to
// the same step with the same change and shows the same measures (runs
// are deterministic for a seed). Then the exports: the PNG has a title,
// the legend names every mark, the draws' CSV holds each draw the page
// holds, q's JSON its moments; the live link watches the very runs; and
// presentation mode is in the link. Screenshots at both viewports.
func TestBrowserGalleryLinks(t *testing.T) {
	b := startBrowserTest(t)
	b.do(chromedp.EmulateViewport(1280, 720))
	b.do(chromedp.Navigate(b.url + "/gallery?target=gaussian&rho=0.5&methods=hmc,fullrank"))
	b.wait(`window.galleryPage?.panels.every(p => p.exact && p.frames > 0 && p.status.textContent.startsWith("paused"))`, 60*time.Second)
	if got := b.eval(`galleryPage.target.value + " " + galleryPage.controls.querySelector("[name=rho]").value`); got != "gaussian 0.5" {
		t.Fatalf("the link opened %q, want the Gaussian at rho 0.5", got)
	}
	b.do(chromedp.Evaluate[chromedp.Void](`galleryPage.panels.forEach(p => p.send({op: "step", n: 150}))`))
	b.wait(`galleryPage.panels.every(p => p.step >= 150 && p.status.textContent.startsWith("paused"))`, 60*time.Second)
	// a live change, to be replayed at its step
	b.do(chromedp.Evaluate[chromedp.Void](`(() => { const i = galleryPage.panels[1].controls.querySelector("[name=lr]"); i.value = "0.02"; i.dispatchEvent(new Event("change")); })()`))
	b.wait(`galleryPage.panels[1].marks.length === 1`, 20*time.Second)
	b.do(chromedp.Evaluate[chromedp.Void](`galleryPage.panels.forEach(p => p.send({op: "step", n: 100}))`))
	b.wait(`galleryPage.panels.every(p => p.step >= 250 && p.status.textContent.startsWith("paused") && p.historyPoints > 1)`, 60*time.Second)
	time.Sleep(500 * time.Millisecond) // the paused runs' last frames
	before := b.eval(measuresJS)
	b.do(chromedp.Click(chromedp.CSS(`[data-role=copy-state]`)))
	link := b.waitString(`galleryPage.share.dataset.link || ""`, 10*time.Second)
	for _, want := range []string{"target=gaussian", "rho=0.5", "methods=hmc,fullrank", "p1.replay=", "p2.replay=", ":lr:0.02"} {
		if !strings.Contains(link, want) {
			t.Errorf("the state link %s lacks %s", link, want)
		}
	}
	b.do(chromedp.Navigate(link))
	b.wait(`window.galleryPage?.panels.every(p => p.exact && p.replayTo == null && p.step > 0 && p.status.textContent.startsWith("paused"))`, 90*time.Second)
	if !b.settle(fmt.Sprintf(`%s === %q`, measuresJS, before), 20*time.Second) {
		t.Errorf("the replayed page shows\n%s\nthe original\n%s", b.eval(measuresJS), before)
	}
	if v := b.eval(`galleryPage.panels[1].controls.querySelector("[name=lr]").value`); v != "0.02" {
		t.Errorf("the replayed fit's learning rate box holds %q, want the replayed change's 0.02", v)
	}
	b.shot("gallery-replayed-1280x720")

	// Exports.
	png := awaitString(b, `galleryPage.panels[0].export("png").then(r => JSON.stringify(r))`)
	for _, want := range []string{`"legend":["exact density: 99 … 20% regions","chain 1"`, `"latest move`} {
		if !strings.Contains(png, want) {
			t.Errorf("the PNG's %s lacks %s", png, want)
		}
	}
	// the PNG itself, with a claim as a scenario's, saved to look at
	shot := awaitString(b, `import("/static/app/gallery_export.js").then(m => new Promise(done => m.savePNG(galleryPage.panels[0].frame, {title: "HMC on a correlated Gaussian (rho = 0.5) · seed 1 · step 250", claim: "HMC's draws cover the exact density's 95% region.", size: 520, filename: "x.png", save: (blob) => { const r = new FileReader(); r.onload = () => done(r.result); r.readAsDataURL(blob); }})))`)
	if data, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(shot, "data:image/png;base64,")); err != nil || len(data) < 1000 {
		t.Errorf("the PNG export: %d bytes, %v", len(data), err)
	} else if err := os.WriteFile(filepath.Join(b.shots, "gallery-export.png"), data, 0o644); err != nil {
		t.Error(err)
	}
	csv := awaitString(b, `import("/static/app/gallery_export.js").then(m => { const p = galleryPage.panels[0]; const t = m.drawsCSV(p.draws.view(), p.exact.params); return t.split("\n").length - 2 + " " + p.draws.count + " " + t.split("\n")[0]; })`)
	if f := strings.Fields(csv); len(f) != 3 || f[0] != f[1] || f[0] == "0" || f[2] != "chain,x,y" {
		t.Errorf("the draws' CSV: %q, want a row per draw held under chain,x,y", csv)
	}
	js := awaitString(b, `import("/static/app/gallery_export.js").then(m => { const p = galleryPage.panels[1]; return m.qJSON({method: "fullrank", moments: p.qMoments, measure: p.last}); })`)
	if !strings.Contains(js, `"q": {`) || !strings.Contains(js, `"cov": [`) {
		t.Errorf("q's JSON lacks its moments: %s", js)
	}

	// The live link: another browser watches these very runs, read-only,
	// and forks one, replayed to the step it showed.
	runs := b.eval(`galleryPage.panels.map(p => p.run).join(",")`)
	b.do(chromedp.Click(chromedp.CSS(`[data-role=share-live]`)))
	live := b.waitString(`(galleryPage.share.dataset.link || "").includes("watch=") ? galleryPage.share.dataset.link : ""`, 10*time.Second)
	ctx, errs := newBrowser(t)
	student := &browser{t: t, ctx: ctx, url: b.url, shots: b.shots}
	t.Cleanup(func() {
		for _, e := range errs.list() {
			t.Errorf("the viewer's browser error: %s", e)
		}
	})
	student.do(chromedp.EmulateViewport(1280, 720))
	student.do(chromedp.Navigate(live))
	student.wait(`window.galleryPage?.panels.every(p => p.run && p.frames > 0 && p.readOnly && p.exact)`, 30*time.Second)
	if got := student.eval(`galleryPage.panels.map(p => p.run).join(",")`); got != runs {
		t.Errorf("the live link's panels watch %s, want %s", got, runs)
	}
	if n := student.evalInt(`[...document.querySelectorAll("[data-role=play], [data-role=step], [data-role=fork]")].filter(b => b.offsetParent !== null).length`); n != 2 {
		t.Errorf("the viewer sees %d of Play, Step and Fork, want only the two Forks", n)
	}
	student.shot("gallery-viewer-1280x720")
	at := student.evalInt(`galleryPage.panels[1].step`)
	student.do(chromedp.Click(chromedp.CSS(`[data-panel="1"] [data-role=fork]`)))
	student.wait(fmt.Sprintf(`(p => !p.readOnly && p.run && !%q.split(",").includes(p.run) && p.replayTo == null && p.step === %d && p.status.textContent.startsWith("paused"))(galleryPage.panels[1])`, runs, at), 60*time.Second)
	if !student.settle(fmt.Sprintf(`galleryPage.panels[1].measure.textContent === %q`, b.eval(`galleryPage.panels[1].measure.textContent`)), 20*time.Second) {
		t.Errorf("the fork shows %q, its original %q", student.eval(`galleryPage.panels[1].measure.textContent`), b.eval(`galleryPage.panels[1].measure.textContent`))
	}

	// Presentation mode, by its key, goes into the link.
	b.do(chromedp.Navigate(b.url + "/gallery?target=funnel&methods=nuts,mfvi"))
	b.wait(`window.galleryPage?.panels.every(p => p.exact && p.frames > 0)`, 60*time.Second)
	b.do(chromedp.KeyEvent("p"))
	b.wait(`document.documentElement.classList.contains("present") && location.search.includes("present=1")`, 5*time.Second)
	b.shot("gallery-present-1280x720")
	b.do(chromedp.KeyEvent("p"))
	for _, s := range planeSizes {
		b.do(chromedp.EmulateViewport(int64(s.w), int64(s.h), chromedp.EmulateScale(s.dpr)))
		b.do(chromedp.Navigate(b.url + "/gallery?target=funnel&methods=nuts,mfvi&p2.divergence=renyi"))
		b.wait(`window.galleryPage?.panels.every(p => p.exact && p.frames > 0)`, 60*time.Second)
		b.do(chromedp.Click(chromedp.CSS(`[data-role=play]`)))
		b.wait(`galleryPage.panels.every(p => p.historyPoints > 3)`, 60*time.Second)
		b.do(chromedp.Click(chromedp.CSS(`[data-role=pause]`)))
		if s.w > 500 {
			// the plane, the measures and the error chart above the fold
			// (the fit follows a measures line that wraps within a frame)
			bottom := `Math.ceil(Math.max(...galleryPage.panels.map(p => p.history.getBoundingClientRect().bottom)))`
			if !b.settle(fmt.Sprintf(`%s <= %d`, bottom, s.h), 5*time.Second) {
				t.Errorf("%s: the error chart ends at %d px, below the fold", s.name, b.evalInt(bottom))
			}
		}
		if n := b.evalInt(`galleryPage.panels[0].controls.querySelectorAll("input[type=checkbox]").length + galleryPage.controls.querySelectorAll("input[type=checkbox]").length`); n != 1 {
			t.Errorf("%s: %d checkboxes among the funnel's and NUTS's controls, want the centred toggle", s.name, n)
		}
		if hidden := b.eval(`String(galleryPage.panels[1].controls.querySelector("[name=alpha]").closest("label").hidden)`); hidden != "false" {
			t.Errorf("%s: Rényi α hidden under renyi", s.name)
		}
		b.shot("gallery-controls-" + s.name)
	}
}

// awaitString evaluates js, a promise of a string, and returns the string.
func awaitString(b *browser, js string) string {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("%s: %v", js, err)
	}
	return v
}
