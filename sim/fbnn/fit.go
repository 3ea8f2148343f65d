package fbnn

import (
	"errors"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim/gp"
	"github.com/posterior-playground/playground/sim/model"
)

// Type-II maximum likelihood for the prior's hyperparameters, as the
// reference does before BNN training (it fits the kernel parameters by GP
// marginal likelihood on the normalised training data). The GP's noise std
// is fitted alongside and becomes the BNN's fixed observation noise: the
// reference toy fixes the noise at its true value, which a Dataset does not
// know.
const (
	fitMaxPoints = 50   // larger data sets are thinned to this many points
	fitSteps     = 500  // Adam steps per start
	fitLR        = 0.05 // Adam step size on the log parameters
	fitJitter    = 1e-6 // added to K + σ²I before factorising
	fitMinNoise  = 1e-3 // floor on the GP noise std during the fit
	fitStarts    = 3    // best grid points refined by Adam
	fitGrid      = 40   // periods tried on the grid (periodic kernel)
	fitMinPeriod = 0.15 // in units of the inputs' range
	fitMaxPeriod = 1.5  // in units of the inputs' range
	fitInitNoise = 0.1  // initial GP noise std, in units of std(y)
	fitMinLen    = 0.05 // fitted values are clamped to the controls' ranges
	fitMaxLen    = 10.0 //
	fitMinVar    = 0.01 //
	fitMaxVar    = 10.0 //
	fitMinPer    = 0.1  //
	fitMaxPer    = 10.0 //
	halfLog2Pi   = model.HalfLog2Pi
)

// logML returns log N(y; 0, K + σ²I + jitter·I) and its gradient with
// respect to θ = (log c², log ℓ, log p, log σ) into grad (if non-nil):
// ∂/∂θ = ½ tr((ααᵀ − A⁻¹) ∂A/∂θ), α = A⁻¹y; the kernel's part by
// gp.Kernel.HyperGrad.
func logML(k gp.Kernel, noise float64, x, y []float64, grad []float64) (float64, error) {
	n := len(x)
	a := mat.NewSymDense(n, nil)
	k.FillSym(a.RawSymmetric().Data, x, noise*noise+fitJitter)
	var ch mat.Cholesky
	if !ch.Factorize(a) {
		return math.Inf(-1), errors.New("fbnn: GP kernel matrix is not positive definite")
	}
	yv := mat.NewVecDense(n, slices.Clone(y))
	var alpha mat.VecDense
	if err := ch.SolveVecTo(&alpha, yv); err != nil {
		return math.Inf(-1), err
	}
	ll := -0.5*mat.Dot(yv, &alpha) - 0.5*ch.LogDet() - float64(n)*halfLog2Pi
	if grad == nil {
		return ll, nil
	}
	var inv mat.SymDense
	if err := ch.InverseTo(&inv); err != nil {
		return math.Inf(-1), err
	}
	w := make([]float64, n*n) // ½(ααᵀ − A⁻¹)
	for i := range n {
		for j := range n {
			w[i*n+j] = 0.5 * (alpha.AtVec(i)*alpha.AtVec(j) - inv.At(i, j))
		}
	}
	grad[0], grad[1], grad[2] = k.HyperGrad(w, a.RawSymmetric().Data, x)
	grad[3] = 0 // ∂A/∂log σ = 2σ²I
	for i := range n {
		grad[3] += 2 * w[i*n+i] * noise * noise
	}
	return ll, nil
}

// gpFit is the result of a marginal-likelihood fit.
type gpFit struct {
	prior gp.Kernel
	noise float64 // GP observation noise std
	logML float64
}

