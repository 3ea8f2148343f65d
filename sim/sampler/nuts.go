package sampler

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/target"
)

// NUTSConfig sets the no-U-turn sampler. The zero value is Stan's
// defaults: ε₀ = 1, max depth 10, 1000 warm-up transitions adapting ε
// towards acceptance 0.8 and a diagonal metric in Stan's windows.
type NUTSConfig struct {
	Step      float64 // ε₀, the step size warm-up starts from (or the fixed step), in [0.001, 5]; 0 means 1
	MaxDepth  int     // doublings at most, in [1, MaxTreeDepth]; 0 means 10
	Warmup    int     // warm-up transitions, in [1, 100000]; 0 means 1000
	Delta     float64 // the acceptance statistic warm-up aims at, in [0.5, 0.99]; 0 means 0.8
	FixedStep bool    // no warm-up: every transition uses Step (and InvMetric)
	// Metric is MetricDiag (a diagonal metric adapted in warm-up, Stan's
	// diag_e) or MetricUnit (the identity, or InvMetric, throughout); ""
	// means MetricDiag.
	Metric string
	// InvMetric is the inverse metric's diagonal the chain starts with
	// (and keeps, with MetricUnit or FixedStep), each entry in
	// [1e-8, 1e8]; the zero value means the identity.
	InvMetric Point
}

// MaxTreeDepth bounds NUTS's max depth: a tree of 2^12 points.
const MaxTreeDepth = 12

func (c NUTSConfig) resolve() (NUTSConfig, error) {
	c.Step = orDefault(c.Step, 1)
	c.Delta = orDefault(c.Delta, 0.8)
	if c.MaxDepth == 0 {
		c.MaxDepth = 10
	}
	if c.Warmup == 0 {
		c.Warmup = 1000
	}
	if c.Metric == "" {
		c.Metric = MetricDiag
	}
	if c.Metric != MetricDiag && c.Metric != MetricUnit {
		return c, &sim.FieldError{Field: "metric", Message: fmt.Sprintf("%q is not one of [%s %s]", c.Metric, MetricUnit, MetricDiag)}
	}
	var err error
	if c.InvMetric, err = checkInvMetric(c.InvMetric); err != nil {
		return c, err
	}
	for _, e := range []error{
		checkRange("step", c.Step, 0.001, 5),
		checkRange("max_depth", float64(c.MaxDepth), 1, MaxTreeDepth),
		checkRange("warmup", float64(c.Warmup), 1, 100000),
		checkRange("delta", c.Delta, 0.5, 0.99),
	} {
		if e != nil {
			return c, e
		}
	}
	return c, nil
}

// NUTS is the no-U-turn sampler as Stan implements it (Hoffman & Gelman
// 2014; Betancourt 2017): the trajectory doubles in a random direction
// until the generalised no-U-turn criterion on sums of momenta fails
// (checked on every subtree and across each pair of merged halves), a
// leapfrog's energy error passes MaxEnergyError (a divergence) or the
// depth reaches MaxDepth; the next state is drawn from the trajectory with
// multinomial weights e^{−H}, biased towards the newest half at the top
// level. During warm-up ε is adapted by dual averaging towards acceptance
// statistic Delta, starting from Stan's step-size heuristic, and (with
// MetricDiag) the diagonal metric is set to the regularised variances of
// the draws of each of Stan's slow windows, after which the heuristic and
// the dual averaging start again from the last ε; after warm-up ε is fixed
// at the averaged value and the metric at the last window's.
type NUTS struct {
	chain
	cfg  NUTSConfig
	eps  float64
	da   dualAvg
	iter int // transitions made
	win  windows
	est  welford // the current slow window's draws

	// One transition's scratch.
	h0, sumMetro float64
	nLeap        int
	divergent    bool
}

// nutsState is a point of the trajectory: position, momentum, gradient,
// log density, and its index in a Record's Path (−1 unrecorded).
type nutsState struct {
	x, p, g Point
	lp      float64
	idx     int
}

