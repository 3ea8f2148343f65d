package livi

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
)

// checkObjectiveGradient compares the analytic gradient of the whole loss
// −(log p(y|θ) + w_p·log p(θ) + entropy term)/N at θ = g(z) + σε, with z and ε
// held fixed, against central differences (h = 1e-6; the loss is O(30), so
// rounding ≈ 1e-16·30/h ≈ 3e-9 and truncation O(h²·curvature)) at 15 random
// entries of each of W₁, b₁, V (W₂ = u ⊙ V), b₂ and at log σ_y.
func checkObjectiveGradient(t *testing.T, m *Method) {
	t.Helper()
	r := numeric.NewRand(99)
	n := float64(len(m.bm.x))
	z := make([]float64, m.gen.d)
	eps := make([]float64, m.bm.p)
	numeric.FillNormal(z, r)
	numeric.FillNormal(eps, r)
	eval := func(scale float64) float64 {
		m.syncW2()
		clear(m.grad.w1)
		clear(m.grad.b1)
		clear(m.grad.w2t)
		clear(m.grad.b2)
		m.gnoise[0] = 0
		copy(m.tw.z, z)
		copy(m.eps, eps)
		ll, lp, term := m.sampleGrad(scale)
		m.gen.addW2t(m.grad.w2t, m.tw)
		return -(ll + m.priorWeight*lp + term) / n
	}
	eval(1 / n)
	D := m.gen.out
	gv2 := make([]float64, len(m.v2))
	for k := range m.gen.h {
		for i := range D {
			gv2[k*D+i] = m.grad.w2t[k*D+i] * m.u2[i]
		}
	}
	type pg struct {
		name        string
		param, grad []float64
	}
	groups := []pg{
		{"W1", m.gen.w1, append([]float64(nil), m.grad.w1...)},
		{"b1", m.gen.b1, append([]float64(nil), m.grad.b1...)},
		{"V", m.v2, gv2},
		{"b2", m.gen.b2, append([]float64(nil), m.grad.b2...)},
		{"log σ", m.logNoise, append([]float64(nil), m.gnoise...)},
	}
	for _, g := range groups {
		for range 15 {
			i := r.IntN(len(g.param))
			const h = 1e-6
			old := g.param[i]
			g.param[i] = old + h
			up := eval(0)
			g.param[i] = old - h
			down := eval(0)
			g.param[i] = old
			fd := (up - down) / (2 * h)
			if math.Abs(fd-g.grad[i]) > 1e-6+1e-4*math.Abs(fd) {
				t.Errorf("%s[%d]: analytic %.10g, finite difference %.10g", g.name, i, g.grad[i], fd)
			}
		}
	}
	m.syncW2()
}

// The whole objective's gradient, for both entropy terms, on the BNN
// (regression and classification) and the linear model, after some training
// so that the generator is away from its initial values.
func TestObjectiveGradientFiniteDifferences(t *testing.T) {
	for _, c := range []struct{ data, model, objective string }{
		{"gap", "bnn", objJacobian}, {"gap", "bnn", objSVBound}, {"sinusoid-gap", "bnn", "w_p"},
		{"gp-classification", "bnn", objJacobian}, {"linreg", "linear", objJacobian},
	} {
		t.Run(c.data+"/"+c.model+"/"+c.objective, func(t *testing.T) {
			ctl := sim.Controls{"noise_dim": sim.Num(5)}
			if c.objective == "w_p" { // prior weight 0.3 enters the loss
				ctl["prior_weight"] = sim.Num(0.3)
			} else {
				ctl["objective"] = sim.Choice(c.objective)
			}
			m := newLIVI(t, loadData(t, c.data), c.model, ctl, 2)
			for range 60 {
				m.Step()
			}
			checkObjectiveGradient(t, m)
		})
	}
}

// A step allocates nothing after warm-up, for both objectives and several
// sample counts; nor does an ELBO estimate.
func TestStepAllocatesNothing(t *testing.T) {
	m := newLIVI(t, loadData(t, "gap"), "bnn", nil, 1)
	for _, obj := range []string{objJacobian, objSVBound} {
		for _, mc := range []float64{1, 3} {
			if err := sim.Set(m, nil, "objective", sim.Choice(obj)); err != nil {
				t.Fatal(err)
			}
			if err := sim.Set(m, nil, "mc_samples", sim.Num(mc)); err != nil {
				t.Fatal(err)
			}
			m.Step()
			if a := testing.AllocsPerRun(10, func() { m.Step() }); a != 0 {
				t.Errorf("%s, mc_samples %v: %v allocations per Step", obj, mc, a)
			}
		}
	}
	if a := testing.AllocsPerRun(10, func() { m.ELBO() }); a != 0 {
		t.Errorf("%v allocations per ELBO", a)
	}
}

