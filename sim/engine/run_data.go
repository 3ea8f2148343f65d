package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync/atomic"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/cost"
	"github.com/posterior-playground/playground/sim/target"
	"github.com/posterior-playground/playground/sim/wire"
)

const (
	// InducingMark names a moved inducing input's change mark (not
	// "inducing": gip's control of that name marks its own changes).
	InducingMark = "inducing input"
)

// problem is what a run's method is fitted to — a data set (its current
// one and the one the run was created on), or a target density with no
// data — and the method's spec fitted to it.
type problem struct {
	base   *sim.Dataset                    // the data set the run was created on; edits are made against it; nil for a target
	d      *sim.Dataset                    // the current data; the run goroutine's
	target target.Target                   // nil for data
	spec   atomic.Pointer[sim.MethodSpec]  // fitted to d, refitted on an edit: commands are checked against it
	points atomic.Pointer[wire.DataPoints] // d in the user's units, as last published; nil for a target
}

func (p *problem) init(d *sim.Dataset, t target.Target, spec *sim.MethodSpec) {
	p.base, p.d, p.target = d, d, t
	p.spec.Store(spec)
	if d != nil {
		p.points.Store(dataPoints(d))
	}
}

// specFor is m's spec fitted to d (sim.SpecFor); a target's method has
// its own.
func specFor(m sim.Stepper, d *sim.Dataset) sim.MethodSpec {
	if dm, ok := m.(sim.Method); ok && d != nil {
		return sim.SpecFor(dm, d)
	}
	return m.Spec()
}

// initMethod initialises m on the problem: a sim.Method on the data, a
// target.Method on the target.
func (p *problem) initMethod(m sim.Stepper, c sim.Controls, rng *rand.Rand) error {
	if p.target != nil {
		tm, ok := m.(target.Method)
		if !ok {
			return fmt.Errorf("%s is not fitted to a target density", m.Spec().Name)
		}
		return tm.Init(p.target, c, rng)
	}
	dm, ok := m.(sim.Method)
	if !ok {
		return fmt.Errorf("%s is not fitted to a data set", m.Spec().Name)
	}
	return dm.Init(p.d, c, rng)
}

// predictor is the method as a predictor on data, nil for a run with no
// predictive band (a target density).
func (p *problem) predictor(m sim.Stepper) sim.Method {
	if dm, ok := m.(sim.Method); ok && p.d != nil {
		return dm
	}
	return nil
}

// BaseData is the data set the run was created on, in model units: edits
// are made against its scales, grid and truth (datasets.Edit). Immutable.
func (r *Run) BaseData() *sim.Dataset { return r.prob.base }

// SetData replaces the run's training data by d between two steps. d must
// be the run's base data set edited (the same task, grid and scales:
// datasets.Edit builds it). A method that implements sim.DataSetter
// carries on from its current state on d (a sampler starts its warm-up
// again); any other is initialised again on d, from step 0, keeping a
// playing run playing. Controls that do not fit d (more inducing points
// than points) are clamped to its range: a live one is set in the running
// method first (a change mark of its own), any other initialises it
// again. The edit is a change mark "data" whose value counts the
// points. A data set the method cannot take is refused with a
// *sim.FieldError naming "data", and nothing changes.
//
// It is the data op (OpData) with the data set built: the stream's and a
// link's edits come through Do.
func (r *Run) SetData(ctx context.Context, d *sim.Dataset) error {
	if err := r.checkEdited(d); err != nil {
		return err
	}
	if err := r.admitChange(func(w *cost.Workload) { w.Rows = d.N() }); err != nil {
		return err
	}
	return r.sendOp(ctx, OpData, command{data: d})
}

// errNoData refuses a data command on a run with no data.
func errNoData() error {
	return &sim.FieldError{Field: "op", Message: "a target density has no data to edit"}
}

// checkEdited checks an edited data set against the run's base data set
// and the method's limit on points.
func (r *Run) checkEdited(d *sim.Dataset) error {
	if r.prob.base == nil {
		return errNoData()
	}
	if d == nil {
		return &sim.FieldError{Field: "data", Message: "required: the edited data"}
	}
	if d.Task != r.prob.base.Task || len(d.Grid) != len(r.prob.base.Grid) || d.XScale != r.prob.base.XScale || d.YScale != r.prob.base.YScale {
		return &sim.FieldError{Field: "data", Message: "an edit must keep the run's data set's task, grid and units"}
	}
	return r.prob.spec.Load().CheckData(d)
}

func (r *Run) dataCmd(c command) error     { return r.setData(c.data) }
func (r *Run) inducingCmd(c command) error { return r.setInducing(int(c.n), c.value.Num) }

// dataMark is the change mark of an edit to d.
func dataMark(step int64, d *sim.Dataset) wire.Mark {
	return wire.Mark{Step: step, Name: OpData, Value: sim.Choice(fmt.Sprintf("%d points", d.N()))}
}

