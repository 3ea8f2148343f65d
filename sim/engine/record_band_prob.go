package engine

import (
	"github.com/posterior-playground/playground/sim/wire"

	"github.com/posterior-playground/playground/sim"

	"math"

	"github.com/posterior-playground/playground/numeric"
)

// probClip keeps logit finite for probabilities that rounded to 0 or 1.
const probClip = 1e-9

// makeProbBand summarises sampled probabilities p_s(x) = σ(f_s(x)) of a
// classifier. Mean ± 2 sd of the probabilities would leave [0, 1]; instead
// the band is σ(m ± 2s) with m and s the mean and sd of the latent
// f_s = logit p_s, which stays in (0, 1), and the mean is the predictive
// probability, the average of p_s. Nil when p is empty, ragged or not finite.
func makeProbBand(p sim.Predictive, d *sim.Dataset, shown int) *wire.Band {
	b := newBand(p, shown)
	if b == nil {
		return nil
	}
	n, s := len(p.X), len(p.Samples)
	for i := range n {
		var sp, sf float64
		for _, f := range p.Samples {
			sp += f[i]
			sf += logit(f[i])
		}
		mf := sf / float64(s)
		var ss float64
		for _, f := range p.Samples {
			e := logit(f[i]) - mf
			ss += e * e
		}
		sd := 0.0
		if s > 1 {
			sd = math.Sqrt(ss / float64(s-1))
		}
		b.X[i] = d.XScale.ToUser(p.X[i])
		b.Mean[i] = sp / float64(s)
		b.Lo[i], b.Hi[i] = numeric.Sigmoid(mf-2*sd), numeric.Sigmoid(mf+2*sd)
		if !finite(b.X[i]) || !finite(b.Mean[i]) || !finite(b.Lo[i]) || !finite(b.Hi[i]) {
			return nil
		}
	}
	for k := range b.Samples {
		b.Samples[k] = append([]float64(nil), p.Samples[k]...)
		for _, v := range b.Samples[k] {
			if !finite(v) {
				return nil
			}
		}
	}
	return b
}

// probabilities reports whether every sampled value lies in [0, 1]: a
// classifier's Predict returns σ(f); gp-exact, a regression on the 0/1
// labels, does not, and gets the ordinary band.
func probabilities(p sim.Predictive) bool {
	for _, f := range p.Samples {
		for _, v := range f {
			if !(v >= 0 && v <= 1) {
				return false
			}
		}
	}
	return true
}

func logit(p float64) float64 {
	p = min(max(p, probClip), 1-probClip)
	return math.Log(p / (1 - p))
}
