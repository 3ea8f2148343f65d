package engine

import (
	"maps"
	"slices"
	"time"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/wire"
)

// viewsInterval is the shortest time between two asks of a method's own
// views (sim.Views) while it steps; viewsCostShare bounds the run
// goroutine's time spent on them to about 1/viewsCostShare.
const (
	viewsInterval  = 250 * time.Millisecond
	viewsCostShare = 10
)

// viewsRec adds the method's own views (sim.Views) to the frames, each
// under its key: asked for when a new band shows a new state (a step, a
// reset or a control change: the band's own rules) and the last ask is old
// enough (at once while paused).
type viewsRec struct {
	noSteps
	r     *Run
	band  *bandRec
	views []*wire.Extra // as last asked; nil before
	of    *wire.Band    // the band they were asked with: a new band means a new state
	next  time.Time     // earliest next ask while stepping
}

func (*viewsRec) reset(change) {} // the band's own reset shows

func (v *viewsRec) contribute(f *Frame, now time.Time) {
	if !v.r.ready {
		return
	}
	v.ask(now)
	f.Extras = append(f.Extras, v.views...)
}

// ask asks a sim.Views method for its views when they are due.
func (v *viewsRec) ask(now time.Time) {
	r := v.r
	m, ok := r.m.(sim.Views)
	if !ok || r.status == StatusDiverged {
		return
	}
	if v.views != nil && v.of == v.band.band {
		return
	}
	if r.active() && now.Before(v.next) {
		return
	}
	t0 := time.Now()
	var views map[string]any
	if err := r.safely("Views", func() { views = m.Views() }); err != nil {
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
	v.of = v.band.band
	v.next = now.Add(max(viewsInterval, time.Since(t0)*viewsCostShare))
}