// NewNUTS starts a chain at start drawing from r.
func NewNUTS(t target.Target, c NUTSConfig, r *rand.Rand, start Point) (*NUTS, error) {
	ch, c, err := begin(t, c, r, start)
	if err != nil {
		return nil, err
	}
	ch.m = newMetric(c.InvMetric)
	n := &NUTS{chain: ch, cfg: c, eps: c.Step, win: newWindows(c.Warmup)}
	if !c.FixedStep {
		n.eps = n.initStep(n.eps)
		n.da = newDualAvg(n.eps, c.Delta)
	}
	return n, nil
}

// StepSize is the step size the next transition uses.
func (n *NUTS) StepSize() float64 { return n.eps }

// InvMetric is the diagonal of the inverse metric M⁻¹ the next transition
// uses: after warm-up with MetricDiag, estimates of the target's marginal
// variances.
func (n *NUTS) InvMetric() Point { return n.m.inv }

// SetConfig changes the max depth between steps; a new step size (with
// FixedStep) or a new warm-up takes effect from the next transition, the
// latter with new metric windows counted from the chain's start (the
// current window's draws are dropped). The metric and InvMetric are read
// only by a new chain.
func (n *NUTS) SetConfig(c NUTSConfig) error {
	c.Metric, c.InvMetric = n.cfg.Metric, n.cfg.InvMetric
	old := n.cfg.Warmup
	if err := setConfig(&n.cfg, c); err != nil {
		return err
	}
	if n.cfg.FixedStep {
		n.eps = n.cfg.Step
	}
	if n.cfg.Warmup != old {
		n.win, n.est = newWindows(n.cfg.Warmup), welford{}
	}
	return nil
}

func (n *NUTS) Step(rec *Record) Transition {
	n.ensureGrad()
	warm := !n.cfg.FixedStep && n.iter < n.cfg.Warmup
	n.iter++
	z := nutsState{x: n.x, p: n.m.momentum(n.r), g: n.grad, lp: n.lp}
	if rec != nil {
		rec.reset(n.x)
		rec.Path = append(rec.Path, n.x)
	}
	n.h0 = n.m.energy(z.lp, z.p)
	n.nLeap, n.sumMetro, n.divergent = 0, 0, false
	fwd, bck, sample := z, z, z
	// The tree's outer ends' momenta, the inner ends' of its two halves
	// (set by each doubling before they are read), and the momenta sums.
	pFwdFwd, pBckBck, rho := z.p, z.p, z.p
	var pFwdBck, pBckFwd, rhoFwd, rhoBck Point
	lsw := 0.0 // log Σ e^{H₀−H} over the tree; the start's term is 1
	depth, moved := 0, false
	stop := StopMaxDepth
	for depth < n.cfg.MaxDepth {
		var propose nutsState
		var ok bool
		var lswSub float64
		dir, first := 1, 0
		if rec != nil {
			first = len(rec.Path)
		}
		if n.r.Float64() > 0.5 {
			rhoBck, pBckFwd = rho, pFwdFwd
			ok, lswSub, rhoFwd, pFwdBck, pFwdFwd = n.build(depth, 1, &fwd, &propose, rec)
		} else {
			dir = -1
			rhoFwd, pFwdBck = rho, pBckBck
			ok, lswSub, rhoBck, pBckFwd, pBckBck = n.build(depth, -1, &bck, &propose, rec)
		}
		if rec != nil {
			rec.Doublings = append(rec.Doublings, Doubling{Dir: dir, Depth: depth, First: first, Last: len(rec.Path) - 1, Merged: ok})
		}
		if !ok {
			stop = StopSubtree
			if n.divergent {
				stop = StopDivergent
			}
			break
		}
		depth++
		if lswSub > lsw || n.r.Float64() < math.Exp(lswSub-lsw) {
			sample, moved = propose, true
		}
		lsw = logAddExp(lsw, lswSub)
		rho = add(rhoBck, rhoFwd)
		if !(n.m.noUTurn(pBckBck, pFwdFwd, rho) &&
			n.m.noUTurn(pBckBck, pFwdBck, add(rhoBck, pFwdBck)) &&
			n.m.noUTurn(pBckFwd, pFwdFwd, add(rhoFwd, pBckFwd))) {
			stop = StopUTurn
			break
		}
	}
	acc := n.sumMetro / float64(max(n.nLeap, 1))
	n.x, n.lp, n.grad = sample.x, sample.lp, sample.g
	if rec != nil {
		rec.Proposal, rec.Accepted, rec.Chosen, rec.Stop = sample.x, moved, max(sample.idx, 0), stop
		rec.Divergent = n.divergent
	}
	if warm {
		n.eps = n.da.learn(acc)
		if n.cfg.Metric == MetricDiag && n.adaptMetric() {
			n.eps = n.initStep(n.eps)
			n.da = newDualAvg(n.eps, n.cfg.Delta)
		}
		if n.iter == n.cfg.Warmup {
			n.eps = n.da.final()
		}
	}
	return Transition{Accepted: moved, Accept: acc, Divergent: n.divergent, Leapfrogs: n.nLeap, Depth: depth, Warmup: warm}
}

