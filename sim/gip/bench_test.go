package gip

import (
	"testing"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/cputime"
	"github.com/posterior-playground/playground/sim/model"
)

// TestStepAllocatesNothing checks the hot loop (N = M = 100, 2×50, one
// sample) allocates nothing once the tape and Adam have warmed up.
func TestStepAllocatesNothing(t *testing.T) {
	for _, mc := range []float64{1, 3} {
		m := newTest(t, model.DefaultArch(), gapData(1, 100), map[string]sim.Value{ctlMC: sim.Num(mc)}, 1)
		m.Step()
		m.Step()
		if a := testing.AllocsPerRun(20, func() { m.Step() }); a != 0 {
			t.Errorf("mc_samples %g: Step allocates %g times per call", mc, a)
		}
	}
}

func BenchmarkStep(b *testing.B) {
	m := newTest(b, model.DefaultArch(), gapData(1, 100), nil, 1)
	m.Step()
	m.Step()
	b.ReportAllocs()
	b.ResetTimer()
	c0 := cputime.Process()
	for b.Loop() {
		m.Step()
	}
	// The machine is shared, so wall time overstates the cost.
	b.ReportMetric(float64((cputime.Process()-c0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

func BenchmarkIWBO100(b *testing.B) {
	m := newTest(b, model.DefaultArch(), gapData(1, 100), nil, 1)
	m.Step()
	b.ReportAllocs()
	for b.Loop() {
		m.IWBO(100)
	}
}

// ELBO and IWBO reuse the data evaluator and IWBO's weight buffer, and
// Predict reuses its evaluator: after warm-up it allocates only its result
// (X, the Samples slice and one slice per sample).
func TestEvaluationAllocs(t *testing.T) {
	m := newTest(t, model.DefaultArch(), gapData(1, 100), nil, 1)
	m.Step()
	m.ELBO()
	m.IWBO(50)
	if a := testing.AllocsPerRun(20, func() { m.ELBO() }); a != 0 {
		t.Errorf("ELBO allocates %g times per call", a)
	}
	if a := testing.AllocsPerRun(20, func() { m.IWBO(50) }); a != 0 {
		t.Errorf("IWBO(50) allocates %g times per call", a)
	}
	xs := make([]float64, 150)
	const samples = 5
	m.Predict(xs, samples)
	if a := testing.AllocsPerRun(20, func() { m.Predict(xs, samples) }); a != samples+2 {
		t.Errorf("Predict allocates %g times per call, want %d", a, samples+2)
	}
}
