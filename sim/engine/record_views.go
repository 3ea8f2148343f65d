package engine

import (
	"maps"
	"slices"
	"time"

	"github.com/posterior-playground/playground/sim/wire"
)

// viewsInterval is the shortest time between two asks of a method's own
// views (sim.Extras.Views) while it steps; viewsCostShare bounds the run
// goroutine's time spent on them to about 1/viewsCostShare.
const (
	viewsInterval  = 250 * time.Millisecond
	viewsCostShare = 10
)

// viewsRec adds the method's own views (sim.Extras.Views) to the frames, each
// under its key: asked for when the method shows a new state and the last
// ask is old enough (at once while paused). A new state is a new band (a
// step, a reset or a change: the band's own rules), or, for a run without
// a band, a step, a new epoch or a change.
type viewsRec struct {
	noSteps
	r     *Run
	get   func() map[string]any // sim.Extras.Views; nil: none
	band  *bandRec              // nil: no band
	views []*wire.Extra         // as last asked; nil before
	of    *wire.Band            // the band they were asked with: a new band means a new state
	step  int64                 // without a band: the step and epoch they were asked at…
	epoch uint64
	stale bool      // …and whether the method changed since
	next  time.Time // earliest next ask while stepping
}

func (v *viewsRec) reset(change) { v.stale = true }

// current reports whether the views were asked for in the method's state.
func (v *viewsRec) current() bool {
	if v.views == nil {
		return false
	}
	if v.band != nil {
		return v.of == v.band.band
	}
	return !v.stale && v.step == v.r.st.step && v.epoch == v.r.box.epoch
}

func (v *viewsRec) contribute(f *Frame, now time.Time) {
	if !v.r.st.ready {
		return
	}
	v.ask(now)
	f.Extras = append(f.Extras, v.views...)
}

// ask asks a method with views (sim.Extras.Views) for them when they are
// due.
func (v *viewsRec) ask(now time.Time) {
	r := v.r
	if v.get == nil || r.st.status == StatusDiverged {
		return
	}
	if v.current() {
		return
	}
	if r.st.active() && now.Before(v.next) {
		return
	}
	t0 := time.Now()
	var views map[string]any
	if err := r.safely("Views", func() { views = v.get() }); err != nil {
		return
	}
	v.views = make([]*wire.Extra, 0, len(views)) // asked: not nil
	for _, k := range slices.Sorted(maps.Keys(views)) {
		if k == "draws" || k == "weights" {
			r.opt.Log.Error("dropping a method view under an engine key", "key", k)
			continue
		}
		if x := makeExtra(r.opt.Log, k, views[k]); x != nil {
			v.views = append(v.views, x)
		}
	}
	if v.band != nil {
		v.of = v.band.band
	}
	v.step, v.epoch, v.stale = r.st.step, r.box.epoch, false
	v.next = now.Add(max(viewsInterval, time.Since(t0)*viewsCostShare))
}
