package model

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestNetSpansMatchDense checks Net.UseSpans' path against the dense path
// on the same weights: the same network values and gradients up to the
// order of sums. Each output or gradient entry sums K ≤ 51·100 products in
// another order; the reordering changes it by at most about K·u·Σ|terms|
// ≈ 5e-13·Σ|terms|, and Σ|terms| stays within a few tens of the layer's
// largest entry here, so 1e-10 relative to that entry (and to 1) is two
// orders above rounding while a dropped or misplaced term (of relative size
// ≥ 1e-3 for these draws) would fail it. The weights include the cases
// the unit order treats apart: zero slopes (on everywhere, off everywhere,
// b = ±0), −0, breakpoints beyond the data, tied inputs, and NaN or Inf.
func TestNetSpansMatchDense(t *testing.T) {
	archs := [][]int{{1, 50, 50, 1}, {1, 9, 6, 1}, {1, 5, 4, 3, 1}, {1, 7, 10, 1}, {1, 13, 8, 1}, {1, 3, 2, 1}}
	for ai, widths := range archs {
		for _, n := range []int{1, 5, 13, 100} {
			for variant := range 4 {
				name := fmt.Sprintf("%v n=%d variant=%d", widths, n, variant)
				layers, p := Layout(Arch{Widths: widths, Act: ReLU})
				for l := range layers {
					layers[l].PriorStd = 1
				}
				r := rand.New(rand.NewPCG(uint64(ai), uint64(n*10+variant)))
				w := make([]float64, p)
				HeInit(layers, w, r)
				c1 := layers[0].Cols
				if variant >= 1 {
					special := []struct{ a, b float64 }{{0, 0.5}, {0, -0.5}, {0, 0}, {math.Copysign(0, -1), math.Copysign(0, -1)}, {1, 10}, {-1, 10}, {1, -10}, {-1, -10}}
					for k, s := range special {
						if u := (3 * k) % c1; k < c1 {
							w[u], w[c1+u] = s.a, s.b
						}
					}
				}
				switch variant {
				case 2:
					w[c1-1] = math.Inf(1)
				case 3:
					w[layers[0].Off+c1] = math.NaN()
				}
				xs := make([]float64, n)
				for i := range xs {
					xs[i] = math.Round(8*r.Float64()-4) / 2 // ties
					if i%3 == 0 {
						xs[i] = 4*r.Float64() - 2
					}
				}
				slices.Sort(xs)
				dense, sp := NewNet(layers, xs, true), NewNet(layers, xs, true)
				if !sp.UseSpans(layers) {
					t.Fatalf("%s: UseSpans refused sorted inputs", name)
				}
				outs := layers[len(layers)-1].Cols
				coef := make([]float64, n*outs)
				for i := range coef {
					coef[i] = r.NormFloat64()
				}
				dwD, dwS := make([]float64, p), make([]float64, p)
				for i := range dwS {
					dwS[i] = math.NaN() // Backward must overwrite every entry
				}
				for _, net := range []*Net{dense, sp} {
					net.Forward(layers, w)
					copy(net.OutGrad(), coef)
				}
				// Finite first-layer weights take the spans; an Inf or a
				// NaN there (variants 2, 3) must send Forward to the dense
				// path, or the comparison below would test dense against
				// itself without saying so.
				if on := sp.sp.on; on != (variant < 2) {
					t.Fatalf("%s: Forward took the spans: %v, want %v", name, on, variant < 2)
				}
				dense.Backward(layers, w, dwD)
				sp.Backward(layers, w, dwS)
				same(t, name+" f", sp.Out, dense.Out)
				for l, ly := range layers {
					same(t, fmt.Sprintf("%s dW%d", name, l+1), dwS[ly.Off:ly.Off+ly.Rows*ly.Cols], dwD[ly.Off:ly.Off+ly.Rows*ly.Cols])
				}
			}
		}
	}
}

// same compares got with want entrywise within 1e-10·max(1, max|want|),
// NaN where want has NaN.
func same(t *testing.T, name string, got, want []float64) {
	t.Helper()
	scale := 1.0
	for _, v := range want {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			scale = max(scale, math.Abs(v))
		}
	}
	for i, v := range want {
		g := got[i]
		if math.IsNaN(v) || math.IsInf(v, 0) {
			if !(math.IsNaN(g) || g == v) {
				t.Fatalf("%s[%d] = %v, dense %v", name, i, g, v)
			}
			continue
		}
		if math.Abs(g-v) > 1e-10*scale {
			t.Fatalf("%s[%d] = %.17g, dense %.17g", name, i, g, v)
		}
	}
}

// TestNetSpansOnlyWhereExact: spans need ReLU, one input, two hidden
// layers and sorted inputs; SetInputs that unsorts them falls back.
func TestNetSpansOnlyWhereExact(t *testing.T) {
	mk := func(widths []int, act Activation) []Layer {
		l, _ := Layout(Arch{Widths: widths, Act: act})
		return l
	}
	sorted, unsorted := []float64{-1, 0, 0, 2}, []float64{0, -1, 2, 0}
	cases := []struct {
		layers []Layer
		xs     []float64
		grad   bool
		want   bool
	}{
		{mk([]int{1, 5, 4, 1}, ReLU), sorted, true, true},
		{mk([]int{1, 5, 4, 1}, ReLU), unsorted, true, false},
		{mk([]int{1, 5, 4, 1}, ReLU), sorted, false, false},
		{mk([]int{1, 5, 4, 1}, Tanh), sorted, true, false},
		{mk([]int{1, 5, 1}, ReLU), sorted, true, false},
		{mk([]int{1, 5, 1, 1}, ReLU), sorted, true, false},
	}
	for i, c := range cases {
		if got := NewNet(c.layers, c.xs, c.grad).UseSpans(c.layers); got != c.want {
			t.Errorf("case %d: UseSpans = %v, want %v", i, got, c.want)
		}
	}
	layers := mk([]int{1, 5, 4, 1}, ReLU)
	net := NewNet(layers, sorted, true)
	net.UseSpans(layers)
	net.SetInputs(unsorted)
	if net.sp != nil {
		t.Errorf("SetInputs with unsorted inputs kept the spans")
	}
}
