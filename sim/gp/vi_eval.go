package gp

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
)

// lambdas returns λ = exp(ρ).
func (m *VI) lambdas() []float64 {
	lam := make([]float64, m.n)
	for i, r := range m.rho.RawMatrix().Data {
		lam[i] = math.Exp(r)
	}
	return lam
}

// Posterior returns the mean and covariance of q(f*) at xs (latent f, no
// observation noise): N(K*X α, K** + εI − K*X (K + diag(λ⁻²))⁻¹ KX*).
func (m *VI) Posterior(xs []float64) ([]float64, *mat.SymDense, error) {
	if !m.ready {
		return nil, nil, notReady(VIName)
	}
	return conditional(&m.kern, m.x, m.lambdas(), m.alpha.RawMatrix().Data, xs, false)
}

// TrainPosterior returns q(z) = N(m, Σ) on the training inputs.
func (m *VI) TrainPosterior() ([]float64, *mat.SymDense, error) {
	if !m.ready {
		return nil, nil, notReady(VIName)
	}
	return conditional(&m.kern, m.x, m.lambdas(), m.alpha.RawMatrix().Data, m.x, true)
}

// Predict draws samples functions from q(f*) on xs from the evaluation
// stream. For classification (Bernoulli likelihood) the samples are
// probabilities sigmoid(f), on the data's 0–1 scale, as the other methods
// return them; Posterior gives the latent f.
func (m *VI) Predict(xs []float64, samples int) sim.Predictive {
	if !m.ready {
		return sim.Predictive{X: append([]float64(nil), xs...)}
	}
	mean, cov, err := m.Posterior(xs)
	return predict(mean, cov, err, xs, samples, m.lik == likBernoulli, m.evalRng)
}

// PredictMoments writes the mean and std of q(f*) at xs; false for a
// classifier, whose Predict returns probabilities sigmoid(f), not Gaussian.
func (m *VI) PredictMoments(xs, mean, std []float64) bool {
	if !m.ready || m.lik == likBernoulli {
		return false
	}
	mu, cov, err := m.Posterior(xs)
	return momentsTo(mean, std, mu, cov, err)
}

// ELBO returns the free energy F at the current parameters, with the
// expectations in closed form (Gaussian) or by the adaptive quadrature
// (~1e-10) whatever the expectation control says: a zero-variance estimate
// of the exact ELBO.
func (m *VI) ELBO() float64 {
	if !m.ready {
		return math.NaN()
	}
	fe, _, _ := m.evaluate(false, Adaptive)
	return fe
}

// IWBO returns one importance-weighted estimate with k draws z_i ~ q(z) on
// the training inputs:
//
//	log (1/k) Σ_i exp[log p(y|z_i) + log N(z_i; 0, K+εI) − log q(z_i)].
//
// At the exact posterior (Gaussian likelihood) every weight equals p(y), so
// the estimate is log p(y) with no variance.
func (m *VI) IWBO(k int) float64 {
	if !m.ready || k < 1 {
		return math.NaN()
	}
	mean, cov, err := m.TrainPosterior()
	if err != nil {
		return math.NaN()
	}
	lq, err := sampleChol(cov)
	if err != nil {
		return math.NaN()
	}
	kp := mat.NewSymDense(m.n, nil)
	m.kern.fill(kp.RawSymmetric().Data, m.x, m.x, true)
	var ch mat.Cholesky
	if !ch.Factorize(kp) {
		return math.NaN()
	}
	var lp mat.TriDense
	ch.LTo(&lp)
	ls := m.logScale.At(0, 0)
	z, eps, scratch := make([]float64, m.n), make([]float64, m.n), make([]float64, m.n)
	zero := make([]float64, m.n)
	zv, ev := mat.NewVecDense(m.n, z), mat.NewVecDense(m.n, eps)
	w := make([]float64, k)
	var logDetQ float64
	for i := range m.n {
		logDetQ += math.Log(lq.At(i, i))
	}
	for s := range w {
		numeric.FillNormal(eps, m.evalRng)
		var ee float64
		for _, e := range eps {
			ee += e * e
		}
		zv.MulVec(lq, ev)
		var ll float64
		for i := range z {
			z[i] += mean[i]
			v, _, _ := m.lik.logp(m.y[i], z[i], ls)
			ll += v
		}
		logQ := -float64(m.n)*halfLog2Pi - logDetQ - 0.5*ee
		w[s] = ll + numeric.MVNLogPDFScratch(z, zero, &lp, scratch) - logQ
	}
	return numeric.LogSumExp(w) - math.Log(float64(k))
}