// The same seed gives the same objectives whether or not evaluation calls
// run between steps (they use their own stream); another seed differs.
func TestDeterminism(t *testing.T) {
	d := loadData(t, "sinusoid-gap")
	run := func(seed uint64, evaluate bool) []float64 {
		m := newLIVI(t, d, "bnn", sim.Controls{"noise_dim": sim.Num(4)}, seed)
		out := make([]float64, 30)
		for i := range out {
			out[i] = m.Step().Objective
			if evaluate && i%5 == 0 {
				m.Predict(d.Grid, 3)
				m.ELBO()
				m.WeightSamples(7, 10)
				m.Trace()
			}
		}
		return out
	}
	a, b, c := run(42, false), run(42, true), run(43, false)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("step %d: %v vs %v with the same seed", i, a[i], b[i])
		}
	}
	if a[29] == c[29] {
		t.Fatalf("seeds 42 and 43 gave the same objective %v", a[29])
	}
}

// WeightSamples(i, 1) is θ_i of θ = g(z) + σε for the z and ε it draws: the
// same numbers as the full generator on the same draws.
func TestWeightSamplesAreGeneratorOutputs(t *testing.T) {
	m := newLIVI(t, loadData(t, "gap"), "bnn", nil, 3)
	for range 20 {
		m.Step()
	}
	for _, idx := range []int{0, 77, 1500, m.NumWeights() - 1} {
		m.evalRng = numeric.NewRand(5)
		got := m.WeightSamples(idx, 1)[0]
		r := numeric.NewRand(5)
		numeric.FillNormal(m.work.z, r)
		m.gen.forward(m.work, m.theta)
		want := m.theta[idx] + m.sigma*r.NormFloat64()
		if math.Abs(got-want) > 1e-12*(1+math.Abs(want)) {
			t.Errorf("index %d: WeightSamples %v, generator %v", idx, got, want)
		}
	}
	if m.WeightSamples(-1, 5) != nil || m.WeightSamples(m.NumWeights(), 5) != nil || m.NumWeights() != 2701 {
		t.Errorf("out-of-range indices must give nil; NumWeights %d", m.NumWeights())
	}
}

func TestSet(t *testing.T) {
	d := loadData(t, "gap")
	m := newLIVI(t, d, "bnn", nil, 1)
	for range 5 {
		m.Step()
	}
	for _, bad := range []struct {
		name string
		v    sim.Value
	}{{"objective", sim.Choice("exact")}, {"objective", sim.Num(1)}, {"noise_dim", sim.Num(1)}, {"noise_dim", sim.Num(2.5)},
		{"output_noise", sim.Num(0.5)}, {"prior_scale", sim.Num(math.NaN())}, {"prior_weight", sim.Num(0)}, {"lr", sim.Num(1)}, {"mc_samples", sim.Num(0)}, {"nope", sim.Num(1)}} {
		err := sim.Set(m, nil, bad.name, bad.v)
		var fe *sim.FieldError
		if !errors.As(err, &fe) || fe.Field != bad.name {
			t.Errorf("Set(%s, %v) = %v, want a *sim.FieldError for %s", bad.name, bad.v, err, bad.name)
		}
	}
	if m.objective != objJacobian || m.gen.d != 20 || m.sigma != 0.01 || m.priorScale != 2 || m.priorWeight != 1 || m.adam.Config().LR != 1e-3 || m.mc != 1 {
		t.Fatalf("a rejected Set changed the method")
	}
	for name, v := range map[string]sim.Value{"objective": sim.Choice(objSVBound), "output_noise": sim.Num(0.003), "prior_scale": sim.Num(1), "prior_weight": sim.Num(0.1), "lr": sim.Num(0.002), "mc_samples": sim.Num(2)} {
		if err := sim.Set(m, nil, name, v); err != nil {
			t.Fatal(err)
		}
	}
	if m.objective != objSVBound || m.sigma != 0.003 || m.bm.layers[1].PriorStd != 1/math.Sqrt(51) || m.priorWeight != 0.1 || m.adam.Config().LR != 0.002 || m.mc != 2 {
		t.Fatalf("Set did not apply")
	}
	// noise_dim: the first min(d, d') columns of W₁ are kept, training goes on.
	for _, nd := range []int{8, 30} {
		old, od := append([]float64(nil), m.gen.w1...), m.gen.d
		if err := sim.Set(m, nil, "noise_dim", sim.Num(float64(nd))); err != nil {
			t.Fatal(err)
		}
		if m.gen.d != nd || len(m.work.z) != nd || m.controls["noise_dim"].Num != float64(nd) {
			t.Fatalf("noise_dim %v not applied", nd)
		}
		for i := range m.gen.h {
			for k := range min(od, nd) {
				if got, want := m.gen.w1[i*nd+k], old[i*od+k]; got != want {
					t.Fatalf("noise_dim %d → %d: W₁[%d,%d] = %v, was %v", od, nd, i, k, got, want)
				}
			}
		}
		if obj := m.Step().Objective; math.IsNaN(obj) || len(m.Trace()) != 4 {
			t.Fatalf("after noise_dim %v: objective %v", nd, obj)
		}
	}
	if got := m.gen.w1[3*30+2]; math.IsNaN(got) {
		t.Fatal("W₁ lost its values")
	}
}

