package mcmc

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

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

// bnn is the shared network of package model (model.Layout's flat weights,
// ReLU, prior N(0, s_l²) with s_l = prior_scale/√(fan_in+1)) with a Gaussian
// likelihood and the noise prior above, or a Bernoulli-logit likelihood for
// classification (model.LogLik). θ holds the weights, then log σ
// (regression).
type bnn struct {
	arch   model.Arch
	task   sim.Task
	x, y   []float64
	layers []model.Layer // PriorStd written only between steps (Set)
	nw     int           // number of weights
	xMid   float64       // where the summary quantity f_mid is evaluated
	pred   *model.Net    // Predict's buffers (method goroutine only)
}

func newBNN(arch model.Arch, d *sim.Dataset, priorScale float64) *bnn {
	b := &bnn{arch: arch, task: d.Task, x: d.X, y: d.Y}
	b.layers, b.nw = model.Layout(arch)
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
	return b
}

func (b *bnn) setPriorScale(s float64) {
	for l := range b.layers {
		b.layers[l].PriorStd = b.arch.PriorStd(l, s)
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
	for l := 1; l <= len(b.layers); l++ {
		names = append(names, fmt.Sprintf("w%d[0,0]", l))
	}
	return names
}

// initState draws He-normal weights (model.HeInit, as package mfvi does),
// and log σ = model.InitLogNoise.
func (b *bnn) initState(th []float64, r *rand.Rand) {
	model.HeInit(b.layers, th, r)
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
// 0–1 scale). Predict calls it once per sample on the same xs, so the
// buffers are kept while the inputs stay the same.
func (b *bnn) predict(dst, xs, th []float64) {
	if b.pred == nil || !b.pred.SameInputs(xs) {
		b.pred = model.NewNet(b.layers, xs, false)
	}
	b.pred.Forward(b.layers, th[:b.nw])
	for i, f := range b.pred.Out {
		if !b.regression() {
			f = numeric.Sigmoid(f)
		}
		dst[i] = f
	}
}

// bnnDensity evaluates log π with model.Net's forward and backward passes;
// after the first evaluation (and the first minibatch of a size) it
// allocates nothing.
type bnnDensity struct {
	p      *bnn
	all    []rowBlock // every data point, sorted by x, in blocks (bnn_blocks.go)
	gb     []float64  // a block's weight gradient, when there are several blocks
	halt   *func() bool
	mid    *model.Net // at xMid, for summarize
	batch  *model.Net // on the last minibatch, rebuilt when its size changes
	xb, yb []float64
}

// newDensity sorts the data by x for the full-data net: on one sorted
// input the first layer's zeros are runs of rows that Net.UseSpans skips
// (about a third of the gradient's arithmetic). The log-likelihood is the
// same sum in another order.
func (b *bnn) newDensity() density {
	idx := make([]int, len(b.x))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(i, j int) int { return cmp.Compare(b.x[i], b.x[j]) })
	xs, ys := make([]float64, len(idx)), make([]float64, len(idx))
	for k, i := range idx {
		xs[k], ys[k] = b.x[i], b.y[i]
	}
	d := &bnnDensity{p: b, all: newRowBlocks(b.layers, xs, ys), mid: model.NewNet(b.layers, []float64{b.xMid}, false)}
	if len(d.all) > 1 {
		d.gb = make([]float64, b.nw)
	}
	return d
}

func (d *bnnDensity) summarize(dst, th []float64) {
	k := 0
	if d.p.regression() {
		dst[0] = math.Exp(th[d.p.nw])
		k = 1
	}
	d.mid.Forward(d.p.layers, th[:d.p.nw])
	dst[k] = d.mid.Out[0]
	for l, ly := range d.p.layers {
		dst[k+1+l] = th[ly.Off]
	}
}

func (d *bnnDensity) logp(th []float64) float64 {
	return d.evalAll(th, nil)
}

func (d *bnnDensity) logpGrad(th, g []float64) float64 {
	return d.evalAll(th, g)
}

func (d *bnnDensity) logpGradBatch(th, g []float64, batch []int) float64 {
	n := len(batch)
	if len(d.xb) != n {
		d.xb, d.yb = make([]float64, n), make([]float64, n)
		d.batch = model.NewNet(d.p.layers, d.xb, true)
	}
	for k, i := range batch {
		d.xb[k], d.yb[k] = d.p.x[i], d.p.y[i]
	}
	d.batch.SetInputs(d.xb)
	return d.eval(d.batch, d.yb, th, g, float64(len(d.p.x))/float64(n))
}

// eval returns log p(θ) + scale·log p(y | f_θ(x)), with every normalising
// constant, x being net's inputs, and its gradient into g when g is not nil.
func (d *bnnDensity) eval(net *model.Net, y, th, g []float64, scale float64) float64 {
	p := d.p
	w := th[:p.nw]
	var logNoise float64
	if p.regression() {
		logNoise = th[p.nw]
	}
	net.Forward(p.layers, w)
	ll, dNoise := model.LogLik(net, p.task, y, logNoise, scale, g != nil)
	if g != nil {
		net.Backward(p.layers, w, g[:p.nw]) // d(−scale·log p(y | θ))/dw
	}
	return d.withPrior(th, g, scale*ll, dNoise)
}

// withPrior adds to the log-likelihood ll (its weight gradient, negated,
// in g; dNoise its derivative by log σ) the prior's terms.
func (d *bnnDensity) withPrior(th, g []float64, ll, dNoise float64) float64 {
	p := d.p
	w := th[:p.nw]
	var logNoise float64
	if p.regression() {
		logNoise = th[p.nw]
	}
	var lp float64
	if g == nil {
		lp = ll + model.LogPrior(p.layers, w, nil, 1)
	} else {
		lp = ll + logPriorNegGrad(p.layers, w, g)
	}
	if p.regression() {
		lp += numeric.NormalLogPDF(logNoise, noisePriorMean, noisePriorStd)
		if g != nil {
			g[p.nw] = -dNoise - (logNoise-noisePriorMean)/(noisePriorStd*noisePriorStd)
		}
	}
	return lp
}

// logPriorNegGrad is model.LogPrior(layers, w, g, 1) followed by g = −g, in
// one pass: on entry g holds d(−scale·log p(y | θ))/dw, on return
// d(scale·log p(y | θ) + log p(θ))/dw.
func logPriorNegGrad(layers []model.Layer, w, g []float64) float64 {
	var lp float64
	for _, ly := range layers {
		ip := 1 / (ly.PriorStd * ly.PriorStd)
		n := ly.Rows * ly.Cols
		wl, gl := w[ly.Off:ly.Off+n], g[ly.Off:ly.Off+n]
		// model.SumSquares fused into the gradient's pass, its sums in
		// its order (logp must equal logpGrad's value exactly).
		var s0, s1, s2, s3 float64
		i := 0
		for ; i+4 <= n; i += 4 {
			v, g4 := wl[i:i+4:i+4], gl[i:i+4:i+4]
			s0 += v[0] * v[0]
			s1 += v[1] * v[1]
			s2 += v[2] * v[2]
			s3 += v[3] * v[3]
			g4[0] = -(g4[0] + v[0]*ip)
			g4[1] = -(g4[1] + v[1]*ip)
			g4[2] = -(g4[2] + v[2]*ip)
			g4[3] = -(g4[3] + v[3]*ip)
		}
		for ; i < n; i++ {
			v := wl[i]
			s0 += v * v
			gl[i] = -(gl[i] + v*ip)
		}
		w2 := (s0 + s1) + (s2 + s3)
		lp -= float64(n)*(model.HalfLog2Pi+math.Log(ly.PriorStd)) + 0.5*w2*ip
	}
	return lp
}
