package mfvi

import (
	"math"
	"slices"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
)

// drawWeights fills m.eps from the evaluation stream and sets
// m.w = μ + exp(ℓ)·ε (m.std is refreshed too).
func (m *Method) drawWeights() {
	numeric.FillNormal(m.eps, m.evalRng)
	numeric.ExpTo(m.std, m.ls)
	for i, s := range m.std {
		m.w[i] = m.mu[i] + s*m.eps[i]
	}
}

// ELBO returns a fresh single-sample estimate of the ELBO (kl weight 1,
// whole data set, nats): log p(y | W) at one W ~ q minus the analytic KL.
func (m *Method) ELBO() float64 {
	if !m.ready {
		return math.NaN()
	}
	m.drawWeights()
	m.train.Forward(m.layers, m.w)
	return m.logLik(m.train, 0, false) - m.kl(false)
}

// IWBO returns one estimate of the importance-weighted bound with k weight
// samples: logsumexp_k[log p(y|W_k) + log p(W_k) − log q(W_k)] − log k, in
// float64.
func (m *Method) IWBO(k int) float64 {
	if !m.ready || k < 1 {
		return math.NaN()
	}
	m.iw = slices.Grow(m.iw[:0], k)
	for range k {
		m.drawWeights()
		m.train.Forward(m.layers, m.w)
		m.iw = append(m.iw, m.logLik(m.train, 0, false)+m.logPriorOverQ())
	}
	return numeric.LogSumExp(m.iw) - math.Log(float64(k))
}

// logPriorOverQ returns log p(W) − log q(W) at m.w = μ + std·ε; the ½ log 2π
// terms cancel.
func (m *Method) logPriorOverQ() float64 {
	var a float64
	for _, ly := range m.layers {
		ip := 1 / (ly.PriorStd * ly.PriorStd)
		var w2 float64
		for i := ly.Off; i < ly.Off+ly.Rows*ly.Cols; i++ {
			w2 += m.w[i] * m.w[i]
			a += m.ls[i] + 0.5*m.eps[i]*m.eps[i] // −log q
		}
		a -= float64(ly.Rows*ly.Cols)*math.Log(ly.PriorStd) + 0.5*w2*ip // log p
	}
	return a
}

// Predict draws samples functions f_W on xs with W ~ q, without observation
// noise; for classification it returns the probability sigmoid(f_W), on the
// data's 0–1 scale. Draws come from the evaluation stream, so calling
// Predict never changes the training trajectory.
func (m *Method) Predict(xs []float64, samples int) sim.Predictive {
	p := sim.Predictive{X: append([]float64(nil), xs...)}
	if !m.ready || samples < 1 || len(xs) == 0 {
		return p
	}
	if m.pred == nil || !m.pred.SameInputs(xs) {
		m.pred = model.NewNet(m.layers, xs, false)
	}
	p.Samples = make([][]float64, samples)
	for s := range p.Samples {
		m.drawWeights()
		m.pred.Forward(m.layers, m.w)
		f := append([]float64(nil), m.pred.Out...)
		if m.task == sim.Classification {
			for i, v := range f {
				f[i] = numeric.Sigmoid(v)
			}
		}
		p.Samples[s] = f
	}
	return p
}
