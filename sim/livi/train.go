package livi

import (
	"errors"
	"maps"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
)

// Init sets the method up on d. Randomness is drawn from r in this order:
// two words seeding the evaluation stream, the generator's initial weights,
// then every step's z and ε.
func (m *Method) Init(d *sim.Dataset, c sim.Controls, r *rand.Rand) error {
	if r == nil {
		return errors.New(Name + ": Init needs a data set and a random source")
	}
	bm, err := newBNNModel(Name, m.model, d, c)
	if err != nil {
		return err
	}
	m.model = bm.name
	cs := maps.Clone(c)
	m.bm = bm
	m.evalRng = rand.New(rand.NewPCG(r.Uint64(), r.Uint64()))
	m.rng = r
	D, h, nd := bm.p, genHidden, int(cs["noise_dim"].Num)

	slab := make([]float64, h+2*D*h+5*D+2)
	cut := func(n int) []float64 { s := slab[:n:n]; slab = slab[n:]; return s }
	m.gen = generator{d: nd, h: h, out: D, w1: make([]float64, h*nd), b1: cut(h), w2t: cut(D * h), b2: cut(D)}
	m.grad = *newGenGrad(nd, h, D)
	m.eps, m.theta, m.dtheta = cut(D), cut(D), cut(D)
	m.logNoise, m.gnoise = cut(1), cut(1)
	m.v2, m.u2 = cut(D*h), cut(D)
	m.adam = numeric.NewAdam(numeric.DefaultAdam(cs["lr"].Num))
	m.setParams()

	m.controls = cs
	for name, v := range cs {
		if name != "noise_dim" {
			m.apply(name, v)
		}
	}
	// W₁, b₁: PyTorch's Linear default U(±1/√d), as the reference code.
	// W₂ = V·diag-scaled: W₂[i,k] = u_i·V[i,k] with u_i = 1/√((fan-in+1)·h),
	// the prior std at scale 1 over √h, fixed at Init. Adam's steps, of size
	// lr in every entry of V, then move every weight's spread by the same
	// fraction of its prior std; on W₂ itself a step of 1e-3 would be half
	// of a hidden-layer entry's initial size. V starts at N(0, (initSpread·
	// s)²), so Var g_i(z) ≈ (initSpread·σ_i)²·E elu(a)², σ_i the prior std.
	// b₂: mfvi's He-normal means. (W₂ and V are stored transposed: entry
	// (i, k) at k·D + i.)
	u := 1 / math.Sqrt(float64(nd))
	for i := range m.gen.w1 {
		m.gen.w1[i] = u * (2*r.Float64() - 1)
	}
	for i := range m.gen.b1 {
		m.gen.b1[i] = u * (2*r.Float64() - 1)
	}
	for i := range D {
		m.u2[i] = bm.priorStdOf(i) / m.priorScale / math.Sqrt(float64(h))
		for k := range h {
			m.v2[k*D+i] = initSpread * m.priorScale * r.NormFloat64()
		}
	}
	m.syncW2()
	model.HeInit(bm.layers, m.gen.b2, r)
	m.logNoise[0] = model.InitLogNoise

	m.work, m.tw = newGenWork(nd, h, D), newGenWork(nd, h, D)
	m.traceK = newSymWork(nd)
	m.lastJBuf = make([]float64, D*nd)
	m.lastJ = m.lastJBuf
	m.lastTerm = math.NaN()
	m.train = model.NewNet(bm.layers, bm.x, true)
	m.pred = nil
	m.frozenNoise = false
	m.ready = true
	return nil
}

// syncW2 sets W₂ = u ⊙ V from the optimised V.
func (m *Method) syncW2() {
	D := m.gen.out
	for k := range m.gen.h {
		floats.MulTo(m.gen.w2t[k*D:(k+1)*D], m.v2[k*D:(k+1)*D], m.u2)
	}
}

// setParams points the optimiser's lists at the current slabs.
func (m *Method) setParams() {
	g, gr, h := &m.gen, &m.grad, m.gen.h
	m.params = []*mat.Dense{mat.NewDense(h, g.d, g.w1), mat.NewDense(1, h, g.b1), mat.NewDense(h, g.out, m.v2), mat.NewDense(1, g.out, g.b2), mat.NewDense(1, 1, m.logNoise)}
	m.grads = []*mat.Dense{mat.NewDense(h, g.d, gr.w1), mat.NewDense(1, h, gr.b1), mat.NewDense(h, g.out, gr.w2t), mat.NewDense(1, g.out, gr.b2), mat.NewDense(1, 1, m.gnoise)}
	m.w2 = mat.NewDense(h, g.out, g.w2t)
}

