package family

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/target"
)

// Cov is a 2×2 covariance matrix.
type Cov = [2][2]float64

// Fit is an approximation to a target that improves one step at a time:
// every family here, the particles of SVGD included.
type Fit interface {
	// Step takes one optimiser step. It allocates nothing.
	Step()
	// Evals is the count of target evaluations spent so far (gradient
	// evaluations, or density evaluations under ForwardKL, which needs no
	// gradient of the target): the x-axis shared with the samplers.
	Evals() int64
	// Moments is the mean and covariance of the approximation, in closed
	// form where it has one.
	Moments() (target.Point, Cov)
	// Draw fills dst with draws from the approximation (SVGD: its
	// particles, in turn). Draws come from a stream of their own, so
	// drawing never changes training.
	Draw(dst []target.Point)
	// SetLR changes Adam's learning rate from the next step on, keeping
	// its moments (a live control); outside (0, 1] it is a field error
	// and nothing changes.
	SetLR(lr float64) error
}

var (
	_ Density = (*Gaussian)(nil)
	_ Density = (*Flow)(nil)
	_ Fit     = (*SVGD)(nil)
)

// Density is a Fit with a density: the parametric families.
type Density interface {
	Fit
	// LogDensity is log q(θ), normalised.
	LogDensity(p target.Point) float64
	// Objective is the last step's estimates from its K draws.
	Objective() Objective
}

// Objective is a step's Monte Carlo estimates from its K draws zₖ ~ q,
// with log wₖ = log p̃(zₖ) − log q(zₖ).
type Objective struct {
	// ELBO is (1/K)Σ log wₖ; against the exact log Z its gap is KL(q‖p).
	ELBO float64
	// Bound is the divergence's own objective: the ELBO under ReverseKL;
	// Rényi's (1−α)⁻¹ log (1/K)Σ wₖ^{1−α} under Renyi; under ForwardKL
	// log (1/K)Σ wₖ, the importance-sampling estimate of log Z (a bound
	// in expectation), whose gap from log Z shows how well q covers p.
	Bound float64
}

// Names of the families, as the CLI and the page spell them.
const (
	MeanFieldName = "mfvi"
	FullRankName  = "fullrank"
	FlowName      = "flow"
	SVGDName      = "svgd"
)

// New returns the family named name (MeanFieldName, FullRankName,
// FlowName, SVGDName) fitted to t.
func New(name string, t target.Target, cfg Config) (Fit, error) {
	switch name {
	case MeanFieldName:
		return fit(NewMeanField(t, cfg))
	case FullRankName:
		return fit(NewFullRank(t, cfg))
	case FlowName:
		return fit(NewFlow(t, cfg))
	case SVGDName:
		return fit(NewSVGD(t, cfg))
	}
	return nil, &sim.FieldError{Field: "method", Message: fmt.Sprintf("unknown family %q (allowed: %s, %s, %s, %s)", name, MeanFieldName, FullRankName, FlowName, SVGDName)}
}

// fit returns q as a Fit, or a nil Fit (not a nil *T inside one) on err.
func fit[T Fit](q T, err error) (Fit, error) {
	if err != nil {
		return nil, err
	}
	return q, nil
}

// transform is a parametric family in the standardised coordinates u: a
// map u = T_λ(ε) of a standard normal ε with parameters λ.
type transform interface {
	// forward is u = T(ε) and log|det ∂T/∂ε|, keeping what pull and
	// score need in slot k (k < 0: keep nothing).
	forward(k int, eps [2]float64) ([2]float64, float64)
	// pull adds to grad the gradient in λ of gᵀT_λ(εₖ) + w·log|det ∂T/∂ε|
	// at slot k's ε.
	pull(k int, g [2]float64, w float64, grad []float64)
	// score is ∇_u log q(u) at slot k's u.
	score(k int) [2]float64
	// logDensity is log q(u).
	logDensity(u [2]float64) float64
}

// fitter steps a transform's parameters by Adam on the chosen divergence.
type fitter struct {
	t     target.Target
	f     frame
	cfg   Config
	tr    transform
	adam  *numeric.Adam
	ps    []*mat.Dense // the parameters λ, one row
	gs    []*mat.Dense // the loss's gradient, one row
	grad  []float64    // gs[0]'s data
	rng   *rand.Rand   // training draws
	draws *rand.Rand   // Draw's stream
	eps   [][2]float64
	gu    [][2]float64 // ∇_u log p̃ at each draw
	logw  []float64
	wt    []float64
	evals int64
	obj   Objective
}

// logPhi2 is log φ(ε) of the standard bivariate normal.
func logPhi2(e [2]float64) float64 {
	return -math.Log(2*math.Pi) - (e[0]*e[0]+e[1]*e[1])/2
}

// newFitter builds the shared stepping state for a transform with the
// parameter vector params (held, not copied).
func newFitter(t target.Target, f frame, cfg Config, tr transform, params []float64) *fitter {
	k := cfg.Samples
	ft := &fitter{
		t: t, f: f, cfg: cfg, tr: tr,
		adam:  numeric.NewAdam(numeric.DefaultAdam(cfg.LR)),
		ps:    []*mat.Dense{mat.NewDense(1, len(params), params)},
		grad:  make([]float64, len(params)),
		rng:   numeric.NewStream(cfg.Seed, 0),
		draws: numeric.NewStream(cfg.Seed, 1),
		eps:   make([][2]float64, k),
		gu:    make([][2]float64, k),
		logw:  make([]float64, k),
		wt:    make([]float64, k),
	}
	ft.gs = []*mat.Dense{mat.NewDense(1, len(params), ft.grad)}
	return ft
}

