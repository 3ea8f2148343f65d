package numeric_test

import (
	"math"
	"slices"
	"testing"

	"github.com/posterior-playground/playground/numeric"
)

func TestMeanStdSE(t *testing.T) {
	// The classic population-std example: mean 5, std exactly 2.
	xs := []float64{2, 4, 4, 4, 5, 5, 7, 9}
	if m, s := numeric.MeanStd(xs); m != 5 || s != 2 {
		t.Errorf("MeanStd = %g, %g, want 5, 2", m, s)
	}
	if m, se := numeric.MeanSE(xs); m != 5 || math.Abs(se-2/math.Sqrt(8)) > 1e-16 {
		t.Errorf("MeanSE = %g, %g, want 5, %g", m, se, 2/math.Sqrt(8))
	}
	if m, s := numeric.MeanStd([]float64{1, 2, 3, 4}); m != 2.5 || math.Abs(s-math.Sqrt(1.25)) > 1e-16 {
		t.Errorf("MeanStd(1..4) = %g, %g, want 2.5, √1.25", m, s)
	}
	// Two passes keep precision under a large offset.
	if _, s := numeric.MeanStd([]float64{1e9 + 2, 1e9 + 4, 1e9 + 4, 1e9 + 4, 1e9 + 5, 1e9 + 5, 1e9 + 7, 1e9 + 9}); math.Abs(s-2) > 1e-6 {
		t.Errorf("offset std = %.10g, want 2", s)
	}
	if m, s := numeric.MeanStd(nil); !math.IsNaN(m) || !math.IsNaN(s) {
		t.Errorf("MeanStd(nil) = %g, %g", m, s)
	}
}

// Type 7 by hand for x = (1, 2, 3, 4, 10), h = 4p: these are
// numpy.quantile's values (linear method).
func TestQuantileType7(t *testing.T) {
	sorted := []float64{1, 2, 3, 4, 10}
	cases := []struct{ p, want float64 }{
		{0, 1}, {0.1, 1.4}, {0.25, 2}, {0.3, 2.2}, {0.5, 3}, {0.9, 7.6}, {0.95, 8.8}, {1, 10},
	}
	ps := make([]float64, len(cases))
	for i, c := range cases {
		ps[i] = c.p
		if got := numeric.Quantile(sorted, c.p); math.Abs(got-c.want) > 1e-14 {
			t.Errorf("Quantile(%g) = %.17g, want %g", c.p, got, c.want)
		}
	}
	xs := []float64{10, 1, 4, 3, 2}
	orig := slices.Clone(xs)
	dst := make([]float64, len(ps))
	numeric.Quantiles(dst, xs, ps, make([]float64, len(xs)))
	for i, c := range cases {
		if math.Abs(dst[i]-c.want) > 1e-14 {
			t.Errorf("Quantiles p=%g: %g, want %g", c.p, dst[i], c.want)
		}
	}
	if !slices.Equal(xs, orig) {
		t.Errorf("Quantiles reordered its input: %v", xs)
	}
	numeric.Quantiles(dst[:1], xs, ps[5:6], nil)
	if math.Abs(dst[0]-7.6) > 1e-14 {
		t.Errorf("Quantiles with nil scratch = %g", dst[0])
	}
	if got := numeric.Quantile([]float64{3}, 0.7); got != 3 {
		t.Errorf("one element: %g", got)
	}
	for _, p := range []float64{-0.1, 1.1, math.NaN()} {
		if got := numeric.Quantile(sorted, p); !math.IsNaN(got) {
			t.Errorf("Quantile(p=%g) = %g, want NaN", p, got)
		}
	}
	if got := numeric.Quantile(nil, 0.5); !math.IsNaN(got) {
		t.Errorf("Quantile(nil) = %g", got)
	}
}

func TestSmoothDebiased(t *testing.T) {
	check := func(name string, xs []float64, w float64, want []float64) {
		t.Helper()
		got := make([]float64, len(xs))
		numeric.SmoothDebiased(got, xs, w)
		for i := range want {
			if !(math.IsNaN(want[i]) && math.IsNaN(got[i])) && math.Abs(got[i]-want[i]) > 1e-14 {
				t.Errorf("%s: got %v, want %v", name, got, want)
				return
			}
		}
	}
	// By hand, w = ½: weighted means with weights wᵏ⁻ⁱ: 1, (½+2)/1.5, (¼+1+3)/1.75.
	check("w=0.5", []float64{1, 2, 3}, 0.5, []float64{1, 5.0 / 3, 17.0 / 7})
	check("w=0", []float64{4, -1, 7}, 0, []float64{4, -1, 7})
	check("w<0", []float64{4, -1, 7}, -0.3, []float64{4, -1, 7})
	check("w=1 running mean", []float64{1, 2, 3, 6}, 1, []float64{1, 1.5, 2, 3})
	check("constant", []float64{2.5, 2.5, 2.5, 2.5, 2.5}, 0.9, []float64{2.5, 2.5, 2.5, 2.5, 2.5})
	// Non-finite values pass through and are skipped: after 1 and 3,
	// (½·1 + 3)/(1 + ½) = 7/3.
	check("NaN", []float64{1, math.NaN(), 3}, 0.5, []float64{1, math.NaN(), 7.0 / 3})
	// In place.
	xs := []float64{1, 2, 3}
	numeric.SmoothDebiased(xs, xs, 0.5)
	if math.Abs(xs[2]-17.0/7) > 1e-14 {
		t.Errorf("in place: %v", xs)
	}
}

func TestRMSE(t *testing.T) {
	if got, want := numeric.RMSE([]float64{1, 2, 3}, []float64{1, 2, 5}), math.Sqrt(4.0/3); math.Abs(got-want) > 1e-15 {
		t.Errorf("RMSE = %g, want %g", got, want)
	}
	if got := numeric.RMSE([]float64{-1, 4}, []float64{-1, 4}); got != 0 {
		t.Errorf("RMSE of equal slices = %g", got)
	}
	if got := numeric.RMSE(nil, nil); !math.IsNaN(got) {
		t.Errorf("RMSE(nil) = %g", got)
	}
}
