package mfvi

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
)

// Init sets the method up on d. The randomness is drawn from r in this
// order: two words seeding the evaluation stream (ELBO, IWBO, Predict), the
// initial means, then every step's ε.
func (m *Method) Init(d *sim.Dataset, c sim.Controls, r *rand.Rand) error {
	if d == nil || r == nil {
		return errors.New("mfvi: Init needs a data set and a random source")
	}
	if err := model.CheckData(Name, d); err != nil {
		return err
	}
	name := model.Resolve(m.model, d)
	arch, ok, err := model.ArchOf(name, c)
	if !ok {
		return modelError(name)
	}
	if err != nil {
		return err
	}
	task := d.Task
	switch task {
	case "":
		task = sim.Regression
	case sim.Regression, sim.Classification:
	default:
		return fmt.Errorf("mfvi: unsupported task %q", task)
	}
	m.model = name
	cs := maps.Clone(c)

	m.arch, m.task = arch, task
	m.x = append([]float64(nil), d.X...)
	m.y = append([]float64(nil), d.Y...)
	m.evalRng = rand.New(rand.NewPCG(r.Uint64(), r.Uint64()))
	m.rng = r

	var p int
	m.layers, p = model.Layout(arch)
	slab := make([]float64, 8*p+2)
	cut := func(n int) []float64 { s := slab[:n:n]; slab = slab[n:]; return s }
	m.mu, m.ls, m.gmu, m.gls = cut(p), cut(p), cut(p), cut(p)
	m.std, m.eps, m.w, m.dw = cut(p), cut(p), cut(p), cut(p)
	m.logNoise, m.gnoise = cut(1), cut(1)
	m.params = []*mat.Dense{mat.NewDense(1, p, m.mu), mat.NewDense(1, p, m.ls), mat.NewDense(1, 1, m.logNoise)}
	m.grads = []*mat.Dense{mat.NewDense(1, p, m.gmu), mat.NewDense(1, p, m.gls), mat.NewDense(1, 1, m.gnoise)}
	m.adam = numeric.NewAdam(numeric.DefaultAdam(cs["lr"].Num))

	m.controls = cs
	for name, v := range cs {
		m.apply(name, v.Num)
	}
	// Means: He-normal. Stds: initStdFrac of the prior std.
	model.HeInit(m.layers, m.mu, r)
	for _, ly := range m.layers {
		l0 := math.Log(initStdFrac * ly.PriorStd)
		for i := ly.Off; i < ly.Off+ly.Rows*ly.Cols; i++ {
			m.ls[i] = l0
		}
	}
	m.logNoise[0] = model.InitLogNoise
	m.frozenNoise = false
	if fn := cs[model.FixedNoise].Num; fn > 0 && name == model.Linear && task == sim.Regression {
		m.logNoise[0], m.frozenNoise = math.Log(fn), true // one posterior with the samplers' (package model)
	}
	m.train = model.NewNet(m.layers, m.x, true)
	m.pred = nil
	m.ready = true
	return nil
}

// Step takes one Adam step on −ELBO/N, with the expected log-likelihood
// averaged over mc_samples reparameterised weight samples and the KL
// (times kl_weight) in closed form. Objective is the first sample's ELBO
// estimate with kl weight 1. After the first call it allocates nothing.
func (m *Method) Step() sim.StepStats {
	if !m.ready {
		return sim.StepStats{Objective: math.NaN()}
	}
	m.gnoise[0] = 0
	scale := 1 / (float64(len(m.x)) * float64(m.mc))
	var ll, kl float64
	if m.mc == 1 {
		numeric.FillNormal(m.eps, m.rng)
		ll, kl = m.oneSampleGrad(scale)
	} else {
		numeric.ExpTo(m.std, m.ls)
		clear(m.gmu)
		clear(m.gls)
		for s := 0; s < m.mc; s++ {
			numeric.FillNormal(m.eps, m.rng)
			v := m.sampleGrad(m.eps, scale)
			if s == 0 {
				ll = v
			}
		}
		kl = m.kl(true)
	}
	if m.frozenNoise {
		m.gnoise[0] = 0
	}
	m.adam.Step(m.params, m.grads)
	return sim.StepStats{Objective: ll - kl, Evals: int64(m.mc)} // one gradient per weight sample
}

