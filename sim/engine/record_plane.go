package engine

import (
	"time"

	"github.com/posterior-playground/playground/sim/wire"
)

// PlaneMethod is a method on a target that shows itself in the plane
// (the gallery's methods): the exact answer it is measured against, what
// it did since it was last asked, and its history against the truth.
// The payloads are the browser plane view's (static/app/plane.js).
type PlaneMethod interface {
	// PlaneExact is the exact answer's part: the same pointer for as
	// long as the exact answer is the same, so it is encoded once and a
	// viewer is sent it once.
	PlaneExact() any
	// Plane is the plane now: the latest draws and divergences,
	// numbered so that a reader that missed frames knows what it missed
	// (bounded), the latest transition, q; now paces the costly parts.
	Plane(now time.Time) any
	// PlaneHistory is the history against the truth, and how many points
	// it has: a new payload only when it grows.
	PlaneHistory() (v any, n int)
	// PlaneQ is q's latest density over the box (nil for none): the same
	// pointer until Plane makes a new one, so that a viewer that skipped
	// the frame it was made in, or joins a paused run, is still sent it.
	PlaneQ() any
}

// Keys of the plane's extras.
const (
	PlaneExactKey   = "plane_exact"
	PlaneKey        = "plane"
	PlaneHistoryKey = "plane_history"
	PlaneQKey       = "plane_q"
)

// planeRec adds a PlaneMethod's plane to the frames: the exact answer
// once per exact answer, q's density once per new one, the plane once per
// new state (a step, a new epoch or a change), the history once per new
// point.
type planeRec struct {
	noSteps
	r     *Run
	m     PlaneMethod
	exact payload[any]
	q     payload[any]
	plane *wire.Extra
	step  int64 // the plane was asked at this step and epoch…
	epoch uint64
	stale bool // …and the method changed since
	hist  *wire.Extra
	histN int
}

func (p *planeRec) reset(change) { p.stale = true }

func (p *planeRec) contribute(f *Frame, now time.Time) {
	r := p.r
	if !r.st.shows() {
		return
	}
	var ex any
	if err := r.safely("PlaneExact", func() { ex = p.m.PlaneExact() }); err != nil {
		return
	}
	p.exact.add(f, r.opt.Log, PlaneExactKey, ex)
	if p.plane == nil || p.stale || p.step != r.st.step || p.epoch != r.box.epoch {
		var v any
		if err := r.safely("Plane", func() { v = p.m.Plane(now) }); err != nil {
			return
		}
		p.plane = makeExtra(r.opt.Log, PlaneKey, v)
		p.step, p.epoch, p.stale = r.st.step, r.box.epoch, false
		var h any
		n := -1
		if err := r.safely("PlaneHistory", func() { h, n = p.m.PlaneHistory() }); err == nil && (p.hist == nil || n != p.histN) {
			p.hist, p.histN = makeExtra(r.opt.Log, PlaneHistoryKey, h), n
		}
	}
	var q any
	if err := r.safely("PlaneQ", func() { q = p.m.PlaneQ() }); err == nil {
		p.q.add(f, r.opt.Log, PlaneQKey, q)
	}
	for _, x := range []*wire.Extra{p.plane, p.hist} {
		if x != nil {
			f.Extras = append(f.Extras, x)
		}
	}
}
