package model

import (
	"math"
	"math/rand/v2"
	"testing"
)

// refForward is the network written out by definition, for Net to be
// checked against: f = W_L·relu(… relu(W_1·[x 1]) …) with biases last.
func refForward(layers []Layer, w []float64, x float64) []float64 {
	act := func(s float64) float64 {
		switch layers[0].Act {
		case Tanh:
			return math.Tanh(s)
		case ELU:
			if s > 0 {
				return s
			}
			return math.Exp(s) - 1
		}
		return max(s, 0)
	}
	a := []float64{x}
	for l, ly := range layers {
		out := make([]float64, ly.Cols)
		for j := range out {
			s := w[ly.Off+(ly.Rows-1)*ly.Cols+j] // bias row
			for i, v := range a {
				s += v * w[ly.Off+i*ly.Cols+j]
			}
			if l < len(layers)-1 {
				s = act(s)
			}
			out[j] = s
		}
		a = out
	}
	return a
}

// Net's fused first layer, deferred ReLU, one-column output and masked
// backward take different paths for different shapes: each shape is
// checked against the definition (forward) and central differences of
// L = Σ c·f (backward).
//
// Away from ReLU kinks f is linear in any single weight (every weight enters
// one factor of a product), so the central difference has no truncation
// error, only rounding: about ε·|L|/h ≈ 1e-16·100/1e-6 = 1e-8. A kink
// within h of a random point has probability about h·(density of
// pre-activations) ≈ 1e-6 per unit, negligible at these sizes. Tolerance
// 1e-6 (relative to max(1, |g|)) is two orders above the rounding.
//
// Tanh and ELU are smooth, so the central difference has a truncation
// error h^2 times L's third derivative over 6, about 1e-12 times O(100): far below the same
// tolerance. Every shape runs with every activation; {1, 3, 1, 7, 1} puts
// a width-one hidden layer between others and {1, 1} has no hidden layer.
func TestNetMatchesDefinitionAndFiniteDifferences(t *testing.T) {
	for _, tc := range archCases() {
		widths := tc.Widths
		arch := tc
		layers, p := Layout(arch)
		for l := range layers {
			layers[l].PriorStd = 1
		}
		r := rand.New(rand.NewPCG(uint64(len(widths)), uint64(widths[1])))
		w := make([]float64, p)
		HeInit(layers, w, r)
		xs := make([]float64, 13)
		for i := range xs {
			xs[i] = 4*r.Float64() - 2
		}
		outs := layers[len(layers)-1].Cols
		coef := make([]float64, len(xs)*outs)
		for i := range coef {
			coef[i] = r.NormFloat64()
		}
		net := NewNet(layers, xs, true)
		loss := func(w []float64) float64 {
			net.Forward(layers, w)
			var s float64
			for i, c := range coef {
				s += c * net.Out[i]
			}
			return s
		}

		net.Forward(layers, w)
		for i, x := range xs {
			want := refForward(layers, w, x)
			for k, v := range want {
				if got := net.Out[i*outs+k]; math.Abs(got-v) > 1e-12*math.Max(1, math.Abs(v)) {
					t.Fatalf("%v %v: f(%g)[%d] = %g, want %g", widths, arch.Act, x, k, got, v)
				}
			}
		}
		copy(net.OutGrad(), coef)
		dw := make([]float64, p)
		for i := range dw {
			dw[i] = math.NaN() // Backward must overwrite every entry
		}
		net.Backward(layers, w, dw)

		const h = 1e-6
		wp := append([]float64(nil), w...)
		for i := range w {
			wp[i] = w[i] + h
			up := loss(wp)
			wp[i] = w[i] - h
			down := loss(wp)
			wp[i] = w[i]
			fd := (up - down) / (2 * h)
			if math.Abs(dw[i]-fd) > 1e-6*math.Max(1, math.Abs(fd)) {
				t.Errorf("%v %v: dL/dw[%d] (%s) = %g, finite differences %g", widths, arch.Act, i, WeightName(layers, i), dw[i], fd)
			}
		}
	}
}

// archCases is every test shape with every activation.
func archCases() []Arch {
	var out []Arch
	for _, act := range []Activation{ReLU, Tanh, ELU} {
		for _, widths := range [][]int{{1, 1}, {1, 7, 1}, {1, 9, 6, 1}, {1, 5, 4, 3, 1}, {1, 3, 1, 7, 1}, {1, 7, 10, 1}} {
			out = append(out, Arch{Widths: widths, Act: act})
		}
	}
	return out
}
