package simtest

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/posterior-playground/playground/sim"
)

// checkSpec checks Spec and SpecFor for sanity and agreement, and that
// Trace returns one value per trace name.
func checkSpec(nm NewFunc, d *sim.Dataset, o Options) error {
	m, err := nm()
	if err != nil {
		return fmt.Errorf("constructor: %w", err)
	}
	defer closeMethod(m)
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	s, sd := m.Spec(), sim.SpecFor(m, d)
	for _, sp := range []struct {
		what string
		spec sim.MethodSpec
	}{{"Spec()", s}, {"SpecFor(m, d)", sd}} {
		for _, e := range specErrors(sp.spec) {
			bad("%s: %v", sp.what, e)
		}
	}
	if s.Name != sd.Name || s.Family != sd.Family {
		bad("SpecFor(m, d) is %s (%s), Spec() %s (%s)", sd.Name, sd.Family, s.Name, s.Family)
	}
	// SpecFor may append the controls of the model d resolves to (the
	// linear model's fixed_noise) after Spec()'s, never drop or reorder.
	if a, b := s.ControlNames(), sd.ControlNames(); len(b) < len(a) || !slices.Equal(a, b[:len(a)]) {
		bad("SpecFor(m, d) has controls %v, Spec() %v", b, a)
	} else {
		for i, c := range s.Controls {
			if c.Live != sd.Controls[i].Live {
				bad("control %s: live %v in Spec(), %v in SpecFor(m, d)", c.Name, c.Live, sd.Controls[i].Live)
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	mi, _, err := fresh(nm, d, o)
	if err != nil {
		return err
	}
	defer closeMethod(mi)
	if got := len(mi.Trace()); got != len(sd.Traces) {
		bad("after Init, Trace returns %d values for the %d trace names %v", got, len(sd.Traces), sd.Traces)
	}
	mi.Step()
	if got := len(mi.Trace()); got != len(sd.Traces) {
		bad("after a step, Trace returns %d values for the %d trace names %v", got, len(sd.Traces), sd.Traces)
	}
	return errors.Join(errs...)
}

// specErrors lists what is wrong with s on its own.
func specErrors(s sim.MethodSpec) []error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if s.Name == "" {
		bad("empty name")
	}
	if s.Family == "" {
		bad("empty family")
	}
	seen := map[string]bool{}
	for _, c := range s.Controls {
		if c.Name == "" {
			bad("a control with no name")
		}
		if seen[c.Name] {
			bad("control %q appears twice", c.Name)
		}
		seen[c.Name] = true
		if len(c.Options) == 0 && !(c.Min <= c.Max) {
			bad("control %s: Min %v > Max %v", c.Name, c.Min, c.Max)
		}
		if err := c.Validate(c.Default); err != nil {
			bad("control %s: the default %v fails its own Validate: %v", c.Name, c.Default, err)
		}
	}
	seen = map[string]bool{}
	for _, tr := range s.Traces {
		if tr == "" {
			bad("a trace with no name")
		}
		if seen[tr] {
			bad("trace %q appears twice", tr)
		}
		seen[tr] = true
	}
	return errs
}

// record is a run of o.Steps steps from Init and a Predict on the grid.
type record struct {
	points []point
	pred   sim.Predictive
}

// runRecord steps a fresh method, calling Predict on the grid after every
// step when interleave is set.
func runRecord(nm NewFunc, d *sim.Dataset, o Options, interleave bool) (record, error) {
	m, _, err := fresh(nm, d, o)
	if err != nil {
		return record{}, err
	}
	defer closeMethod(m)
	var rec record
	for range o.Steps {
		rec.points = append(rec.points, stepOnce(m))
		if interleave {
			m.Predict(d.Grid, o.Samples)
		}
	}
	rec.pred = m.Predict(d.Grid, o.Samples)
	return rec, nil
}

// checkDeterminism runs the method three times from the same seed: twice
// alike, once with Predict calls between the steps; and once from another
// seed, which must change something, or the method ignores its stream.
func checkDeterminism(nm NewFunc, d *sim.Dataset, o Options) error {
	m, err := nm()
	if err != nil {
		return fmt.Errorf("constructor: %w", err)
	}
	closeMethod(m)
	traces := sim.SpecFor(m, d).Traces
	var recs [4]record
	for i := range recs {
		oi := o
		if i == 3 {
			oi.Seed++
		}
		var err error
		if recs[i], err = runRecord(nm, d, oi, i == 2); err != nil {
			return err
		}
	}
	var errs []error
	for i := range o.Steps {
		if diff := diffPoint(recs[0].points[i], recs[1].points[i], traces); diff != "" {
			errs = append(errs, fmt.Errorf("same seed, step %d: %s", i+1, diff))
			break
		}
	}
	if diff := diffPredictive(recs[0].pred, recs[1].pred); diff != "" {
		errs = append(errs, fmt.Errorf("same seed, Predict after %d steps: %s", o.Steps, diff))
	}
	for i := range o.Steps {
		if diff := diffPoint(recs[0].points[i], recs[2].points[i], traces); diff != "" {
			errs = append(errs, fmt.Errorf("calling Predict between steps changed the training trajectory: step %d: %s", i+1, diff))
			break
		}
	}
	differs := diffPredictive(recs[0].pred, recs[3].pred) != ""
	for i := 0; i < o.Steps && !differs; i++ {
		differs = diffPoint(recs[0].points[i], recs[3].points[i], traces) != ""
	}
	if !differs {
		errs = append(errs, fmt.Errorf("seeds %d and %d gave the same objectives, traces and Predict draws: the method ignores its stream", o.Seed, o.Seed+1))
	}
	return errors.Join(errs...)
}

// invalidValues returns values c must refuse, each with why.
func invalidValues(c sim.ControlSpec) (vs []sim.Value, why []string) {
	add := func(v sim.Value, w string) { vs, why = append(vs, v), append(why, w) }
	if len(c.Options) > 0 {
		add(sim.Choice("no-such-option"), "not an option")
		add(sim.Num(1), "a number for a choice")
		return vs, why
	}
	add(sim.Num(c.Max+max(1, math.Abs(c.Max))), "above Max")
	add(sim.Num(c.Min-max(1, math.Abs(c.Min))), "below Min")
	add(sim.Num(math.NaN()), "NaN")
	add(sim.Num(math.Inf(1)), "+Inf")
	add(sim.Choice("bogus"), "a choice for a number")
	if c.Integer && c.Max-c.Min >= 1 {
		add(sim.Num(c.Min+0.5), "not a whole number")
	}
	return vs, why
}

// validValues returns values c accepts that are worth trying: its ends,
// or every option.
func validValues(c sim.ControlSpec) []sim.Value {
	if len(c.Options) > 0 {
		vs := make([]sim.Value, len(c.Options))
		for i, o := range c.Options {
			vs[i] = sim.Choice(o)
		}
		return vs
	}
	return []sim.Value{sim.Num(c.Min), sim.Num(c.Max)}
}

// checkSet steps two twins in lockstep. Only the first is asked to take
// refused values (unknown name, out of range, wrong kind, not live): it
// must return a *sim.FieldError naming the control, and the twins must
// then step alike. Valid values go to the first; when it takes one the
// second must take it too, and when it refuses one (a value it cannot take
// in its state) the second is not asked, so the twins stepping alike shows
// the refusal changed nothing. Every live control is set back to its
// starting value after its trials.
func checkSet(nm NewFunc, d *sim.Dataset, o Options) error {
	m1, c, err := fresh(nm, d, o)
	if err != nil {
		return err
	}
	defer closeMethod(m1)
	m2, _, err := fresh(nm, d, o)
	if err != nil {
		return err
	}
	defer closeMethod(m2)
	spec := sim.SpecFor(m1, d)
	var errs []error
	ok := true // the twins still agree; after a mismatch nothing more is learnt
	compare := func(after string) {
		a, b := stepOnce(m1), stepOnce(m2)
		if diff := diffPoint(a, b, spec.Traces); diff != "" {
			errs = append(errs, fmt.Errorf("after %s, the next step differs from a twin's: %s", after, diff))
			ok = false
		}
	}
	refuse := func(name string, v sim.Value, why string) {
		desc := fmt.Sprintf("sim.Set(%q, %v) (%s)", name, v, why)
		if err := asFieldError(sim.Set(m1, d, name, v), fieldFor(name)); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", desc, err))
		}
		compare(desc)
	}
	try := func(name string, v sim.Value) {
		desc := fmt.Sprintf("sim.Set(%q, %v)", name, v)
		if err := sim.Set(m1, d, name, v); err == nil {
			if err2 := sim.Set(m2, d, name, v); err2 != nil {
				errs = append(errs, fmt.Errorf("%s: one twin took it, the other refused it: %v", desc, err2))
				ok = false
				return
			}
		} else {
			desc += " (refused by the method: " + err.Error() + ")"
		}
		compare(desc)
	}
	compare("Init")
	for _, name := range []string{"no_such_control", ""} {
		if ok {
			refuse(name, sim.Num(1), "an unknown control")
		}
	}
	for _, cs := range spec.Controls {
		if !cs.Live {
			if ok {
				refuse(cs.Name, c[cs.Name], "not a live control")
			}
			continue
		}
		vs, why := invalidValues(cs)
		for i, v := range vs {
			if ok {
				refuse(cs.Name, v, why[i])
			}
		}
		for _, v := range append(validValues(cs), c[cs.Name]) {
			if ok {
				try(cs.Name, v)
			}
		}
	}
	for i := 0; ok && i < o.Steps; i++ {
		compare(fmt.Sprintf("every trial and %d more steps", i))
	}
	if ok {
		if diff := diffPredictive(m1.Predict(d.Grid, o.Samples), m2.Predict(d.Grid, o.Samples)); diff != "" {
			errs = append(errs, fmt.Errorf("after every trial, Predict differs from a twin's: %s", diff))
		}
	}
	return errors.Join(errs...)
}

// fieldFor is the field a FieldError for control name carries (sim's
// MethodSpec.Check names an empty key "controls").
func fieldFor(name string) string {
	if name == "" {
		return "controls"
	}
	return name
}

// checkPredict asks an initialised method, one step in, for a few grid
// sizes and sample counts.
func checkPredict(nm NewFunc, d *sim.Dataset, o Options) error {
	m, _, err := fresh(nm, d, o)
	if err != nil {
		return err
	}
	defer closeMethod(m)
	m.Step()
	g := d.Grid
	grids := [][]float64{g, g[len(g)/2 : len(g)/2+1], everyNth(g, 6)}
	var errs []error
	for _, xs := range grids {
		for _, s := range []int{0, 1, 2, o.Samples} {
			in := slices.Clone(xs)
			p := m.Predict(xs, s)
			if err := predictError(p, in, xs, s); err != nil {
				errs = append(errs, fmt.Errorf("Predict(%d points, %d samples): %w", len(xs), s, err))
			}
		}
	}
	return errors.Join(errs...)
}

func predictError(p sim.Predictive, in, xs []float64, s int) error {
	if !slices.EqualFunc(xs, in, same) {
		return errors.New("changed xs")
	}
	if !slices.EqualFunc(p.X, xs, same) {
		return fmt.Errorf("the returned X is %v, want xs %v", p.X, xs)
	}
	if len(xs) > 0 && &p.X[0] == &xs[0] {
		return errors.New("the returned X shares memory with xs, want a copy")
	}
	if len(p.Samples) != s {
		return fmt.Errorf("%d samples, want %d", len(p.Samples), s)
	}
	for k, f := range p.Samples {
		if len(f) != len(xs) {
			return fmt.Errorf("sample %d has %d values, want %d", k, len(f), len(xs))
		}
		for i, v := range f {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("sample %d at x=%v is %v after one step", k, xs[i], v)
			}
		}
	}
	return nil
}

