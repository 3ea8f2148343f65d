package mcmc

import (
	"math"
	"testing"
	"time"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/cputime"
)

// BenchmarkNUTSLinearChains is NUTS on linreg as the Stan comparison runs
// it (.ci/bench/nuts-vs-stan): 4 chains × 22,000 transitions, the first
// 1,000 warm-up, from Init to the last transition, so per-transition
// overhead in the chains' stepping shows in full. Reports CPU per run and
// the smallest bulk ESS (the same on every run: the seed is fixed). The
// file uses only what older trees have too, so a benchmark comparison can
// carry it to a base that lacks it.
func BenchmarkNUTSLinearChains(b *testing.B) {
	d := loadData(b, "linreg")
	b.ReportAllocs()
	var ess float64
	var cpu time.Duration
	for b.Loop() {
		c0 := cputime.Process()
		m := newSampler(b, kindNUTS, "linear")
		run(b, m, d, sim.Controls{"chains": sim.Num(4), "warmup": sim.Num(1000)}, 1, 22_000)
		m.Close()
		cpu += cputime.Process() - c0
		b.StopTimer()
		ess = math.Inf(1)
		for _, p := range m.Params() {
			ess = min(ess, numeric.ESSBulk(m.Draws(p)))
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	b.ReportMetric(ess, "min_ess")
}