// Step draws K points from q, weighs them by the divergence and takes
// one Adam step on the loss −(objective). A draw where log p̃ or its
// gradient is not finite (outside the target's support) gets weight zero;
// a step where every draw does is skipped.
func (ft *fitter) Step() {
	if ft.gradient() {
		ft.adam.Step(ft.ps, ft.gs)
	}
}

// gradient draws the step's K points, sets the objective's estimates and
// sets grad to the loss's gradient, reporting false when no draw counts.
func (ft *fitter) gradient() bool {
	k := ft.cfg.Samples
	fwd := ft.cfg.Divergence == ForwardKL
	sum := 0.0
	for i := range k {
		e := [2]float64{ft.rng.NormFloat64(), ft.rng.NormFloat64()}
		ft.eps[i] = e
		u, ld := ft.tr.forward(i, e)
		logq := logPhi2(e) - ld - ft.f.logJac
		th := ft.f.toTheta(u)
		var lp float64
		if fwd {
			lp = ft.t.LogDensity(th)
		} else {
			var g target.Point
			lp, g = ft.t.LogDensityGrad(th)
			ft.gu[i] = [2]float64{g[0] * ft.f.r[0], g[1] * ft.f.r[1]}
			if math.IsNaN(g[0]+g[1]) || math.IsInf(g[0]+g[1], 0) {
				lp = math.Inf(-1)
			}
		}
		ft.evals++
		ft.logw[i] = lp - logq
		sum += ft.logw[i]
	}
	ft.obj.ELBO = sum / float64(k)
	pw := ft.weightPower()
	lse := softmax(ft.wt, ft.logw, pw)
	switch {
	case ft.cfg.Divergence == ReverseKL || pw == 0:
		ft.obj.Bound = ft.obj.ELBO
	default:
		ft.obj.Bound = (lse - math.Log(float64(k))) / pw
	}
	if math.IsInf(lse, -1) || math.IsNaN(lse) {
		return false
	}
	clear(ft.grad)
	for i := range k {
		w := ft.wt[i]
		if w == 0 {
			continue
		}
		if fwd {
			// −∂λ log q(z)|z = pull(∇_u log q, 1): the loss is
			// −Σ w̄ log q_λ(zₖ) with the draws and weights held fixed.
			ft.tr.pull(i, scaled(ft.tr.score(i), w), w, ft.grad)
			continue
		}
		// The bound's gradient Σ ŵₖ ∇λ log wₖ (ŵ ∝ w^β, β = 1−α; uniform
		// for the ELBO) in its doubly reparameterised form: the score
		// term inside ∇λ log wₖ, rewritten by E[f ∇λ log q] =
		// E[∇_z f·∂z/∂λ] with ∂ŵₖ/∂log wₖ = βŵₖ(1−ŵₖ), leaves only the
		// path derivative (∇_u log p̃ − ∇_u log q)·∂T/∂λ, weighted by
		// cₖ = (1−β)ŵₖ + βŵₖ². For the ELBO that is sticking the
		// landing; at q = p every path derivative is zero.
		c := (1-pw)*w + pw*w*w
		s := ft.tr.score(i)
		ft.tr.pull(i, [2]float64{-c * (ft.gu[i][0] - s[0]), -c * (ft.gu[i][1] - s[1])}, 0, ft.grad)
	}
	return true
}

// weightPower is the power 1−α of w the draws are weighted by: 0 under
// ReverseKL (uniform), 1 under ForwardKL (self-normalised importance
// weights).
func (ft *fitter) weightPower() float64 {
	switch ft.cfg.Divergence {
	case ForwardKL:
		return 1
	case Renyi:
		return 1 - ft.cfg.Alpha
	}
	return 0
}

func scaled(g [2]float64, w float64) [2]float64 { return [2]float64{g[0] * w, g[1] * w} }

// softmax sets wt ∝ exp(scale·logw) summing to one (uniform when scale is
// 0), a non-finite log w weighing zero, and returns log Σ exp(scale·logw).
func softmax(wt, logw []float64, scale float64) float64 {
	mx := math.Inf(-1)
	for _, lw := range logw {
		if lw == lw && !math.IsInf(lw, 0) {
			mx = math.Max(mx, scale*lw)
		}
	}
	if math.IsInf(mx, -1) {
		clear(wt)
		return mx
	}
	s := 0.0
	for i, lw := range logw {
		wt[i] = 0
		if lw == lw && !math.IsInf(lw, 0) {
			wt[i] = math.Exp(scale*lw - mx)
		}
		s += wt[i]
	}
	for i := range wt {
		wt[i] /= s
	}
	return mx + math.Log(s)
}

// SetLR changes the learning rate from the next step on.
func (ft *fitter) SetLR(lr float64) error {
	if err := checkLR(lr); err != nil {
		return err
	}
	ft.cfg.LR = lr
	ft.adam.SetLR(lr)
	return nil
}

// Evals returns the target evaluations spent.
func (ft *fitter) Evals() int64 { return ft.evals }

// Objective returns the last step's estimates.
func (ft *fitter) Objective() Objective { return ft.obj }

// LogDensity returns log q(θ).
func (ft *fitter) LogDensity(p target.Point) float64 {
	return ft.tr.logDensity(ft.f.toU(p)) - ft.f.logJac
}

// Draw fills dst with draws from q.
func (ft *fitter) Draw(dst []target.Point) {
	for i := range dst {
		u, _ := ft.tr.forward(-1, [2]float64{ft.draws.NormFloat64(), ft.draws.NormFloat64()})
		dst[i] = ft.f.toTheta(u)
	}
}