// sampleGrad sets w = μ + std·ε, evaluates the log-likelihood and adds
// scale × its negated gradient with respect to μ, ℓ and log σ into the
// gradient slabs. m.std must hold exp(ℓ).
func (m *Method) sampleGrad(eps []float64, scale float64) float64 {
	for i, mu := range m.mu {
		m.w[i] = mu + m.std[i]*eps[i]
	}
	m.train.Forward(m.layers, m.w)
	ll := m.logLik(m.train, scale, true)
	m.train.Backward(m.layers, m.w, m.dw)
	for i, d := range m.dw {
		m.gmu[i] += d
		m.gls[i] += d * eps[i] * m.std[i] // dw/dℓ = std·ε
	}
	return ll
}

// oneSampleGrad is the gradient of a one-sample step with the noise in
// m.eps: m.std = exp(ℓ), then sampleGrad and kl(true) on cleared slabs, with
// the passes over the weights fused: std and w in one, and the
// likelihood's and the KL's gradients written (not cleared and added)
// together with the KL's sums in another. It returns the log-likelihood
// and the KL, equal to what sampleGrad and kl return.
func (m *Method) oneSampleGrad(scale float64) (ll, kl float64) {
	eps := m.eps
	numeric.ExpTo(m.std, m.ls)
	for i, s := range m.std {
		m.w[i] = m.mu[i] + s*eps[i]
	}
	m.train.Forward(m.layers, m.w)
	ll = m.logLik(m.train, scale, true)
	m.train.Backward(m.layers, m.w, m.dw)
	c := m.klWeight / float64(len(m.x))
	for _, ly := range m.layers {
		ip := 1 / (ly.PriorStd * ly.PriorStd)
		n := ly.Rows * ly.Cols
		mu, ls, std := m.mu[ly.Off:ly.Off+n], m.ls[ly.Off:ly.Off+n], m.std[ly.Off:ly.Off+n]
		dw, e := m.dw[ly.Off:ly.Off+n], eps[ly.Off:ly.Off+n]
		gmu, gls := m.gmu[ly.Off:ly.Off+n], m.gls[ly.Off:ly.Off+n]
		var q, lsum float64
		for i, d := range dw {
			s := std[i]
			s2 := s * s
			gmu[i] = d + c*mu[i]*ip
			gls[i] = d*e[i]*s + c*(s2*ip-1)
			q += s2 + mu[i]*mu[i]
			lsum += ls[i]
		}
		kl += 0.5*(q*ip-float64(n)) - lsum + float64(n)*math.Log(ly.PriorStd)
	}
	return ll, kl
}

// logLik returns log p(y | f) for the network outputs in t. With grad set it
// writes d(−scale·log p)/df into t.OutGrad() and adds the noise gradient.
func (m *Method) logLik(t *model.Net, scale float64, grad bool) float64 {
	ll, dn := model.LogLik(t, m.task, m.y, m.logNoise[0], scale, grad)
	if grad {
		m.gnoise[0] += dn
	}
	return ll
}

// kl returns KL(q‖p) = Σ ½[(s²+μ²)/σ_l² − 1] − log s + log σ_l. With grad
// set it uses m.std (= exp ℓ) and adds kl_weight/N times its gradient.
func (m *Method) kl(grad bool) float64 {
	c := m.klWeight / float64(len(m.x))
	var kl float64
	for _, ly := range m.layers {
		ip := 1 / (ly.PriorStd * ly.PriorStd)
		var q, ls float64
		for i := ly.Off; i < ly.Off+ly.Rows*ly.Cols; i++ {
			var s2 float64
			if grad {
				s2 = m.std[i] * m.std[i]
				m.gmu[i] += c * m.mu[i] * ip
				m.gls[i] += c * (s2*ip - 1)
			} else {
				s2 = math.Exp(2 * m.ls[i])
			}
			q += s2 + m.mu[i]*m.mu[i]
			ls += m.ls[i]
		}
		n := float64(ly.Rows * ly.Cols)
		kl += 0.5*(q*ip-n) - ls + n*math.Log(ly.PriorStd)
	}
	return kl
}
