package model

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/posterior-playground/playground/numeric"
)

// Net's gradient of L = Σ c·f against the numeric tape's, which records the
// same network with its own ReLU, Tanh and ELU: two independent
// implementations that agree to rounding (1e-10 relative, the products of
// a few dozen terms of order one).
func TestNetMatchesTape(t *testing.T) {
	for _, arch := range archCases() {
		layers, p := Layout(arch)
		r := rand.New(rand.NewPCG(7, uint64(len(arch.Widths))))
		w := make([]float64, p)
		HeInit(layers, w, r)
		xs := make([]float64, 11)
		for i := range xs {
			xs[i] = 4*r.Float64() - 2
		}
		coef := make([]float64, len(xs))
		for i := range coef {
			coef[i] = r.NormFloat64()
		}
		net := NewNet(layers, xs, true)
		net.Forward(layers, w)
		copy(net.OutGrad(), coef)
		dw := make([]float64, p)
		net.Backward(layers, w, dw)

		tp := numeric.NewTape()
		h := tp.AppendOnes(tp.Const(mat.NewDense(len(xs), 1, xs)))
		var params []numeric.Var
		for l, ly := range layers {
			wl := tp.Param(mat.NewDense(ly.Rows, ly.Cols, append([]float64(nil), w[ly.Off:ly.Off+ly.Rows*ly.Cols]...)))
			params = append(params, wl)
			f := tp.MatMul(h, wl, false, false)
			if l == len(layers)-1 {
				h = f
				continue
			}
			switch arch.Act {
			case Tanh:
				f = tp.Tanh(f)
			case ELU:
				f = tp.ELU(f)
			default:
				f = tp.ReLU(f)
			}
			h = tp.AppendOnes(f)
		}
		loss := tp.Sum(tp.Mul(h, tp.Const(mat.NewDense(len(xs), 1, coef))))
		tp.Backward(loss)
		for l, ly := range layers {
			g := tp.Grad(params[l])
			for i := range ly.Rows {
				for j := range ly.Cols {
					got, want := dw[ly.Off+i*ly.Cols+j], g.At(i, j)
					if math.Abs(got-want) > 1e-10*math.Max(1, math.Abs(want)) {
						t.Errorf("%v %v: layer %d (%d, %d): Net %g, tape %g", arch.Widths, arch.Act, l, i, j, got, want)
					}
				}
			}
		}
	}
}

// A forward and backward pass allocates nothing, whatever the activation.
func TestNetAllocsPerActivation(t *testing.T) {
	for _, act := range []Activation{ReLU, Tanh, ELU} {
		layers, p := Layout(Arch{Widths: []int{1, 7, 10, 1}, Act: act})
		w := make([]float64, p)
		HeInit(layers, w, rand.New(rand.NewPCG(1, 2)))
		xs := []float64{-1, -0.5, 0, 0.5, 1}
		net := NewNet(layers, xs, true)
		dw := make([]float64, p)
		if a := testing.AllocsPerRun(20, func() {
			net.Forward(layers, w)
			copy(net.OutGrad(), net.Out)
			net.Backward(layers, w, dw)
		}); a != 0 {
			t.Errorf("%v: %g allocations per pass, want 0", act, a)
		}
	}
}

// BenchmarkNet is one forward and backward pass on 100 inputs through the
// GIP notebook's 1 → 50 → 50 → 1 network, per activation: relu takes the
// fused kernels, tanh and elu the plain GEMM path.
func BenchmarkNet(b *testing.B) {
	for _, act := range []Activation{ReLU, Tanh, ELU} {
		b.Run(act.String(), func(b *testing.B) {
			a := DefaultArch()
			a.Act = act
			layers, p := Layout(a)
			w := make([]float64, p)
			HeInit(layers, w, rand.New(rand.NewPCG(1, 2)))
			xs := make([]float64, 100)
			for i := range xs {
				xs[i] = -2 + 4*float64(i)/99
			}
			net := NewNet(layers, xs, true)
			dw := make([]float64, p)
			b.ReportAllocs()
			for b.Loop() {
				net.Forward(layers, w)
				copy(net.OutGrad(), net.Out)
				net.Backward(layers, w, dw)
			}
		})
	}
}
