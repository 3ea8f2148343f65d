package catalog

import (
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/datasets"
)

// BenchmarkBand measures what the engine pays for one band on the gap data:
// each method's Predict with the engine's default 20 sampled functions, on
// the data set's grid resampled to 41 points (the grid before issue 14) and
// to datasets.GridPoints. The engine spaces bands by ten times their cost
// (sim/engine's bandCostShare), so a dearer band is drawn less often, never
// on fewer points; this says how much less often.
func BenchmarkBand(b *testing.B) {
	d, err := datasets.Load("gap", 1)
	if err != nil {
		b.Fatal(err)
	}
	lo, hi := d.Grid[0], d.Grid[len(d.Grid)-1]
	for _, name := range MethodNames() {
		for _, n := range []int{41, datasets.GridPoints} {
			b.Run(fmt.Sprintf("%s/grid=%d", name, n), func(b *testing.B) {
				m, err := NewMethod(name, "")
				if err != nil {
					b.Fatal(err)
				}
				if c, ok := m.(io.Closer); ok {
					defer c.Close()
				}
				if _, err := sim.Init(m, d, nil, rand.New(rand.NewPCG(1, 2))); err != nil {
					b.Fatal(err)
				}
				for range 20 {
					m.Step()
				}
				xs := make([]float64, n)
				for i := range xs {
					xs[i] = lo + (hi-lo)*float64(i)/float64(n-1)
				}
				b.ReportAllocs()
				for b.Loop() {
					m.Predict(xs, 20)
				}
			})
		}
	}
}
