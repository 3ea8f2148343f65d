package engine

import (
	"log/slog"
	"time"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/wire"
)

// A recorder is one view of a run: it watches the steps and adds its part
// to every frame — the history of the objective and traces, the band, the
// method's diagnostics, a sampler's draws, a weight's marginal, the
// method's own views. Adding a view is one recorder (and one browser
// module). Recorders are owned by the run goroutine; they read the run
// (its method, data, step and status) and write only themselves.
type recorder interface {
	// reset tells the recorder that the method changed between steps:
	// initialised again (a new epoch), its data edited, or a control
	// changed or an input moved in place.
	reset(e change)
	// before is called before every step: whether the recorder needs the
	// step's trace (sim.Method.Trace, asked once for all).
	before() bool
	// observe records a step: its objective, and its trace when a
	// recorder needed it (nil otherwise).
	observe(step int64, obj float64, tr []float64)
	// contribute adds the recorder's part to f, a frame published now.
	contribute(f *Frame, now time.Time)
}

// change is what changed the method between steps (recorder.reset).
type change int

const (
	changeInit    change = iota // initialised again: a new epoch, step 0
	changeData                  // its training data (the target) edited in place
	changeControl               // a live control set, or an inducing input moved
)

// recorders are a run's views, in the order they contribute to a frame
// (later ones may read what earlier ones recorded: the views are asked
// for with each new band).
type recorders struct {
	all     []recorder
	history *historyRec
	draws   *drawsRec
	weights *weightsRec
}

// newRecorders makes r's views: a band only when its method predicts on
// data.
func newRecorders(r *Run, spec sim.MethodSpec) recorders {
	rs := recorders{history: &historyRec{r: r}, draws: &drawsRec{r: r}, weights: &weightsRec{r: r}}
	rs.history.init(spec)
	rs.all = []recorder{rs.history}
	var band *bandRec
	if m := r.prob.predictor(r.m); m != nil {
		band = &bandRec{r: r, m: m}
		rs.all = append(rs.all, band)
	}
	x := sim.ExtrasOf(r.m) // asked once: a method's Extras are set by its type
	rs.all = append(rs.all, diagnosticsRec{r: r, noise: x.NoiseStd, diag: x.Diagnostics}, rs.draws, rs.weights,
		&viewsRec{r: r, get: x.Views, band: band})
	if m, ok := r.m.(PlaneMethod); ok {
		rs.all = append(rs.all, &planeRec{r: r, m: m})
	}
	return rs
}

func (rs *recorders) reset(e change) {
	for _, x := range rs.all {
		x.reset(e)
	}
}

// before asks every recorder, so each knows its own answer at observe.
func (rs *recorders) before() bool {
	want := false
	for _, x := range rs.all {
		if x.before() {
			want = true
		}
	}
	return want
}

func (rs *recorders) observe(step int64, obj float64, tr []float64) {
	for _, x := range rs.all {
		x.observe(step, obj, tr)
	}
}

func (rs *recorders) contribute(f *Frame, now time.Time) {
	for _, x := range rs.all {
		x.contribute(f, now)
	}
}

// makeExtra wraps a recorder's payload v under key, once: every frame
// that carries it shares it. Nil, logged, when v does not encode.
func makeExtra(log *slog.Logger, key string, v any) *wire.Extra {
	x, err := wire.NewExtra(key, v)
	if err != nil {
		log.Error("dropping a frame extra", "key", key, "err", err)
		return nil
	}
	return x
}

// payload is a recorder's one extra: the payload it last published and its
// wrapping, made once per new payload.
type payload[P comparable] struct {
	last P
	x    *wire.Extra
}

// add adds v under key to f (nothing for a zero v), wrapping it when it
// is a new payload.
func (p *payload[P]) add(f *Frame, log *slog.Logger, key string, v P) {
	var zero P
	if v != p.last {
		p.last, p.x = v, nil
		if v != zero {
			p.x = makeExtra(log, key, v)
		}
	}
	if p.x != nil {
		f.Extras = append(f.Extras, p.x)
	}
}

// noSteps is the part of a recorder that watches no steps.
type noSteps struct{}

func (noSteps) before() bool                      { return false }
func (noSteps) observe(int64, float64, []float64) {}
