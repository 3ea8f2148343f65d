package kernels

import (
	"math"
	"math/rand/v2"
	"testing"
)

// SumDots writes r = a + b exactly and its two dot products agree with
// plain loops within the summation bound: each is a sum of n products, so
// the two orders differ by at most 2·γ_n·Σ|u_i·r_i| (Higham §3.1; r itself
// is exact in both), for every length around the kernel's 4- and 8-blocks.
func TestSumDotsMatchesLoops(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	for n := 0; n <= 41; n++ {
		for mode := range 3 {
			u, w, a, b := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
			for _, s := range [][]float64{u, w, a, b} {
				for i := range s {
					s[i] = rng.NormFloat64()
				}
			}
			var set, add, want []float64
			switch mode {
			case 1:
				set = make([]float64, n)
				want = make([]float64, n)
			case 2:
				add = make([]float64, n)
				for i := range add {
					add[i] = rng.NormFloat64()
				}
				want = append([]float64(nil), add...)
			}
			su, sw := SumDots(u, w, a, b, set, add)
			var ru, rw, bu, bw float64
			for i := range a {
				r := a[i] + b[i]
				switch mode {
				case 1:
					want[i] = r
				case 2:
					want[i] += r
				}
				ru += u[i] * r
				rw += w[i] * r
				bu += math.Abs(u[i] * r)
				bw += math.Abs(w[i] * r)
			}
			g := float64(n) * 0x1p-53 / (1 - float64(n)*0x1p-53) // γ_n, unit roundoff 2⁻⁵³
			if math.Abs(su-ru) > 2*g*bu || math.Abs(sw-rw) > 2*g*bw {
				t.Fatalf("n=%d mode %d: sums (%v, %v), loops (%v, %v)", n, mode, su, sw, ru, rw)
			}
			got := set
			if mode == 2 {
				got = add
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("n=%d mode %d: r[%d] = %v, want %v", n, mode, i, got[i], want[i])
				}
			}
		}
	}
}

func TestSumDotsAllocatesNothing(t *testing.T) {
	v := make([]float64, 2702)
	if a := testing.AllocsPerRun(20, func() { SumDots(v, v, v, v, nil, v) }); a != 0 {
		t.Errorf("SumDots allocates %g times per call", a)
	}
}
