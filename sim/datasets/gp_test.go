package datasets

import (
	"math"
	"slices"
	"testing"

	"github.com/posterior-playground/playground/sim"
)

// checkOnGrid checks that X holds distinct, increasing points of the
// 400-point grid on [−5, 5].
func checkOnGrid(t *testing.T, d *sim.Dataset) {
	t.Helper()
	grid := linspace(-5, 5, gpGridPoints)
	for i, x := range d.X {
		if _, ok := slices.BinarySearch(grid, x); !ok {
			t.Errorf("%s: x[%d] = %g is not a grid point", d.Name, i, x)
		}
		if i > 0 && x <= d.X[i-1] {
			t.Errorf("%s: x not strictly increasing at %d", d.Name, i)
		}
	}
}

// maxStep is the largest change of f between neighbouring points of the
// 400-point grid.
func maxStep(f func(float64) float64) float64 {
	grid := linspace(-5, 5, gpGridPoints)
	m := 0.0
	for i := 1; i < len(grid); i++ {
		m = max(m, math.Abs(f(grid[i])-f(grid[i-1])))
	}
	return m
}

// The GP sample is smooth: its derivative is a GP with sd c/ℓ, so a step h
// changes z by at most h·max|z'|. By Rice's formula, |z'| exceeds 5 sds on
// [−5, 5] with probability about 2·10·√3/(2π)·e^−12.5 ≈ 2e-5.
const smoothSDs = 5

func TestGPCauchy(t *testing.T) {
	h := 10.0 / (gpGridPoints - 1)
	for seed := uint64(1); seed <= 3; seed++ {
		d := load(t, "gp-cauchy", seed)
		checkOnGrid(t, d)
		if d.XScale != sim.Identity || d.YScale != sim.Identity || d.N() != 20 {
			t.Errorf("seed %d: scales %v %v, n %d", seed, d.XScale, d.YScale, d.N())
		}
		if s := maxStep(d.Truth); s > smoothSDs*h {
			t.Errorf("seed %d: GP sample jumps by %g between neighbours, more than %g", seed, s, smoothSDs*h)
		}
		// P(|Cauchy(0, γ)| < 10γ) = (2/π) atan 10 ≈ 0.937; for 20 points,
		// P(13 or fewer inside) ≈ 1.5e-4 (binomial tail).
		gamma, inside := math.Exp(-2), 0
		for i, x := range d.X {
			if math.Abs(d.Y[i]-d.Truth(x)) < 10*gamma {
				inside++
			}
		}
		if inside < 14 {
			t.Errorf("seed %d: only %d of 20 points within 10γ of z", seed, inside)
		}
	}
}

func TestGPClassification(t *testing.T) {
	h := 10.0 / (gpGridPoints - 1)
	for seed := uint64(1); seed <= 3; seed++ {
		d := load(t, "gp-classification", seed)
		checkOnGrid(t, d)
		if d.Task != sim.Classification || d.N() != 50 {
			t.Errorf("seed %d: task %s, n %d", seed, d.Task, d.N())
		}
		// sigmoid' ≤ 1/4 and z' has sd e (variance e², ℓ = 1).
		if s := maxStep(d.Truth); s > smoothSDs*math.E*h/4 {
			t.Errorf("seed %d: p jumps by %g between neighbours", seed, s)
		}
		// Σ(y − p) has mean 0 and variance Σp(1−p); allow 4 sds.
		var sum, vr float64
		for i, x := range d.X {
			p := d.Truth(x)
			if p <= 0 || p >= 1 || (d.Y[i] != 0 && d.Y[i] != 1) {
				t.Fatalf("seed %d: p %g, y %g", seed, p, d.Y[i])
			}
			sum += d.Y[i] - p
			vr += p * (1 - p)
		}
		if math.Abs(sum) > 4*math.Sqrt(vr) {
			t.Errorf("seed %d: Σ(y−p) = %g, sd %g", seed, sum, math.Sqrt(vr))
		}
	}
}

func TestInterpolator(t *testing.T) {
	f := interpolator([]float64{0, 1, 3}, []float64{1, 3, -1})
	for _, c := range [][2]float64{{-1, 1}, {0, 1}, {0.5, 2}, {1, 3}, {2, 1}, {3, -1}, {9, -1}} {
		if got := f(c[0]); got != c[1] {
			t.Errorf("f(%g) = %g, want %g", c[0], got, c[1])
		}
	}
	if !math.IsNaN(f(math.NaN())) {
		t.Error("f(NaN) should be NaN")
	}
}
