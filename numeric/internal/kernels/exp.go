package kernels

import "math"

// ExpTo sets dst[i] = e^x[i] for every i < len(x), within about 1 ulp
// (math.Exp is within 1 ulp too, so the two may differ by 2 in the last
// place). The kernel takes four at a time where |x| ≤ 700; other blocks of
// four, NaN, and the remainder go through math.Exp. It is for the
// mean-field step's e^ℓ over every weight, which math.Exp's scalar
// reduction made a sixth of the step.
func ExpTo(dst, x []float64) {
	n := len(x)
	dst = dst[:n]
	i := 0
	if hasKernels {
		for i+4 <= n {
			i += exp4((n-i)&^3, &x[i], &dst[i])
			if i+4 > n {
				break
			}
			// A block with a lane out of the kernel's range.
			for j := i; j < i+4; j++ {
				dst[j] = math.Exp(x[j])
			}
			i += 4
		}
	}
	for ; i < n; i++ {
		dst[i] = math.Exp(x[i])
	}
}
