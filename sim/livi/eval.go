package livi

import (
	"math"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
)

// drawTheta draws z and ε from the evaluation stream and sets m.theta =
// g(z) + σε (and m.work's forward values).
func (m *Method) drawTheta() {
	numeric.FillNormal(m.work.z, m.evalRng)
	numeric.FillNormal(m.eps, m.evalRng)
	m.gen.forward(m.work, m.theta)
	for i, e := range m.eps {
		m.theta[i] += m.sigma * e
	}
}

// ELBO returns a fresh single-sample estimate of the LIVI objective with the
// full Jacobian term and its constant (whatever the objective control):
// log p(y|θ) + log p(θ) + D/2·(1+log 2π) + (D−d)/2·log σ² + ½ log det(JᵀJ +
// σ²I). It is an estimate of the linearised approximation of the ELBO, not
// of a strict bound: the entropy approximation can err either way for a
// nonlinear generator. The method reports no IWBO (sim.Extras), because an
// IWBO needs log q(θ), which an implicit q does not have.
func (m *Method) ELBO() float64 {
	if !m.ready {
		return math.NaN()
	}
	m.drawTheta()
	m.train.Forward(m.bm.layers, m.theta)
	ll, _ := m.bm.logLik(m.train, m.logNoise[0], 0, false)
	lp := m.bm.logPrior(m.theta, nil, 0)
	m.gen.jacobian(m.work)
	h, _ := m.gen.entropyTerm(m.work, m.sigma*m.sigma, objJacobian, 0)
	return ll + lp + h + m.entropyConst()
}

// Predict draws samples functions f_θ on xs with θ = g(z) + σε, without
// observation noise (probabilities for classification). Draws come from
// the evaluation stream, so Predict never changes the training trajectory.
func (m *Method) Predict(xs []float64, samples int) sim.Predictive {
	p := sim.Predictive{X: append([]float64(nil), xs...)}
	if !m.ready || samples < 1 || len(xs) == 0 {
		return p
	}
	m.pred = m.bm.predictNet(m.pred, xs)
	p.Samples = make([][]float64, samples)
	for s := range p.Samples {
		m.drawTheta()
		m.pred.Forward(m.bm.layers, m.theta)
		f := append([]float64(nil), m.pred.Out...)
		m.bm.link(f)
		p.Samples[s] = f
	}
	return p
}

// WeightSamples returns n draws of weight θ_index under q, for a histogram
// of its marginal density. The index is into the flat θ (see the package
// documentation): layer by layer, each layer's (N_{l−1}+1)×N_l matrix
// row-major with the bias row last; for the default 1-50-50-1 network,
// 0–99 are the first layer (0–49 input weights, 50–99 biases), 100–2649 the
// second, 2650–2700 the output layer. It returns nil before Init or for an
// index outside [0, NumWeights()). Draws come from the evaluation stream.
func (m *Method) WeightSamples(index, n int) []float64 {
	if !m.ready || index < 0 || index >= m.bm.p || n < 1 {
		return nil
	}
	g, w := &m.gen, m.work
	out := make([]float64, n)
	for s := range out {
		numeric.FillNormal(w.z, m.evalRng)
		v := g.b2[index] + m.sigma*m.evalRng.NormFloat64()
		for i := range g.h {
			a := g.b1[i]
			for k, zk := range w.z {
				a += g.w1[i*g.d+k] * zk
			}
			e, _ := elu(a)
			v += g.w2t[i*g.out+index] * e
		}
		out[s] = v
	}
	return out
}
