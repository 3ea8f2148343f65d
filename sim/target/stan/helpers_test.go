package stan

import (
	"math"
	"testing"

	"github.com/posterior-playground/playground/sim/target"
)

// mustParse compiles src or fails the test.
func mustParse(t testing.TB, src string) *Density {
	t.Helper()
	d, err := Parse(src)
	if err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	return d
}

// checkGrad compares a target's gradient at p with central differences of
// its log density. With step h the difference's truncation error is
// about h²/6·|f‴| and its rounding error about ε|f|/h; h = 1e-5 makes both
// near 1e-10 for the smooth, O(1)-scaled functions tested here, so 1e-6
// relative to the gradient's size leaves a wide margin and still fails on
// any wrong partial derivative.
func checkGrad(t *testing.T, label string, tg target.Target, p target.Point) {
	t.Helper()
	const h = 1e-5
	v, g := tg.LogDensityGrad(p)
	if lv := tg.LogDensity(p); lv != v && !(math.IsNaN(lv) && math.IsNaN(v)) {
		t.Errorf("%s at %v: LogDensity %v, LogDensityGrad %v", label, p, lv, v)
	}
	for i := range 2 {
		hi, lo := p, p
		hi[i] += h
		lo[i] -= h
		fd := (tg.LogDensity(hi) - tg.LogDensity(lo)) / (2 * h)
		if math.Abs(g[i]-fd) > 1e-6*(1+math.Abs(fd)) {
			t.Errorf("%s at %v: ∂/∂θ%d = %.12g, central difference %.12g", label, p, i+1, g[i], fd)
		}
	}
}

// near reports |a − b| ≤ tol·(1 + |b|).
func near(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*(1+math.Abs(b))
}
