package family

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/posterior-playground/playground/numeric"
)

// Central differences with step δ = 1e-5 on functions whose third
// derivatives are O(1) have truncation error O(δ²) ≈ 1e-10 and rounding
// error ≈ 1e-16/δ = 1e-11 relative to the values (O(1)–O(10) here), so a
// derivative agreeing to 1e-6·max(1, |d|) is right, and a wrong term (a
// missing factor, a sign) misses by O(1).
const (
	fdStep = 1e-5
	fdTol  = 1e-6
)

func fdClose(a, b float64) bool { return math.Abs(a-b) <= fdTol*math.Max(1, math.Abs(b)) }

// fdGrad is f's gradient in p by central differences, moving p in place
// and restoring it; with meanField the Cholesky factor's off-diagonal
// p[4], which mean-field holds at zero, gets 0.
func fdGrad(p []float64, f func() float64, meanField bool) []float64 {
	g := make([]float64, len(p))
	for i := range p {
		if meanField && i == 4 {
			continue
		}
		p0 := p[i]
		p[i] = p0 + fdStep
		fp := f()
		p[i] = p0 - fdStep
		fm := f()
		p[i] = p0
		g[i] = (fp - fm) / (2 * fdStep)
	}
	return g
}

// paramsOf returns a transform's parameter vector.
func paramsOf(tr transform) []float64 {
	switch v := tr.(type) {
	case *gaussT:
		return v.p
	case *flowT:
		return v.p
	}
	panic("unknown transform")
}

// transforms builds every parametric transform with its parameters moved
// off the initial point (so the flow's layers are not the identity and
// the Gaussian's factor not diagonal), for the divergence d.
func transforms(t *testing.T, d Divergence) map[string]*fitter {
	t.Helper()
	r := numeric.NewStream(99, 0)
	cfg := Config{Divergence: d, Alpha: 0.5, Samples: 6, Layers: 3, Hidden: 5, Seed: 7}
	tg := banana{b: 0.7}
	mf, err := NewMeanField(tg, cfg)
	if err != nil {
		t.Fatal(err)
	}
	fr, err := NewFullRank(tg, cfg)
	if err != nil {
		t.Fatal(err)
	}
	fl, err := NewFlow(tg, cfg)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*fitter{"meanfield": mf.fitter, "fullrank": fr.fitter, "flow": fl.fitter}
	for name, ft := range out {
		p := paramsOf(ft.tr)
		for i := range p {
			if name == "meanfield" && i == 4 {
				continue
			}
			p[i] += 0.3 * r.NormFloat64()
		}
	}
	return out
}

// TestPull checks pull, the gradient in λ of gᵀT_λ(ε) + w·log|det J|,
// against central differences, for every family.
func TestPull(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for name, ft := range transforms(t, ForwardKL) {
		tr := ft.tr
		p := paramsOf(tr)
		e := [2]float64{r.NormFloat64(), r.NormFloat64()}
		g := [2]float64{r.NormFloat64(), r.NormFloat64()}
		w := r.NormFloat64()
		f := func() float64 {
			u, ld := tr.forward(-1, e)
			return g[0]*u[0] + g[1]*u[1] + w*ld
		}
		tr.forward(0, e)
		grad := make([]float64, len(p))
		tr.pull(0, g, w, grad)
		for i, want := range fdGrad(p, f, name == "meanfield") {
			if !fdClose(grad[i], want) {
				t.Errorf("%s: ∂/∂λ[%d] = %.10g, finite difference %.10g", name, i, grad[i], want)
			}
		}
	}
}

// TestScoreAndInverse checks log q(T(ε)) = log φ(ε) − log|det J| (the
// inverse undoes the forward map) and score = ∇_u log q against central
// differences of logDensity.
func TestScoreAndInverse(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for name, ft := range transforms(t, ForwardKL) {
		tr := ft.tr
		for range 5 {
			e := [2]float64{r.NormFloat64(), r.NormFloat64()}
			u, ld := tr.forward(0, e)
			if got, want := tr.logDensity(u), logPhi2(e)-ld; math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
				t.Errorf("%s: log q(T(ε)) = %.15g, log φ(ε) − log|det| = %.15g", name, got, want)
			}
			s := tr.score(0)
			for j := range 2 {
				up, um := u, u
				up[j] += fdStep
				um[j] -= fdStep
				want := (tr.logDensity(up) - tr.logDensity(um)) / (2 * fdStep)
				if !fdClose(s[j], want) {
					t.Errorf("%s: ∂log q/∂u[%d] = %.10g, finite difference %.10g", name, j, s[j], want)
				}
			}
		}
	}
}