// adaptMetric adds the chain's position to the current slow window's
// estimate and, at the window's end, sets the metric to it and reports
// true.
func (n *NUTS) adaptMetric() bool {
	gather, end := n.win.at(n.iter - 1)
	if gather {
		n.est.add(n.x)
	}
	if !end {
		return false
	}
	inv, ok := n.est.inv()
	n.est = welford{}
	if ok {
		n.m = newMetric(inv)
	}
	return ok
}

// build extends the trajectory from z by 2^depth leapfrog steps in
// direction sign, as Stan's base_nuts::build_tree. It returns whether the
// new subtree is valid (no divergence, no U-turn inside), the log of its
// summed weights, its summed momenta, and its first and last momenta;
// propose receives a point drawn from it by weight.
func (n *NUTS) build(depth int, sign float64, z, propose *nutsState, rec *Record) (ok bool, lsw float64, rho, pBeg, pEnd Point) {
	if depth == 0 {
		z.x, z.p, z.lp, z.g = n.leapfrog(z.x, z.p, z.g, sign*n.eps)
		n.nLeap++
		z.idx = -1
		if rec != nil {
			rec.Path = append(rec.Path, z.x)
			z.idx = len(rec.Path) - 1
		}
		h := n.m.energy(z.lp, z.p)
		if h-n.h0 > MaxEnergyError {
			n.divergent = true
			if rec != nil && rec.DivergentAt < 0 {
				rec.DivergentAt = z.idx
			}
		}
		if n.h0-h > 0 {
			n.sumMetro++
		} else {
			n.sumMetro += math.Exp(n.h0 - h)
		}
		*propose = *z
		return !n.divergent, n.h0 - h, z.p, z.p, z.p
	}
	first := 0
	if rec != nil {
		first = len(rec.Path)
	}
	okInit, lswInit, rhoInit, pBeg, pInitEnd := n.build(depth-1, sign, z, propose, rec)
	if !okInit {
		return false, 0, rho, pBeg, pEnd
	}
	var final nutsState
	okFinal, lswFinal, rhoFinal, pFinalBeg, pEnd := n.build(depth-1, sign, z, &final, rec)
	if !okFinal {
		return false, 0, rho, pBeg, pEnd
	}
	lsw = logAddExp(lswInit, lswFinal)
	if lswFinal > lsw || n.r.Float64() < math.Exp(lswFinal-lsw) {
		*propose = final
	}
	rho = add(rhoInit, rhoFinal)
	ok = n.m.noUTurn(pBeg, pEnd, rho) &&
		n.m.noUTurn(pBeg, pFinalBeg, add(rhoInit, pFinalBeg)) &&
		n.m.noUTurn(pInitEnd, pEnd, add(rhoFinal, pInitEnd))
	if rec != nil {
		rec.Subtrees = append(rec.Subtrees, Subtree{Depth: depth, First: first, Last: len(rec.Path) - 1, UTurn: !ok})
	}
	return ok, lsw, rho, pBeg, pEnd
}

func add(a, b Point) Point { return Point{a[0] + b[0], a[1] + b[1]} }

// logAddExp is log(eᵃ + eᵇ) without overflow.
func logAddExp(a, b float64) float64 {
	if a < b {
		a, b = b, a
	}
	if math.IsInf(a, -1) {
		return a
	}
	return a + math.Log1p(math.Exp(b-a))
}
