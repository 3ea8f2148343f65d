package gp

import (
	"fmt"
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
)

// BenchmarkStepSizes times one step of each GP method over N, with every
// learned quantity on (its most costly setting), up to a hundred points past
// its MaxPoints: the cost that sets the bound. Sizes past the bound are
// initialised without sim.Init, which refuses them.
func BenchmarkStepSizes(b *testing.B) {
	learn := sim.Controls{"learn_kernel": sim.Num(1), "learn_noise": sim.Num(1)}
	unchecked := func(b *testing.B, m sim.Method, d *sim.Dataset, given sim.Controls) {
		c, err := sim.SpecFor(m, d).Resolve(given)
		if err == nil {
			err = m.Init(d, c, numeric.NewRand(3))
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	run := func(b *testing.B, m sim.Method) {
		m.Step()
		b.ResetTimer()
		for b.Loop() {
			m.Step()
		}
	}
	sizes := func(bound int) []int { return []int{bound / 4, bound / 2, 3 * bound / 4, bound, bound + 100} }
	for _, n := range sizes(MaxExactPoints) {
		b.Run(fmt.Sprintf("exact/N=%d", n), func(b *testing.B) {
			m := &Exact{}
			unchecked(b, m, toyData(n, sim.Regression), learn)
			run(b, m)
		})
	}
	for _, n := range sizes(MaxVIPoints) {
		for _, bc := range benchConfigs {
			b.Run(fmt.Sprintf("vi/N=%d/%s", n, bc.name), func(b *testing.B) {
				m := &VI{}
				unchecked(b, m, toyData(n, bc.task), bc.c)
				run(b, m)
			})
		}
	}
}
