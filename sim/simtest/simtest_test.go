package simtest

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/posterior-playground/playground/sim"
)

// fake is a small method that keeps the contract unless bug names a way
// to break it: x relaxes towards the scale control with noise from the
// training stream; Predict draws from a stream of its own.
type fake struct {
	bug    string
	calls  *atomic.Int64 // shared by every fake of one constructor
	stops  *[]chan struct{}
	scale  float64
	kernel string
	x      float64
	r, ev  *rand.Rand
	stop   chan struct{}
}

func (f *fake) Spec() sim.MethodSpec {
	s := sim.MethodSpec{
		Name: "fake", Label: "Fake", Family: sim.FamilyVI,
		Controls: []sim.ControlSpec{
			{Name: "scale", Min: 0.1, Max: 10, Default: sim.Num(1), Live: true},
			{Name: "width", Min: 1, Max: 100, Default: sim.Num(10), Integer: true},
			{Name: "kernel", Default: sim.Choice("eq"), Options: []string{"eq", "periodic"}, Live: true},
		},
		Traces: []string{"x", "scale"},
	}
	if f.bug == "bad default" {
		s.Controls[0].Default = sim.Num(20)
	}
	return s
}

// SpecFor is Spec, unless the bug is a data spec naming other controls.
func (f *fake) SpecFor(d *sim.Dataset) sim.MethodSpec {
	s := f.Spec()
	if f.bug == "spec for differs" {
		s.Controls = s.Controls[:2]
	}
	return s
}

func (f *fake) Init(d *sim.Dataset, c sim.Controls, r *rand.Rand) error {
	if f.bug == "ignores its stream" {
		r = rand.New(rand.NewPCG(1, 2))
	}
	f.scale, f.kernel, f.r = c["scale"].Num, c["kernel"].Choice, r
	f.ev = rand.New(rand.NewPCG(r.Uint64(), r.Uint64()))
	f.x = 0.01 * r.NormFloat64()
	if f.bug == "leak" || f.bug == "closer" {
		if f.stop != nil {
			close(f.stop)
		}
		f.stop = make(chan struct{})
		*f.stops = append(*f.stops, f.stop)
		go func(stop <-chan struct{}) { <-stop }(f.stop)
	}
	return nil
}

func (f *fake) Step() sim.StepStats {
	f.x += 0.1*(f.scale-f.x) + 0.01*f.r.NormFloat64()
	if f.bug == "nondeterministic" {
		f.x += 1e-9 * float64(f.calls.Add(1))
	}
	return sim.StepStats{Objective: -(f.x - f.scale) * (f.x - f.scale)}
}

// Set refuses the periodic kernel, as a method may refuse a value its
// state cannot take.
func (f *fake) Set(name string, v sim.Value) error {
	switch name {
	case "scale":
		f.scale = v.Num
	case "kernel":
		if v.Choice == "periodic" {
			if f.bug == "set then fail" {
				f.scale *= 2
			}
			return errors.New("the fake has no periodic kernel")
		}
		f.kernel = v.Choice
	}
	return nil
}

func (f *fake) Predict(xs []float64, samples int) sim.Predictive {
	p := sim.Predictive{X: append([]float64(nil), xs...)}
	if f.bug == "alias x" {
		p.X = xs
	}
	r := f.ev
	if f.bug == "predict on the training stream" {
		r = f.r
	}
	if f.bug == "short predict" {
		samples--
	}
	for range max(0, samples) {
		s := make([]float64, len(xs))
		for i, x := range xs {
			s[i] = f.x*x + 0.1*r.NormFloat64()
			if f.bug == "nan predict" {
				s[i] = math.NaN()
			}
		}
		p.Samples = append(p.Samples, s)
	}
	return p
}

// SeedEval restarts the evaluation stream (sim.EvalSeeder).
func (f *fake) SeedEval(seed uint64) {
	if f.bug == "seed eval ignored" {
		return
	}
	f.ev = rand.New(rand.NewPCG(seed, ^seed))
}

// Extras offer the state x as a diagnostic; with the bug, an ELBO once
// initialised.
func (f *fake) Extras() sim.Extras {
	x := sim.Extras{Diagnostics: func() map[string]float64 { return map[string]float64{"x": f.x} }}
	if f.bug == "extras by state" && f.r != nil {
		x.ELBO = func() float64 { return -f.x * f.x }
	}
	return x
}

