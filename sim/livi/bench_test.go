package livi

import (
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/cputime"
	"github.com/posterior-playground/playground/sim/datasets"
)

// benchStep times Step on gap after one warm-up step. The machine is
// shared, so it also reports the process's CPU time per step.
func benchStep(b *testing.B, m sim.Method, c sim.Controls) {
	d, err := datasets.Load("gap", 1)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := sim.Init(m, d, c, numeric.NewRand(1)); err != nil {
		b.Fatal(err)
	}
	m.Step()
	b.ReportAllocs()
	c0 := cputime.Process()
	for b.Loop() {
		m.Step()
	}
	b.ReportMetric(float64((cputime.Process()-c0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// BenchmarkStep: one LIVI step on gap (N = 100, D = 2701 weights, h = 64,
// d = 20, one sample). The jacobian objective costs three D·h·(d+1) ≈ 3.6M
// multiply-adds ([Mᵀ; hᵀ]W₂ᵀ, W₂ᵀ[J, dθ] and ∇W₂ᵀ = [R, h][Jᵀ; dθ]); the
// sv-bound needs the first, D·d² for JᵀJ and two D·h passes, its gradient
// being rank two. Adam then updates the h·D ≈ 173k entries of V.
func BenchmarkStep(b *testing.B) {
	for _, obj := range []string{objJacobian, objSVBound} {
		b.Run(obj, func(b *testing.B) {
			benchStep(b, &Method{}, sim.Controls{"objective": sim.Choice(obj)})
		})
	}
}

// BenchmarkPointStep: one MAP step and one 5-member ensemble step on gap.
func BenchmarkPointStep(b *testing.B) {
	b.Run("map", func(b *testing.B) { benchStep(b, &Point{name: NameMAP}, nil) })
	b.Run("ensemble", func(b *testing.B) { benchStep(b, &Point{name: NameEnsemble}, nil) })
}
