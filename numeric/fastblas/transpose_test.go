package fastblas

import (
	"math/rand/v2"
	"testing"
)

// Transpose moves every element to its mirrored place and nothing else,
// for shapes around the 4×4 blocks and strides wider than the rows.
func TestTranspose(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for _, r := range []int{1, 3, 4, 5, 8, 13, 51} {
		for _, c := range []int{1, 2, 4, 7, 12, 50} {
			lds, ldd := c+rng.IntN(3), r+rng.IntN(3)
			src := make([]float64, (r-1)*lds+c)
			for i := range src {
				src[i] = rng.NormFloat64()
			}
			dst := make([]float64, (c-1)*ldd+r)
			for i := range dst {
				dst[i] = sentinel
			}
			Transpose(dst, ldd, src, lds, r, c)
			for j := range c {
				for i := range ldd {
					idx := j*ldd + i
					if idx >= len(dst) {
						break
					}
					want := sentinel
					if i < r {
						want = src[i*lds+j]
					}
					if dst[idx] != want {
						t.Fatalf("r=%d c=%d: dst[%d,%d] = %v, want %v", r, c, j, i, dst[idx], want)
					}
				}
			}
		}
	}
}
