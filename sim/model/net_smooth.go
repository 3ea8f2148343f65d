package model

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
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
		for i := range t.n {
			activate(ly.Act, h[i*(c+1):i*(c+1)+c])
		}
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

// activate applies a to xs in place; the switch is outside the loops.
func activate(a Activation, xs []float64) {
	switch a {
	case Tanh:
		for j, x := range xs {
			xs[j] = math.Tanh(x)
		}
	case ELU:
		for j, x := range xs {
			if x <= 0 {
				xs[j] = math.Expm1(x)
			}
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
		for j, v := range y {
			if v <= 0 {
				g[j] *= v + 1
			}
		}
	default:
		for j, v := range y {
			if v <= 0 {
				g[j] = 0
			}
		}
	}
}
