package mcmc

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
)

// Noise prior of the BNN: log σ ~ N(noisePriorMean, noisePriorStd²).
//
// A proper prior on σ is needed: a 1→50→50→1 network can interpolate 100
// points, so p(y | σ) stays bounded away from zero as σ → 0 and a flat prior
// on log σ would give an improper posterior. The prior is centred on the VI
// methods' initial noise (model.InitLogNoise, σ ≈ 0.135) and is weak: its
// central 95% covers σ ∈ [0.019, 0.96] in standardised units, which holds
// every built-in data set's noise level (gap: ≈ 0.09).
const (
	noisePriorMean = model.InitLogNoise
	noisePriorStd  = 1.0
)

// bnn is the shared network of package model (biases as a last row of every
// weight matrix, ReLU, prior N(0, s_l²) with s_l = prior_scale/√(fan_in+1))
// with a Gaussian likelihood and the noise prior above, or a Bernoulli-logit
// likelihood for classification. θ holds the weights layer after layer
// (row-major, rows = fan-in + 1, bias row last), then log σ (regression).
type bnn struct {
	arch     model.Arch
	task     sim.Task
	x, y     []float64
	priorStd []float64 // per layer; written only between steps (Set)
	xMid     float64   // where the summary quantity f_mid is evaluated
	offs     []int     // offset of each layer's weights in θ
	nw       int       // number of weights
	fwd      forward   // Predict's scratch (method goroutine only)
}

func newBNN(arch model.Arch, d *sim.Dataset, priorScale float64) *bnn {
	b := &bnn{arch: arch, task: d.Task, x: d.X, y: d.Y}
	for l := 0; l < arch.Layers(); l++ {
		b.offs = append(b.offs, b.nw)
		b.nw += arch.InDim(l) * arch.OutDim(l)
	}
	b.priorStd = make([]float64, arch.Layers())
	b.setPriorScale(priorScale)
	if d.HasGap {
		b.xMid = d.GapCentre
	} else if len(d.X) > 0 {
		lo, hi := d.X[0], d.X[0]
		for _, x := range d.X {
			lo, hi = min(lo, x), max(hi, x)
		}
		b.xMid = (lo + hi) / 2
	}
	b.fwd = newForward(arch)
	return b
}

func (b *bnn) setPriorScale(s float64) {
	for l := range b.priorStd {
		b.priorStd[l] = b.arch.PriorStd(l, s)
	}
}

func (b *bnn) regression() bool { return b.task != sim.Classification }

func (b *bnn) dim() int {
	if b.regression() {
		return b.nw + 1
	}
	return b.nw
}

func (b *bnn) numData() int { return len(b.x) }

// params: the noise std, f at the gap centre (or mid-range), and the first
// weight of every layer. Weights are not identified (hidden units can be
// permuted), so their R-hat says little; f_mid and noise are identified.
func (b *bnn) params() []string {
	var names []string
	if b.regression() {
		names = append(names, "noise")
	}
	names = append(names, "f_mid")
	for l := 1; l <= b.arch.Layers(); l++ {
		names = append(names, fmt.Sprintf("w%d[0,0]", l))
	}
	return names
}

// initState draws He-normal weights (model.HeInit, as package mfvi does),
// and log σ = model.InitLogNoise.
func (b *bnn) initState(th []float64, r *rand.Rand) {
	layers, _ := model.Layout(b.arch)
	model.HeInit(layers, th, r)
	if b.regression() {
		th[b.nw] = model.InitLogNoise
	}
}

func (b *bnn) noiseStd(th []float64) float64 {
	if !b.regression() {
		return math.NaN()
	}
	return math.Exp(th[b.nw])
}

// predict returns f_θ(x), or sigmoid f_θ(x) for classification (the data's
// 0–1 scale).
func (b *bnn) predict(dst, xs, th []float64) {
	for i, x := range xs {
		f := b.fwd.at(b, th, x)
		if !b.regression() {
			f = numeric.Sigmoid(f)
		}
		dst[i] = f
	}
}

// forward evaluates the network at one input by plain loops; it serves the
// summaries and Predict, which need no gradient.
type forward struct{ a, z []float64 }

func newForward(arch model.Arch) forward {
	w := 0
	for _, n := range arch.Widths {
		w = max(w, n+1)
	}
	return forward{a: make([]float64, w), z: make([]float64, w)}
}

func (f *forward) at(b *bnn, th []float64, x float64) float64 {
	a := f.a[:2]
	a[0], a[1] = x, 1
	last := b.arch.Layers() - 1
	for l := 0; l <= last; l++ {
		rows, cols := b.arch.InDim(l), b.arch.OutDim(l)
		w := th[b.offs[l] : b.offs[l]+rows*cols]
		z := f.z[:cols]
		clear(z)
		for i, ai := range a {
			if ai == 0 {
				continue
			}
			for j, wij := range w[i*cols : (i+1)*cols] {
				z[j] += ai * wij
			}
		}
		if l == last {
			return z[0]
		}
		a = f.a[:cols+1]
		for j, v := range z {
			a[j] = max(v, 0)
		}
		a[cols] = 1
	}
	return math.NaN()
}

