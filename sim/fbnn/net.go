package fbnn

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// layer locates one weight matrix (rows = fan-in + 1, bias row last) in the
// flat parameter slabs.
type layer struct{ off, rows, cols int }

// net holds the activations of k networks (one per particle, each with its
// own weights) evaluated on the same n inputs, and the buffers of their
// backward passes. Every hidden activation has a last column of ones,
// written once at construction, so the bias by augmentation costs no copy.
// This is the hand-written BLAS pass of package mfvi, extended to particles:
// all k activations are kept because the gradient with respect to f is only
// known after every particle has been evaluated (SSGE needs them all).
type net struct {
	n, k int
	in   []float64     // n × 2: x, 1 (shared by the particles)
	h    [][][]float64 // h[i][l]: particle i's layer-l output, n × (cols_l + 1)
	out  []float64     // k × n: f_i(x_j)
	g    [][]float64   // d loss / d pre-activation of layer l: n × cols_l
	wt   [][]float64   // layer l's weights without the bias row, transposed
}

func newNet(layers []layer, n, k int, withGrad bool) *net {
	t := &net{n: n, k: k, in: make([]float64, 2*n), out: make([]float64, k*n)}
	for j := range n {
		t.in[2*j+1] = 1
	}
	t.h = make([][][]float64, k)
	for i := range k {
		for l := 0; l < len(layers)-1; l++ {
			c := layers[l].cols + 1
			h := make([]float64, n*c)
			for j := range n {
				h[j*c+c-1] = 1
			}
			t.h[i] = append(t.h[i], h)
		}
	}
	if withGrad {
		for _, ly := range layers {
			t.g = append(t.g, make([]float64, n*ly.cols))
			t.wt = append(t.wt, make([]float64, (ly.rows-1)*ly.cols))
		}
	}
	return t
}

// setInputs writes xs (length n) into the input column.
func (t *net) setInputs(xs []float64) {
	for j, x := range xs {
		t.in[2*j] = x
	}
}

// input returns particle i's layer-l input matrix.
func (t *net) input(layers []layer, i, l int) blas64.General {
	if l == 0 {
		return blas64.General{Rows: t.n, Cols: 2, Stride: 2, Data: t.in}
	}
	c := layers[l].rows
	return blas64.General{Rows: t.n, Cols: c, Stride: c, Data: t.h[i][l-1]}
}

func weights(ly layer, w []float64) blas64.General {
	return blas64.General{Rows: ly.rows, Cols: ly.cols, Stride: ly.cols, Data: w[ly.off : ly.off+ly.rows*ly.cols]}
}

// forward evaluates particle i's network with weights w into row i of out.
func (t *net) forward(layers []layer, i int, w []float64) {
	last := len(layers) - 1
	out := t.out[i*t.n : (i+1)*t.n]
	for l, ly := range layers {
		a := t.input(layers, i, l)
		b := weights(ly, w)
		if l == last {
			// The output layer has one column: a GEMM would call its kernel
			// per entry.
			matVec(out, a, b.Data)
			continue
		}
		// Pre-activation into the first cols columns, ReLU in place; the
		// ones column is untouched.
		c := ly.cols
		h := t.h[i][l]
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, a, b, 0, blas64.General{Rows: t.n, Cols: c, Stride: c + 1, Data: h})
		for j := range t.n {
			row := h[j*(c+1) : j*(c+1)+c]
			for q, v := range row {
				if v < 0 {
					row[q] = 0
				}
			}
		}
	}
}

// backward takes gf = d loss / d f_i (length n) for particle i, evaluated
// by forward with the same w, and writes d loss / d w into dw (overwriting
// it). As in mfvi, the ReLU's zeros stay on the left of every product, where
// gonum's kernels skip them.
func (t *net) backward(layers []layer, i int, w, gf, dw []float64) {
	last := len(layers) - 1
	copy(t.g[last], gf)
	for l := last; l >= 0; l-- {
		ly := layers[l]
		a := t.input(layers, i, l)
		gl := t.g[l]
		if ly.cols == 1 {
			vecMat(dw[ly.off:ly.off+ly.rows], a, gl)
		} else {
			g := blas64.General{Rows: t.n, Cols: ly.cols, Stride: ly.cols, Data: gl}
			blas64.Gemm(blas.Trans, blas.NoTrans, 1, a, g, 0, weights(ly, dw))
		}
		if l == 0 {
			break
		}
		// d loss / d h_{l-1} = g·W_topᵀ (the bias row has no input), then
		// through the ReLU: h > 0 exactly where the pre-activation was.
		c := ly.rows - 1
		gp := t.g[l-1]
		h := t.h[i][l-1]
		if ly.cols == 1 {
			wl := w[ly.off : ly.off+c]
			for j, gj := range gl {
				hr := h[j*(c+1) : j*(c+1)+c]
				gr := gp[j*c : j*c+c]
				for q, v := range hr {
					if v > 0 {
						gr[q] = gj * wl[q]
					} else {
						gr[q] = 0
					}
				}
			}
			continue
		}
		wt := t.wt[l]
		for r := range c {
			for q, v := range w[ly.off+r*ly.cols : ly.off+(r+1)*ly.cols] {
				wt[q*c+r] = v
			}
		}
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1,
			blas64.General{Rows: t.n, Cols: ly.cols, Stride: ly.cols, Data: gl},
			blas64.General{Rows: ly.cols, Cols: c, Stride: c, Data: wt},
			0, blas64.General{Rows: t.n, Cols: c, Stride: c, Data: gp})
		for j := range t.n {
			hr := h[j*(c+1) : j*(c+1)+c]
			gr := gp[j*c : j*c+c]
			for q, v := range hr {
				if v <= 0 {
					gr[q] = 0
				}
			}
		}
	}
}

// matVec sets dst = a·v for a vector v of length a.Cols.
func matVec(dst []float64, a blas64.General, v []float64) {
	v = v[:a.Cols]
	for i := range dst {
		row := a.Data[i*a.Stride : i*a.Stride+a.Cols]
		var s float64
		for j, x := range row {
			s += x * v[j]
		}
		dst[i] = s
	}
}

// vecMat sets dst = aᵀ·g for a vector g of length a.Rows.
func vecMat(dst []float64, a blas64.General, g []float64) {
	dst = dst[:a.Cols]
	clear(dst)
	for i, gi := range g[:a.Rows] {
		if gi == 0 {
			continue
		}
		row := a.Data[i*a.Stride : i*a.Stride+a.Cols]
		for j, x := range row {
			dst[j] += gi * x
		}
	}
}
