package kernels

import (
	"math"
	"math/rand/v2"
	"testing"
)

// ulps returns how many float64 steps apart a and b are (both finite and
// of one sign).
func ulps(a, b float64) uint64 {
	x, y := math.Float64bits(a), math.Float64bits(b)
	if x > y {
		return x - y
	}
	return y - x
}

// ExpTo is within 2 ulp of math.Exp (each within 1 ulp of e^x) over the
// kernel's whole range and the scalar path's, exact where e^x is (x = 0),
// and passes through infinities, NaN, overflow and underflow as math.Exp
// does, in blocks mixing both paths and lengths around the 4-lane blocks.
func TestExpToMatchesMathExp(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 12))
	special := []float64{0, math.Copysign(0, -1), 1, -1, 700, -700, 700.0001, -700.0001, 709.7, 709.8, -745, -746,
		math.Inf(1), math.Inf(-1), math.NaN(), 1e-300, -1e-300, 0.5 * math.Ln2, -0.5 * math.Ln2, math.Ln2}
	for n := 0; n <= 4000; n += 1 + n/8 {
		x := make([]float64, n)
		for i := range x {
			switch rng.IntN(20) {
			case 0:
				x[i] = special[rng.IntN(len(special))]
			case 1, 2:
				x[i] = 1400*rng.Float64() - 700
			default:
				x[i] = 40 * rng.NormFloat64() * math.Pow(2, float64(-rng.IntN(30)))
			}
		}
		got := make([]float64, n)
		ExpTo(got, x)
		for i, v := range x {
			want := math.Exp(v)
			switch {
			case math.IsNaN(want):
				if !math.IsNaN(got[i]) {
					t.Fatalf("n=%d: exp(%v) = %v, want NaN", n, v, got[i])
				}
			case want == 0 || math.IsInf(want, 0) || want == 1:
				if got[i] != want {
					t.Fatalf("n=%d: exp(%v) = %v, want %v", n, v, got[i], want)
				}
			case ulps(got[i], want) > 2:
				t.Fatalf("n=%d: exp(%v) = %v, math.Exp %v (%d ulp apart)", n, v, got[i], want, ulps(got[i], want))
			}
		}
	}
}

func TestExpToAllocatesNothing(t *testing.T) {
	x, y := make([]float64, 2701), make([]float64, 2701)
	if a := testing.AllocsPerRun(20, func() { ExpTo(y, x) }); a != 0 {
		t.Errorf("ExpTo allocates %g times per call", a)
	}
}

// BenchmarkExpTo: e^ℓ over gap's 2701 mean-field log-stds.
func BenchmarkExpTo(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	x, y := make([]float64, 2701), make([]float64, 2701)
	for i := range x {
		x[i] = -3 + rng.NormFloat64()
	}
	b.Run("kernel", func(b *testing.B) {
		for b.Loop() {
			ExpTo(y, x)
		}
	})
	b.Run("math", func(b *testing.B) {
		for b.Loop() {
			for i, v := range x {
				y[i] = math.Exp(v)
			}
		}
	})
}