// fitPrior maximises the GP log marginal likelihood of (x, y) over the
// kernel's variance, lengthscale and (periodic) period and the noise std,
// from a few starts: for the periodic kernel, whose likelihood is very
// multimodal in the period, the best points of a log-spaced grid of periods;
// for rbf, lengthscales around the given one. With kernelToo false only the
// noise is fitted and k is kept as given.
func fitPrior(k gp.Kernel, x, y []float64, kernelToo bool) (gpFit, error) {
	x, y = thin(x, y, fitMaxPoints)
	lo, hi := slices.Min(x), slices.Max(x)
	span := hi - lo
	_, sy := numeric.MeanStd(y)
	if !(span > 0) || !(sy > 0) {
		return gpFit{}, errors.New("fbnn: cannot fit a GP prior to constant data")
	}
	noise0 := fitInitNoise * sy
	var starts []gpFit
	try := func(c gp.Kernel) {
		if ll, err := logML(c, noise0, x, y, nil); err == nil && !math.IsNaN(ll) {
			starts = append(starts, gpFit{c, noise0, ll})
		}
	}
	if !kernelToo {
		try(k)
	} else {
		base := gp.Kernel{Periodic: k.Periodic, Variance: sy * sy, Lengthscale: k.Lengthscale, Period: k.Period}
		for _, l := range []float64{0.5, 1, 2} {
			c := base
			c.Lengthscale = l * k.Lengthscale
			if !k.Periodic {
				try(c)
				continue
			}
			for i := range fitGrid {
				c.Period = span * fitMinPeriod * math.Pow(fitMaxPeriod/fitMinPeriod, float64(i)/float64(fitGrid-1))
				try(c)
			}
		}
	}
	if len(starts) == 0 {
		return gpFit{}, errors.New("fbnn: GP prior fit found no valid start")
	}
	slices.SortFunc(starts, func(a, b gpFit) int {
		switch {
		case a.logML > b.logML:
			return -1
		case a.logML < b.logML:
			return 1
		}
		return 0
	})
	best := gpFit{logML: math.Inf(-1)}
	for _, s := range starts[:min(fitStarts, len(starts))] {
		if f := refine(s.prior, s.noise, x, y, kernelToo); f.logML > best.logML {
			best = f
		}
	}
	if math.IsInf(best.logML, -1) {
		return gpFit{}, errors.New("fbnn: GP prior fit failed")
	}
	best.prior.Variance = clamp(best.prior.Variance, fitMinVar, fitMaxVar)
	best.prior.Lengthscale = clamp(best.prior.Lengthscale, fitMinLen, fitMaxLen)
	best.prior.Period = clamp(best.prior.Period, fitMinPer, fitMaxPer)
	return best, nil
}

// refine runs Adam on the negative log marginal likelihood from (k, noise),
// over the noise alone or over the kernel's parameters too, and returns the
// best point seen.
func refine(k gp.Kernel, noise float64, x, y []float64, kernelToo bool) gpFit {
	th := mat.NewDense(1, 4, []float64{math.Log(k.Variance), math.Log(k.Lengthscale), math.Log(k.Period), math.Log(noise)})
	g := mat.NewDense(1, 4, nil)
	gr := g.RawRowView(0)
	opt := numeric.NewAdam(numeric.AdamConfig{LR: fitLR, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8})
	best := gpFit{prior: k, noise: noise, logML: math.Inf(-1)}
	for range fitSteps {
		t := th.RawRowView(0)
		t[3] = max(t[3], math.Log(fitMinNoise))
		c := k
		c.Variance, c.Lengthscale, c.Period = math.Exp(t[0]), math.Exp(t[1]), math.Exp(t[2])
		nz := math.Exp(t[3])
		ll, err := logML(c, nz, x, y, gr)
		if err != nil || math.IsNaN(ll) {
			break
		}
		if ll > best.logML {
			best = gpFit{c, nz, ll}
		}
		for i := range gr {
			gr[i] = -gr[i]
		}
		if !kernelToo {
			gr[0], gr[1], gr[2] = 0, 0, 0
		}
		if !k.Periodic {
			gr[2] = 0
		}
		opt.Step([]*mat.Dense{th}, []*mat.Dense{g})
	}
	return best
}

// thin returns at most n points of (x, y), evenly spaced in the order of x.
func thin(x, y []float64, n int) ([]float64, []float64) {
	if len(x) <= n {
		return x, y
	}
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		switch {
		case x[a] < x[b]:
			return -1
		case x[a] > x[b]:
			return 1
		}
		return 0
	})
	xs, ys := make([]float64, n), make([]float64, n)
	for i := range n {
		j := idx[i*len(x)/n]
		xs[i], ys[i] = x[j], y[j]
	}
	return xs, ys
}

func clamp(v, lo, hi float64) float64 { return min(max(v, lo), hi) }
