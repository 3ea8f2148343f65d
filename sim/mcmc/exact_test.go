package mcmc

import (
	"math"
	"testing"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
)

// TestExactLinearByHand checks ExactLinear on data whose moments follow by
// hand: x symmetric about 0 and residuals e with Σe = Σx·e = 0, so β̂ is
// the line itself, b0 and b decouple, Var(b0) = S/(ν−2)/N and
// Var(b) = S/(ν−2)/Σx², ν = N − 3 = 7; with a = ν/2 = 3.5,
// E σ = √(S/2)·Γ(3)/Γ(3.5) and E σ² = (S/2)/(a − 1). The tolerance is
// rounding on numbers of order 1.
func TestExactLinearByHand(t *testing.T) {
	xs := []float64{-2, -1, 0, 1, 2, -2, -1, 0, 1, 2}
	e := []float64{0.3, -0.1, 0.2, -0.4, 0.1, -0.3, 0.1, -0.2, 0.4, -0.1}
	ys := make([]float64, len(xs))
	var S float64
	for i, x := range xs {
		ys[i] = 1 + 3*x + e[i]
		S += e[i] * e[i]
	}
	m, ok := ExactLinear(xs, ys)
	if !ok {
		t.Fatal("no closed form")
	}
	eSigma := math.Sqrt(S/2) * 2 / (2.5 * 1.5 * 0.5 * math.Sqrt(math.Pi)) // Γ(3) = 2, Γ(3.5) = 2.5·1.5·0.5·√π
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"b0 mean", m["b0"].Mean, 1},
		{"b mean", m["b"].Mean, 3},
		{"b0 sd", m["b0"].SD, math.Sqrt(S / 5 / 10)},
		{"b sd", m["b"].SD, math.Sqrt(S / 5 / 20)},
		{"sigma mean", m["sigma"].Mean, eSigma},
		{"sigma var", m["sigma"].SD * m["sigma"].SD, S/2/2.5 - eSigma*eSigma},
	} {
		if math.Abs(c.got-c.want) > 1e-12 {
			t.Errorf("%s: %.15g, want %.15g", c.name, c.got, c.want)
		}
	}
	if _, ok := ExactLinear([]float64{1, 2, 3, 4, 5}, []float64{1, 2, 3, 4, 5}); ok {
		t.Error("closed form with 5 points: the sds need ν > 2")
	}
	if _, ok := ExactLinear([]float64{1, 1, 1, 1, 1, 1}, []float64{1, 2, 3, 4, 5, 6}); ok {
		t.Error("closed form with equal inputs")
	}
}

// TestExactPosteriorOnlyForTheLinearModel: a sampler states its exact
// posterior for the linear model on regression data (the data set's default
// model counts), and for nothing else.
func TestExactPosteriorOnlyForTheLinearModel(t *testing.T) {
	lin := loadData(t, "linreg")
	want, _ := ExactLinear(lin.X, lin.Y)
	for _, c := range []struct {
		model, data string
		ok          bool
	}{
		{model.Linear, "linreg", true},
		{"", "linreg", true}, // linreg's default model is linear
		{model.BNN, "linreg", false},
		{model.Linear, "gap", true},
		{"", "gap", false},
	} {
		d := loadData(t, c.data)
		got, ok := newSampler(t, kindNUTS, c.model).ExactPosterior(d, nil)
		if ok != c.ok {
			t.Errorf("model %q on %s: ok %v, want %v", c.model, c.data, ok, c.ok)
		}
		if ok && c.data == "linreg" && got["b"] != want["b"] {
			t.Errorf("model %q on linreg: b %+v, want %+v", c.model, got["b"], want["b"])
		}
	}
	cls := &sim.Dataset{Task: sim.Classification, X: []float64{0, 1, 2, 3, 4, 5}, Y: []float64{0, 1, 0, 1, 0, 1}}
	if _, ok := newSampler(t, kindHMC, model.Linear).ExactPosterior(cls, nil); ok {
		t.Error("exact posterior on classification data")
	}
}

// TestAdaptsStepSize: the samplers that tune ε in warm-up declare it.
func TestAdaptsStepSize(t *testing.T) {
	for _, k := range []kind{kindMetropolis, kindSGLD, kindHMC, kindNUTS} {
		want := k == kindHMC || k == kindNUTS
		if got := newSampler(t, k, "").Spec().Has(sim.AdaptsStepSize); got != want {
			t.Errorf("%s: adapts_step %v, want %v", k.name(), got, want)
		}
	}
}
