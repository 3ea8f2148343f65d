package mcmc

import (
	"math"
	"slices"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
)

// Params names the summarised parameters: b0, b, sigma for the linear
// model; noise (regression only), f_mid (f at the gap centre, or at the
// middle of the inputs' range) and the first weight of each layer for the
// BNN.
func (m *Method) Params() []string { return slices.Clone(m.params) }

// Draws returns a copy of the retained draws of param, chains × draws (all
// chains have the same number), or nil for an unknown name.
func (m *Method) Draws(param string) [][]float64 {
	j := slices.Index(m.params, param)
	if !m.ready || j < 0 {
		return nil
	}
	out := make([][]float64, len(m.chains))
	for k, c := range m.chains {
		out[k] = c.draws.column(make([]float64, 0, c.draws.len()), j)
	}
	return out
}

// AcceptanceRate returns the mean acceptance statistic over the retained
// transitions of all chains (over warm-up while there are none yet). SGLD
// accepts every move: 1.
func (m *Method) AcceptanceRate() float64 {
	var s float64
	var n int
	for _, c := range m.chains {
		s, n = s+c.postAcc, n+c.postN
	}
	if n == 0 {
		for _, c := range m.chains {
			s, n = s+c.phaseAcc, n+c.phaseN
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return s / float64(n)
}

// Divergences returns the number of divergent transitions after warm-up,
// over all chains (energy error above 1000, as Stan counts them).
func (m *Method) Divergences() int {
	var n int
	for _, c := range m.chains {
		n += c.divPost
	}
	return n
}

// GradEvals returns the gradient evaluations so far, warm-up and step-size
// searches included, over all chains. Metropolis evaluates no gradients.
func (m *Method) GradEvals() int64 {
	var n int64
	for _, c := range m.chains {
		n += c.gradEvals
	}
	return n
}

// Leapfrogs returns the leapfrog steps so far over all chains, warm-up and
// step-size searches included; 0 for Metropolis and SGLD.
func (m *Method) Leapfrogs() int64 {
	var n int64
	for _, c := range m.chains {
		n += c.leapfrogs
	}
	return n
}

// MeanTreeDepth returns the mean NUTS tree depth over the kept transitions
// of all chains; NaN for the other samplers or before a kept transition.
func (m *Method) MeanTreeDepth() float64 {
	if m.kind != kindNUTS {
		return math.NaN()
	}
	var s int64
	var n int
	for _, c := range m.chains {
		s, n = s+c.depthSum, n+c.postN
	}
	if n == 0 {
		return math.NaN()
	}
	return float64(s) / float64(n)
}

// FunctionDraws returns f at xs for at most perChain evenly spaced draws of
// each chain's kept full draws (those Predict uses, thinned to bounded
// memory as they arrive), indexed [chain][draw][i].
func (m *Method) FunctionDraws(xs []float64, perChain int) [][][]float64 {
	if !m.ready || perChain < 1 {
		return nil
	}
	n := m.chains[0].full.len()
	stride := max(1, (n+perChain-1)/perChain)
	out := make([][][]float64, len(m.chains))
	for k, c := range m.chains {
		for i := 0; i < n; i += stride {
			f := make([]float64, len(xs))
			m.prob.predict(f, xs, c.full.at(i))
			out[k] = append(out[k], f)
		}
	}
	return out
}

// Warmup reports whether the next Step is still a warm-up transition.
func (m *Method) Warmup() bool { return m.iter < m.warmup }

// StepSize returns the chains' mean current step size.
func (m *Method) StepSize() float64 {
	var s float64
	for _, c := range m.chains {
		s += c.k.stepSize()
	}
	return s / float64(len(m.chains))
}

// NoiseStd returns the posterior mean of the observation noise std over the
// retained draws (at most 1000 evenly spaced ones per chain, as the run
// asks for it every frame), or over the chains' current states during
// warm-up; 0 for a model without noise.
func (m *Method) NoiseStd() float64 {
	if !m.ready {
		return 0
	}
	if h, ok := m.prob.(*linearHeld); ok {
		return h.sigma
	}
	j := slices.IndexFunc(m.params, func(p string) bool { return p == "sigma" || p == "noise" })
	if j < 0 {
		return 0
	}
	var s float64
	var n int
	for _, c := range m.chains {
		stride := max(1, c.draws.len()/1000)
		for i := 0; i < c.draws.len(); i += stride {
			s += c.draws.at(i)[j]
			n++
		}
	}
	if n == 0 {
		for _, c := range m.chains {
			s += m.prob.noiseStd(c.theta)
			n++
		}
	}
	return s / float64(n)
}

// Trace returns, per parameter and chain slot, the chains' current values
// (NaN for slots beyond the chain count), then the acceptance rate of the
// current phase averaged over chains, the mean step size and the
// cumulative divergences. The slice is reused by the next call.
func (m *Method) Trace() []float64 {
	if !m.ready {
		return make([]float64, len(m.Spec().Traces))
	}
	tp := m.traceParams()
	for i := range m.trace {
		m.trace[i] = math.NaN()
	}
	var acc float64
	var div int
	for k, c := range m.chains {
		c.dens.summarize(c.summ, c.theta)
		for i, name := range tp {
			if j := slices.Index(m.params, name); j >= 0 {
				m.trace[i*maxChains+k] = c.summ[j]
			}
		}
		if c.phaseN > 0 {
			acc += c.phaseAcc / float64(c.phaseN)
		}
		div += c.divWarm + c.divPost
	}
	base := len(tp) * maxChains
	m.trace[base] = acc / float64(len(m.chains))
	m.trace[base+1] = m.StepSize()
	m.trace[base+2] = float64(div)
	return m.trace
}

// Predict returns samples functions f_θ on xs (no observation noise; for
// classification the probability), θ taken evenly spaced over the
// retained draws of all chains, repeating draws when there are fewer than
// samples. Before any draw is retained it uses the chains' current states.
// It draws no random numbers.
func (m *Method) Predict(xs []float64, samples int) sim.Predictive {
	p := sim.Predictive{X: slices.Clone(xs)}
	if !m.ready || samples < 1 || len(xs) == 0 {
		return p
	}
	per := m.chains[0].full.len()
	pool := per * len(m.chains)
	p.Samples = make([][]float64, samples)
	for s := range p.Samples {
		var th []float64
		if pool == 0 {
			th = m.chains[s%len(m.chains)].theta
		} else {
			j := (2*s + 1) * pool / (2 * samples)
			th = m.chains[j/per].full.at(j % per)
		}
		f := make([]float64, len(xs))
		m.prob.predict(f, xs, th)
		p.Samples[s] = f
	}
	return p
}

// diagCache keeps the convergence diagnostics between frames: they are
// recomputed when the chains have offered a tenth more draws (at least 100)
// since the last computation.
type diagCache struct {
	offered     int
	rhat, essLo float64
}

// diagThin is the most draws per chain the live diagnostics look at.
const diagThin = 5000

// Diagnostics returns acceptance_rate, divergences, step_size, warmup
// (1 during warm-up), and once draws are retained rhat_max and
// ess_bulk_min over Params. Those two are computed on at most 5000 evenly
// spaced retained draws per chain; beyond that the ESS is the subsample's,
// which for positively correlated chains is below the full chains' ESS.
func (m *Method) Diagnostics() map[string]float64 {
	if !m.ready {
		return nil
	}
	out := map[string]float64{
		"acceptance_rate": m.AcceptanceRate(),
		"divergences":     float64(m.Divergences()),
		"step_size":       m.StepSize(),
		"warmup":          0,
	}
	if m.Warmup() {
		out["warmup"] = 1
	}
	st := &m.chains[0].draws
	if st.len() < 8 {
		return out
	}
	if d := &m.diag; d.offered == 0 || st.offered-d.offered >= max(100, d.offered/10) {
		d.offered, d.rhat, d.essLo = st.offered, math.Inf(-1), math.Inf(1)
		stride := max(1, (st.len()+diagThin-1)/diagThin)
		for _, name := range m.params {
			ch := m.Draws(name)
			for k, x := range ch {
				t := x[:0]
				for i := 0; i < len(x); i += stride {
					t = append(t, x[i])
				}
				ch[k] = t
			}
			if r := numeric.RHat(ch); !math.IsNaN(r) {
				d.rhat = max(d.rhat, r)
			}
			if e := numeric.ESSBulk(ch); !math.IsNaN(e) {
				d.essLo = min(d.essLo, e)
			}
		}
	}
	if !math.IsInf(m.diag.rhat, 0) {
		out["rhat_max"] = m.diag.rhat
	}
	if !math.IsInf(m.diag.essLo, 0) {
		out["ess_bulk_min"] = m.diag.essLo
	}
	return out
}
