package gip

import (
	"math"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
	"gonum.org/v1/gonum/mat"
)

// trainer holds the tape and the buffers of one recorded step. It is rebuilt
// whenever a shape or the number of samples changes, so every step records
// the same sequence and Reset reuses every buffer.
type trainer struct {
	t      *numeric.Tape
	eps    [][]*mat.Dense // eps[s][l]: standard normal noise E, n_l×N_l
	params []*mat.Dense
	grads  []*mat.Dense
	vbuf   []numeric.Var
}

func newTrainer(m *Method) *trainer {
	L := m.arch.Layers()
	tr := &trainer{t: numeric.NewTape()}
	tr.eps = make([][]*mat.Dense, m.mc)
	for s := range tr.eps {
		tr.eps[s] = make([]*mat.Dense, L)
		for l := range L {
			tr.eps[s][l] = mat.NewDense(m.arch.InDim(l), m.arch.OutDim(l), nil)
		}
	}
	tr.params = append(tr.params, m.u0)
	tr.params = append(tr.params, m.v...)
	tr.params = append(tr.params, m.logLam...)
	tr.params = append(tr.params, m.logSig)
	tr.grads = make([]*mat.Dense, len(tr.params))
	return tr
}

// vars are the leaves of one recorded step.
type vars struct {
	u0, x  numeric.Var
	v, ll  []numeric.Var
	logSig numeric.Var
	y      numeric.Var
}

// record records the loss −ELBO/N averaged over the trainer's samples, whose
// noise must already be in tr.eps, and returns the loss, the mean ELBO and
// the mean KL (whole-data nats).
func (m *Method) record(tr *trainer, vs *vars) (loss, elbo, kl numeric.Var) {
	t := tr.t
	vs.u0 = t.Param(m.u0)
	vs.x = t.Const(m.x)
	for l := range vs.v {
		vs.v[l] = t.Param(m.v[l])
		vs.ll[l] = t.Param(m.logLam[l])
	}
	vs.logSig = t.Param(m.logSig)
	vs.y = t.Const(m.y)

	for s := range tr.eps {
		e, k := m.recordSample(tr, vs, tr.eps[s])
		if s == 0 {
			elbo, kl = e, k
		} else {
			elbo, kl = t.Add(elbo, e), t.Add(kl, k)
		}
	}
	if len(tr.eps) > 1 {
		inv := 1 / float64(len(tr.eps))
		elbo, kl = t.Scale(elbo, inv), t.Scale(kl, inv)
	}
	loss = t.Scale(elbo, -1/float64(m.d.N()))
	return loss, elbo, kl
}

// recordSample records one single-sample ELBO (package doc) with noise eps and
// returns it with its KL.
//
// The inducing rows U and the data rows F are propagated as two products
// with the same W rather than one stacked product: the arithmetic is the
// same, Φ needs no row slice, and each product stays below the size at which
// gonum's Dgemm spawns goroutines (and allocates), for M, N ≤ 192.
func (m *Method) recordSample(tr *trainer, vs *vars, eps []*mat.Dense) (elbo, kl numeric.Var) {
	t := tr.t
	N := m.d.N()
	u, f := vs.u0, vs.x
	for l := range m.arch.Layers() {
		n, d := m.arch.InDim(l), m.arch.OutDim(l)
		sd := m.priorStd(l)
		prec := 1 / (sd * sd)

		var phi, ft numeric.Var // Φ = Ũ_{l−1}, M×n, and F̃_{l−1}, N×n
		if l > 0 {
			phi, ft = activateAppendOnes(t, m.arch.Act, u), activateAppendOnes(t, m.arch.Act, f)
		} else {
			phi, ft = t.AppendOnes(u), t.AppendOnes(f)
		}
		lam := t.Exp(vs.ll[l])
		lphi := t.Mul(phi, lam)
		chol := t.Cholesky(t.AddDiag(t.WeightedGram(phi, lam), prec))    // P = σ⁻²I + ΦᵀΛΦ
		half := t.SolveLower(chol, t.MatMul(lphi, vs.v[l], true, false)) // L⁻¹ΦᵀΛV
		mean := t.SolveLowerT(chol, half)                                // P⁻¹ΦᵀΛV
		w := t.Add(mean, t.SolveLowerT(chol, t.Const(eps[l])))           // M + L⁻ᵀE
		u, f = t.MatMul(phi, w, false, false), t.MatMul(ft, w, false, false)

		// KL_l = ½[d(tr Σ/σ² − n + n log σ² + log|P|) + ‖M‖²/σ²], tr Σ = ‖L⁻¹‖².
		trS := t.TraceInvChol(chol)
		k := t.Add(t.Scale(t.Add(t.Scale(trS, prec), t.LogDetChol(chol)), 0.5*float64(d)),
			t.Scale(t.SumSquares(mean), 0.5*prec))
		k = t.AddScalar(k, 0.5*float64(d*n)*(math.Log(sd*sd)-1))
		if l == 0 {
			kl = k
		} else {
			kl = t.Add(kl, k)
		}
	}
	// Σ_k log N(y_k; f_k, σ²) = −N/2 log 2π − N log σ − ½ e^{−2 log σ} Σ (y−f)².
	ss := t.SumSquares(t.Sub(f, vs.y))
	ll := t.Sub(t.Scale(vs.logSig, -float64(N)), t.Scale(t.Mul(ss, t.Exp(t.Scale(vs.logSig, -2))), 0.5))
	ll = t.AddScalar(ll, -float64(N)*model.HalfLog2Pi)
	return t.Sub(ll, kl), kl
}