// resizeNoise changes d, keeping the first min(d, d') columns of W₁ and
// drawing new ones as Init would. Adam restarts W₁'s moments (its shape
// changed) and keeps the others'.
func (m *Method) resizeNoise(nd int) {
	g := &m.gen
	w1 := make([]float64, g.h*nd)
	u := 1 / math.Sqrt(float64(nd))
	for i := range g.h {
		for k := range nd {
			if k < g.d {
				w1[i*nd+k] = g.w1[i*g.d+k]
			} else {
				w1[i*nd+k] = u * (2*m.rng.Float64() - 1)
			}
		}
	}
	g.w1, g.d = w1, nd
	m.grad.w1 = make([]float64, g.h*nd)
	m.setParams()
	m.work, m.tw = newGenWork(nd, g.h, g.out), newGenWork(nd, g.h, g.out)
	m.traceK = newSymWork(nd)
	m.lastJBuf = make([]float64, g.out*nd)
	m.lastJ = m.lastJBuf
}

// Step takes one Adam step on the loss −L/N, L the LIVI objective averaged
// over mc_samples draws of (z, ε). Objective is that average with the
// entropy's constant, i.e. the step's estimate of the LIVI approximation of
// the ELBO (of its sv-bound under objective sv-bound). After the first call
// it allocates nothing.
//
// With one sample the gradient of W₂ᵀ is never stored: Adam forms it from
// backward's rank-(d+1) factors block by block as it steps V. With more,
// each sample's factors are multiplied out into m.grad.w2t.
func (m *Method) Step() sim.StepStats {
	if !m.ready {
		return sim.StepStats{Objective: math.NaN()}
	}
	clear(m.grad.w1)
	clear(m.grad.b1)
	clear(m.grad.b2)
	if m.mc > 1 {
		clear(m.grad.w2t)
	}
	m.gnoise[0] = 0
	scale := 1 / (float64(len(m.bm.x)) * float64(m.mc))
	var obj, term float64
	w, D, d := m.tw, m.gen.out, m.gen.d
	for s := range m.mc {
		if m.Interrupted() {
			return sim.StepStats{Objective: math.NaN()} // no Adam step: the engine discards the method
		}
		numeric.FillNormal(w.z, m.rng)
		numeric.FillNormal(m.eps, m.rng)
		ll, lp, t := m.sampleGrad(scale)
		obj += ll + lp + t
		term += t
		if m.mc > 1 {
			m.gen.addW2t(m.grad.w2t, w)
			if s == 0 {
				copy(m.lastJBuf, w.jt[:d*D])
			}
		}
	}
	if m.frozenNoise {
		m.gnoise[0] = 0
	}
	// ∇V = ∇W₂ ⊙ u, the step, and W₂ = V ⊙ u in one pass over V.
	if m.mc > 1 {
		m.lastJ = m.lastJBuf
		m.adam.StepProduct(m.params, m.grads, 2, m.u2, m.w2)
	} else {
		m.lastJ = w.jt[:d*D]
		h := m.gen.h
		m.adam.StepProductLowRank(m.params, m.grads, 2, m.u2, m.w2,
			blas64.General{Rows: h, Cols: w.k, Stride: w.k, Data: w.fa[:h*w.k]},
			blas64.General{Rows: w.k, Cols: D, Stride: D, Data: w.fb})
	}
	n := float64(m.mc)
	m.lastTerm = term / n
	return sim.StepStats{Objective: obj/n + m.entropyConst(), Evals: int64(m.mc)} // one gradient per draw of (z, ε)
}

// sampleGrad evaluates the objective's three terms at θ = g(z) + σε for the
// z and ε in m.tw.z and m.eps, and adds scale × the gradient of their
// negated sum into the gradient slabs, W₂ᵀ's as m.tw's factors.
func (m *Method) sampleGrad(scale float64) (ll, lp, term float64) {
	w := m.tw
	m.gen.forwardTrain(w, m.theta)
	for i, e := range m.eps {
		m.theta[i] += m.sigma * e
	}
	m.train.Forward(m.bm.layers, m.theta)
	ll, dn := m.bm.logLik(m.train, m.logNoise[0], scale, true)
	m.gnoise[0] += dn
	m.train.Backward(m.bm.layers, m.theta, m.dtheta)
	lp = m.bm.logPrior(m.theta, m.dtheta, scale*m.priorWeight)
	term = m.gen.backward(w, m.dtheta, m.sigma*m.sigma, m.objective, -scale, &m.grad)
	return ll, lp, term
}
