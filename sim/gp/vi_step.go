package gp

import (
	"math"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
)

// Step updates α by one damped Newton step of size lr (newtonMean) and
// takes one Adam step on −F/N for log λ and, when learned, the kernel's
// log-hyperparameters and the log noise scale, all from the parameters
// before the step. Objective is the free energy F there (exact up to
// quadrature with Gauss–Hermite, a Monte Carlo estimate otherwise). After
// the first call it allocates nothing.
func (m *VI) Step() sim.StepStats {
	if !m.ready {
		return sim.StepStats{Objective: math.NaN()}
	}
	fe, ell, kl := m.evaluate(true, m.expect)
	m.ell, m.kl = ell, kl
	if math.IsNaN(fe) || math.IsInf(fe, 0) {
		return sim.StepStats{Objective: fe}
	}
	if !m.newtonMean(m.lr) {
		return sim.StepStats{Objective: math.NaN()}
	}
	m.adamRho.Step(m.pRho, m.dRho)
	if m.learnKernel {
		m.adamHyp.Step(m.pHyp, m.dHyp)
		h := m.hyp.RawMatrix().Data
		m.kern.logVar, m.kern.logLen = h[0], h[1]
		if m.kern.periodic {
			m.kern.logPer = h[2]
		}
		m.syncHyp()
		m.kernDirty = true
	}
	if m.learnNoise && m.lik != likBernoulli {
		m.adamNoise.Step(m.pNoise, m.dNoise)
	}
	return sim.StepStats{Objective: fe, Evals: 1} // one gradient of the free energy
}

// evaluate computes the free energy (GPflow's form; package documentation)
//
//	A = I + ΛKΛ with Λ = diag(λ), L = chol(A),
//	m = Kα,  Σ_nn = (1 − (A⁻¹)_nn)/λ_n²,  (A⁻¹)_nn = Σ_k (L⁻¹)_kn²,
//	KL = ½[log|A| + tr A⁻¹ − N + αᵀKα],  F = Σ_n E_{N(m_n,Σ_nn)} log p(y_n|z_n) − KL,
//
// with no inverse of K. expect selects how the non-Gaussian expectations
// are computed (Monte Carlo draws come from the training stream); the
// Gaussian likelihood's are in closed form unless expect is MonteCarlo.
// With grad set it writes the gradients of the loss −F/N into gAlpha, gRho,
// gHyp and gLogScale (Step uses all but gAlpha, which the finite-difference
// test checks; α's step needs only gm and gv). The expected log-likelihood's
// gradient enters the tape as the linear surrogate Σ(∂E/∂m)·m + (∂E/∂v)·v,
// whose gradient through m and v is exact; K is a Param, and its gradient
// is chained to the hyperparameters by hand (Kernel.HyperGrad).
func (m *VI) evaluate(grad bool, expect string) (fe, ell, kl float64) {
	mc := expect == MonteCarlo
	n := m.n
	t := m.tape
	t.Reset()
	if m.kernDirty {
		m.kern.fill(m.k.RawMatrix().Data, m.x, m.x, true)
		m.kernDirty = false
	}
	kv, av, rv := t.Param(m.k), t.Param(m.alpha), t.Param(m.rho)
	lam := t.Exp(rv)                                        // N×1
	bkb := t.Mul(t.Mul(kv, lam), t.Transpose(lam))          // λ_i K_ij λ_j
	l := t.Cholesky(t.AddDiag(bkb, 1))                      // chol(A)
	lsq := t.Square(t.SolveLower(l, t.Const(m.eye)))        // (L⁻¹)²
	adiag := t.Transpose(t.ColSums(lsq))                    // (A⁻¹)_nn, N×1
	v := t.Div(t.AddScalar(t.Neg(adiag), 1), t.Square(lam)) // Σ_nn
	mv := t.MatMul(kv, av, false, false)                    // m = Kα
	klv := t.Add(t.Add(t.LogDetChol(l), t.Sum(lsq)), t.Sum(t.Mul(av, mv)))
	if t.Err() != nil {
		return math.NaN(), math.NaN(), math.NaN()
	}
	copy(m.mean, t.Value(mv).RawMatrix().Data)
	copy(m.vars, t.Value(v).RawMatrix().Data)
	kl = 0.5 * (t.Scalar(klv) - float64(n))

	// Expected log-likelihood and its partial derivatives.
	gm, gv := m.gm.RawMatrix().Data, m.gv.RawMatrix().Data
	ls := m.logScale.At(0, 0)
	var dls float64
	if mc {
		numeric.FillNormal(m.eps, m.rng)
	}
	for i := range n {
		var e, dm, dv, ds float64
		switch {
		case mc:
			e, dm, dv, ds = m.lik.expectMC(m.eps[i*m.mcSamples:(i+1)*m.mcSamples], m.y[i], m.mean[i], m.vars[i], ls)
		case m.lik == likGaussian:
			e, dm, dv, ds = expectClosed(m.y[i], m.mean[i], m.vars[i], ls)
		case expect == Adaptive:
			e, dm, dv, ds = m.lik.expectAdaptive(m.panels, m.y[i], m.mean[i], m.vars[i], ls)
		default:
			e, dm, dv, ds = m.lik.expectGH(m.gh, m.y[i], m.mean[i], m.vars[i], ls)
		}
		ell += e
		gm[i], gv[i] = dm, dv
		dls += ds
	}
	fe = ell - kl
	if !grad {
		return fe, ell, kl
	}
	surr := t.Add(t.Sum(t.Mul(t.Const(m.gm), mv)), t.Sum(t.Mul(t.Const(m.gv), v)))
	obj := t.Sub(surr, t.Scale(klv, 0.5)) // F up to a constant
	t.Backward(obj)

	// Loss −F/N.
	s := -1 / float64(n)
	scaleInto(m.gAlpha.RawMatrix().Data, t.Grad(av).RawMatrix().Data, s)
	scaleInto(m.gRho.RawMatrix().Data, t.Grad(rv).RawMatrix().Data, s)
	gVar, gLen, gPer := m.kern.natural().HyperGrad(t.Grad(kv).RawMatrix().Data, m.k.RawMatrix().Data, m.x)
	h := m.gHyp.RawMatrix().Data
	h[0], h[1], h[2] = s*gVar, s*gLen, s*gPer
	m.gLogScale.Set(0, 0, s*dls)
	return fe, ell, kl
}

func scaleInto(dst, src []float64, s float64) {
	for i, x := range src {
		dst[i] = s * x
	}
}