func TestSpecAndErrors(t *testing.T) {
	mm, _ := New("")
	s := mm.Spec()
	want := map[string][3]float64{"noise_dim": {2, 100, 20}, "output_noise": {1e-4, 0.1, 0.01}, "prior_scale": {0.1, 10, 2}, "prior_weight": {0.01, 1, 1}, "lr": {1e-4, 0.1, 1e-3}, "mc_samples": {1, 16, 1}}
	if s.Name != "livi" || s.Family != sim.FamilyVI || len(s.Controls) != len(want)+1 {
		t.Fatalf("spec %+v", s)
	}
	for _, c := range s.Controls {
		if !c.Live {
			t.Errorf("%s is not live", c.Name)
		}
		if c.Name == "objective" {
			if c.Default.Choice != objJacobian || len(c.Options) != 2 {
				t.Errorf("objective control %+v", c)
			}
			continue
		}
		if w, ok := want[c.Name]; !ok || c.Min != w[0] || c.Max != w[1] || c.Default.Num != w[2] {
			t.Errorf("control %+v", c)
		}
	}
	if _, err := New("gp"); err == nil || !strings.Contains(err.Error(), "linear") {
		t.Errorf("New(gp) = %v", err)
	}
	m, _ := New("")
	if _, err := sim.Init(m, &sim.Dataset{X: []float64{0, math.NaN()}, Y: []float64{1, 2}}, nil, numeric.NewRand(1)); err == nil {
		t.Error("Init accepted NaN data")
	}
	var fe *sim.FieldError
	if _, err := sim.Init(m, loadData(t, "gap"), sim.Controls{"noise_dim": sim.Num(500)}, numeric.NewRand(1)); !errors.As(err, &fe) || fe.Field != "noise_dim" {
		t.Errorf("Init with noise_dim 500: %v", err)
	}
	lin := newLIVI(t, loadData(t, "linreg"), "", nil, 1)
	if lin.bm.name != "linear" || lin.gen.d != 2 || lin.NumWeights() != 2 {
		t.Errorf("linreg: model %q, d %d", lin.bm.name, lin.gen.d)
	}
}

// layer1_share is the first layer's share of tr(JJᵀ): 1 for the linear
// model (one layer; numerator and denominator are the same sum, so exactly
// 1), in (0, 1) for the BNN, and the hand-computed share for a Jacobian that
// is nonzero in two known entries (9/25 to rounding: no Monte Carlo here).
func TestLayerShareTrace(t *testing.T) {
	lin := newLIVI(t, loadData(t, "linreg"), "linear", nil, 1)
	lin.Step()
	if got := lin.Trace()[3]; got != 1 {
		t.Errorf("linear model: layer1_share %v, want 1", got)
	}
	m := newLIVI(t, loadData(t, "gap"), "bnn", nil, 1)
	m.Step()
	if got := m.Trace()[3]; !(got > 0 && got < 1) {
		t.Errorf("bnn: layer1_share %v, want in (0, 1)", got)
	}
	ly := m.bm.layers[0]
	D := m.gen.out
	jt := make([]float64, 2*D)
	jt[ly.Off+3] = 3                 // first layer, z₀
	jt[D+ly.Off+ly.Rows*ly.Cols] = 4 // second layer's first entry, z₁
	if got := layerShare(jt, D, ly); math.Abs(got-9.0/25) > 1e-15 {
		t.Errorf("layerShare = %v, want 9/25", got)
	}
}
