package mfvi

import (
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/cputime"
	"github.com/posterior-playground/playground/sim/datasets"
)

// BenchmarkStep times one training step on gap (N = 100, 1-50-50-1 BNN,
// mc_samples 1): ≈1.6 MFLOP of GEMM per step.
func BenchmarkStep(b *testing.B) {
	d, err := datasets.Load("gap", 1)
	if err != nil {
		b.Fatal(err)
	}
	m := &Method{}
	if _, err := sim.Init(m, d, nil, numeric.NewRand(1)); err != nil {
		b.Fatal(err)
	}
	m.Step()
	b.ReportAllocs()
	c0 := cputime.Process()
	for b.Loop() {
		m.Step()
	}
	// The machine is shared, so wall time overstates the cost; report the
	// process's CPU time per step as well.
	b.ReportMetric(float64((cputime.Process()-c0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}
