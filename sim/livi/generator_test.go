package livi

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/posterior-playground/playground/numeric"
)

// randGen returns a generator with random weights of a size where every
// entry can be checked, and its work buffers with a random z.
func randGen(r *rand.Rand, d, h, out int) (*generator, *genWork) {
	g := &generator{d: d, h: h, out: out,
		w1: make([]float64, h*d), b1: make([]float64, h), w2t: make([]float64, h*out), b2: make([]float64, out)}
	for _, s := range [][]float64{g.w1, g.b1, g.w2t, g.b2} {
		numeric.FillNormal(s, r)
	}
	w := newGenWork(d, h, out)
	numeric.FillNormal(w.z, r)
	return g, w
}

// exactGaussianEntropy returns ½ log|2πe C| for C = AAᵀ + σ²I_D, A the D×d
// matrix whose transpose is in at (row-major d×D), by a D×D Cholesky
// factorisation.
func exactGaussianEntropy(t *testing.T, at []float64, D, d int, sigma float64) float64 {
	t.Helper()
	A := mat.DenseCopyOf(mat.NewDense(d, D, at).T())
	var c mat.SymDense
	c.SymOuterK(1, A)
	for i := range D {
		c.SetSym(i, i, c.At(i, i)+sigma*sigma)
	}
	var ch mat.Cholesky
	if !ch.Factorize(&c) {
		t.Fatal("AAᵀ + σ²I is not positive definite")
	}
	return 0.5 * (float64(D)*(1+math.Log(2*math.Pi)) + ch.LogDet())
}

// For a linear generator g(z) = Az + b, q = N(b, AAᵀ + σ²I)
// exactly, and constant + ½ log det(AᵀA + σ²I_d) equals its entropy
// ½ log|2πe(AAᵀ + σ²I_D)| by Sylvester's identity, for any σ and any d
// (also d > D). The two sides are computed by different factorisations, so
// they agree to rounding: 1e-10 relative.
func TestLinearGeneratorEntropyIsExact(t *testing.T) {
	r := numeric.NewRand(1)
	for _, c := range []struct {
		D, d  int
		sigma float64
	}{{3, 2, 0.1}, {9, 4, 0.01}, {40, 7, 1e-3}, {2, 5, 0.3}, {60, 20, 0.05}} {
		g, w := randGen(r, c.d, 3, c.D)
		numeric.FillNormal(w.jt[:c.d*c.D], r) // J = A
		term, ok := g.entropyTerm(w, c.sigma*c.sigma, objJacobian, 0)
		if !ok {
			t.Fatal("factorisation failed")
		}
		got := entropyConst(c.D, c.d, c.sigma) + term
		want := exactGaussianEntropy(t, w.jt[:c.d*c.D], c.D, c.d, c.sigma)
		if math.Abs(got-want) > 1e-10*math.Abs(want) {
			t.Errorf("D=%d d=%d σ=%g: linearised %.12g, exact %.12g", c.D, c.d, c.sigma, got, want)
		}
	}
}

// The same identity through the ELU generator itself: with b₁ = 50 and
// |W₁z| ≪ 50 every hidden unit stays in the ELU's linear branch, so g(z) =
// W₂W₁z + (W₂b₁ + b₂) is linear with A = W₂W₁, and the Jacobian the
// generator computes gives the exact entropy of N(·, AAᵀ + σ²I).
func TestELUGeneratorInLinearRegime(t *testing.T) {
	r := numeric.NewRand(2)
	const D, d, h, sigma = 12, 4, 6, 0.02
	g, w := randGen(r, d, h, D)
	for i := range g.b1 {
		g.b1[i] = 50
	}
	theta := make([]float64, D)
	g.forward(w, theta)
	g.jacobian(w)
	// Aᵀ = W₁ᵀW₂ᵀ, W₂ᵀ stored as w2t.
	at := mat.NewDense(d, D, nil)
	at.Mul(mat.NewDense(h, d, g.w1).T(), mat.NewDense(h, D, g.w2t))
	for i, v := range at.RawMatrix().Data {
		if math.Abs(w.jt[i]-v) > 1e-12*(1+math.Abs(v)) {
			t.Fatalf("Jᵀ[%d] = %v, W₁ᵀW₂ᵀ = %v", i, w.jt[i], v)
		}
	}
	term, _ := g.entropyTerm(w, sigma*sigma, objJacobian, 0)
	got := entropyConst(D, d, sigma) + term
	want := exactGaussianEntropy(t, at.RawMatrix().Data, D, d, sigma)
	if math.Abs(got-want) > 1e-10*math.Abs(want) {
		t.Fatalf("linearised %.12g, exact %.12g", got, want)
	}
}

