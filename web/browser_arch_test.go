package web_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserArchPreset picks the "small" network preset in a mean-field
// panel: the arch and activation controls take its values, the link
// records them, and the panel's run restarts on a 1 → 20 → 1 ReLU network
// (the server's run config says so).
func TestBrowserArchPreset(t *testing.T) {
	b := startBrowserTest(t)
	b.do(chromedp.Navigate(b.url + "/play?data=gap&methods=mfvi&seed=1"))
	b.wait(`window.playground && playground.panels.length === 1 && playground.panels[0].frames > 0 && playground.panels[0].runId`, 30*time.Second)
	first := b.eval(`playground.panels[0].runId`)
	b.do(chromedp.Evaluate[chromedp.Void](`(() => {
		const s = document.querySelector('#panel-mfvi [data-role="arch-preset"]');
		s.value = "small"; s.dispatchEvent(new Event("change", {bubbles: true}));
	})()`))
	b.wait(`(p => p.runId && p.runId !== `+"`"+first+"`"+` && p.frames > 0)(playground.panels[0])`, 30*time.Second)
	got := b.waitString(`fetch("/api/runs/" + playground.panels[0].runId).then(r => r.json()).then(i => i.config.controls.arch + " " + i.config.controls.activation)`, 10*time.Second)
	if got != "20 relu" {
		t.Errorf("after the small preset the run has arch and activation %q, want \"20 relu\"", got)
	}
	if u := b.eval(`location.search`); !strings.Contains(u, "mfvi.arch=20") {
		t.Errorf("the link %s does not record the preset's arch", u)
	}
}
