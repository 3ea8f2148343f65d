package mcmc

import (
	"math"

	"github.com/posterior-playground/playground/sim/model"
)

// blockRows bounds the data points of one network pass between two polls
// of the engine's interrupt: a gradient of the largest network the arch
// control allows (4 layers of 256) on 512 points is about 6·10⁸
// floating-point operations, under a tenth of a second of one core, so an
// interrupted step stops within about that even on 10,000 points (a whole
// gradient there is about a second). Blocks of 512 rows keep the GEMMs
// large enough to run at full speed.
const blockRows = 512

// rowBlock is a network on a run of consecutive points (sorted by x, so
// each block takes the first layer's spans, model.Net.UseSpans) and their
// targets.
type rowBlock struct {
	net *model.Net
	ys  []float64
}

// newRowBlocks splits the points xs, ys into blocks of at most blockRows,
// as even as they can be.
func newRowBlocks(layers []model.Layer, xs, ys []float64) []rowBlock {
	n := len(xs)
	k := max(1, (n+blockRows-1)/blockRows)
	blocks := make([]rowBlock, 0, k)
	for i := range k {
		lo, hi := i*n/k, (i+1)*n/k
		net := model.NewNet(layers, xs[lo:hi], true)
		net.UseSpans(layers)
		blocks = append(blocks, rowBlock{net: net, ys: ys[lo:hi]})
	}
	return blocks
}

// pollWith makes the density poll *halt between its row blocks.
func (d *bnnDensity) pollWith(halt *func() bool) { d.halt = halt }

func (d *bnnDensity) halted() bool { return d.halt != nil && *d.halt != nil && (*d.halt)() }

// evalAll is eval on every data point: on one block, eval itself; on
// several, their log-likelihoods and weight gradients summed block by
// block, polling the interrupt between two. An interrupted evaluation
// returns −∞ at once: the step it is part of is being thrown away.
func (d *bnnDensity) evalAll(th, g []float64) float64 {
	if len(d.all) == 1 {
		return d.eval(d.all[0].net, d.all[0].ys, th, g, 1)
	}
	p := d.p
	w := th[:p.nw]
	var logNoise float64
	if p.regression() {
		logNoise = th[p.nw]
	}
	var ll, dNoise float64
	for i, b := range d.all {
		if i > 0 && d.halted() {
			return math.Inf(-1)
		}
		b.net.Forward(p.layers, w)
		l, dn := model.LogLik(b.net, p.task, b.ys, logNoise, 1, g != nil)
		ll, dNoise = ll+l, dNoise+dn
		switch {
		case g == nil:
		case i == 0:
			b.net.Backward(p.layers, w, g[:p.nw])
		default:
			b.net.Backward(p.layers, w, d.gb)
			for j, v := range d.gb {
				g[j] += v
			}
		}
	}
	return d.withPrior(th, g, ll, dNoise)
}
