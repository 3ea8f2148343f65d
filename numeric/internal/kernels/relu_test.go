package kernels

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The scalar definitions, as model.Net wrote them before the kernels.
func reluAffineRef(n int, x []float64, xs int, w0, w1, h []float64, hs int) {
	for i := range n {
		for j := range w0 {
			v := x[i*xs]*w0[j] + w1[j]
			if v < 0 {
				v = 0
			}
			h[i*hs+j] = v
		}
	}
}

func reluOutBackRef(n int, g, h []float64, hs int, w, dw, gp []float64, gs int) {
	for i := range n {
		for j := range w {
			v := h[i*hs+j]
			dw[j] += g[i] * v
			if v > 0 {
				gp[i*gs+j] = g[i] * w[j]
			} else {
				gp[i*gs+j] = 0
			}
		}
	}
}

func reluInBackRef(n int, x []float64, xs int, h []float64, hs int, g []float64, gs int, d0, d1 []float64) {
	for i := range n {
		for j := range d0 {
			if h[i*hs+j] > 0 {
				d0[j] += x[i*xs] * g[i*gs+j]
				d1[j] += g[i*gs+j]
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

// Each kernel gives its scalar definition's results bit for bit, for every
// width around the 4-lane blocks, row strides wider than the rows, inputs
// with zeros, −0 and NaN, and sums continued from nonzero values.
func TestReLURowKernelsMatchDefinitions(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for c := 1; c <= 13; c++ {
		for _, n := range []int{1, 2, 7} {
			hs, gs, xs := c+1+r.IntN(3), c+r.IntN(3), 1+r.IntN(3)
			x := make([]float64, (n-1)*xs+1)
			fill(r, x, false)
			w0, w1 := make([]float64, c), make([]float64, c)
			fill(r, w0, true)
			fill(r, w1, true)
			h1, h2 := make([]float64, (n-1)*hs+c), make([]float64, (n-1)*hs+c)
			ReLUAffine(n, x, xs, w0, w1, h1, hs)
			reluAffineRef(n, x, xs, w0, w1, h2, hs)
			if i := sameBits(h1, h2); i >= 0 {
				t.Fatalf("ReLUAffine c=%d n=%d: h[%d] = %v, want %v", c, n, i, h1[i], h2[i])
			}

			h := make([]float64, (n-1)*hs+c)
			fill(r, h, true)
			g := make([]float64, (n-1)*gs+c)
			fill(r, g, true)
			gv := make([]float64, n)
			fill(r, gv, false)
			w := make([]float64, c)
			fill(r, w, false)
			dw1 := make([]float64, c)
			for j := range dw1 {
				dw1[j] = r.NormFloat64()
			}
			dw2 := append([]float64(nil), dw1...)
			gp1, gp2 := make([]float64, (n-1)*gs+c), make([]float64, (n-1)*gs+c)
			ReLUOutputBackward(n, gv, h, hs, w, dw1, gp1, gs)
			reluOutBackRef(n, gv, h, hs, w, dw2, gp2, gs)
			if i := sameBits(dw1, dw2); i >= 0 {
				t.Fatalf("ReLUOutputBackward c=%d n=%d: dw[%d] = %v, want %v", c, n, i, dw1[i], dw2[i])
			}
			if i := sameBits(gp1, gp2); i >= 0 {
				t.Fatalf("ReLUOutputBackward c=%d n=%d: gp[%d] = %v, want %v", c, n, i, gp1[i], gp2[i])
			}

			fill(r, g, false) // finite where masked off too: the loop skips NaN there, the kernel masks it
			d01, d11 := make([]float64, c), make([]float64, c)
			for j := range d01 {
				d01[j], d11[j] = r.NormFloat64(), r.NormFloat64()
			}
			d02, d12 := append([]float64(nil), d01...), append([]float64(nil), d11...)
			ReLUInputBackward(n, x, xs, h, hs, g, gs, d01, d11)
			reluInBackRef(n, x, xs, h, hs, g, gs, d02, d12)
			if i := sameBits(d01, d02); i >= 0 {
				t.Fatalf("ReLUInputBackward c=%d n=%d: d0[%d] = %v, want %v", c, n, i, d01[i], d02[i])
			}
			if i := sameBits(d11, d12); i >= 0 {
				t.Fatalf("ReLUInputBackward c=%d n=%d: d1[%d] = %v, want %v", c, n, i, d11[i], d12[i])
			}
		}
	}
}

func TestReLURowKernelsCheckLengths(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("ReLUAffine with a short h did not panic")
		}
	}()
	ReLUAffine(3, make([]float64, 6), 2, make([]float64, 8), make([]float64, 8), make([]float64, 8*3-1), 8)
}

func reluMatVecRef(dst, a []float64, as int, v []float64) {
	c := len(v) - 1
	for i := range dst {
		var s float64
		for j := range c {
			x := a[i*as+j]
			if x < 0 {
				x = 0
				a[i*as+j] = 0
			}
			s += x * v[j]
		}
		dst[i] = s + a[i*as+c]*v[c]
	}
}

// ReLUMatVec rectifies a and sums each row as its scalar definition does,
// bit for bit, for row and column counts around the kernel's 4×4 blocks,
// row strides wider than the rows, and activations with zeros, −0 and NaN.
func TestReLUMatVecMatchesDefinition(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 10))
	for c := 0; c <= 13; c++ { // c hidden units and the bias column
		for _, n := range []int{1, 3, 4, 5, 8, 11, 100} {
			as := c + 1 + r.IntN(3)
			a1 := make([]float64, (n-1)*as+c+1)
			fill(r, a1, true)
			a2 := append([]float64(nil), a1...)
			v := make([]float64, c+1)
			fill(r, v, false)
			d1, d2 := make([]float64, n), make([]float64, n)
			fill(r, d1, false) // overwritten, never read
			ReLUMatVec(d1, a1, as, v)
			reluMatVecRef(d2, a2, as, v)
			if i := sameBits(d1, d2); i >= 0 {
				t.Fatalf("ReLUMatVec c=%d n=%d: dst[%d] = %v, want %v", c, n, i, d1[i], d2[i])
			}
			if i := sameBits(a1, a2); i >= 0 {
				t.Fatalf("ReLUMatVec c=%d n=%d: a[%d] = %v, want %v", c, n, i, a1[i], a2[i])
			}
		}
	}
}
