package gallery

import (
	"context"
	"testing"
)

// BenchmarkStep is one step of each method on the correlated Gaussian
// through a Run (the history's cheap points included), after 10,000
// evaluations; evals/op is the budget a step spends.
func BenchmarkStep(b *testing.B) {
	for _, m := range Methods() {
		b.Run(m.Name, func(b *testing.B) {
			r := newRun(b, gaussian(m.Name, 1))
			ctx := context.Background()
			if err := r.StepToBudget(ctx, 10_000); err != nil {
				b.Fatal(err)
			}
			e0 := r.Evals()
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				r.Step(ctx, 1)
			}
			b.ReportMetric(float64(r.Evals()-e0)/float64(b.N), "evals/op")
		})
	}
}
