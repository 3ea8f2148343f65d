package experiment

import (
	"context"
	"testing"

	"github.com/posterior-playground/playground/sim/cputime"
)

// BenchmarkRunNUTSLinear is `playground run --data linreg --method nuts
// --chains 4 --steps 22000 --eval-reps 1 --json`: the sampling and the
// report's diagnostics (bulk and tail ESS and R-hat of every parameter and
// of f at each of the 201 grid points). On a small model the summary, not
// the sampling, is where such a run can lose its time. Reports CPU per run
// (the machine is shared, so wall time overstates it). The file uses only
// what older trees have too, so a benchmark comparison can carry it to a
// base that lacks it.
func BenchmarkRunNUTSLinear(b *testing.B) {
	benchRunNUTSLinear(b, DefaultConfig())
}

func benchRunNUTSLinear(b *testing.B, cfg Config) {
	cfg.Data, cfg.Method, cfg.Steps, cfg.EvalReps = "linreg", "nuts", 22_000, 1
	b.ReportAllocs()
	c0 := cputime.Process()
	for b.Loop() {
		if _, err := Run(context.Background(), cfg, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((cputime.Process()-c0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}
