package kernels

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/posterior-playground/playground/sim/cputime"
)

// adamRef is the scalar update as numeric.Adam wrote it before the kernel.
func adamRef(p, g, m, v []float64, b1, b2, alpha, eps float64) {
	for j, gj := range g {
		m[j] = b1*m[j] + (1-b1)*gj
		v[j] = b2*v[j] + (1-b2)*gj*gj
		p[j] -= alpha * m[j] / (math.Sqrt(v[j]) + eps)
	}
}

// adamAlpha is numeric.Adam's bias-corrected step size at step t (lr 0.01).
func adamAlpha(t int) float64 {
	return 0.01 * math.Sqrt(1-math.Pow(0.999, float64(t))) / (1 - math.Pow(0.9, float64(t)))
}

// wideValue draws a gradient-like value over twelve decades, zero one time
// in seven when zeros is set.
func wideValue(rng *rand.Rand, zeros bool) float64 {
	x := rng.NormFloat64() * math.Pow(10, float64(rng.IntN(13)-6))
	if zeros && rng.IntN(7) == 0 {
		return 0
	}
	return x
}

// The kernel rounds every operation as the scalar loop does, so parameters
// and moments agree bit for bit, for every length around the 4-lane blocks,
// over several steps, with zero gradients and moments (√0 + eps) and
// gradients spanning many magnitudes.
func TestAdamUpdateMatchesScalarLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for n := 0; n <= 37; n++ {
		p, g := make([]float64, n), make([]float64, n)
		m, v := make([]float64, n), make([]float64, n)
		for i := range p {
			p[i] = rng.NormFloat64()
		}
		pr, mr, vr := append([]float64(nil), p...), make([]float64, n), make([]float64, n)
		for step := 1; step <= 5; step++ {
			for i := range g {
				g[i] = wideValue(rng, true)
			}
			AdamUpdate(p, g, m, v, 0.9, 0.999, adamAlpha(step), 1e-7)
			adamRef(pr, g, mr, vr, 0.9, 0.999, adamAlpha(step), 1e-7)
			for i := range p {
				if math.Float64bits(p[i]) != math.Float64bits(pr[i]) || m[i] != mr[i] || v[i] != vr[i] {
					t.Fatalf("n=%d step %d, entry %d: (p, m, v) = (%v, %v, %v), scalar loop (%v, %v, %v)",
						n, step, i, p[i], m[i], v[i], pr[i], mr[i], vr[i])
				}
			}
		}
	}
}

// scaledCase is one length's state for the fused updates of a product
// w = p ⊙ u: the kernel's p, m, v, w and the separate loops' pr, mr, vr,
// wr, with the loops' gradient (with respect to p) in gr.
type scaledCase struct{ p, m, v, w, u, pr, mr, vr, gr, wr []float64 }

func newScaledCase(rng *rand.Rand, n int) *scaledCase {
	c := &scaledCase{}
	for _, s := range []*[]float64{&c.p, &c.m, &c.v, &c.w, &c.u, &c.mr, &c.vr, &c.gr, &c.wr} {
		*s = make([]float64, n)
	}
	for i := range c.p {
		c.p[i], c.u[i] = rng.NormFloat64(), math.Abs(rng.NormFloat64())
	}
	c.pr = append([]float64(nil), c.p...)
	return c
}

// check runs the loops (the update on gr, then p ⊙ u) and compares them
// with what the kernel left, bit for bit.
func (c *scaledCase) check(t *testing.T, n, step int) {
	t.Helper()
	adamRef(c.pr, c.gr, c.mr, c.vr, 0.9, 0.999, adamAlpha(step), 1e-7)
	for i := range c.wr {
		c.wr[i] = c.pr[i] * c.u[i]
	}
	for i := range c.p {
		if math.Float64bits(c.p[i]) != math.Float64bits(c.pr[i]) || c.m[i] != c.mr[i] || c.v[i] != c.vr[i] || math.Float64bits(c.w[i]) != math.Float64bits(c.wr[i]) {
			t.Fatalf("n=%d step %d, entry %d: (p, m, v, w) = (%v, %v, %v, %v), loops (%v, %v, %v, %v)",
				n, step, i, c.p[i], c.m[i], c.v[i], c.w[i], c.pr[i], c.mr[i], c.vr[i], c.wr[i])
		}
	}
}

// AdamUpdateScaled is the three loops it fuses (gradient ⊙ u, the update,
// p ⊙ u) bit for bit, around the 4-lane blocks and over several steps.
func TestAdamUpdateScaledMatchesLoops(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	for n := 0; n <= 37; n++ {
		c, g := newScaledCase(rng, n), make([]float64, n)
		for step := 1; step <= 5; step++ {
			for i := range g {
				g[i] = wideValue(rng, true)
			}
			AdamUpdateScaled(c.p, g, c.m, c.v, c.u, c.w, 0.9, 0.999, adamAlpha(step), 1e-7)
			for i := range g {
				c.gr[i] = g[i] * c.u[i]
			}
			c.check(t, n, step)
		}
	}
}