// setData applies an edit on the run goroutine (SetData).
func (r *Run) setData(d *sim.Dataset) error {
	var spec sim.MethodSpec
	if err := r.safely("SpecFor", func() { spec = specFor(r.m, d) }); err != nil {
		return &sim.FieldError{Field: "data", Message: err.Error()}
	}
	next := clampControls(spec, r.ctl.now)
	ds, canSet := r.m.(sim.DataSetter)
	if canSet && r.st.shows() && r.st.status != StatusDone && r.liveClamp(spec, next) {
		var err error
		if perr := r.safely("SetData", func() { err = ds.SetData(d) }); perr != nil {
			r.diverge(perr.Error())
			return &sim.FieldError{Field: "data", Message: perr.Error()}
		}
		if err == nil {
			r.prob.d = d
			r.prob.spec.Store(&spec)
			r.prob.points.Store(dataPoints(d))
			r.addMark(dataMark(r.st.step, d))
			r.changed(changeData) // a sampler's kept draws were of the old target
			return nil
		}
		r.opt.Log.Info("method could not take the edited data: initialising it again", "method", spec.Name, "err", err)
		next = clampControls(spec, r.ctl.now) // liveClamp may have set some
	}
	old, oldSpec := r.prob.d, r.prob.spec.Load()
	r.prob.d = d
	r.prob.spec.Store(&spec)
	if err := r.reinit(next, true); err != nil {
		r.prob.d = old
		r.prob.spec.Store(oldSpec)
		if err2 := r.reinit(r.ctl.now, true); err2 != nil {
			r.diverge("could not restore the previous data: " + err2.Error())
		}
		return &sim.FieldError{Field: "data", Message: "cannot run on these data: " + err.Error()}
	}
	r.prob.points.Store(dataPoints(d))
	r.addMark(dataMark(0, d))
	return nil
}

// liveClamp applies the clamped controls next (clampControls) that differ
// from the run's, each live, to the running method, with a change mark,
// before its data change: gip drops the inducing points beyond the new
// number of points. It reports false, changing nothing, when a clamped
// control is not live (the method must start again) and false after a
// failed Set.
func (r *Run) liveClamp(spec sim.MethodSpec, next sim.Controls) bool {
	var changed []string
	for _, cs := range spec.Controls {
		if v, ok := r.ctl.now[cs.Name]; ok && v != next[cs.Name] {
			if !cs.Live {
				return false
			}
			changed = append(changed, cs.Name)
		}
	}
	for _, name := range changed {
		v := next[name]
		var err error
		if perr := r.safely("Set", func() { err = r.m.Set(name, v) }); perr != nil || err != nil {
			return false
		}
		c := cloneControls(r.ctl.now)
		c[name] = v
		r.ctl.now = c
		r.addMark(wire.Mark{Step: r.st.step, Name: name, Value: v})
	}
	return true
}

// clampControls fits every numeric control of c into spec's range.
func clampControls(spec sim.MethodSpec, c sim.Controls) sim.Controls {
	out := cloneControls(c)
	for _, cs := range spec.Controls {
		v, ok := out[cs.Name]
		if !ok || cs.Textual() || v.IsChoice() {
			continue
		}
		if w := min(max(v.Num, cs.Min), cs.Max); w != v.Num {
			out[cs.Name] = sim.Num(w)
		}
	}
	return out
}

// setInducing moves an inducing input on the run goroutine (SetInducing).
func (r *Run) setInducing(i int, xUser float64) error {
	move := sim.ExtrasOf(r.m).SetInducing
	if move == nil || r.prob.d == nil {
		return &sim.FieldError{Field: "op", Message: fmt.Sprintf("%s has no inducing inputs to move", r.Spec().Name)}
	}
	if !r.st.shows() {
		return r.st.stopped()
	}
	lo, hi := r.prob.d.Grid[0], r.prob.d.Grid[len(r.prob.d.Grid)-1]
	x := r.prob.d.XScale.ToModel(xUser)
	if !(x >= min(lo, hi) && x <= max(lo, hi)) {
		a, b := r.prob.d.XScale.ToUser(lo), r.prob.d.XScale.ToUser(hi)
		return &sim.FieldError{Field: "value", Message: fmt.Sprintf("%g is outside the plot's x-range [%.4g, %.4g]", xUser, min(a, b), max(a, b))}
	}
	var err error
	if perr := r.safely("SetInducing", func() { err = move(i, x) }); perr != nil {
		r.diverge(perr.Error())
		return &sim.FieldError{Field: "n", Message: perr.Error()}
	}
	if err != nil {
		return asFieldError("n", err)
	}
	r.addMark(wire.Mark{Step: r.st.step, Name: InducingMark, Value: sim.Choice(fmt.Sprintf("#%d → %.3g", i, xUser))})
	r.changed(changeControl)
	return nil
}

// dataPoints maps d to the user's units for plotting.
func dataPoints(d *sim.Dataset) *wire.DataPoints {
	p := &wire.DataPoints{Task: d.Task, X: make([]float64, len(d.X)), Y: make([]float64, len(d.Y)), Grid: make([]float64, len(d.Grid))}
	for i, x := range d.X {
		p.X[i] = d.XScale.ToUser(x)
	}
	for i, y := range d.Y {
		if d.Task == sim.Classification {
			p.Y[i] = y // labels are 0 and 1 in any units
		} else {
			p.Y[i] = d.YScale.ToUser(y)
		}
	}
	for i, x := range d.Grid {
		p.Grid[i] = d.XScale.ToUser(x)
	}
	if d.Truth != nil {
		p.Truth = make([]float64, len(d.Grid))
		for i, x := range d.Grid {
			t := d.Truth(x)
			if d.Task != sim.Classification {
				t = d.YScale.ToUser(t)
			}
			p.Truth[i] = t
		}
	}
	return p
}