// bnnDensity evaluates log π through the numeric tape. The weight matrices
// and log σ are mat.Dense views of buf, which the tape aliases as Params, so
// an evaluation copies θ once and, after the first, allocates nothing.
type bnnDensity struct {
	p          *bnn
	t          *numeric.Tape
	buf        []float64
	w          []*mat.Dense
	ls         *mat.Dense
	xAll, yAll *mat.Dense
	xb, yb     *mat.Dense // minibatch inputs and targets, resized on demand
	fwd        forward
	ws         []numeric.Var // the weight Params of the last evaluation
}

func (b *bnn) newDensity() density {
	d := &bnnDensity{p: b, t: numeric.NewTape(), buf: make([]float64, b.dim()), fwd: newForward(b.arch)}
	for l := 0; l < b.arch.Layers(); l++ {
		rows, cols := b.arch.InDim(l), b.arch.OutDim(l)
		d.w = append(d.w, mat.NewDense(rows, cols, d.buf[b.offs[l]:b.offs[l]+rows*cols]))
	}
	if b.regression() {
		d.ls = mat.NewDense(1, 1, d.buf[b.nw:b.nw+1])
	}
	n := len(b.x)
	d.xAll = mat.NewDense(n, 1, append([]float64(nil), b.x...))
	d.yAll = mat.NewDense(n, 1, append([]float64(nil), b.y...))
	return d
}

func (d *bnnDensity) summarize(dst, th []float64) {
	k := 0
	if d.p.regression() {
		dst[0] = math.Exp(th[d.p.nw])
		k = 1
	}
	dst[k] = d.fwd.at(d.p, th, d.p.xMid)
	for l := range d.p.offs {
		dst[k+1+l] = th[d.p.offs[l]]
	}
}

func (d *bnnDensity) logp(th []float64) float64 {
	return d.eval(th, nil, d.xAll, d.yAll, 1)
}

func (d *bnnDensity) logpGrad(th, g []float64) float64 {
	return d.eval(th, g, d.xAll, d.yAll, 1)
}

func (d *bnnDensity) logpGradBatch(th, g []float64, batch []int) float64 {
	n := len(batch)
	if d.xb == nil || d.xb.RawMatrix().Rows != n {
		d.xb, d.yb = mat.NewDense(n, 1, nil), mat.NewDense(n, 1, nil)
	}
	xb, yb := d.xb.RawMatrix().Data, d.yb.RawMatrix().Data
	for k, i := range batch {
		xb[k], yb[k] = d.p.x[i], d.p.y[i]
	}
	return d.eval(th, g, d.xb, d.yb, float64(len(d.p.x))/float64(n))
}

// eval returns log p(θ) + scale·log p(y | x, θ), with every normalising
// constant, and its gradient into g when g is not nil.
func (d *bnnDensity) eval(th, g []float64, x, y *mat.Dense, scale float64) float64 {
	p, t := d.p, d.t
	copy(d.buf, th)
	t.Reset()
	h := t.Const(x)
	var f, total numeric.Var
	var konst float64
	last := len(d.w) - 1
	ws := d.ws[:0]
	for l, wm := range d.w {
		w := t.Param(wm)
		ws = append(ws, w)
		z := t.MatMul(t.AppendOnes(h), w, false, false)
		if l < last {
			h = t.ReLU(z)
		} else {
			f = z
		}
		s := p.priorStd[l]
		lp := t.Scale(t.Sum(t.Square(w)), -0.5/(s*s))
		if l == 0 {
			total = lp
		} else {
			total = t.Add(total, lp)
		}
		r, c := wm.Dims()
		konst -= float64(r*c) * (halfLog2Pi + math.Log(s))
	}
	d.ws = ws
	n := float64(x.RawMatrix().Rows)
	yv := t.Const(y)
	var ls numeric.Var
	if p.regression() {
		ls = t.Param(d.ls)
		res := t.Sub(yv, f)
		inv := t.Exp(t.Scale(ls, -2))
		ll := t.Add(t.Scale(t.Mul(t.Sum(t.Square(res)), inv), -0.5*scale), t.Scale(ls, -n*scale))
		konst -= scale * n * halfLog2Pi
		prior := t.Scale(t.Square(t.AddScalar(ls, -noisePriorMean)), -0.5/(noisePriorStd*noisePriorStd))
		konst -= halfLog2Pi + math.Log(noisePriorStd)
		total = t.Add(total, t.Add(ll, prior))
	} else {
		// log p(y | f) = y·f − softplus(f) for y ∈ {0, 1}.
		ll := t.Scale(t.Sum(t.Sub(t.Mul(yv, f), t.Softplus(f))), scale)
		total = t.Add(total, ll)
	}
	if g != nil {
		t.Backward(total)
		for l, w := range ws {
			r, c := d.w[l].Dims()
			copy(g[p.offs[l]:p.offs[l]+r*c], t.Grad(w).RawMatrix().Data)
		}
		if p.regression() {
			g[p.nw] = t.Grad(ls).At(0, 0)
		}
	}
	return t.Scalar(total) + konst
}