func everyNth(xs []float64, n int) []float64 {
	var out []float64
	for i := 0; i < len(xs); i += n {
		out = append(out, xs[i])
	}
	return out
}

// checkEvalSeed: a band must be a function of the method's state and the
// evaluation seed the engine gives it, so a replayed run draws the original's
// band. A method whose Predict draws from a stream (two calls differ) must
// be a sim.EvalSeeder, and after SeedEval(s) its Predict must repeat bit
// for bit, without moving the training trajectory.
func checkEvalSeed(nm NewFunc, d *sim.Dataset, o Options) error {
	m, _, err := fresh(nm, d, o)
	if err != nil {
		return err
	}
	defer closeMethod(m)
	m.Step()
	a, b := m.Predict(d.Grid, o.Samples), m.Predict(d.Grid, o.Samples)
	es, ok := m.(sim.EvalSeeder)
	if !ok {
		if diffPredictive(a, b) != "" {
			return errors.New("two Predict calls differ (it draws from a stream) but the method is no sim.EvalSeeder: bands cannot be replayed")
		}
		return nil
	}
	es.SeedEval(42)
	a = m.Predict(d.Grid, o.Samples)
	es.SeedEval(42)
	b = m.Predict(d.Grid, o.Samples)
	if diff := diffPredictive(a, b); diff != "" {
		return fmt.Errorf("after SeedEval(42) twice, Predict differs: %s", diff)
	}
	twin, _, err := fresh(nm, d, o)
	if err != nil {
		return err
	}
	defer closeMethod(twin)
	twin.Step()
	if diff := diffPoint(stepOnce(m), stepOnce(twin), m.Spec().Traces); diff != "" {
		return fmt.Errorf("SeedEval moved the training trajectory: %s", diff)
	}
	return nil
}
