package numeric

import (
	"math"
	"testing"
)

// directMeanAutocov is the textbook O(n²) biased autocovariance, averaged
// over the rows of b: an independent check of the FFT route.
func directMeanAutocov(b block) []float64 {
	out := make([]float64, b.n)
	for i := range b.c {
		r := b.row(i)
		var m float64
		for _, v := range r {
			m += v
		}
		m /= float64(b.n)
		for t := range b.n {
			var s float64
			for k := 0; k+t < b.n; k++ {
				s += (r[k] - m) * (r[k+t] - m)
			}
			out[t] += s / float64(b.n) / float64(b.c)
		}
	}
	return out
}

func TestAutocovFFTMatchesDirect(t *testing.T) {
	r := NewRand(7)
	for _, c := range []int{1, 3, 8} {
		for _, n := range []int{2, 3, 4, 5, 8, 17, 64, 101, 333, 1000} {
			b := block{x: make([]float64, c*n), c: c, n: n}
			for i := range b.c { // AR(1), φ = 0.7, offset 5: positive and negative lags matter
				x := 5.0
				for k := range b.row(i) {
					x = 5 + 0.7*(x-5) + r.NormFloat64()
					b.row(i)[k] = x
				}
			}
			want := directMeanAutocov(b)
			var w essWork
			got, _ := w.meanAutocov(b)
			for k := range want {
				if math.Abs(got[k]-want[k]) > 1e-10*want[0] {
					t.Fatalf("c=%d n=%d lag %d: FFT %.15g, direct %.15g", c, n, k, got[k], want[k])
				}
			}
			// The whole ESS with the direct autocovariances agrees too.
			means := append([]float64(nil), w.means...)
			eDirect := essFromAcov(make([]float64, n), want, means)
			eFFT := w.ess(b)
			if math.Abs(eFFT-eDirect) > 1e-10*eDirect {
				t.Errorf("c=%d n=%d: ESS by FFT %.15g, by direct autocovariance %.15g", c, n, eFFT, eDirect)
			}
		}
	}
}

func TestFastLen(t *testing.T) {
	for k, want := range map[int]int{1: 1, 2: 2, 7: 8, 11: 12, 13: 15, 2000: 2000, 2001: 2025, 20002: 20250} {
		if got := fastLen(k); got != want {
			t.Errorf("fastLen(%d) = %d, want %d", k, got, want)
		}
	}
}
