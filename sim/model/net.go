package model

import (
	"fmt"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// Layer locates one weight matrix of an Arch in a flat parameter slab:
// Rows = fan-in + 1 (the bias row last) by Cols, row-major from Off.
type Layer struct {
	Off, Rows, Cols int
	PriorStd        float64
}

// Net is a hand-written BLAS forward and backward pass of a ReLU network
// on n fixed inputs, for the methods whose hot loop is cheaper without the
// tape (the tape checks it: sim/mfvi/tape_test.go). It holds the
// activations of one evaluation and the gradients of its backward pass.
// Layer l's input is n × rows_l with a last column of ones that is written
// once, at construction: the bias by augmentation costs no copy.
type Net struct {
	n   int
	in  []float64   // n × 2: x, 1
	h   [][]float64 // hidden layer l's output: n × (cols_l + 1), ReLU then ones
	Out []float64   // n × 1: f(x), after Forward
	g   [][]float64 // d loss / d pre-activation of layer l: n × cols_l
	wt  [][]float64 // layer l's weights without the bias row, transposed
}

// NewNet returns the buffers for inputs xs; withGrad adds those of Backward.
func NewNet(layers []Layer, xs []float64, withGrad bool) *Net {
	n := len(xs)
	t := &Net{n: n, in: make([]float64, 2*n), Out: make([]float64, n)}
	for i, x := range xs {
		t.in[2*i], t.in[2*i+1] = x, 1
	}
	for l := 0; l < len(layers)-1; l++ {
		c := layers[l].Cols + 1
		h := make([]float64, n*c)
		for i := range n {
			h[i*c+c-1] = 1
		}
		t.h = append(t.h, h)
	}
	if withGrad {
		for _, ly := range layers {
			t.g = append(t.g, make([]float64, n*ly.Cols))
			t.wt = append(t.wt, make([]float64, (ly.Rows-1)*ly.Cols))
		}
	}
	return t
}

// input returns layer l's input matrix.
func (t *Net) input(layers []Layer, l int) blas64.General {
	if l == 0 {
		return blas64.General{Rows: t.n, Cols: 2, Stride: 2, Data: t.in}
	}
	c := layers[l].Rows
	return blas64.General{Rows: t.n, Cols: c, Stride: c, Data: t.h[l-1]}
}

func weights(ly Layer, w []float64) blas64.General {
	return blas64.General{Rows: ly.Rows, Cols: ly.Cols, Stride: ly.Cols, Data: w[ly.Off : ly.Off+ly.Rows*ly.Cols]}
}

// Forward evaluates the network with weights w (flat, layer after layer)
// into t.Out.
func (t *Net) Forward(layers []Layer, w []float64) {
	last := len(layers) - 1
	for l, ly := range layers {
		a := t.input(layers, l)
		b := weights(ly, w)
		if l == last {
			if ly.Cols == 1 {
				matVec(t.Out, a, b.Data)
			} else {
				blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, a, b, 0, blas64.General{Rows: t.n, Cols: 1, Stride: 1, Data: t.Out})
			}
			continue
		}
		// Write the pre-activation into the first cols columns of h, then
		// apply the ReLU in place; the ones column is untouched.
		c := ly.Cols
		h := t.h[l]
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, a, b, 0, blas64.General{Rows: t.n, Cols: c, Stride: c + 1, Data: h})
		for i := range t.n {
			row := h[i*(c+1) : i*(c+1)+c]
			for j, v := range row {
				if v < 0 {
					row[j] = 0
				}
			}
		}
	}
}

// Backward takes OutGrad() = d loss / d f, set by the caller after forward
// with the same w, and writes d loss / d w into dw (overwriting it).
//
// gonum's NoTrans·NoTrans and Trans·NoTrans kernels skip zero entries of the
// left operand, so every big product here keeps the ReLU's zeros on the
// left: forward H·W, dW = Hᵀ·G, and d loss/d H = G·Wᵀ with Wᵀ copied into
// wt (G is zero wherever the layer's ReLU was off). That halves the
// arithmetic of a ReLU network. A one-column layer (the output) is done by
// plain loops: a GEMM with one column would call its kernel per entry.
func (t *Net) Backward(layers []Layer, w, dw []float64) {
	for l := len(layers) - 1; l >= 0; l-- {
		ly := layers[l]
		a := t.input(layers, l)
		gl := t.g[l]
		if ly.Cols == 1 {
			vecMat(dw[ly.Off:ly.Off+ly.Rows], a, gl)
		} else {
			g := blas64.General{Rows: t.n, Cols: ly.Cols, Stride: ly.Cols, Data: gl}
			blas64.Gemm(blas.Trans, blas.NoTrans, 1, a, g, 0, weights(ly, dw))
		}
		if l == 0 {
			break
		}
		// d loss / d h_{l-1} = g·W_topᵀ (the bias row has no input to reach),
		// then through the ReLU: h > 0 exactly where the pre-activation was.
		c := ly.Rows - 1
		gp := t.g[l-1]
		h := t.h[l-1]
		if ly.Cols == 1 {
			wl := w[ly.Off : ly.Off+c]
			for i, gi := range gl {
				hr := h[i*(c+1) : i*(c+1)+c]
				gr := gp[i*c : i*c+c]
				for j, v := range hr {
					if v > 0 {
						gr[j] = gi * wl[j]
					} else {
						gr[j] = 0
					}
				}
			}
			continue
		}
		wt := t.wt[l]
		for i := range c {
			for j, v := range w[ly.Off+i*ly.Cols : ly.Off+(i+1)*ly.Cols] {
				wt[j*c+i] = v
			}
		}
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1,
			blas64.General{Rows: t.n, Cols: ly.Cols, Stride: ly.Cols, Data: gl},
			blas64.General{Rows: ly.Cols, Cols: c, Stride: c, Data: wt},
			0, blas64.General{Rows: t.n, Cols: c, Stride: c, Data: gp})
		for i := range t.n {
			hr := h[i*(c+1) : i*(c+1)+c]
			gr := gp[i*c : i*c+c]
			for j, v := range hr {
				if v <= 0 {
					gr[j] = 0
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

// OutGrad is where the caller writes d loss / d f before Backward.
func (t *Net) OutGrad() []float64 { return t.g[len(t.g)-1] }

// SetInputs replaces the inputs with xs, of the length the net was built
// for (measurement points that change every step reuse one net).
func (t *Net) SetInputs(xs []float64) {
	for i, x := range xs[:t.n] {
		t.in[2*i] = x
	}
}

// SameInputs reports whether the net holds exactly the inputs xs.
func (t *Net) SameInputs(xs []float64) bool {
	if t.n != len(xs) {
		return false
	}
	for i, x := range xs {
		if t.in[2*i] != x {
			return false
		}
	}
	return true
}

// WeightName names flat weight index by its layer, row and column (the
// bias row is the last of each layer's matrix); "" when out of range.
func WeightName(layers []Layer, index int) string {
	for l, ly := range layers {
		if index >= ly.Off && index < ly.Off+ly.Rows*ly.Cols {
			r, c := (index-ly.Off)/ly.Cols, (index-ly.Off)%ly.Cols
			if r == ly.Rows-1 {
				return fmt.Sprintf("layer %d, bias of unit %d", l+1, c+1)
			}
			return fmt.Sprintf("layer %d, input %d → unit %d", l+1, r+1, c+1)
		}
	}
	return ""
}
