package fastblas

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/posterior-playground/playground/sim/cputime"
	"gonum.org/v1/gonum/blas"
)

// benchImpls are the implementations every benchmark compares.
var benchImpls = []struct {
	name string
	impl blas.Float64
}{{"gonum", ref}, {"fastblas", Implementation()}}

// BenchmarkDgemm times the products of a GIP step (M = 100, 2×50 net):
// C(m×n) = op(A)·op(B) with inner size k, reporting GFLOP/s.
func BenchmarkDgemm(b *testing.B) {
	for _, s := range []struct {
		tA, tB  bool
		m, n, k int
	}{
		{false, true, 100, 50, 51},  // NT 100×51·(50×51)ᵀ
		{false, false, 51, 50, 51},  // NN 51×51·51×50
		{false, false, 100, 51, 50}, // NN 100×50·50×51
		{true, false, 51, 100, 51},  // TN (51×51)ᵀ·51×100
		{false, false, 300, 300, 300},
		{false, false, 20, 20, 20}, // a GP's N = 20 kernel matrix
		{false, false, 100, 3, 3},  // the first layer of a 2×50 net on 2 inputs
		// Matrix–vector products through Dgemm (the output layer, and
		// gradients of a one-column output).
		{false, false, 100, 1, 51},
		{true, false, 51, 1, 100},
		{false, false, 1, 50, 51},
	} {
		name := fmt.Sprintf("%s%s/%dx%dx%d", tname(s.tA), tname(s.tB), s.m, s.k, s.n)
		rng := rand.New(rand.NewPCG(1, 1))
		g := newGemmCase(rng, s.tA, s.tB, s.m, s.n, s.k, 1, 0, 0)
		for _, im := range benchImpls {
			b.Run(name+"/"+im.name, func(b *testing.B) {
				c0 := cputime.Process()
				for b.Loop() {
					im.impl.Dgemm(trans(g.tA), trans(g.tB), g.m, g.n, g.k, 1, g.a, g.lda, g.b, g.ldb, 0, g.c, g.ldc)
				}
				cpu := (cputime.Process() - c0).Seconds()
				b.ReportMetric(2*float64(s.m*s.n*s.k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
				b.ReportMetric(cpu*1e9/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

func tname(t bool) string {
	if t {
		return "T"
	}
	return "N"
}

// BenchmarkDtrsm times triangular solves with a lower factor L as the
// project's Cholesky solves use it: B (m×n) ← L⁻¹B, L⁻ᵀB, BL⁻¹ or BL⁻ᵀ.
func BenchmarkDtrsm(b *testing.B) {
	for _, s := range []struct {
		name string
		side blas.Side
		tA   blas.Transpose
		m, n int
	}{
		{"LN", blas.Left, blas.NoTrans, 51, 50},
		{"LT", blas.Left, blas.Trans, 51, 50},
		{"LN", blas.Left, blas.NoTrans, 100, 50},
		{"RN", blas.Right, blas.NoTrans, 100, 50},
		{"RT", blas.Right, blas.Trans, 100, 50},
	} {
		rng := rand.New(rand.NewPCG(2, 2))
		c := newTriCase(rng, s.side, blas.Lower, s.tA, blas.NonUnit, s.m, s.n, 1, 0)
		k := s.n
		if s.side == blas.Left {
			k = s.m
		}
		flops := float64(s.m * s.n * k) // k²·(other side) multiply-adds, halved
		x := make([]float64, len(c.b))
		for _, im := range benchImpls {
			b.Run(fmt.Sprintf("%s/%dx%d/%s", s.name, s.m, s.n, im.name), func(b *testing.B) {
				for b.Loop() {
					copy(x, c.b) // keep the solution from growing
					im.impl.Dtrsm(c.s, c.ul, c.tA, c.d, c.m, c.n, 1, c.a, c.lda, x, c.ldb)
				}
				b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}
