package web_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// "Link to this state" gives a link that trains a new run to the panel's
// step with its changes: opening it shows the replay's progress and ends
// paused at that step with the original's band, bit for bit (runs are
// deterministic for a seed, and bands are seeded by step).
func TestBrowserReplayLink(t *testing.T) {
	b := startBrowserTest(t)
	b.do(chromedp.Navigate(b.url + "/play?data=gap&methods=gip&seed=3"))
	b.wait(`window.playground && playground.panels.length === 1 && playground.panels[0].frames > 0`, 20*time.Second)
	b.do(chromedp.Click(chromedp.CSS(`[data-all="play"]`)))
	b.wait(`playground.panels[0].step >= 150`, 30*time.Second)
	b.do(chromedp.Evaluate[chromedp.Void](`(() => {
		const s = document.querySelector("#ctl-gip-prior_scale");
		s.value = String(Math.log10(3));
		s.dispatchEvent(new Event("input", {bubbles: true}));
		s.dispatchEvent(new Event("change", {bubbles: true}));
	})()`))
	b.wait(`playground.panels[0].serverMarks.some(m => m.name === "prior_scale")`, 10*time.Second)
	b.wait(`playground.panels[0].step >= 400`, 30*time.Second)
	b.do(chromedp.Click(chromedp.CSS(`[data-all="pause"]`)))
	// Paused, the run redraws its band at its step: wait for that frame.
	b.wait(`(() => { const p = playground.panels[0]; return p.status === "paused" && p.band && p.frames > 0; })()`, 10*time.Second)
	time.Sleep(300 * time.Millisecond) // lets the paused run's last frame (band at its step) arrive: nothing signals "no more frames"
	step := b.evalInt(`playground.panels[0].step`)
	want := b.band("gip")
	b.do(chromedp.Click(chromedp.CSS(`#copy-state-link`)))
	link := b.waitString(`document.querySelector("#toolbar-status").dataset.link ?? ""`, 5*time.Second)
	if !strings.Contains(link, fmt.Sprintf("gip.replay=%d,", step)) || !strings.Contains(link, ":prior_scale:3") {
		t.Fatalf("state link %q lacks the step %d or the change", link, step)
	}
	b.do(chromedp.Navigate(link))
	b.wait(`window.playground && playground.panels.length === 1 && playground.panels[0].frames > 0`, 20*time.Second)
	b.shot("replay-1-progress")
	b.wait(fmt.Sprintf(`(() => { const p = playground.panels[0]; return p.step === %d && p.status === "paused" && p.replayTo === null && p.band; })()`, step), 60*time.Second)
	time.Sleep(300 * time.Millisecond) // as above: the band drawn at the final step
	b.shot("replay-2-done")
	got := b.band("gip")
	if !slices.Equal(got, want) {
		n := 0
		for i := range got {
			if i < len(want) && got[i] != want[i] {
				n++
			}
		}
		t.Fatalf("replayed band differs from the original's at step %d (%d of %d values; link %s): %v… vs %v…", step, n, len(got), link, got[:3], want[:3])
	}
}

// A link replaying a method with nothing to iterate (the exact GP) ends at
// once: the server plays it where it stands and the panel leaves "replaying
// the link" for settled, shown as "closed form" (an exact method's chip
// says what it is), though the link's step is never reached.
func TestBrowserReplaySettled(t *testing.T) {
	b := startBrowserTest(t)
	b.do(chromedp.Navigate(b.url + "/play?data=gp-cauchy&methods=gp-exact&gp-exact.replay=300"))
	b.wait(`window.playground && playground.panels.length === 1 && playground.panels[0].frames > 0`, 20*time.Second)
	b.wait(`(() => { const p = playground.panels[0]; return p.status === "settled" && p.replayTo === null && p.band; })()`, 20*time.Second)
	s, step := b.eval(`playground.panels[0].role("status").textContent`), b.evalInt(`playground.panels[0].step`)
	if !strings.Contains(s, "closed form") || step > 1 {
		t.Fatalf("after the replay: status %q at step %d; want \"closed form\" at step ≤ 1", s, step)
	}
}
