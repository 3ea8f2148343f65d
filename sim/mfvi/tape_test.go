package mfvi

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
)

// tapeLoss records the same loss as Step, −(log p(y|W) − kl_weight·KL)/N
// with W = μ + exp(ℓ)⊙ε, on the numeric tape, so that the hand-written
// backward pass can be checked against the autodiff on the real 2×50
// network, and so that a full optimiser step through the tape can be
// benchmarked.
type tapeLoss struct {
	t              *numeric.Tape
	mu, ls, eps    []*mat.Dense // per layer, rows × cols views of the slabs
	logNoise, x, y *mat.Dense
	klw, n         float64
	priorStd       []float64
	vars           []numeric.Var // reused by record
}

func newTapeLoss(m *Method) *tapeLoss {
	tl := &tapeLoss{t: numeric.NewTape(), klw: m.klWeight, n: float64(len(m.x))}
	for _, ly := range m.layers {
		view := func(s []float64) *mat.Dense {
			return mat.NewDense(ly.Rows, ly.Cols, s[ly.Off:ly.Off+ly.Rows*ly.Cols])
		}
		tl.mu = append(tl.mu, view(m.mu))
		tl.ls = append(tl.ls, view(m.ls))
		tl.eps = append(tl.eps, view(m.eps))
		tl.priorStd = append(tl.priorStd, ly.PriorStd)
	}
	tl.logNoise = mat.NewDense(1, 1, m.logNoise)
	tl.x = mat.NewDense(len(m.x), 1, m.x)
	tl.y = mat.NewDense(len(m.y), 1, m.y)
	return tl
}

// record builds the loss and returns the parameter nodes (μ_l, ℓ_l per
// layer, then log σ) and the loss node.
func (tl *tapeLoss) record() (params []numeric.Var, loss numeric.Var) {
	t := tl.t
	t.Reset()
	params = tl.vars[:0]
	defer func() { tl.vars = params }()
	h := t.AppendOnes(t.Const(tl.x))
	var kl numeric.Var
	for l := range tl.mu {
		mu, ls := t.Param(tl.mu[l]), t.Param(tl.ls[l])
		params = append(params, mu, ls)
		std := t.Exp(ls)
		w := t.Add(mu, t.Mul(std, t.Const(tl.eps[l])))
		f := t.MatMul(h, w, false, false)
		if l < len(tl.mu)-1 {
			h = t.AppendOnes(t.ReLU(f))
		} else {
			h = f
		}
		// KL(N(μ, s²) ‖ N(0, σ_p²)) = Σ ½[(s² + μ²)/σ_p² − 1] − ℓ + log σ_p.
		v := 1 / (tl.priorStd[l] * tl.priorStd[l])
		terms := t.Sub(t.Scale(t.Add(t.Square(std), t.Square(mu)), 0.5*v), ls)
		klL := t.AddScalar(t.Sum(terms), float64(len(tl.mu[l].RawMatrix().Data))*(math.Log(tl.priorStd[l])-0.5))
		if l == 0 {
			kl = klL
		} else {
			kl = t.Add(kl, klL)
		}
	}
	ln := t.Param(tl.logNoise)
	params = append(params, ln)
	// log p(y|f) = Σ −½ log 2π − log σ − ½ (y − f)² e^{−2 log σ}.
	ss := t.Sum(t.Square(t.Sub(t.Const(tl.y), h)))
	ll := t.Sub(t.Scale(t.Mul(ss, t.Exp(t.Scale(ln, -2))), -0.5),
		t.AddScalar(t.Scale(ln, tl.n), tl.n*model.HalfLog2Pi))
	loss = t.Scale(t.Sub(ll, t.Scale(kl, tl.klw)), -1/tl.n)
	return params, loss
}

// The hand-written gradients of Step equal the autodiff's on gap's 2×50
// network with the same ε: both compute the same sums in a different order,
// so they agree to rounding (relative 1e-10).
func TestHandGradientsMatchTheTape(t *testing.T) {
	for _, klw := range []float64{1, 0.3} {
		m := newMethod(t, loadData(t, "gap"), "bnn", sim.Controls{"kl_weight": sim.Num(klw)}, 5)
		for range 50 { // move away from the initialisation
			m.Step()
		}
		numeric.FillNormal(m.eps, m.rng)
		for i, l := range m.ls {
			m.std[i] = math.Exp(l)
		}
		clear(m.gmu)
		clear(m.gls)
		m.gnoise[0] = 0
		m.sampleGrad(m.eps, 1/float64(len(m.x)))
		m.kl(true)

		tl := newTapeLoss(m)
		params, loss := tl.record()
		tl.t.Backward(loss)
		if err := tl.t.Err(); err != nil {
			t.Fatal(err)
		}
		var worst float64
		check := func(got, want []float64) {
			for i := range got {
				worst = math.Max(worst, math.Abs(got[i]-want[i])/math.Max(1e-3, math.Abs(want[i])))
			}
		}
		for l, ly := range m.layers {
			check(m.gmu[ly.Off:ly.Off+ly.Rows*ly.Cols], tl.t.Grad(params[2*l]).RawMatrix().Data)
			check(m.gls[ly.Off:ly.Off+ly.Rows*ly.Cols], tl.t.Grad(params[2*l+1]).RawMatrix().Data)
		}
		check(m.gnoise, tl.t.Grad(params[len(params)-1]).RawMatrix().Data)
		if worst > 1e-10 {
			t.Errorf("kl_weight %v: hand-written and tape gradients differ by %.3g (relative)", klw, worst)
		}
	}
}

// One optimiser step through the autodiff tape — ε draws, loss, backward,
// Adam — allocates nothing after warm-up.
func TestTapeStepAllocatesNothing(t *testing.T) {
	m := newMethod(t, loadData(t, "gap"), "bnn", nil, 1)
	step := tapeStep(m)
	step()
	if n := testing.AllocsPerRun(50, step); n != 0 {
		t.Errorf("a tape step allocates %v times", n)
	}
}

func tapeStep(m *Method) func() {
	tl := newTapeLoss(m)
	adam := numeric.NewAdam(numeric.DefaultAdam(0.01))
	var params, grads []*mat.Dense
	for l := range tl.mu {
		params = append(params, tl.mu[l], tl.ls[l])
	}
	params = append(params, tl.logNoise)
	return func() {
		numeric.FillNormal(m.eps, m.rng)
		vars, loss := tl.record()
		tl.t.Backward(loss)
		grads = grads[:0]
		for _, v := range vars {
			grads = append(grads, tl.t.Grad(v))
		}
		adam.Step(params, grads)
	}
}

// BenchmarkStepTape is BenchmarkStep's optimiser step written on the tape
// instead of by hand: the price of the general autodiff on this network.
func BenchmarkStepTape(b *testing.B) {
	m := newMethod(b, loadData(b, "gap"), "bnn", nil, 1)
	step := tapeStep(m)
	step()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		step()
	}
}
