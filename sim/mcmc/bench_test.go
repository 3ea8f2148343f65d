package mcmc

import (
	"math"
	"testing"
	"time"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/cputime"
)

// Run with e.g. go test ./sim/mcmc -run XXX -bench . -benchtime 1x (the
// ESS benchmarks) or -benchtime 2000x (gradients, linreg transitions).

func benchGrad(b *testing.B, data, modelName string) {
	d := loadData(b, data)
	m := newSampler(b, kindHMC, modelName)
	if _, err := sim.Init(m, d, sim.Controls{"chains": sim.Num(1)}, newTestRand()); err != nil {
		b.Fatal(err)
	}
	c := m.chains[0]
	c.evalGrad()
	b.ReportAllocs()
	b.ResetTimer()
	c0 := cputime.Process()
	for range b.N {
		c.evalGrad()
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "grads/s")
	// The machine is shared, so wall time overstates the cost.
	b.ReportMetric(float64((cputime.Process()-c0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// BenchmarkGrad measures one evaluation of log π and its gradient.
func BenchmarkGrad(b *testing.B) {
	b.Run("linreg", func(b *testing.B) { benchGrad(b, "linreg", "linear") })
	b.Run("gap", func(b *testing.B) { benchGrad(b, "gap", "bnn") })
}

// BenchmarkTransition measures one transition of one chain with default
// controls (chains = 1), early in warm-up: 20 transitions are taken first.
// On gap, NUTS builds trees of up to 1023 leapfrog steps.
func BenchmarkTransition(b *testing.B) {
	for _, data := range []string{"linreg", "gap"} {
		for _, k := range allKinds {
			b.Run(data+"/"+k.name(), func(b *testing.B) {
				d := loadData(b, data)
				m := newSampler(b, k, d.DefaultModel)
				if _, err := sim.Init(m, d, sim.Controls{"chains": sim.Num(1), "warmup": sim.Num(1_000_000)}, numeric.NewRand(1)); err != nil {
					b.Fatal(err)
				}
				for range 20 {
					m.Step()
				}
				g0 := m.GradEvals()
				b.ReportAllocs()
				b.ResetTimer()
				c0 := cputime.Process()
				for range b.N {
					m.Step()
				}
				b.ReportMetric(float64(m.GradEvals()-g0)/float64(b.N), "grads/op")
				b.ReportMetric(float64((cputime.Process()-c0).Nanoseconds())/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

// BenchmarkESS runs each sampler on linreg as the CLI example does
// (4 chains, 1000 warm-up, 1000 kept transitions) and reports the smallest
// bulk ESS over b0, b and σ per wall second (ess/s, the summary's
// ess_per_sec), per 1000 gradient evaluations, and the largest R-hat.
func BenchmarkESS(b *testing.B) {
	d := loadData(b, "linreg")
	for _, k := range allKinds {
		b.Run(k.name(), func(b *testing.B) {
			var ess, secs, grads, rhat float64
			for i := range b.N {
				m := newSampler(b, k, "linear")
				if _, err := sim.Init(m, d, sim.Controls{"warmup": sim.Num(1000)}, numeric.NewRand(uint64(i+1))); err != nil {
					b.Fatal(err)
				}
				start := time.Now()
				for range 2000 {
					m.Step()
				}
				secs += time.Since(start).Seconds()
				lo, hi := math.Inf(1), 0.0
				for _, p := range m.Params() {
					ch := m.Draws(p)
					lo = min(lo, numeric.ESSBulk(ch))
					hi = max(hi, numeric.RHat(ch))
				}
				ess += lo
				rhat = max(rhat, hi)
				grads += float64(m.GradEvals())
				m.Close()
			}
			b.ReportMetric(ess/secs, "ess/s")
			b.ReportMetric(ess/float64(b.N), "min_ess")
			if grads > 0 {
				b.ReportMetric(1000*ess/grads, "ess/1k_grads")
			}
			b.ReportMetric(rhat, "max_rhat")
		})
	}
}