func (f *fake) Trace() []float64 {
	if f.bug == "short trace" {
		return []float64{f.x}
	}
	return []float64{f.x, f.scale}
}

type fakeCloser struct{ *fake }

func (f fakeCloser) Close() error {
	if f.stop != nil {
		close(f.stop)
		f.stop = nil
	}
	return nil
}

// newFake returns a constructor of fakes with bug; the goroutines a leaking
// fake starts end when the test does.
func newFake(t *testing.T, bug string) NewFunc {
	calls := new(atomic.Int64)
	stops := new([]chan struct{})
	t.Cleanup(func() {
		for _, s := range *stops {
			select {
			case <-s:
			default:
				close(s)
			}
		}
	})
	return func() (sim.Method, error) {
		f := &fake{bug: bug, calls: calls, stops: stops}
		if bug == "closer" {
			return fakeCloser{f}, nil
		}
		return f, nil
	}
}

func fakeData() *sim.Dataset {
	d := &sim.Dataset{Name: "line", Task: sim.Regression, XScale: sim.Identity, YScale: sim.Identity, DefaultModel: "bnn"}
	for i := range 11 {
		x := float64(i-5) / 5
		d.Grid = append(d.Grid, 1.2*x)
		d.X, d.Y = append(d.X, x), append(d.Y, 2*x)
	}
	return d
}

// A method that keeps the contract passes, with and without a Close that
// ends its goroutine.
func TestFakePasses(t *testing.T) {
	for _, bug := range []string{"", "closer"} {
		t.Run("bug="+bug, func(t *testing.T) {
			TestMethod(t, newFake(t, bug), fakeData(), Options{})
		})
	}
}

// Every check fails on a method that breaks its part of the contract, and
// says why.
func TestChecksCatchBugs(t *testing.T) {
	cases := []struct{ bug, check, want string }{
		{"bad default", "Spec", "fails its own Validate"},
		{"spec for differs", "Spec", "SpecFor(m, d) has controls"},
		{"short trace", "Spec", "Trace returns 1 values for the 2 trace names"},
		{"nondeterministic", "Determinism", "same seed, step 1: objective"},
		{"ignores its stream", "Determinism", "the method ignores its stream"},
		{"predict on the training stream", "Determinism", "calling Predict between steps changed the training trajectory"},
		{"set then fail", "RejectedSet", `after sim.Set("kernel", periodic) (refused by the method`},
		{"short predict", "PredictShape", "1 samples, want 2"},
		{"alias x", "PredictShape", "X shares memory with xs"},
		{"nan predict", "PredictShape", "is NaN after one step"},
		{"nan predict", "NaNDiverges", "the diverged frame has no band"},
		{"seed eval ignored", "EvalSeed", "after SeedEval(42) twice, Predict differs"},
		{"extras by state", "Extras", "sets [Diagnostics] before Init, [Diagnostics ELBO] after it"},
		{"leak", "Goroutines", "found unexpected goroutines"},
		{"leak", "NaNDiverges", "after the run's context was cancelled: found unexpected goroutines"},
	}
	o := Options{}.withDefaults()
	for _, tc := range cases {
		t.Run(tc.check+"/"+tc.bug, func(t *testing.T) {
			err := run(tc.check, newFake(t, tc.bug), fakeData(), o)
			if err == nil {
				t.Fatalf("%s passed a fake with the bug %q", tc.check, tc.bug)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("%s on the bug %q: %v\nwant it to say %q", tc.check, tc.bug, err, tc.want)
			}
		})
	}
}

// A method whose constructor fails is reported by every check, not
// skipped.
func TestConstructorErrorIsReported(t *testing.T) {
	broken := func() (sim.Method, error) { return nil, errors.New("no such model") }
	for _, c := range checks {
		if err := run(c.name, broken, fakeData(), Options{}.withDefaults()); err == nil || !strings.Contains(err.Error(), "no such model") || strings.Contains(err.Error(), "panic") {
			t.Errorf("%s with a failing constructor: %v", c.name, err)
		}
	}
}

func run(name string, nm NewFunc, d *sim.Dataset, o Options) error {
	for _, c := range checks {
		if c.name == name {
			return guard(func() error { return c.fn(nm, d, o) })
		}
	}
	panic("no check " + name)
}
