package gp

import (
	"fmt"
	"testing"

	"github.com/posterior-playground/playground/sim"
)

// benchConfigs are the likelihoods and expectation methods the alloc test
// and the benchmark cover.
var benchConfigs = []struct {
	name string
	task sim.Task
	c    sim.Controls
}{
	{"gaussian", sim.Regression, sim.Controls{"likelihood": sim.Choice(Gaussian)}},
	{"cauchy-gh-learn", sim.Regression, sim.Controls{"likelihood": sim.Choice(Cauchy), "learn_kernel": sim.Num(1), "kernel": sim.Choice(Periodic)}},
	{"bernoulli-mc", sim.Classification, sim.Controls{"expectation": sim.Choice(MonteCarlo), "mc_samples": sim.Num(4)}},
}

// Step allocates nothing after warm-up, for every likelihood, expectation
// and with hyperparameter learning, and neither does gp-exact's type-II step.
func TestStepAllocatesNothing(t *testing.T) {
	for _, bc := range benchConfigs {
		m := newVI(t, toyData(20, bc.task), bc.c)
		m.Step()
		if a := testing.AllocsPerRun(50, func() { m.Step() }); a != 0 {
			t.Errorf("gpvi %s: %g allocations per Step", bc.name, a)
		}
	}
	e := newExact(t, toyData(20, sim.Regression), sim.Controls{"learn_kernel": sim.Num(1), "learn_noise": sim.Num(1)})
	e.Step()
	if a := testing.AllocsPerRun(50, func() { e.Step() }); a != 0 {
		t.Errorf("gp-exact: %g allocations per Step", a)
	}
}

// BenchmarkStep times one gpvi step for N = 20 and N = 50.
func BenchmarkStep(b *testing.B) {
	for _, n := range []int{20, 50} {
		for _, bc := range benchConfigs {
			b.Run(fmt.Sprintf("N=%d/%s", n, bc.name), func(b *testing.B) {
				m := newVI(b, toyData(n, bc.task), bc.c)
				m.Step()
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					m.Step()
				}
			})
		}
	}
}

// BenchmarkExactStep times one type-II maximum-likelihood step of gp-exact.
func BenchmarkExactStep(b *testing.B) {
	for _, n := range []int{20, 50} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			m := newExact(b, toyData(n, sim.Regression), sim.Controls{"learn_kernel": sim.Num(1), "learn_noise": sim.Num(1)})
			m.Step()
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				m.Step()
			}
		})
	}
}
