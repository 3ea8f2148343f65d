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

// extraState is the run goroutine's record of the extras it published: the
// payload each was made from, so a payload is wrapped (and encoded) once,
// and the last frame's list, reused while nothing changes.
type extraState struct {
	draws   *wire.DrawSet
	weights *wire.WeightSet
	byKey   map[string]*wire.Extra // the current extra of every key
	views   []*wire.Extra          // the method's views, as last asked
	viewsOf *wire.Band             // the band they were asked with: a new band means a new state
	next    time.Time              // earliest next ask while stepping
	list    []*wire.Extra          // the last frame's extras
}

// frameExtras returns the extras for a frame published now.
func (r *Run) frameExtras(now time.Time) []*wire.Extra {
	x := &r.extras
	changed := false
	if d := r.drawSet(now); d != x.draws { // samplers only (run_draws.go)
		x.draws, changed = d, true
		if d == nil {
			delete(x.byKey, "draws")
		} else {
			x.set("draws", d, r)
		}
	}
	if w := r.weightSet(now); w != x.weights { // weight marginals (run_weights.go)
		x.weights, changed = w, true
		if w == nil {
			delete(x.byKey, "weights")
		} else {
			x.set("weights", w, r)
		}
	}
	if r.methodViews(now) {
		changed = true
	}
	if !changed {
		return x.list
	}
	list := make([]*wire.Extra, 0, len(x.byKey))
	for _, k := range slices.Sorted(maps.Keys(x.byKey)) {
		list = append(list, x.byKey[k])
	}
	x.list = list
	return list
}

// set makes the extra under key from v.
func (x *extraState) set(key string, v any, r *Run) {
	if x.byKey == nil {
		x.byKey = make(map[string]*wire.Extra)
	}
	e, err := wire.NewExtra(key, v)
	if err != nil {
		r.log.Error("dropping a frame extra", "key", key, "err", err)
		delete(x.byKey, key)
		return
	}
	x.byKey[key] = e
}

// methodViews asks a sim.Views method for its views when a new band shows
// a new state (a step, a reset or a control change: the band's own rules)
// and the last ask is old enough (at once while paused), and reports
// whether they changed.
func (r *Run) methodViews(now time.Time) bool {
	v, ok := r.m.(sim.Views)
	x := &r.extras
	if !ok || r.status == StatusDiverged {
		return false
	}
	if x.views != nil && x.viewsOf == r.band {
		return false
	}
	if r.active() && now.Before(x.next) {
		return false
	}
	t0 := time.Now()
	var views map[string]any
	if err := r.safely("Views", func() { views = v.Views() }); err != nil {
		return false
	}
	for _, old := range x.views {
		delete(x.byKey, old.Key)
	}
	x.views = x.views[:0]
	for _, k := range slices.Sorted(maps.Keys(views)) {
		if k == "draws" || k == "weights" {
			r.log.Error("dropping a method view under an engine key", "key", k)
			continue
		}
		x.set(k, views[k], r)
		if e := x.byKey[k]; e != nil {
			x.views = append(x.views, e)
		}
	}
	if x.views == nil {
		x.views = []*wire.Extra{} // asked: not nil
	}
	x.viewsOf = r.band
	x.next = now.Add(max(viewsInterval, time.Since(t0)*viewsCostShare))
	return true
}
