package kernels

import (
	"math/rand/v2"
	"testing"
)

// rowScaleDotRef is RowScaleDot's definition as a plain loop.
func rowScaleDotRef(m, c int, g []float64, gs int, a []float64, as int, z []float64, zs int, ga []float64, gas int, dot []float64) {
	for i := range m {
		var s [4]float64
		c4 := c &^ 3
		for j := range c {
			ga[i*gas+j] += g[i*gs+j] * z[i*zs]
			l := j % 4
			if j >= c4 {
				l = 0
			}
			s[l] += g[i*gs+j] * a[i*as+j]
		}
		dot[i] = (s[0] + s[1]) + (s[2] + s[3])
	}
}

// RowScaleDot matches its definition bit for bit for widths around the
// 4-lane blocks, strides wider than the rows, and values with zeros, −0
// and NaN.
func TestRowScaleDotMatchesDefinition(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	for c := 0; c <= 13; c++ {
		for _, m := range []int{1, 2, 7, 100} {
			gs, as, zs, gas := c+r.IntN(3), c+r.IntN(3), r.IntN(3), c+r.IntN(3) // zs = 0 broadcasts
			g := make([]float64, (m-1)*gs+c)
			a := make([]float64, (m-1)*as+c)
			z := make([]float64, (m-1)*zs+1)
			fill(r, g, true)
			fill(r, a, true)
			fill(r, z, false)
			ga1 := make([]float64, (m-1)*gas+c)
			fill(r, ga1, true)
			ga2 := append([]float64(nil), ga1...)
			d1, d2 := make([]float64, m), make([]float64, m)
			RowScaleDot(m, c, g, gs, a, as, z, zs, ga1, gas, d1, make([]float64, 4*m))
			rowScaleDotRef(m, c, g, gs, a, as, z, zs, ga2, gas, d2)
			if i := sameBits(ga1, ga2); i >= 0 {
				t.Fatalf("c=%d m=%d: ga[%d] = %v, want %v", c, m, i, ga1[i], ga2[i])
			}
			if i := sameBits(d1, d2); i >= 0 {
				t.Fatalf("c=%d m=%d: dot[%d] = %v, want %v", c, m, i, d1[i], d2[i])
			}
		}
	}
}