// frozen returns a copy of tr whose parameters no longer follow tr's.
func frozen(tr transform) transform {
	switch v := tr.(type) {
	case *gaussT:
		c := *v
		c.p = slices.Clone(v.p)
		return &c
	case *flowT:
		c := *v
		c.p = slices.Clone(v.p)
		return &c
	}
	panic("unknown transform")
}

// TestStepGradient checks the whole step's gradient, with the step's own
// draws ε held fixed. Under ReverseKL and Renyi it is the doubly
// reparameterised form: −∇λ Σ cₖ [log p̃(T_λ(εₖ)) − log q_λ₀(T_λ(εₖ))],
// λ moving only the draws (log q's own parameters held at λ₀), with
// cₖ = αŵₖ + (1−α)ŵₖ² from the step's weights (1/K for the ELBO);
// TestGradientUnbiased checks that its expectation is the bound's. Under
// ForwardKL it is −∇λ Σ w̄ₖ log q_λ(zₖ) with the draws zₖ and the
// weights w̄ₖ held fixed.
func TestStepGradient(t *testing.T) {
	for _, d := range []Divergence{ReverseKL, Renyi, ForwardKL} {
		for name, ft := range transforms(t, d) {
			if !ft.gradient() {
				t.Fatalf("%v %s: no draw counted", d, name)
			}
			p := paramsOf(ft.tr)
			k := ft.cfg.Samples
			z := make([][2]float64, k)
			wbar := append([]float64(nil), ft.wt...)
			for i, e := range ft.eps {
				u, _ := ft.tr.forward(-1, e)
				z[i] = u
			}
			q0 := frozen(ft.tr)
			obj := func() float64 {
				if d == ForwardKL {
					s := 0.0
					for i := range k {
						s += wbar[i] * ft.tr.logDensity(z[i])
					}
					return s
				}
				pw := ft.weightPower()
				s := 0.0
				for i, e := range ft.eps {
					u, _ := ft.tr.forward(-1, e)
					c := (1-pw)*wbar[i] + pw*wbar[i]*wbar[i]
					s += c * (ft.t.LogDensity(ft.f.toTheta(u)) - q0.logDensity(u) + ft.f.logJac)
				}
				return s
			}
			for i, want := range fdGrad(p, obj, name == "meanfield") {
				want = -want
				if !fdClose(ft.grad[i], want) {
					t.Errorf("%v %s: loss gradient [%d] = %.10g, finite difference %.10g", d, name, i, ft.grad[i], want)
				}
			}
		}
	}
}

// TestGradientUnbiased: the doubly reparameterised gradient has the
// expectation of the plain reparameterised one, Σ ŵₖ ∇λ log wₖ with the
// score term kept (Li & Turner's estimator; the ELBO's at α = 1). Both
// are computed from the same draws at a fixed λ over many steps; each
// coordinate's mean paired difference must lie within five of its
// standard errors (a chance of 6e-7 a coordinate, about 1e-4 over the
// flow's 80), while a wrong weight cₖ moves it by O(1) of the gradient.
func TestGradientUnbiased(t *testing.T) {
	const steps = 20000
	for _, d := range []Divergence{ReverseKL, Renyi} {
		for name, ft := range transforms(t, d) {
			p := paramsOf(ft.tr)
			sum := make([]float64, len(p))
			sum2 := make([]float64, len(p))
			plain := make([]float64, len(p))
			for range steps {
				if !ft.gradient() {
					t.Fatalf("%v %s: no draw counted", d, name)
				}
				clear(plain)
				for i, w := range ft.wt {
					ft.tr.pull(i, scaled(ft.gu[i], -w), -w, plain)
				}
				for j := range p {
					if name == "meanfield" && j == 4 {
						continue
					}
					x := ft.grad[j] - plain[j]
					sum[j] += x
					sum2[j] += x * x
				}
			}
			for j := range p {
				m := sum[j] / steps
				se := math.Sqrt((sum2[j]/steps - m*m) / steps)
				if math.Abs(m) > 5*se {
					t.Errorf("%v %s: parameter %d: mean difference %.4g, standard error %.3g", d, name, j, m, se)
				}
			}
		}
	}
}
