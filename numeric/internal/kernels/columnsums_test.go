package kernels

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestColumnSums(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, c := range []int{1, 3, 4, 7, 50, 64, 65, 131} {
		for _, n := range []int{1, 2, 9, 100} {
			xs, gs := 1+rng.IntN(3), c+rng.IntN(3)
			x, g := strided(rng, n, 1, xs), strided(rng, n, c, gs)
			g[0] = math.Inf(1) // carried, not masked
			s0, s1 := make([]float64, c), make([]float64, c)
			w0, w1 := make([]float64, c), make([]float64, c)
			for j := range c {
				s0[j], s1[j] = float64(j), -float64(j)
				w0[j], w1[j] = s0[j], s1[j]
			}
			ColumnSums(n, x, xs, g, gs, s0, s1)
			for i := range n { // the definition, in the same order: exact
				for j := range c {
					w0[j] += x[i*xs] * g[i*gs+j]
					w1[j] += g[i*gs+j]
				}
			}
			for j := range c {
				if !(s0[j] == w0[j] || math.IsNaN(s0[j]) && math.IsNaN(w0[j])) || !(s1[j] == w1[j] || math.IsNaN(s1[j]) && math.IsNaN(w1[j])) {
					t.Fatalf("c=%d n=%d column %d: %v %v, want %v %v", c, n, j, s0[j], s1[j], w0[j], w1[j])
				}
			}
		}
	}
}

func TestColumnSumsNoAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	m, n := 100, 50
	g, s0, s1 := strided(rng, m, n, n), make([]float64, n), make([]float64, n)
	allocs := testing.AllocsPerRun(20, func() {
		ColumnSums(m, g, n, g, n, s0, s1)
	})
	if allocs != 0 {
		t.Errorf("%v allocations per call, want 0", allocs)
	}
}

// strided returns an r×c matrix with row stride ld ≥ c holding uniform
// values in [-1, 1); the padding holds a sentinel that no call may change.
func strided(rng *rand.Rand, r, c, ld int) []float64 {
	if r == 0 {
		return nil
	}
	m := make([]float64, (r-1)*ld+c)
	for i := range m {
		if i%ld < c {
			m[i] = 2*rng.Float64() - 1
		} else {
			m[i] = sentinel
		}
	}
	return m
}

const sentinel = -12345.678