// fillNoise draws the step's standard normal noise.
func (tr *trainer) fillNoise(m *Method) {
	for _, es := range tr.eps {
		for _, e := range es {
			numeric.FillNormal(e.RawMatrix().Data, m.rng)
		}
	}
}

// gradStep records the loss with the noise in tr.eps, back-propagates and
// fills tr.grads. It returns the mean ELBO and KL, and false if a Cholesky
// factorisation failed.
func (m *Method) gradStep(tr *trainer) (elbo, kl float64, ok bool) {
	var vs vars
	vs.v, vs.ll = tr.varBuf(m.arch.Layers())
	tr.t.Reset()
	loss, e, k := m.record(tr, &vs)
	tr.t.Backward(loss)
	elbo, kl = tr.t.Scalar(e), tr.t.Scalar(k)
	if err := tr.t.Err(); err != nil {
		if !m.warned { // parameters that broke P stay broken: log once
			m.Logger().Warn("gip: step skipped", "err", err)
			m.warned = true
		}
		return elbo, kl, false
	}
	g := tr.grads[:0]
	g = append(g, tr.t.Grad(vs.u0))
	for _, v := range vs.v {
		g = append(g, tr.t.Grad(v))
	}
	for _, v := range vs.ll {
		g = append(g, tr.t.Grad(v))
	}
	g = append(g, tr.t.Grad(vs.logSig))
	tr.grads = g
	return elbo, kl, true
}

// varBuf returns reusable Var slices so recording allocates nothing.
func (tr *trainer) varBuf(L int) (v, ll []numeric.Var) {
	if len(tr.vbuf) != 2*L {
		tr.vbuf = make([]numeric.Var, 2*L)
	}
	return tr.vbuf[:L], tr.vbuf[L:]
}

// Step takes one Adam step on −ELBO/N and returns the step's ELBO estimate.
func (m *Method) Step() sim.StepStats {
	if m.tr == nil {
		m.tr = newTrainer(m)
	}
	tr := m.tr
	tr.fillNoise(m)
	elbo, kl, ok := m.gradStep(tr)
	m.last.elbo, m.last.kl = elbo, kl
	if ok {
		np := len(tr.params)
		if m.freezeNoise {
			np--
		}
		m.adam.Step(tr.params[:np], tr.grads[:np])
	}
	// One back-propagation through each weight sample, spent even when a
	// failed factorisation skips the update.
	return sim.StepStats{Objective: elbo, Evals: int64(len(tr.eps))}
}

// activateAppendOnes is [φ(a), 1] on the tape: ReLU's fused node, or the
// activation then the ones column.
func activateAppendOnes(t *numeric.Tape, act model.Activation, a numeric.Var) numeric.Var {
	switch act {
	case model.Tanh:
		return t.AppendOnes(t.Tanh(a))
	case model.ELU:
		return t.AppendOnes(t.ELU(a))
	}
	return t.ReLUAppendOnes(a)
}
