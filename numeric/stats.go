package numeric

import (
	"math"
	"slices"
)

// Basic summaries used by the diagnostics and the experiment reports.

// MeanStd returns the mean and the population standard deviation (divisor
// n, as np.std and tf.math.reduce_std) of xs, by two passes. It returns
// NaN, NaN for an empty slice.
func MeanStd(xs []float64) (mean, std float64) {
	n := float64(len(xs))
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	for _, x := range xs {
		mean += x
	}
	mean /= n
	var ss float64
	for _, x := range xs {
		d := x - mean
		ss += d * d
	}
	return mean, math.Sqrt(ss / n)
}

// MeanSE returns the mean of xs and its standard error, the population std
// over √n, as the GIP notebook computes it for its ELBO and IWBO estimates
// (tf.math.reduce_std(xs)/√n). The notebook's reported "±" is 2·se.
func MeanSE(xs []float64) (mean, se float64) {
	mean, std := MeanStd(xs)
	return mean, std / math.Sqrt(float64(len(xs)))
}

// Quantile returns the p-quantile of sorted (ascending) by linear
// interpolation between order statistics, Hyndman & Fan type 7, the default
// of numpy.quantile and R: with h = (n−1)p, x[⌊h⌋] + (h−⌊h⌋)(x[⌊h⌋+1] − x[⌊h⌋]).
// It returns NaN for an empty slice or p outside [0, 1].
func Quantile(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 0 || !(p >= 0 && p <= 1) {
		return math.NaN()
	}
	h := float64(n-1) * p
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return sorted[n-1]
	}
	return sorted[lo] + (h-float64(lo))*(sorted[lo+1]-sorted[lo])
}

// Quantiles writes the type-7 quantiles of xs at each ps[i] into dst[i]
// without reordering xs. It sorts a copy in scratch, which must have
// len(xs) elements or be nil (then one slice is allocated). It panics if
// len(dst) != len(ps).
func Quantiles(dst, xs, ps, scratch []float64) {
	if len(dst) != len(ps) {
		panic("numeric: Quantiles dst and ps differ in length")
	}
	if scratch == nil {
		scratch = make([]float64, len(xs))
	}
	if len(scratch) != len(xs) {
		panic("numeric: Quantiles scratch length differs from xs")
	}
	copy(scratch, xs)
	slices.Sort(scratch)
	for i, p := range ps {
		dst[i] = Quantile(scratch, p)
	}
}

// SmoothDebiased writes into dst the debiased exponential moving average of
// xs that TensorBoard's smoothing slider shows:
//
//	last ← w·last + (1−w)·x,  k ← k+1,  dst = last/(1 − wᵏ),
//
// starting from last = 0, k = 0. The debiasing makes dst[0] = xs[0] and
// every output a weighted mean of the inputs so far. Non-finite inputs are
// copied through and do not enter the average, as in TensorBoard.
// (TensorBoard also copies a constant series through unchanged; here it is
// reproduced to rounding.) A weight below 0 is treated as 0 (no smoothing);
// w ≥ 1 gives the running mean, the limit of the formula as w → 1.
// dst may be xs. It panics if the lengths differ.
func SmoothDebiased(dst, xs []float64, weight float64) {
	if len(dst) != len(xs) {
		panic("numeric: SmoothDebiased dst and xs differ in length")
	}
	w := max(weight, 0)
	var last, wk float64 = 0, 1 // wk = wᵏ
	k := 0
	for i, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			dst[i] = x
			continue
		}
		k++
		if w >= 1 {
			last += (x - last) / float64(k)
			dst[i] = last
			continue
		}
		last = w*last + (1-w)*x
		wk *= w
		dst[i] = last / (1 - wk)
	}
}

// RMSE returns the root mean squared difference of a and b, NaN if they are
// empty. It panics if their lengths differ.
func RMSE(a, b []float64) float64 {
	if len(a) != len(b) {
		panic("numeric: RMSE length mismatch")
	}
	if len(a) == 0 {
		return math.NaN()
	}
	var ss float64
	for i, x := range a {
		d := x - b[i]
		ss += d * d
	}
	return math.Sqrt(ss / float64(len(a)))
}
