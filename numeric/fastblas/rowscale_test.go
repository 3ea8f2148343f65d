package fastblas

import (
	"math"
	"math/rand/v2"
	"testing"
)

// RowScale matches its loop bit for bit (one product per value), for
// widths around the 4-lane blocks, strides wider than the rows, a
// broadcast z (zs = 0), and values with zeros, −0 and NaN.
func TestRowScaleMatchesDefinition(t *testing.T) {
	r := rand.New(rand.NewPCG(43, 44))
	for c := 1; c <= 13; c++ {
		for _, m := range []int{1, 2, 7, 100} {
			xs, zs, ys := c+r.IntN(3), r.IntN(3), c+r.IntN(3)
			x := make([]float64, (m-1)*xs+c)
			z := make([]float64, (m-1)*zs+1)
			fill(r, x, true)
			fill(r, z, true)
			y1 := make([]float64, (m-1)*ys+c)
			fill(r, y1, true)
			y2 := append([]float64(nil), y1...)
			RowScale(m, c, x, xs, z, zs, y1, ys)
			for i := range m {
				for j := range c {
					y2[i*ys+j] = x[i*xs+j] * z[i*zs]
				}
			}
			if i := sameBits(y1, y2); i >= 0 {
				t.Fatalf("c=%d m=%d: y[%d] = %v, want %v", c, m, i, y1[i], y2[i])
			}
		}
	}
}

// fill draws values of mixed sign and magnitude, with exact zeros, −0 and
// (when nan) NaN sprinkled in, as ReLU activations and their gradients have.
func fill(r *rand.Rand, s []float64, nan bool) {
	for i := range s {
		switch r.IntN(10) {
		case 0:
			s[i] = 0
		case 1:
			s[i] = math.Copysign(0, -1)
		case 2:
			if nan {
				s[i] = math.NaN()
				continue
			}
			fallthrough
		default:
			s[i] = r.NormFloat64() * math.Pow(2, float64(r.IntN(20)-10))
		}
	}
}

func sameBits(a, b []float64) int {
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return i
		}
	}
	return -1
}
