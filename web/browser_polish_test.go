package web_test

import (
	"encoding/json"
	"regexp"
	"testing"
	"time"
)

// TestBrowserPolish checks what a newcomer reads on the GP classification
// scenario: an on/off setting is a checkbox that acts on the run, numbers
// are printed to three significant digits, traces that mean nothing there
// (the noise under a Bernoulli likelihood, the period under the RBF kernel)
// are hidden and the others are labelled in words, and a change mark's
// label lies inside its plot even when the change is the newest step, at
// the plot's right edge.
func TestBrowserPolish(t *testing.T) {
	b := startBrowserTest(t)
	b.openScenario("gp-classification", "gpvi", 1, "")
	const panel = `playground.panels[0]`

	// Widgets: a checkbox for on/off, a select for a choice, a short
	// number box for a value of many digits (the link sets 7.389).
	if n := b.evalInt(`document.querySelectorAll('#panel-gpvi .control[data-name="learn_kernel"] input[type=checkbox]').length`); n != 1 {
		t.Errorf("learn_kernel has %d checkboxes, want 1", n)
	}
	if n := b.evalInt(`document.querySelectorAll('#panel-gpvi .control[data-name="learn_kernel"] input[type=range]').length`); n != 0 {
		t.Errorf("learn_kernel still has a slider")
	}
	if n := b.evalInt(`document.querySelectorAll('#panel-gpvi .control[data-name="kernel"] select').length`); n != 1 {
		t.Errorf("kernel has %d selects, want 1", n)
	}
	if help := b.eval(`document.querySelector('#panel-gpvi .control[data-name="kernel"] .help').textContent`); regexp.MustCompile(`\[0, 0\]`).MatchString(help) {
		t.Errorf("the kernel's help shows a range: %q", help)
	}
	if v := b.eval(`document.querySelector('#panel-gpvi .control[data-name="variance"] input.num').value`); v != "7.39" {
		t.Errorf("variance box shows %q, want 7.39", v)
	}

	b.eval(panel + `.op("play"), true`)
	b.wait(panel+`.step > 50 && `+panel+`.objective.length > 5`, 30*time.Second)

	// Labels: no machine names on trace captions; meaningless traces hidden.
	var captions []string
	if err := json.Unmarshal([]byte(b.eval(`JSON.stringify([...document.querySelectorAll('#panel-gpvi [data-role=traces] figure:not([hidden]) figcaption')].map(c => c.firstChild.textContent))`)), &captions); err != nil {
		t.Fatal(err)
	}
	if len(captions) == 0 {
		t.Fatal("no traces shown")
	}
	for _, c := range captions {
		if regexp.MustCompile(`_|^(kl|noise|period|variance|lengthscale)$`).MatchString(c) {
			t.Errorf("trace caption %q is a machine name", c)
		}
	}
	for _, name := range []string{"noise", "period"} {
		if b.eval(`String(document.querySelector('#panel-gpvi [data-plot="trace-`+name+`"]')?.hidden ?? true)`) != "true" {
			t.Errorf("the %s trace is shown on classification data with the RBF kernel", name)
		}
	}

	// A toggle acts: the run reports learn_kernel = 1, and marks it.
	b.eval(`document.querySelector('#panel-gpvi .control[data-name="learn_kernel"] input[type=checkbox]').click(), true`)
	b.wait(panel+`.confirmed.learn_kernel === 1 && `+panel+`.marks.some(m => m.name === "learn_kernel")`, 20*time.Second)
	b.wait(panel+`.traces.get("lengthscale").plot.u._markBoxes?.length > 0`, 10*time.Second)

	// Numbers: three significant digits at most in the diagnostics.
	b.wait(`document.querySelectorAll('#panel-gpvi [data-role=diagnostics] dd').length > 0`, 10*time.Second)
	var dds []string
	if err := json.Unmarshal([]byte(b.eval(`JSON.stringify([...document.querySelectorAll('#panel-gpvi [data-role=diagnostics] dd')].map(d => d.textContent))`)), &dds); err != nil {
		t.Fatal(err)
	}
	for _, d := range dds {
		if sigDigits(d) > 3 || regexp.MustCompile(`e[+-]`).MatchString(d) {
			t.Errorf("diagnostic %q: more than three significant digits, or e-notation", d)
		}
	}

	// Change marks: every label box inside its plot area, in the small
	// trace plots and the objective.
	type box struct {
		Text                     string
		Left, Top, Right, Bottom float64
		Plot                     struct{ Left, Top, Right, Bottom float64 }
	}
	var boxes []box
	if err := json.Unmarshal([]byte(b.eval(`JSON.stringify([...`+panel+`.traces.values()].filter(t => t.plot && !t.fig.hidden).flatMap(t => t.plot.u._markBoxes ?? []).concat(`+panel+`.objectivePlot.u._markBoxes ?? []))`)), &boxes); err != nil {
		t.Fatal(err)
	}
	if len(boxes) == 0 {
		t.Fatal("no change-mark labels drawn")
	}
	for _, bx := range boxes {
		if bx.Left < bx.Plot.Left || bx.Right > bx.Plot.Right || bx.Top < bx.Plot.Top || bx.Bottom > bx.Plot.Bottom {
			t.Errorf("mark label %q at [%.0f, %.0f]×[%.0f, %.0f] leaves its plot [%.0f, %.0f]×[%.0f, %.0f]", bx.Text,
				bx.Left, bx.Right, bx.Top, bx.Bottom, bx.Plot.Left, bx.Plot.Right, bx.Plot.Top, bx.Plot.Bottom)
		}
	}
	t.Logf("mark labels: %q …; diagnostics %v", boxes[0].Text, dds)
	b.elementShot("polish-gpvi-panel", "#panel-gpvi")
}

// sigDigits counts the significant digits of a printed number ("451,000"
// has 3, "0.00135" has 3, "4.51×10⁵" has 3).
func sigDigits(s string) int {
	m := regexp.MustCompile(`[0-9][0-9,.]*`).FindString(s)
	digits := regexp.MustCompile(`[^0-9]`).ReplaceAllString(m, "")
	digits = regexp.MustCompile(`^0+`).ReplaceAllString(digits, "")
	if regexp.MustCompile(`^[0-9,]+$`).MatchString(m) { // a whole number: trailing zeros hold places
		digits = regexp.MustCompile(`0+$`).ReplaceAllString(digits, "")
	}
	return len(digits)
}
