package gp

import (
	"math"
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
)

// toyData returns n points spaced evenly on [−5, 5] with
// y = sin(x) + 0.3ε (regression) or y ~ Bernoulli(sigmoid(2 sin x))
// (classification), from a fixed seed.
func toyData(n int, task sim.Task) *sim.Dataset {
	r := numeric.NewRand(7)
	x, y := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i] = -5 + 10*float64(i)/float64(n-1)
		if task == sim.Classification {
			if r.Float64() < numeric.Sigmoid(2*math.Sin(x[i])) {
				y[i] = 1
			}
		} else {
			y[i] = math.Sin(x[i]) + 0.3*r.NormFloat64()
		}
	}
	grid := make([]float64, 41)
	for i := range grid {
		grid[i] = -6 + 12*float64(i)/40
	}
	return &sim.Dataset{Name: "toy", Task: task, X: x, Y: y, Grid: grid, XScale: sim.Identity, YScale: sim.Identity}
}

func newVI(t testing.TB, d *sim.Dataset, c sim.Controls) *VI {
	t.Helper()
	mm, err := NewVI("")
	if err != nil {
		t.Fatal(err)
	}
	m := mm.(*VI)
	if _, err := sim.Init(m, d, c, numeric.NewRand(3)); err != nil {
		t.Fatal(err)
	}
	return m
}

func newExact(t testing.TB, d *sim.Dataset, c sim.Controls) *Exact {
	t.Helper()
	mm, err := NewExact("")
	if err != nil {
		t.Fatal(err)
	}
	m := mm.(*Exact)
	if _, err := sim.Init(m, d, c, numeric.NewRand(3)); err != nil {
		t.Fatal(err)
	}
	return m
}

// setExactOptimum puts gpvi (Gaussian likelihood, noise σ) at the exact
// posterior: α = (K + εI + σ²I)⁻¹y, λ = 1/σ (the package documentation).
func setExactOptimum(t *testing.T, m *VI, e *Exact) {
	t.Helper()
	alpha, lam, err := e.alphaLambda()
	if err != nil {
		t.Fatal(err)
	}
	copy(m.alpha.RawMatrix().Data, alpha)
	for i, l := range lam {
		m.rho.Set(i, 0, math.Log(l))
	}
}

func maxAbsDiff(a, b []float64) float64 {
	d := 0.0
	for i := range a {
		d = max(d, math.Abs(a[i]-b[i]))
	}
	return d
}
