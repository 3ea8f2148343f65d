package fbnn

import (
	"math"
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim/gp"
)

// The analytic gradient of the GP log marginal likelihood with respect to
// (log c², log ℓ, log p, log σ) against central differences (h = 1e-6 on
// the log scale). Rounding sets the error: A's eigenvalues lie in
// [σ², n·c² + σ²], so cond(A) ≤ 12·2.3/0.09 ≈ 300 and logML (|·| ≈ 10) is
// computed to about 300·1e-16·10 ≈ 3e-13, i.e. ≈ 2e-7 after dividing by
// 2h; measured differences are at most 6e-8. Hence 1e-5·(1 + |fd|).
func TestLogMLGradient(t *testing.T) {
	r := numeric.NewRand(5)
	x, y := make([]float64, 12), make([]float64, 12)
	for i := range x {
		x[i] = -2 + 4*r.Float64()
		y[i] = math.Sin(3*x[i]) + 0.2*r.NormFloat64()
	}
	for _, pr := range testPriors {
		const noise = 0.3
		g := make([]float64, 4)
		if _, err := logML(pr, noise, x, y, g); err != nil {
			t.Fatal(err)
		}
		at := func(th [4]float64) float64 {
			c := pr
			c.Variance, c.Lengthscale, c.Period = math.Exp(th[0]), math.Exp(th[1]), math.Exp(th[2])
			ll, err := logML(c, math.Exp(th[3]), x, y, nil)
			if err != nil {
				t.Fatal(err)
			}
			return ll
		}
		th := [4]float64{math.Log(pr.Variance), math.Log(pr.Lengthscale), math.Log(max(pr.Period, 1)), math.Log(noise)}
		for i := range 4 {
			if i == 2 && !pr.Periodic {
				continue
			}
			up, down := th, th
			up[i] += 1e-6
			down[i] -= 1e-6
			fd := (at(up) - at(down)) / 2e-6
			if math.Abs(fd-g[i]) > 1e-5*(1+math.Abs(fd)) {
				t.Errorf("periodic=%v: ∂logML/∂θ[%d] = %.9g, finite difference %.9g", pr.Periodic, i, g[i], fd)
			}
		}
	}
}

// Marginal likelihood recovers the period of `periodic` (truth 2 sin 4x,
// period π/2 in user units, π/(2·s_x) in model units) from its 20 points:
// measured errors 0.2–1.1% on seeds 1–5; the bound is 3%.
func TestFitRecoversPeriod(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		d := loadData(t, "periodic", seed)
		f, err := fitPrior(gp.Kernel{Periodic: true, Variance: 1, Lengthscale: 1, Period: 1}, d.X, d.Y, true)
		if err != nil {
			t.Fatal(err)
		}
		want := math.Pi / 2 / d.XScale.Std
		if rel := math.Abs(f.prior.Period/want - 1); rel > 0.03 {
			t.Errorf("seed %d: period %.4f, truth %.4f (%.1f%% off)", seed, f.prior.Period, want, 100*rel)
		}
		if f.noise <= 0 || f.noise > 0.5 {
			t.Errorf("seed %d: GP noise std %.3f, want about 0.2/s_y ≈ 0.14", seed, f.noise)
		}
	}
}
