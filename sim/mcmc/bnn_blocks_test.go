package mcmc

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
)

// blockedBNN is a 1→20→20→1 network on n points of a noisy cubic, its
// density and a random θ.
func blockedBNN(t *testing.T, n int) (*bnn, *bnnDensity, []float64) {
	t.Helper()
	arch, err := model.ParseArch("20,20", model.ReLU)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(11, 12))
	d := &sim.Dataset{Task: sim.Regression, X: make([]float64, n), Y: make([]float64, n)}
	for i := range n {
		d.X[i] = 4*r.Float64() - 2
		d.Y[i] = d.X[i]*d.X[i]*d.X[i]/4 + 0.3*r.NormFloat64()
	}
	b := newBNN(arch, d, 2)
	th := make([]float64, b.dim())
	b.initState(th, r)
	return b, b.newDensity().(*bnnDensity), th
}

// TestRowBlocksMatchOneNetwork: on 1,500 points (three blocks) the
// density and its gradient are those of one network on every point, to
// rounding: the blocks only sum the same terms in another order. Each sum
// has 1,500 terms of order one, so its rounding error is at most about
// 1,500·2⁻⁵³ ≈ 2·10⁻¹³ of its terms' magnitude; 10⁻⁹ relative leaves room
// for the gradient's cancellations.
func TestRowBlocksMatchOneNetwork(t *testing.T) {
	b, d, th := blockedBNN(t, 1500)
	if len(d.all) != 3 {
		t.Fatalf("%d blocks, want 3", len(d.all))
	}
	xs, ys := append([]float64(nil), b.x...), append([]float64(nil), b.y...)
	one := &bnnDensity{p: b, all: []rowBlock{{net: model.NewNet(b.layers, xs, true), ys: ys}}}
	g1, g3 := make([]float64, b.dim()), make([]float64, b.dim())
	want, got := one.logpGrad(th, g1), d.logpGrad(th, g3)
	if math.Abs(got-want) > 1e-9*math.Abs(want) {
		t.Errorf("log p: blocks %v, one network %v", got, want)
	}
	if lp := d.logp(th); math.Abs(lp-want) > 1e-9*math.Abs(want) {
		t.Errorf("log p without the gradient: blocks %v, one network %v", lp, want)
	}
	var norm float64
	for _, v := range g1 {
		norm = max(norm, math.Abs(v))
	}
	for i := range g1 {
		if math.Abs(g3[i]-g1[i]) > 1e-9*norm {
			t.Fatalf("gradient %d: blocks %v, one network %v", i, g3[i], g1[i])
		}
	}
	if allocs := testing.AllocsPerRun(20, func() { d.logpGrad(th, g3) }); allocs != 0 {
		t.Errorf("a blocked gradient allocates %v times", allocs)
	}
}

// TestRowBlocksPollTheInterrupt: an evaluation polls between its blocks
// and, once interrupted, stops after the block in flight with −∞.
func TestRowBlocksPollTheInterrupt(t *testing.T) {
	_, d, th := blockedBNN(t, 2500) // five blocks
	polls := 0
	halt := func() bool { polls++; return polls >= 2 }
	d.pollWith(&halt)
	g := make([]float64, len(th))
	if lp := d.logpGrad(th, g); !math.IsInf(lp, -1) || polls != 2 {
		t.Errorf("interrupted at the second poll: log p %v after %d polls, want −∞ after 2 (of 4)", lp, polls)
	}
	halt = func() bool { return false }
	if lp := d.logpGrad(th, g); math.IsInf(lp, 0) || math.IsNaN(lp) {
		t.Errorf("not interrupted: log p %v", lp)
	}
}

// BenchmarkGradRows compares a gradient on 10,000 points in blocks of
// blockRows with one network on all of them (what the blocks replaced):
// run back to back with -cpu 1 -benchmem.
func BenchmarkGradRows(b *testing.B) {
	t := &testing.T{}
	bm, blocked, th := blockedBNN(t, 10_000)
	xs, ys := append([]float64(nil), bm.x...), append([]float64(nil), bm.y...)
	one := model.NewNet(bm.layers, xs, true)
	one.UseSpans(bm.layers) // as the one network was built
	whole := &bnnDensity{p: bm, all: []rowBlock{{net: one, ys: ys}}}
	g := make([]float64, bm.dim())
	for _, c := range []struct {
		name string
		d    *bnnDensity
	}{{"blocks", blocked}, {"one", whole}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				c.d.logpGrad(th, g)
			}
		})
	}
}
