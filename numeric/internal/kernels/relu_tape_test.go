package kernels

import (
	"math/rand/v2"
	"testing"
)

// ReLURows and ReLUMaskAdd give their scalar definitions' results bit for
// bit (the tape's loops before the kernels), for every width around the
// 4-lane blocks, row strides wider than the rows, and x, g and d with
// zeros, −0 and NaN (a −0 in d where x ≤ 0 must stay −0).
func TestReLUTapeKernelsMatchDefinitions(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for c := 1; c <= 13; c++ {
		for _, n := range []int{1, 2, 7, 100} {
			xs, ys, gs, ds := c+r.IntN(3), c+1+r.IntN(3), c+r.IntN(3), c+r.IntN(3)
			x := make([]float64, (n-1)*xs+c)
			fill(r, x, true)
			y1, y2 := make([]float64, (n-1)*ys+c+1), make([]float64, (n-1)*ys+c+1)
			fill(r, y1, true)
			copy(y2, y1) // entries outside the rows must stay as they are
			ReLURows(n, c, x, xs, y1, ys)
			for i := range n {
				for j := range c {
					y2[i*ys+j] = max(x[i*xs+j], 0)
				}
			}
			if i := sameBits(y1, y2); i >= 0 {
				t.Fatalf("ReLURows c=%d n=%d: y[%d] = %v, want %v", c, n, i, y1[i], y2[i])
			}

			g := make([]float64, (n-1)*gs+c)
			fill(r, g, true)
			d1, d2 := make([]float64, (n-1)*ds+c), make([]float64, (n-1)*ds+c)
			fill(r, d1, true)
			copy(d2, d1)
			ReLUMaskAdd(n, c, g, gs, x, xs, d1, ds)
			for i := range n {
				for j := range c {
					if x[i*xs+j] > 0 {
						d2[i*ds+j] += g[i*gs+j]
					}
				}
			}
			if i := sameBits(d1, d2); i >= 0 {
				t.Fatalf("ReLUMaskAdd c=%d n=%d: d[%d] = %v, want %v", c, n, i, d1[i], d2[i])
			}

			// ReLUMaskSet leaves what ReLUMaskAdd leaves in a cleared d
			// (rows only; the padding between rows is kept).
			d3, d4 := make([]float64, len(d1)), make([]float64, len(d1))
			fill(r, d3, true)
			copy(d4, d3)
			for i := range n {
				clear(d4[i*ds : i*ds+c])
			}
			ReLUMaskSet(n, c, g, gs, x, xs, d3, ds)
			ReLUMaskAdd(n, c, g, gs, x, xs, d4, ds)
			if i := sameBits(d3, d4); i >= 0 {
				t.Fatalf("ReLUMaskSet c=%d n=%d: d[%d] = %v, want %v", c, n, i, d3[i], d4[i])
			}
		}
	}
}

func TestReLUTapeKernelsCheckLengths(t *testing.T) {
	for name, f := range map[string]func(){
		"ReLURows":    func() { ReLURows(3, 8, make([]float64, 24), 8, make([]float64, 23), 8) },
		"ReLUMaskAdd": func() { ReLUMaskAdd(3, 8, make([]float64, 24), 8, make([]float64, 24), 8, make([]float64, 20), 8) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s with a short slice did not panic", name)
				}
			}()
			f()
		}()
	}
}