// J = ∂g/∂z against central differences of g: h = 1e-5 gives truncation
// error O(h²·|g”'|) ≈ 1e-10 and rounding ≈ 1e-16·|g|/h ≈ 1e-10, so 1e-7
// absolute plus 1e-7 relative is a wide margin that a wrong entry misses.
func TestJacobianFiniteDifferences(t *testing.T) {
	r := numeric.NewRand(3)
	const d, h, D = 5, 7, 9
	g, w := randGen(r, d, h, D)
	z := append([]float64(nil), w.z...)
	g.forward(w, make([]float64, D))
	g.jacobian(w)
	jac := append([]float64(nil), w.jt[:d*D]...) // Jᵀ: entry (i, k) at k·D + i
	up, down := make([]float64, D), make([]float64, D)
	const step = 1e-5
	for k := range d {
		copy(w.z, z)
		w.z[k] += step
		g.forward(w, up)
		w.z[k] -= 2 * step
		g.forward(w, down)
		for i := range D {
			fd := (up[i] - down[i]) / (2 * step)
			if math.Abs(fd-jac[k*D+i]) > 1e-7+1e-7*math.Abs(fd) {
				t.Errorf("J[%d,%d] = %.10g, finite difference %.10g", i, k, jac[k*D+i], fd)
			}
		}
	}
}

// forwardTrain (one GEMM for Jᵀ and W₂h) gives forward's θ and jacobian's
// Jᵀ up to the order of their sums: h = 7 terms of size O(1), so rounding is
// ≲ 7·2⁻⁵³·O(3) ≈ 2e-15; 1e-12 is a wide margin that a wrong row, column or
// offset misses by O(1).
func TestForwardTrainMatchesForwardAndJacobian(t *testing.T) {
	r := numeric.NewRand(5)
	const d, h, D = 5, 7, 13
	g, w := randGen(r, d, h, D)
	theta, thetaTrain := make([]float64, D), make([]float64, D)
	g.forward(w, theta)
	g.jacobian(w)
	jt := append([]float64(nil), w.jt[:d*D]...)
	clear(w.jt)
	g.forwardTrain(w, thetaTrain)
	for i := range theta {
		if math.Abs(thetaTrain[i]-theta[i]) > 1e-12*(1+math.Abs(theta[i])) {
			t.Errorf("θ[%d] = %.17g, forward %.17g", i, thetaTrain[i], theta[i])
		}
	}
	for i, v := range jt {
		if math.Abs(w.jt[i]-v) > 1e-12*(1+math.Abs(v)) {
			t.Errorf("Jᵀ[%d] = %.17g, jacobian %.17g", i, w.jt[i], v)
		}
	}
}

// entropyAt recomputes the entropy term at the generator's current weights
// and w.z, without gradients.
func entropyAt(g *generator, w *genWork, sigma2 float64, objective string) float64 {
	g.forward(w, make([]float64, g.out))
	g.jacobian(w)
	v, _ := g.entropyTerm(w, sigma2, objective, 0)
	return v
}

