package sampler

import (
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim/cputime"
)

// cpuRate reports CPU nanoseconds per op and per unit of work (a
// transition, a gradient), and the units per CPU-second: on a shared
// machine wall time overstates the cost.
func cpuRate(b *testing.B, c0 int64, units float64, unit string) {
	cpu := float64(int64(cputime.Process()) - c0)
	b.ReportMetric(cpu/float64(b.N), "cpu-ns/op")
	if cpu > 0 {
		b.ReportMetric(units/(cpu*1e-9), unit+"/cpu-s")
	}
}

// BenchmarkMetropolisGaussian is one random-walk Metropolis transition on
// the correlated Gaussian (ρ = 0.9) at the scale that suits it.
func BenchmarkMetropolisGaussian(b *testing.B) {
	for _, rec := range []*Record{nil, NewRecord(1)} {
		name := map[bool]string{true: "record", false: "plain"}[rec != nil]
		b.Run(name, func(b *testing.B) {
			m := must(NewMetropolis(gaussian(b, 0.9), MetropolisConfig{Scale: 1}, numeric.NewRand(1), Point{}))
			c0 := int64(cputime.Process())
			for b.Loop() {
				m.Step(rec)
			}
			cpuRate(b, c0, float64(b.N), "transitions")
		})
	}
}

// BenchmarkNUTSBanana is NUTS transitions on the banana after warm-up,
// reported per gradient evaluation.
func BenchmarkNUTSBanana(b *testing.B) {
	for _, rec := range []*Record{nil, NewRecord(1 << 10)} {
		name := map[bool]string{true: "record", false: "plain"}[rec != nil]
		b.Run(name, func(b *testing.B) {
			n := must(NewNUTS(banana(b), NUTSConfig{Warmup: 200}, numeric.NewRand(1), Point{}))
			for range 200 {
				n.Step(nil)
			}
			g0 := n.Counts().Gradient
			c0 := int64(cputime.Process())
			for b.Loop() {
				n.Step(rec)
			}
			grads := float64(n.Counts().Gradient - g0)
			b.ReportMetric(grads/float64(b.N), "grads/op")
			cpuRate(b, c0, grads, "grads")
		})
	}
}
