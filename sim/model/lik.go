package model

import (
	"math"
	"math/rand/v2"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
)

// HalfLog2Pi is ½ log 2π, the constant of every Gaussian log-density.
const HalfLog2Pi = 0.91893853320467274178032973640561763986139747363778

// Layout returns a's layers packed one after another in a flat slab, with
// PriorStd unset, and the number of weights.
func Layout(a Arch) ([]Layer, int) {
	layers := make([]Layer, 0, a.Layers())
	p := 0
	for l := 0; l < a.Layers(); l++ {
		ly := Layer{Off: p, Rows: a.InDim(l), Cols: a.OutDim(l), Act: a.Act}
		layers = append(layers, ly)
		p += ly.Rows * ly.Cols
	}
	return layers, p
}

// HeInit fills w with He-normal draws, std √(2/(fan-in+1)), layer after
// layer: the ReLU activations stay O(1) through the layers, so the initial
// function is neither flat nor exploding.
func HeInit(layers []Layer, w []float64, r *rand.Rand) {
	for _, ly := range layers {
		he := math.Sqrt(2 / float64(ly.Rows))
		for i := ly.Off; i < ly.Off+ly.Rows*ly.Cols; i++ {
			w[i] = he * r.NormFloat64()
		}
	}
}

// LogLik returns log p(y | f) for the network outputs t.Out: Bernoulli with
// logit f for classification, else N(f, exp(logNoise)²). With grad set it
// writes d(−scale·log p)/df into t.OutGrad() and returns
// d(−scale·log p)/d log σ as dNoise (0 for classification).
func LogLik(t *Net, task sim.Task, y []float64, logNoise, scale float64, grad bool) (ll, dNoise float64) {
	var g []float64
	if grad {
		g = t.OutGrad()
	}
	return LogLikAt(t.Out, g, task, y, logNoise, scale)
}

// LogLikAt is LogLik for outputs f held anywhere: with g non-nil it writes
// d(−scale·log p)/df into g.
func LogLikAt(f, g []float64, task sim.Task, y []float64, logNoise, scale float64) (ll, dNoise float64) {
	if task == sim.Classification {
		for i, fi := range f {
			ll += numeric.BernoulliLogitLogPMF(y[i], fi)
			if g != nil {
				g[i] = -scale * (y[i] - numeric.Sigmoid(fi))
			}
		}
		return ll, 0
	}
	inv := math.Exp(-2 * logNoise)
	var ss float64
	for i, fi := range f {
		r := y[i] - fi
		ss += r * r
		if g != nil {
			g[i] = -scale * r * inv
		}
	}
	n := float64(len(f))
	return -n*(HalfLog2Pi+logNoise) - 0.5*ss*inv, -scale * (ss*inv - n)
}

// LogPrior returns log p(w) under the layers' independent N(0, PriorStd²)
// priors and, with dw non-nil, adds scale · d(−log p)/dw = scale·w/σ_l² into
// dw (the gradient of a loss that holds −scale·log p).
func LogPrior(layers []Layer, w, dw []float64, scale float64) float64 {
	var lp float64
	for _, ly := range layers {
		ip := 1 / (ly.PriorStd * ly.PriorStd)
		n := ly.Rows * ly.Cols
		wl := w[ly.Off : ly.Off+n]
		w2 := SumSquares(wl)
		if dw != nil {
			for i, v := range wl {
				dw[ly.Off+i] += scale * v * ip
			}
		}
		lp -= float64(n)*(HalfLog2Pi+math.Log(ly.PriorStd)) + 0.5*w2*ip
	}
	return lp
}

// SumSquares returns Σ w[i]² in four partial sums (element i in sum i mod 4,
// the last len(w) mod 4 in the first), added as (s0 + s1) + (s2 + s3): one
// chain of dependent additions bounded the prior's loop. Code that fuses
// this sum into another pass must keep its order, so that log densities
// with and without a gradient agree exactly.
func SumSquares(w []float64) float64 {
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(w); i += 4 {
		v := w[i : i+4 : i+4]
		s0 += v[0] * v[0]
		s1 += v[1] * v[1]
		s2 += v[2] * v[2]
		s3 += v[3] * v[3]
	}
	for _, v := range w[i:] {
		s0 += v * v
	}
	return (s0 + s1) + (s2 + s3)
}
