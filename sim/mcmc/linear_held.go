package mcmc

import "math/rand/v2"

// linearHeld is the linear model with σ held (model.FixedNoise) and the VI
// methods' prior b0, b ~ N(0, τ²), τ = s/√2, sampled as θ = (b0, b):
//
//	log π(θ) = −½ σ⁻² Σ r_i² − ½ τ⁻² (b0² + b²) + const.
//
// Its posterior is Gaussian, model.LinearPosterior. Chains start as linear's.
type linearHeld struct {
	x, y   []float64
	sigma  float64
	invTau float64 // 1/τ²
}

func newLinearHeld(x, y []float64, sigma, priorScale float64) *linearHeld {
	l := &linearHeld{x: x, y: y, sigma: sigma}
	l.setPriorScale(priorScale)
	return l
}

// setPriorScale sets τ = model's prior std of the linear layer at scale s.
func (l *linearHeld) setPriorScale(s float64) {
	tau := linearPriorStd(s)
	l.invTau = 1 / (tau * tau)
}

func (l *linearHeld) dim() int                         { return 2 }
func (l *linearHeld) numData() int                     { return len(l.x) }
func (l *linearHeld) newDensity() density              { return l }
func (l *linearHeld) params() []string                 { return []string{"b0", "b"} }
func (l *linearHeld) noiseStd([]float64) float64       { return l.sigma }
func (l *linearHeld) summarize(dst, th []float64)      { dst[0], dst[1] = th[0], th[1] }
func (l *linearHeld) logp(th []float64) float64        { return l.batch(th, nil, nil) }
func (l *linearHeld) logpGrad(th, g []float64) float64 { return l.batch(th, g, nil) }

func (l *linearHeld) logpGradBatch(th, g []float64, batch []int) float64 {
	return l.batch(th, g, batch)
}

func (l *linearHeld) initState(th []float64, r *rand.Rand) {
	th[0], th[1] = r.NormFloat64(), r.NormFloat64()
}

func (l *linearHeld) predict(dst, xs, th []float64) {
	for i, x := range xs {
		dst[i] = th[0] + th[1]*x
	}
}

// batch returns log π on the points in batch (all for nil), the likelihood
// scaled by N/n, and with g non-nil writes its gradient.
func (l *linearHeld) batch(th, g []float64, batch []int) float64 {
	b0, b := th[0], th[1]
	var sr, srx, ss float64
	add := func(i int) {
		x := l.x[i]
		r := l.y[i] - b0 - b*x
		sr += r
		srx += r * x
		ss += r * r
	}
	w := 1.0
	if batch == nil {
		for i := range l.x {
			add(i)
		}
	} else {
		for _, i := range batch {
			add(i)
		}
		w = float64(len(l.x)) / float64(len(batch))
	}
	inv := 1 / (l.sigma * l.sigma)
	if g != nil {
		g[0] = w*inv*sr - l.invTau*b0
		g[1] = w*inv*srx - l.invTau*b
	}
	return -0.5*w*inv*ss - 0.5*l.invTau*(b0*b0+b*b)
}

var _ problem = (*linearHeld)(nil)
