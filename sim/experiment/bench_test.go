package experiment

import (
	"context"
	"testing"

	"github.com/posterior-playground/playground/sim/cputime"
)

// BenchmarkRunNUTSLinear is `playground run --data linreg --method nuts
// --chains 4 --steps 22000 --eval-reps 1`, once with the JSON report's
// diagnostics (bulk and tail ESS and R-hat of every parameter and of f at
// each of the 201 grid points) and once as the text report runs it: the
// summary, not the sampling, is where a small model's run can lose its
// time. Reports CPU per run (the machine is shared, so wall time overstates
// it).
func BenchmarkRunNUTSLinear(b *testing.B) {
	for _, tc := range []struct {
		name string
		no   bool
	}{{"json", false}, {"text", true}} {
		b.Run(tc.name, func(b *testing.B) {
			cfg := DefaultConfig()
			cfg.Data, cfg.Method, cfg.Steps, cfg.EvalReps = "linreg", "nuts", 22_000, 1
			cfg.NoDiagnostics = tc.no
			b.ReportAllocs()
			c0 := cputime.Process()
			for b.Loop() {
				if _, err := Run(context.Background(), cfg, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((cputime.Process()-c0).Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}