// The hand-written gradients of the entropy term with respect to W₁, b₁, W₂ (and
// zero for b₂), for both objectives, against central differences at every
// entry. h = 1e-6: the term is O(10) with curvature O(1/σ²) = O(100), so
// truncation ≈ h²·100 and rounding ≈ 1e-16·10/h ≈ 1e-9; tolerance 1e-6
// absolute plus 1e-5 relative.
func TestEntropyGradientFiniteDifferences(t *testing.T) {
	for _, objective := range []string{objJacobian, objSVBound} {
		t.Run(objective, func(t *testing.T) {
			r := numeric.NewRand(4)
			const d, h, D, sigma2 = 4, 6, 11, 0.01
			g, w := randGen(r, d, h, D)
			gr := newGenGrad(d, h, D)
			// The training path with dθ = 0: only the entropy term's
			// gradient, W₂ᵀ's as backward's factors.
			g.forwardTrain(w, make([]float64, D))
			want := entropyAt(g, w, sigma2, objective)
			if term := g.backward(w, make([]float64, D), sigma2, objective, 1, gr); math.Abs(term-want) > 1e-12*math.Abs(want) {
				t.Fatalf("backward's term %.17g, entropyTerm's %.17g", term, want)
			}
			g.addW2t(gr.w2t, w)
			for _, p := range []struct {
				name  string
				param []float64
				grad  []float64
			}{{"W1", g.w1, gr.w1}, {"b1", g.b1, gr.b1}, {"W2ᵀ", g.w2t, gr.w2t}, {"b2", g.b2, gr.b2}} {
				for i := range p.param {
					const step = 1e-6
					old := p.param[i]
					p.param[i] = old + step
					up := entropyAt(g, w, sigma2, objective)
					p.param[i] = old - step
					down := entropyAt(g, w, sigma2, objective)
					p.param[i] = old
					fd := (up - down) / (2 * step)
					if math.Abs(fd-p.grad[i]) > 1e-6+1e-5*math.Abs(fd) {
						t.Errorf("%s[%d]: analytic %.10g, finite difference %.10g", p.name, i, p.grad[i], fd)
					}
				}
			}
		})
	}
}

// The sv-bound is a lower bound: (d/2) log(s_min² + σ²) ≤ ½ log det(JᵀJ + σ²I) at every J:
// 2000 random Jacobians of random shapes and scales, some nearly rank
// deficient (one column a near copy of another), with equality only when all
// singular values are equal. Both sides are exact float64 computations, so
// the only slack is rounding: 1e-9 relative.
func TestSVBoundBelowLogDet(t *testing.T) {
	r := numeric.NewRand(5)
	for it := range 2000 {
		d := 1 + r.IntN(8)
		D := d + r.IntN(20)
		g, w := randGen(r, d, 2, D)
		scale := math.Exp(4 * (r.Float64() - 0.5))
		for i := range w.jt {
			w.jt[i] *= scale
		}
		if it%3 == 0 && d > 1 { // column 1 of J (row 1 of Jᵀ) near column 0
			for i := range D {
				w.jt[D+i] = w.jt[i] + 1e-4*r.NormFloat64()
			}
		}
		sigma2 := math.Exp(-10 * r.Float64())
		full, ok1 := g.entropyTerm(w, sigma2, objJacobian, 0)
		bound, ok2 := g.entropyTerm(w, sigma2, objSVBound, 0)
		if !ok1 || !ok2 {
			t.Fatalf("draw %d: factorisation failed", it)
		}
		if bound > full+1e-9*math.Abs(full) {
			t.Fatalf("draw %d (D=%d d=%d σ²=%g): bound %.12g > full %.12g", it, D, d, sigma2, bound, full)
		}
	}
	// Equality when JᵀJ = c·I: all singular values equal.
	g, w := randGen(r, 3, 2, 3)
	clear(w.jt)
	for i := range 3 {
		w.jt[i*3+i] = 2
	}
	full, _ := g.entropyTerm(w, 0.5, objJacobian, 0)
	bound, _ := g.entropyTerm(w, 0.5, objSVBound, 0)
	if want := 1.5 * math.Log(4.5); math.Abs(full-want) > 1e-12 || math.Abs(bound-want) > 1e-12 {
		t.Fatalf("J = 2I: full %v, bound %v, want both %v", full, bound, want)
	}
}
