package gp

import (
	"errors"
	"math"
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
)

// Every default validates against its own spec, and every control is live.
func TestSpecs(t *testing.T) {
	for _, m := range []sim.Method{&VI{}, &Exact{}} {
		s := m.Spec()
		for _, c := range s.Controls {
			if err := c.Validate(c.Default); err != nil {
				t.Errorf("%s: default of %s: %v", s.Name, c.Name, err)
			}
			if !c.Live {
				t.Errorf("%s: %s is not live", s.Name, c.Name)
			}
		}
		if len(m.Trace()) != len(s.Traces) {
			t.Errorf("%s: Trace before Init has %d values for %d names", s.Name, len(m.Trace()), len(s.Traces))
		}
	}
	if math.Abs(DefaultNoise-math.Exp(-2)) > 1e-17 {
		t.Errorf("DefaultNoise %.17g is not e^−2", DefaultNoise)
	}
	if _, err := NewVI("resnet"); err == nil {
		t.Error("NewVI accepted model resnet")
	}
	if _, err := NewExact("bnn"); err != nil {
		t.Errorf("NewExact rejected the data sets' default model: %v", err)
	}
}

// Bad values and Bernoulli on real-valued targets are rejected with a
// *sim.FieldError naming the field, and change nothing.
func TestSetValidation(t *testing.T) {
	d := toyData(10, sim.Regression)
	m := newVI(t, d, nil)
	before := m.Trace()
	for _, c := range []struct {
		name string
		v    sim.Value
	}{
		{"lengthscale", sim.Num(0)}, {"lengthscale", sim.Num(math.NaN())}, {"kernel", sim.Choice("matern")},
		{"likelihood", sim.Choice(Bernoulli)}, {"expectation", sim.Num(1)}, {"nope", sim.Num(1)}, {"learn_kernel", sim.Num(0.5)},
	} {
		err := sim.Set(m, nil, c.name, c.v)
		var fe *sim.FieldError
		if !errors.As(err, &fe) || fe.Field != c.name {
			t.Errorf("Set(%s, %v) = %v, want a FieldError for %s", c.name, c.v, err, c.name)
		}
	}
	if got := m.Trace(); maxAbsDiff(got, before) != 0 {
		t.Errorf("rejected Sets changed the trace: %v → %v", before, got)
	}
	mm, _ := NewVI("")
	_, err := sim.Init(mm, d, sim.Controls{"likelihood": sim.Choice(Bernoulli)}, numeric.NewRand(1))
	var fe *sim.FieldError
	if !errors.As(err, &fe) || fe.Field != "likelihood" {
		t.Errorf("Init with bernoulli on regression data: %v", err)
	}
}

// Live changes take effect at once: a new kernel, lengthscale or likelihood
// keeps training finite, and the objective changes.
func TestLiveChanges(t *testing.T) {
	d := toyData(15, sim.Regression)
	m := newVI(t, d, sim.Controls{"learn_kernel": sim.Num(1)})
	for range 50 {
		m.Step()
	}
	f0 := m.ELBO()
	for _, c := range []struct {
		name string
		v    sim.Value
	}{
		{"kernel", sim.Choice(Periodic)}, {"period", sim.Num(6.3)}, {"lengthscale", sim.Num(2)},
		{"likelihood", sim.Choice(Cauchy)}, {"expectation", sim.Choice(MonteCarlo)}, {"mc_samples", sim.Num(3)},
		{"expectation", sim.Choice(Adaptive)}, {"noise", sim.Num(0.5)}, {"variance", sim.Num(2)},
	} {
		if err := sim.Set(m, nil, c.name, c.v); err != nil {
			t.Fatalf("Set(%s): %v", c.name, err)
		}
		for range 20 {
			if o := m.Step().Objective; math.IsNaN(o) || math.IsInf(o, 0) {
				t.Fatalf("after %s=%v: objective %v", c.name, c.v, o)
			}
		}
	}
	if f := m.ELBO(); f == f0 || math.IsNaN(f) {
		t.Errorf("ELBO %v after live changes (was %v)", f, f0)
	}
}

// Predict returns the requested shape; for classification the samples are
// probabilities; the sample mean and sd match q(f*) to Monte Carlo error.
func TestPredict(t *testing.T) {
	d := toyData(20, sim.Regression)
	m := newVI(t, d, nil)
	for range 200 {
		m.Step()
	}
	const s = 4000
	p := m.Predict(d.Grid, s)
	if len(p.X) != len(d.Grid) || len(p.Samples) != s || len(p.Samples[0]) != len(d.Grid) {
		t.Fatalf("Predict shape %d×%d on %d points", len(p.Samples), len(p.Samples[0]), len(p.X))
	}
	mean, cov, _ := m.Posterior(d.Grid)
	for i := range d.Grid {
		var a float64
		for _, f := range p.Samples {
			a += f[i]
		}
		a /= s
		sd := math.Sqrt(cov.At(i, i))
		if math.Abs(a-mean[i]) > 5*sd/math.Sqrt(s) { // 5 standard errors
			t.Errorf("x=%g: sample mean %.4f, q mean %.4f ± %.4f", d.Grid[i], a, mean[i], sd/math.Sqrt(s))
		}
	}
	c := newVI(t, toyData(20, sim.Classification), nil)
	for _, f := range c.Predict(d.Grid, 10).Samples {
		for _, v := range f {
			if v < 0 || v > 1 {
				t.Fatalf("classification sample %g outside [0, 1]", v)
			}
		}
	}
}

// Type-II maximum likelihood raises gp-exact's log marginal likelihood and
// Step is a no-op when nothing is learned.
func TestExactTypeII(t *testing.T) {
	d := toyData(20, sim.Regression)
	e := newExact(t, d, nil)
	l0 := e.LogMarginal()
	if o := e.Step().Objective; o != l0 || e.LogMarginal() != l0 {
		t.Errorf("fixed gp-exact Step changed the objective: %v → %v", l0, o)
	}
	for _, c := range []string{"learn_kernel", "learn_noise"} {
		if err := sim.Set(e, nil, c, sim.Num(1)); err != nil {
			t.Fatal(err)
		}
	}
	sim.Set(e, nil, "lr", sim.Num(0.05))
	for range 500 {
		e.Step()
	}
	if l := e.LogMarginal(); l <= l0 {
		t.Errorf("type-II ML: log p(y) %.4f not above %.4f", l, l0)
	}
	// The data were made with σ = 0.3: the learned σ should be near it.
	if s := e.NoiseStd(); s < 0.15 || s > 0.6 {
		t.Errorf("learned σ = %.3f, data σ = 0.3", s)
	}
}
