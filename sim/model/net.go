package model

import (
	"fmt"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/posterior-playground/playground/numeric"
)

// Layer locates one weight matrix of an Arch in a flat parameter slab:
// Rows = fan-in + 1 (the bias row last) by Cols, row-major from Off.
type Layer struct {
	Off, Rows, Cols int
	PriorStd        float64
	// Act is the network's hidden nonlinearity, the same in every layer
	// (Layout copies Arch.Act); a layer's own output takes it unless the
	// layer is the last.
	Act Activation
}

// Net is a hand-written BLAS forward and backward pass of the network
// on n fixed inputs, for the methods whose hot loop is cheaper without the
// tape (the tape checks it: sim/mfvi/tape_test.go). It holds the
// activations of one evaluation and the gradients of its backward pass.
// Layer l's input is n × rows_l with a last column of ones that is written
// once, at construction: the bias by augmentation costs no copy. ReLU takes
// fused kernels (below); tanh and elu a plain path (net_smooth.go).
type Net struct {
	n   int
	in  []float64   // n × 2: x, 1
	h   [][]float64 // hidden layer l's output: n × (cols_l + 1), activation then ones
	Out []float64   // n × 1: f(x), after Forward
	g   [][]float64 // d loss / d pre-activation of layer l: n × cols_l
	sp  *spans      // the first layer on sorted inputs (UseSpans), or nil
	tmp []float64   // ELU's e^x, as long as the largest h
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
		if layers[l].Act == ELU && len(h) > len(t.tmp) {
			t.tmp = make([]float64, len(h))
		}
	}
	if withGrad {
		for _, ly := range layers {
			t.g = append(t.g, make([]float64, n*ly.Cols))
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
//
// Three passes are fused away from the plain GEMM-then-ReLU sequence: the
// first layer (inputs x and 1) is h = max(x·w₀ + w₁, 0) in one loop, since
// a product with k = 2 is all overhead in a blocked GEMM; a hidden layer
// feeding a one-column output leaves its ReLU to the output's loop, which
// applies it while it takes the dot products; and the output of one column
// is that loop rather than a matrix–vector product.
//
// Tanh and ELU take the plain path: GEMM, then the activation in place.
func (t *Net) Forward(layers []Layer, w []float64) {
	last := len(layers) - 1
	if layers[0].Act != ReLU {
		t.forwardSmooth(layers, w)
		return
	}
	useSpans := t.spansFit(layers, w)
	for l, ly := range layers {
		c := ly.Cols
		if l == last && c == 1 {
			a := t.input(layers, l)
			if l == 0 {
				matVec(t.Out, a, w[ly.Off:ly.Off+ly.Rows])
				continue
			}
			reluMatVec(t.Out, a, w[ly.Off:ly.Off+ly.Rows])
			continue
		}
		if l == last {
			blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, t.input(layers, l), weights(ly, w), 0, blas64.General{Rows: t.n, Cols: c, Stride: c, Data: t.Out})
			continue
		}
		h := t.h[l]
		if l == 0 && useSpans {
			continue // forward01 takes the first two layers
		}
		if l == 0 && ly.Rows == 2 {
			numeric.ReLUAffine(t.n, t.in, 2, w[ly.Off:ly.Off+c], w[ly.Off+c:ly.Off+2*c], h, c+1)
			continue
		}
		// Write the pre-activation into the first c columns of h, then
		// apply the ReLU in place (or leave it to the output's loop); the
		// ones column is untouched.
		if l == 1 && useSpans {
			t.forward01(layers, w, h)
		} else {
			blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, t.input(layers, l), weights(ly, w), 0, blas64.General{Rows: t.n, Cols: c, Stride: c + 1, Data: h})
		}
		if l+1 == last && layers[last].Cols == 1 {
			continue
		}
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
// A hidden layer's d loss / d h = G·W_topᵀ is one GEMM that reads W
// transposed where it lies, then the ReLU's mask. As in Forward, the thin
// ends are loops: a one-column output takes its weight gradient and the
// masked gradient of the layer below in one pass over h, and the first
// layer (inputs x and 1) applies its mask while it sums its two rows of
// dW, so its masked gradient is never written.
func (t *Net) Backward(layers []Layer, w, dw []float64) {
	if layers[0].Act != ReLU {
		t.backwardSmooth(layers, w, dw)
		return
	}
	for l := len(layers) - 1; l >= 0; l-- {
		ly := layers[l]
		gl := t.g[l]
		c := ly.Rows - 1
		switch {
		case ly.Cols == 1 && l == 0:
			vecMat(dw[ly.Off:ly.Off+ly.Rows], t.input(layers, l), gl)
			return
		case ly.Cols == 1:
			// dw = hᵀg and d loss/d h = g·wᵀ through the ReLU (h > 0
			// exactly where the pre-activation was), in one pass.
			dwl := dw[ly.Off : ly.Off+ly.Rows]
			clear(dwl)
			numeric.ReLUOutputBackward(t.n, gl, t.h[l-1], c+1, w[ly.Off:ly.Off+c], dwl[:c], t.g[l-1], c)
			var bias float64
			for _, gi := range gl {
				bias += gi
			}
			dwl[c] = bias
			continue
		case l == 0 && ly.Rows == 2 && len(layers) > 1:
			// dW = [x 1]ᵀ·(G masked by h > 0); G is not masked yet when
			// a GEMM layer wrote it.
			n := ly.Cols
			d0, d1 := dw[ly.Off:ly.Off+n], dw[ly.Off+n:ly.Off+2*n]
			clear(d0)
			clear(d1)
			numeric.ReLUInputBackward(t.n, t.in, 2, t.h[0], n+1, gl, n, d0, d1)
			return
		}
		if l == 1 && t.sp != nil && t.sp.on {
			t.backward01(layers, gl, dw)
			return
		}
		g := blas64.General{Rows: t.n, Cols: ly.Cols, Stride: ly.Cols, Data: gl}
		blas64.Gemm(blas.Trans, blas.NoTrans, 1, t.input(layers, l), g, 0, weights(ly, dw))
		if l == 0 {
			return
		}
		// d loss / d h_{l-1} = G·W_topᵀ (the bias row has no input to reach).
		gp := t.g[l-1]
		wtop := blas64.General{Rows: c, Cols: ly.Cols, Stride: ly.Cols, Data: w[ly.Off : ly.Off+c*ly.Cols]}
		blas64.Gemm(blas.NoTrans, blas.Trans, 1, g, wtop, 0, blas64.General{Rows: t.n, Cols: c, Stride: c, Data: gp})
		if l == 1 && layers[0].Rows == 2 {
			continue // the first layer's loop applies its mask
		}
		h := t.h[l-1]
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

// reluMatVec is matVec after the ReLU of a's columns but the last (the
// ones), which it applies to a in place (numeric.ReLUMatVec: four rows at
// a time on AVX2, each row's sum in column order, so the result is one row
// at a time's bit for bit).
func reluMatVec(dst []float64, a blas64.General, v []float64) {
	numeric.ReLUMatVec(dst, a.Data, a.Stride, v[:a.Cols])
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
	if t.sp != nil && !t.sortedInputs() {
		t.sp = nil // spans need sorted inputs: back to the dense path
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
