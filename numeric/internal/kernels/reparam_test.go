package kernels

import (
	"math"
	"math/rand/v2"
	"testing"
)

// AxpyElem and GradReparam equal their scalar loops bit for bit (the
// kernels round each operation as the loop does, without FMA) for every
// length up to 41, so every remainder of four, and fBNN's P = 2,701; with
// values spread over many binades so that a fused or reordered operation
// would show in the last bits. NaN and ±Inf propagate as in the loop.
func TestReparamMatchesLoops(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	vals := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = r.NormFloat64() * math.Exp(6*r.NormFloat64())
		}
		if n > 9 {
			v[3], v[7], v[9] = math.NaN(), math.Inf(1), math.Inf(-1)
		}
		return v
	}
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
	}
	sizes := []int{2701}
	for n := range 42 {
		sizes = append(sizes, n)
	}
	for _, n := range sizes {
		mu, s, e, d := vals(n), vals(n), vals(n), vals(n + 1)[1:]
		dst := vals(n)
		AxpyElem(dst, mu, s, e)
		gmu, gls := vals(n), vals(n)
		wmu, wls := append([]float64(nil), gmu...), append([]float64(nil), gls...)
		GradReparam(gmu, gls, d, e, s)
		for j := range n {
			if w := mu[j] + s[j]*e[j]; !same(dst[j], w) {
				t.Fatalf("n=%d: AxpyElem[%d] = %v, loop %v", n, j, dst[j], w)
			}
			v := d[j]
			wmu[j] += v
			wls[j] += v * e[j] * s[j]
			if !same(gmu[j], wmu[j]) || !same(gls[j], wls[j]) {
				t.Fatalf("n=%d: GradReparam[%d] = (%v, %v), loop (%v, %v)", n, j, gmu[j], gls[j], wmu[j], wls[j])
			}
		}
	}
}

func TestReparamAllocations(t *testing.T) {
	x := make([]float64, 2701)
	if n := testing.AllocsPerRun(10, func() {
		AxpyElem(x, x, x, x)
		GradReparam(x, x, x, x, x)
	}); n != 0 {
		t.Errorf("%v allocations", n)
	}
}
