package web_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserLectureMode drives two browsers, a lecturer's and a student's
// (separate profiles, so separate sessions). The lecturer plays the headline
// scenario and copies its "Share live" link; the student who opens it
// watches the lecturer's very runs, read-only, and sees a slider change as
// it happens; a command the student's page sends anyway is refused by the
// server and changes nothing; Fork gives the student a run of their own,
// replayed to the state it had, while the lecturer's runs go on.
func TestBrowserLectureMode(t *testing.T) {
	lecturer := startBrowserTest(t)
	lecturer.openScenario("mfvi-vs-gip-gap", "gip", 2, "")
	lecturer.do(chromedp.Click(chromedp.CSS(`[data-all="play"]`)))
	lecturer.wait(`playground.panels.every(p => p.status === "running" && p.step >= 50 && p.band)`, 30*time.Second)
	lecturer.do(chromedp.Click(chromedp.CSS(`#share-live`)))
	link := lecturer.waitString(`document.getElementById("toolbar-status").dataset.link ?? ""`, 5*time.Second)
	ids := lecturer.eval(`playground.panels.map(p => p.runId).join(",")`)
	for _, id := range strings.Split(ids, ",") {
		if !strings.Contains(link, ".watch="+id) {
			t.Fatalf("live link %s does not name run %s", link, id)
		}
	}

	ctx, errs := newBrowser(t)
	student := &browser{t: t, ctx: ctx, url: lecturer.url, shots: lecturer.shots}
	t.Cleanup(func() {
		for _, e := range errs.list() {
			t.Errorf("student's browser error: %s", e)
		}
	})
	student.do(chromedp.Navigate(link))
	student.wait(`window.playground && playground.panels.length === 2 && playground.panels.every(p => p.frames > 2 && p.readOnly)`, 30*time.Second)
	if got := student.eval(`playground.panels.map(p => p.runId).join(",")`); got != ids {
		t.Fatalf("the student watches runs %s; want the lecturer's %s", got, ids)
	}
	if n := student.evalInt(`document.querySelectorAll('#panel-mfvi [data-op="play"]:disabled, #panel-mfvi form.controls input:disabled').length`); n < 2 {
		t.Errorf("the student's mean-field panel has %d disabled play button and controls; want them all disabled", n)
	}
	student.wait(`playground.panels.every(p => p.status === "running")`, 10*time.Second)
	// The watched page opens clean: no error in any panel before the
	// student does anything, no run command to press, Fork in view.
	if errs := student.eval(`[...document.querySelectorAll("[data-role=error]")].filter(e => !e.hidden && e.textContent).map(e => e.textContent).join(" | ")`); errs != "" {
		t.Errorf("the watched page shows errors before any action: %s", errs)
	}
	if n := student.evalInt(`[...document.querySelectorAll('[data-all], .panel [data-op="play"], .panel [data-op="reset"]')].filter(b => b.offsetParent !== null).length`); n != 0 {
		t.Errorf("the student sees %d run buttons; want none (a viewer's commands are refused)", n)
	}
	if n := student.evalInt(`[...document.querySelectorAll('[data-role="fork"]')].filter(b => b.offsetParent !== null).length`); n != 2 {
		t.Errorf("the student sees %d Fork buttons; want one per panel", n)
	}
	student.shot("lecture-student-watching")

	// The lecturer moves mean-field's prior scale; the student sees it.
	lecturer.eval(`playground.panels[0].setControl("prior_scale", 2.5)`)
	student.wait(`Number(playground.panels[0].confirmed.prior_scale) === 2.5`, 10*time.Second)

	// A command sent from the student's page anyway is refused, naming the
	// session, and the lecturer's run keeps running.
	student.eval(`playground.panels[0].ws.send(JSON.stringify({op: "pause"}))`)
	student.wait(`document.querySelector("#panel-mfvi [data-role=error]").textContent.includes("another browser session")`, 10*time.Second)
	step := lecturer.evalInt(`playground.panels[0].step`)
	lecturer.wait(fmt.Sprintf(`playground.panels[0].status === "running" && playground.panels[0].step > %d`, step), 10*time.Second)

	// Fork: the student's own run, replayed to the step the view showed.
	at := student.evalInt(`playground.panels[0].step`)
	student.do(chromedp.Click(chromedp.CSS(`#panel-mfvi [data-role="fork"]`)))
	student.wait(fmt.Sprintf(`(p => !p.readOnly && p.runId && !%q.split(",").includes(p.runId) && p.status === "paused" && p.step >= %d)(playground.panels[0])`, ids, at), 60*time.Second)
	if v := student.eval(`Number(playground.panels[0].confirmed.prior_scale)`); v != "2.5" {
		t.Errorf("the fork's prior scale is %s; want the lecturer's 2.5 (replayed from the change log)", v)
	}
	if strings.Contains(student.eval(`location.search`), "mfvi.watch") {
		t.Error("after the fork the address still watches the lecturer's mean-field run")
	}
	student.shot("lecture-student-forked")
	// The lecturer's runs were neither stopped nor deleted by the student.
	lecturer.wait(fmt.Sprintf(`playground.panels.every(p => p.status === "running") && playground.panels[0].step > %d`, at), 10*time.Second)
}
