package datasets

import (
	"math"
	"slices"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
)

// linspace returns n evenly spaced points from a to b inclusive, as
// numpy.linspace does (the last point is exactly b).
func linspace(a, b float64, n int) []float64 {
	out := make([]float64, n)
	if n == 1 {
		out[0] = a
		return out
	}
	step := (b - a) / float64(n-1)
	for i := range out {
		out[i] = a + float64(i)*step
	}
	out[n-1] = b
	return out
}

// scaleOf returns a divisor for v: 1 for ordinary values, max|v|
// when that is so huge or tiny that sums or squares could overflow or
// underflow.
func scaleOf(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s = max(s, math.Abs(x))
	}
	if s == 0 || (s > 1e-100 && s < 1e100) {
		return 1
	}
	return s
}

// standardise returns (v − mean)/std with the population std, and the map
// back. A constant v gives zeros and Affine{v[0], 1}. Working on v/k keeps every
// finite input finite.
func standardise(v []float64) ([]float64, sim.Affine) {
	if lo, hi := span(v); lo == hi {
		return make([]float64, len(v)), sim.Affine{Mean: lo, Std: 1}
	}
	k := scaleOf(v)
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = x / k
	}
	m, s := numeric.MeanStd(out)
	if s == 0 { // cannot happen for varying finite v; a guard against 0/0
		s = 1 / k
	}
	for i, x := range out {
		out[i] = (x - m) / s
	}
	return out, sim.Affine{Mean: m * k, Std: s * k}
}

// widestGap returns the centre of the widest interval between consecutive
// sorted values of x, and whether it spans more than a fifth of x's range.
func widestGap(x []float64) (centre float64, ok bool) {
	if len(x) < 2 {
		return 0, false
	}
	s := slices.Clone(x)
	slices.Sort(s)
	best := 0
	for i := 1; i < len(s)-1; i++ {
		if s[i+1]-s[i] > s[best+1]-s[best] {
			best = i
		}
	}
	width, span := s[best+1]-s[best], s[len(s)-1]-s[0]
	return s[best] + width/2, span > 0 && width > span/5
}

// interpolator returns the piecewise-linear interpolant through (xs[i],
// ys[i]) on an increasing grid xs, constant beyond either end.
func interpolator(xs, ys []float64) func(float64) float64 {
	return func(x float64) float64 {
		n := len(xs)
		switch {
		case !(x > xs[0]): // also NaN
			if x != x {
				return math.NaN()
			}
			return ys[0]
		case x >= xs[n-1]:
			return ys[n-1]
		}
		i, _ := slices.BinarySearch(xs, x) // xs[i-1] < x <= xs[i]
		t := (x - xs[i-1]) / (xs[i] - xs[i-1])
		return ys[i-1] + t*(ys[i]-ys[i-1])
	}
}

// span returns the minimum and maximum of v.
func span(v []float64) (lo, hi float64) {
	return slices.Min(v), slices.Max(v)
}