// AdamUpdateRank2 is the loops it fuses (g = (a0·x + a1·y) ⊙ u, the update,
// p ⊙ u) bit for bit, around the 4-lane blocks and over several steps, with
// a1 = 0 and y = x as the rank-one case uses it, zero entries and
// magnitudes over twelve decades.
func TestAdamUpdateRank2MatchesLoops(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for n := 0; n <= 37; n++ {
		c, x, y := newScaledCase(rng, n), make([]float64, n), make([]float64, n)
		for step := 1; step <= 5; step++ {
			for i := range x {
				x[i], y[i] = wideValue(rng, false), wideValue(rng, false)
				if rng.IntN(7) == 0 {
					x[i] = 0
				}
			}
			a0, a1, yy := rng.NormFloat64(), rng.NormFloat64(), y
			if step == 3 {
				a1, yy = 0, x
			}
			AdamUpdateRank2(c.p, x, yy, a0, a1, c.m, c.v, c.u, c.w, 0.9, 0.999, adamAlpha(step), 1e-7)
			for i := range c.gr {
				c.gr[i] = (float64(a0*x[i]) + float64(a1*yy[i])) * c.u[i]
			}
			c.check(t, n, step)
		}
	}
}

func TestAdamUpdateAllocatesNothing(t *testing.T) {
	p, g, m, v := make([]float64, 101), make([]float64, 101), make([]float64, 101), make([]float64, 101)
	if a := testing.AllocsPerRun(20, func() { AdamUpdate(p, g, m, v, 0.9, 0.999, 0.01, 1e-7) }); a != 0 {
		t.Errorf("AdamUpdate allocates %g times per call", a)
	}
}

// BenchmarkAdamUpdate times one update of gap's mean-field parameters
// (2 × 2701), reporting ns per parameter.
func BenchmarkAdamUpdate(b *testing.B) {
	const n = 5402
	rng := rand.New(rand.NewPCG(6, 6))
	p, g, m, v := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range g {
		g[i] = rng.NormFloat64()
	}
	b.Run("kernel", func(b *testing.B) {
		for b.Loop() {
			AdamUpdate(p, g, m, v, 0.9, 0.999, 0.01, 1e-7)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/param")
	})
	b.Run("scalar", func(b *testing.B) {
		for b.Loop() {
			adamRef(p, g, m, v, 0.9, 0.999, 0.01, 1e-7)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/param")
	})
}

// BenchmarkAdamUpdateRank2 times one update of LIVI's V (64 rows of D =
// 2701: 1.4 MB per array, beyond L2) by AdamUpdateScaled with a stored
// gradient (the division) and by AdamUpdateRank2 (rank-two gradient formed
// in the pass, Newton reciprocal), reporting CPU ns per parameter (the
// machine is shared).
func BenchmarkAdamUpdateRank2(b *testing.B) {
	const rows, D = 64, 2701
	rng := rand.New(rand.NewPCG(8, 8))
	p, g, m, v, w := make([]float64, rows*D), make([]float64, rows*D), make([]float64, rows*D), make([]float64, rows*D), make([]float64, rows*D)
	x, y, u := make([]float64, D), make([]float64, D), make([]float64, D)
	for i := range g {
		g[i] = rng.NormFloat64()
	}
	for i := range x {
		x[i], y[i], u[i] = rng.NormFloat64(), rng.NormFloat64(), 1+rng.Float64()
	}
	b.Run("scaled", func(b *testing.B) {
		c0 := cputime.Process()
		for b.Loop() {
			for r := range rows {
				o := r * D
				AdamUpdateScaled(p[o:o+D], g[o:o+D], m[o:o+D], v[o:o+D], u, w[o:o+D], 0.9, 0.999, 0.01, 1e-7)
			}
		}
		b.ReportMetric(float64((cputime.Process()-c0).Nanoseconds())/float64(b.N)/(rows*D), "cpu-ns/param")
	})
	b.Run("rank2", func(b *testing.B) {
		c0 := cputime.Process()
		for b.Loop() {
			for r := range rows {
				o := r * D
				AdamUpdateRank2(p[o:o+D], x, y, 0.5, -0.25, m[o:o+D], v[o:o+D], u, w[o:o+D], 0.9, 0.999, 0.01, 1e-7)
			}
		}
		b.ReportMetric(float64((cputime.Process()-c0).Nanoseconds())/float64(b.N)/(rows*D), "cpu-ns/param")
	})
}
