package gp

import (
	"fmt"
	"testing"

	"github.com/posterior-playground/playground/sim"
)

// BenchmarkStepSizes times one step of each GP method, with every learned
// quantity on (its most costly setting), over N: the cost that sets
// MethodSpec.MaxPoints.
func BenchmarkStepSizes(b *testing.B) {
	learn := sim.Controls{"learn_kernel": sim.Num(1), "learn_noise": sim.Num(1)}
	for _, n := range []int{100, 200, 300, 400, 500, 600} {
		b.Run(fmt.Sprintf("exact/N=%d", n), func(b *testing.B) {
			m := newExact(b, toyData(n, sim.Regression), learn)
			m.Step()
			b.ResetTimer()
			for b.Loop() {
				m.Step()
			}
		})
		for _, bc := range benchConfigs {
			b.Run(fmt.Sprintf("vi/N=%d/%s", n, bc.name), func(b *testing.B) {
				m := newVI(b, toyData(n, bc.task), bc.c)
				m.Step()
				b.ResetTimer()
				for b.Loop() {
					m.Step()
				}
			})
		}
	}
}
