package model

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/posterior-playground/playground/numeric"
)

// forwardSmooth is Forward for an activation other than ReLU: each layer is
// a GEMM (a loop for the thin first and last layers) and the activation is
// applied in place to the hidden outputs.
func (t *Net) forwardSmooth(layers []Layer, w []float64) {
	last := len(layers) - 1
	for l, ly := range layers {
		c := ly.Cols
		if l == last {
			if c == 1 {
				matVec(t.Out, t.input(layers, l), w[ly.Off:ly.Off+ly.Rows])
				continue
			}
			blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, t.input(layers, l), weights(ly, w), 0, blas64.General{Rows: t.n, Cols: c, Stride: c, Data: t.Out})
			continue
		}
		h := t.h[l]
		if l == 0 && ly.Rows == 2 {
			w0, w1 := w[ly.Off:ly.Off+c], w[ly.Off+c:ly.Off+2*c]
			for i := range t.n {
				x := t.in[2*i]
				row := h[i*(c+1) : i*(c+1)+c]
				for j := range row {
					row[j] = x*w0[j] + w1[j]
				}
			}
		} else {
			blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, t.input(layers, l), weights(ly, w), 0, blas64.General{Rows: t.n, Cols: c, Stride: c + 1, Data: h})
		}
		if ly.Act == ELU {
			t.elu(h)
			continue
		}
		for i := range t.n {
			activate(ly.Act, h[i*(c+1):i*(c+1)+c])
		}
	}
}

// elu applies the ELU in place to a hidden layer's output h, ones column
// included (1 > 0 is left as it is): e^x − 1 where x ≤ 0, with every e^x
// of the layer from one numeric.ExpTo call (math.Expm1 one element at a
// time was half of a NUTS gradient on the LIVI toy network). e^x is within
// 2 ulp, so e^x − 1 is within about 3·10⁻¹⁶ of expm1(x) in absolute terms
// (relative accuracy is lost only where |x| < 10⁻³, for a value that
// small): below the rounding of the next layer's sums of such values.
func (t *Net) elu(h []float64) {
	if len(t.tmp) < len(h) { // NewNet sizes it; layers given later may differ
		t.tmp = make([]float64, len(h))
	}
	e := t.tmp[:len(h)]
	numeric.ExpTo(e, h)
	// max(x, 0) + min(e^x − 1, 0) without a branch (the signs are
	// random): x + 0 for x > 0 (including the ones), 0 + (e^x − 1)
	// otherwise, NaN for NaN.
	for k, x := range h {
		h[k] = max(x, 0) + min(e[k]-1, 0)
	}
}

// backwardSmooth is Backward for an activation other than ReLU. Each
// hidden layer's gradient is multiplied by the activation's derivative as
// it is written, so g[l] is always d loss / d pre-activation.
func (t *Net) backwardSmooth(layers []Layer, w, dw []float64) {
	for l := len(layers) - 1; l >= 0; l-- {
		ly := layers[l]
		gl := t.g[l]
		c := ly.Rows - 1
		if ly.Cols == 1 {
			vecMat(dw[ly.Off:ly.Off+ly.Rows], t.input(layers, l), gl)
		} else {
			g := blas64.General{Rows: t.n, Cols: ly.Cols, Stride: ly.Cols, Data: gl}
			blas64.Gemm(blas.Trans, blas.NoTrans, 1, t.input(layers, l), g, 0, weights(ly, dw))
		}
		if l == 0 {
			return
		}
		gp := t.g[l-1]
		if ly.Cols == 1 {
			wl := w[ly.Off : ly.Off+c]
			for i, gi := range gl {
				row := gp[i*c : i*c+c]
				for j, wj := range wl {
					row[j] = gi * wj
				}
			}
		} else {
			g := blas64.General{Rows: t.n, Cols: ly.Cols, Stride: ly.Cols, Data: gl}
			wtop := blas64.General{Rows: c, Cols: ly.Cols, Stride: ly.Cols, Data: w[ly.Off : ly.Off+c*ly.Cols]}
			blas64.Gemm(blas.NoTrans, blas.Trans, 1, g, wtop, 0, blas64.General{Rows: t.n, Cols: c, Stride: c, Data: gp})
		}
		h := t.h[l-1]
		for i := range t.n {
			mulDeriv(ly.Act, gp[i*c:i*c+c], h[i*(c+1):i*(c+1)+c])
		}
	}
}

// activate applies a (tanh or ReLU: ELU goes through Net.elu, a layer at a
// time) to xs in place; the switch is outside the loops.
func activate(a Activation, xs []float64) {
	switch a {
	case Tanh:
		for j, x := range xs {
			xs[j] = math.Tanh(x)
		}
	default:
		for j, x := range xs {
			if x < 0 {
				xs[j] = 0
			}
		}
	}
}

// mulDeriv multiplies g by a's derivative at the pre-activations whose
// outputs are y (for these activations the output determines it).
func mulDeriv(a Activation, g, y []float64) {
	y = y[:len(g)]
	switch a {
	case Tanh:
		for j, v := range y {
			g[j] *= 1 - v*v
		}
	case ELU:
		// 1 where y > 0, y + 1 = e^x elsewhere, without a branch (a NaN
		// activation now makes its gradient NaN too).
		for j, v := range y {
			g[j] *= min(v, 0) + 1
		}
	default:
		for j, v := range y {
			if v <= 0 {
				g[j] = 0
			}
		}
	}
}
