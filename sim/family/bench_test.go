package family

import (
	"testing"

	"github.com/posterior-playground/playground/sim/cputime"
)

// BenchmarkStep times one step of each family on the banana with the
// default Config (K = 32 draws; the flow's 4 layers of 16 units; SVGD's
// 100 particles), and the flow under the other divergences (forward KL's
// default K is 256). Run with -cpu 1 -benchmem. The machine is shared, so
// wall time overstates the cost: the process's CPU time per step is
// reported too (cpu-ns/op), and steps per CPU-second from it.
func BenchmarkStep(b *testing.B) {
	p := banana{b: 1}
	run := func(b *testing.B, q Fit) {
		for range 10 {
			q.Step()
		}
		b.ReportAllocs()
		c0 := cputime.Process()
		for b.Loop() {
			q.Step()
		}
		cpu := (cputime.Process() - c0).Seconds()
		b.ReportMetric(cpu*1e9/float64(b.N), "cpu-ns/op")
		b.ReportMetric(float64(b.N)/cpu, "steps/cpu-s")
	}
	for _, name := range []string{MeanFieldName, FullRankName, FlowName, SVGDName} {
		b.Run(name, func(b *testing.B) {
			q, err := New(name, p, Config{Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			run(b, q)
		})
	}
	for _, cfg := range []Config{{Divergence: ForwardKL}, {Divergence: Renyi, Alpha: 0.5}} {
		b.Run(FlowName+"/"+cfg.Divergence.String(), func(b *testing.B) {
			q, err := NewFlow(p, cfg)
			if err != nil {
				b.Fatal(err)
			}
			run(b, q)
		})
	}
}

// BenchmarkFlowMoments times the flow's Moments: 2,048 draws through the
// map, about as much as twenty-odd steps at the defaults.
func BenchmarkFlowMoments(b *testing.B) {
	q, err := NewFlow(banana{b: 1}, Config{Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	for range 10 {
		q.Step()
	}
	b.ReportAllocs()
	c0 := cputime.Process()
	for b.Loop() {
		q.Moments()
	}
	b.ReportMetric(float64((cputime.Process()-c0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}
