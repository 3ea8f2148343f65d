package gp

import (
	"math"
	"testing"

	"github.com/posterior-playground/playground/numeric"
)

// testKernels are both forms with non-default hyperparameters.
var testKernels = []Kernel{
	{Periodic: false, Variance: 1.7, Lengthscale: 0.6},
	{Periodic: true, Variance: 2.3, Lengthscale: 0.8, Period: 1.3},
}

// Exact special cases of the kernels' forms (Kernel): k(x,x) = c²; rbf at lag ℓ is
// c² e^{−1/2}; periodic at lag p/2 is c² e^{−1/(2ℓ²)} (the ½ form: MacKay's
// would give e^{−2/ℓ²}) and at lag p is c² again. The only error is rounding
// of πd/p and of sin near π (≈1e-16), so the tolerance is 1e-14 relative.
func TestKernelSpecialCases(t *testing.T) {
	rbf, per := testKernels[0], testKernels[1]
	x := 0.37
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"rbf k(x,x)", rbf.Eval(x, x), rbf.Variance},
		{"periodic k(x,x)", per.Eval(x, x), per.Variance},
		{"rbf at lag ℓ", rbf.Eval(x+rbf.Lengthscale, x), rbf.Variance * math.Exp(-0.5)},
		{"periodic at lag p/2", per.Eval(x+per.Period/2, x), per.Variance * math.Exp(-0.5/(per.Lengthscale*per.Lengthscale))},
		{"periodic at lag p", per.Eval(x+per.Period, x), per.Variance},
	} {
		if math.Abs(c.got-c.want) > 1e-14*c.want {
			t.Errorf("%s = %.17g, want %.17g", c.name, c.got, c.want)
		}
	}
}

// LogGrad against central differences of Eval in (log c², log ℓ, log p),
// h = 1e-5: truncation error ≈ h²·(third derivative)/6 ≈ 1e-10·c², rounding ≈
// 1e-16·c²/h ≈ 1e-11·c², so the tolerance is 1e-8·c².
func TestKernelLogGrad(t *testing.T) {
	const h = 1e-5
	for _, k := range testKernels {
		for _, d := range []float64{-2.1, -0.45, 0, 0.3, 0.9, 1.7} {
			g := [3]float64{}
			g[0], g[1], g[2] = k.LogGrad(d)
			for i := range 3 {
				at := func(step float64) float64 {
					c := k
					switch i {
					case 0:
						c.Variance *= math.Exp(step)
					case 1:
						c.Lengthscale *= math.Exp(step)
					default:
						c.Period *= math.Exp(step)
					}
					return c.Eval(d, 0)
				}
				fd := (at(h) - at(-h)) / (2 * h)
				if math.Abs(fd-g[i]) > 1e-8*k.Variance {
					t.Errorf("periodic=%v d=%g: ∂k/∂θ[%d] = %.12g, finite difference %.12g", k.Periodic, d, i, g[i], fd)
				}
			}
		}
	}
}

// FillSym mirrors one evaluation per pair: every entry must equal Eval in
// that order of arguments bit for bit (the kernel is exactly symmetric in
// floating point), with c² + jitter on the diagonal; and the methods' fill on
// (x, x) with and without sym must then agree off the diagonal, bit for bit.
func TestKernelFillSym(t *testing.T) {
	r := numeric.NewRand(3)
	x := make([]float64, 11)
	for i := range x {
		x[i] = -4 + 8*r.Float64()
	}
	n := len(x)
	for _, k := range testKernels {
		const jitter = 0.01
		dst := make([]float64, n*n)
		k.FillSym(dst, x, jitter)
		for i := range n {
			for j := range n {
				want := k.Eval(x[i], x[j])
				if i == j {
					want = k.Variance + jitter
				}
				if dst[i*n+j] != want {
					t.Errorf("periodic=%v: K[%d,%d] = %.17g, Eval %.17g", k.Periodic, i, j, dst[i*n+j], want)
				}
			}
		}
		lk := kernel{periodic: k.Periodic, logVar: math.Log(k.Variance), logLen: math.Log(k.Lengthscale), logPer: math.Log(k.Period)}
		sym, full := make([]float64, n*n), make([]float64, n*n)
		lk.fill(sym, x, x, true)
		lk.fill(full, x, x, false)
		for i := range n {
			full[i*n+i] += Jitter
		}
		for i := range sym {
			if sym[i] != full[i] {
				t.Errorf("periodic=%v: fill with sym differs at %d: %.17g vs %.17g", k.Periodic, i, sym[i], full[i])
			}
		}
	}
}

// HyperGrad against central differences of S(θ) = Σ_ij Kbar_ij k_θ(x_i, x_j)
// for a non-symmetric Kbar, with a kmat whose diagonal carries 0.3 of noise
// (which HyperGrad must ignore). Each entry's finite-difference error is
// below TestKernelLogGrad's 1e-8·c² (same h), so the tolerance is
// 1e-8·c²·Σ|Kbar_ij|.
func TestKernelHyperGrad(t *testing.T) {
	const h = 1e-5
	r := numeric.NewRand(6)
	x := make([]float64, 9)
	for i := range x {
		x[i] = -3 + 6*r.Float64()
	}
	n := len(x)
	kbar := make([]float64, n*n)
	var l1 float64
	for i := range kbar {
		kbar[i] = r.NormFloat64()
		l1 += math.Abs(kbar[i])
	}
	for _, k := range testKernels {
		kmat := make([]float64, n*n)
		k.FillSym(kmat, x, 0.3)
		var g [3]float64
		g[0], g[1], g[2] = k.HyperGrad(kbar, kmat, x)
		for p := range 3 {
			s := func(step float64) float64 {
				c := k
				switch p {
				case 0:
					c.Variance *= math.Exp(step)
				case 1:
					c.Lengthscale *= math.Exp(step)
				default:
					c.Period *= math.Exp(step)
				}
				var v float64
				for i := range n {
					for j := range n {
						v += kbar[i*n+j] * c.Eval(x[i], x[j])
					}
				}
				return v
			}
			fd := (s(h) - s(-h)) / (2 * h)
			if math.Abs(fd-g[p]) > 1e-8*k.Variance*l1 {
				t.Errorf("periodic=%v: ∂S/∂θ[%d] = %.12g, finite difference %.12g", k.Periodic, p, g[p], fd)
			}
		}
	}
}
