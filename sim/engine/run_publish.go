package engine

import (
	"cmp"
	"slices"
	"time"

	"github.com/posterior-playground/playground/sim/wire"
)

// publish builds a frame of the run's state, with each recorder's part,
// and swaps it into the mailbox, waking every viewer.
func (r *Run) publish(now time.Time) {
	f := &Frame{Diagnostics: make(map[string]float64), Time: now}
	r.rec.contribute(f, now) // first: a band whose Predict panics diverges the run
	f.Step, f.Pending, f.Status, f.Message, f.Budget = r.st.step, r.st.pending, r.st.status, r.st.message, r.st.budget
	f.Controls, f.Start, f.Speed, f.Marks, f.Data = r.ctl.now, r.ctl.start, r.pace.speed, r.ctl.marks, r.prob.points.Load()
	slices.SortFunc(f.Extras, func(a, b *wire.Extra) int { return cmp.Compare(a.Key, b.Key) })
	r.pace.rate(now, r.st.step, r.st.active())
	f.StepsPerSec = r.pace.perSec
	f.Evals, f.CPU = r.acct.spent.evals, r.acct.spent.cpu
	f.Held = r.acct.hold.at(now) && r.st.active()
	if f.Marks == nil {
		f.Marks = []wire.Mark{}
	}
	r.box.put(f)
	r.pace.dirty = false
	r.pace.nextFrame = now.Add(r.cores.frame)
}
