package mcmc

import (
	"math"

	"github.com/posterior-playground/playground/numeric"
)

// nuts is the no-U-turn sampler as Stan implements it (Hoffman & Gelman
// 2014 with Betancourt's 2017 changes): the trajectory
// doubles in a random direction until the generalised U-turn criterion
// (on sums of momenta, with the diagonal metric, checked on every subtree
// and across each pair of merged subtrees) fails, an energy error exceeds
// 1000 (a divergence) or the depth reaches max_depth; the next state is drawn
// with multinomial weights e^−H, biased towards the newest subtree at the top
// level. Warm-up adapts ε by dual averaging (target acceptance 0.8) and the
// diagonal metric by Stan's windowed variance estimate.
type nuts struct {
	adapter  // ε, M⁻¹ and their warm-up adaptation (always on)
	maxDepth int

	p                     []float64 // momentum of the integrator state
	fwd, bck              point     // the trajectory's ends
	sample, propose       point
	pFwdFwd, pSharpFwdFwd []float64
	pFwdBck, pSharpFwdBck []float64
	pBckFwd, pSharpBckFwd []float64
	pBckBck, pSharpBckBck []float64
	rho, rhoFwd, rhoBck   []float64
	levels                []nutsLevel // scratch of build at depth d ≥ 1
	h0, sumMetro          float64
	nLeap, depth          int
	divergent             bool
}

// point is a phase-space point with its gradient and log density.
type point struct {
	theta, p, grad []float64
	logp           float64
}

func newPoint(d int) point {
	return point{theta: make([]float64, d), p: make([]float64, d), grad: make([]float64, d)}
}

// nutsLevel holds build's locals at one depth, so recursion allocates
// nothing.
type nutsLevel struct {
	pInitEnd, pSharpInitEnd, rhoInit    []float64
	pFinalBeg, pSharpFinalBeg, rhoFinal []float64
	proposeFinal                        point
}

// maxTreeDepth bounds the max_depth control (Stan's default is 10).
const maxTreeDepth = 10

func newNUTS(d, warmup int, eps float64, maxDepth int) *nuts {
	v := func() []float64 { return make([]float64, d) }
	k := &nuts{adapter: newAdapter(d, warmup, eps, true), maxDepth: maxDepth, p: v(),
		fwd: newPoint(d), bck: newPoint(d), sample: newPoint(d), propose: newPoint(d),
		pFwdFwd: v(), pSharpFwdFwd: v(), pFwdBck: v(), pSharpFwdBck: v(),
		pBckFwd: v(), pSharpBckFwd: v(), pBckBck: v(), pSharpBckBck: v(),
		rho: v(), rhoFwd: v(), rhoBck: v()}
	k.levels = make([]nutsLevel, maxTreeDepth+1)
	for i := 1; i <= maxTreeDepth; i++ {
		k.levels[i] = nutsLevel{pInitEnd: v(), pSharpInitEnd: v(), rhoInit: v(),
			pFinalBeg: v(), pSharpFinalBeg: v(), rhoFinal: v(), proposeFinal: newPoint(d)}
	}
	return k
}

func (k *nuts) init(c *chain) { c.evalGrad() }

// save copies the integrator state (the chain's θ, grad, log π and k.p).
func (k *nuts) save(c *chain, dst *point) {
	copy(dst.theta, c.theta)
	copy(dst.grad, c.grad)
	copy(dst.p, k.p)
	dst.logp = c.logp
}

func (k *nuts) load(c *chain, src *point) {
	copy(c.theta, src.theta)
	copy(c.grad, src.grad)
	copy(k.p, src.p)
	c.logp = src.logp
}

// takePoint makes dst hold src's state by swapping their buffers: src is
// scratch whose contents are not read again before they are rewritten, so
// the two d-long copies of copying θ and its gradient are not needed.
func takePoint(dst, src *point) {
	*dst, *src = *src, *dst
}

func (k *nuts) sharp(dst, p []float64) {
	for i, pi := range p {
		dst[i] = k.minv[i] * pi
	}
}

// sumCriterion is the generalised no-U-turn condition: the summed momentum
// rho = a + b still points forward at both ends (p♯₊·rho > 0 and
// p♯₋·rho > 0). rho is formed on the fly, written into set and added into
// add (either may be nil), and the two dot products are taken in one pass
// (numeric.SumDots: AVX2, eight partial sums each; only their signs
// matter here): one pass over the coordinates where a sum, a store and two
// dot products took four.
func sumCriterion(pSharpMinus, pSharpPlus, a, b, set, add []float64) bool {
	sp, sm := numeric.SumDots(pSharpPlus, pSharpMinus, a, b, set, add)
	return sp > 0 && sm > 0
}

func logAddExp(a, b float64) float64 {
	if math.IsInf(a, -1) {
		return b
	}
	if math.IsInf(b, -1) {
		return a
	}
	if a > b {
		return a + math.Log1p(math.Exp(b-a))
	}
	return b + math.Log1p(math.Exp(a-b))
}

func (k *nuts) transition(c *chain, warm bool) (float64, bool) {
	k.begin(c, k.p, warm)
	if !c.gradOK {
		c.evalGrad()
	}
	c.drawMomentum(k.p, k.minv)
	k.save(c, &k.fwd)
	k.save(c, &k.bck)
	k.save(c, &k.sample)
	k.sharp(k.pSharpFwdFwd, k.p)
	for _, v := range [][]float64{k.pFwdFwd, k.pFwdBck, k.pBckFwd, k.pBckBck, k.rho} {
		copy(v, k.p)
	}
	for _, v := range [][]float64{k.pSharpFwdBck, k.pSharpBckFwd, k.pSharpBckBck} {
		copy(v, k.pSharpFwdFwd)
	}
	lsw := 0.0
	k.h0 = -c.logp + kinetic(k.p, k.minv)
	k.nLeap, k.sumMetro, k.divergent, k.depth = 0, 0, false, 0

	for k.depth < k.maxDepth {
		lswSub := math.Inf(-1)
		var valid bool
		if c.rng.Float64() > 0.5 {
			k.load(c, &k.fwd)
			copy(k.rhoBck, k.rho)
			copy(k.pBckFwd, k.pFwdFwd)
			copy(k.pSharpBckFwd, k.pSharpFwdFwd)
			valid = k.build(c, k.depth, &k.propose, k.pSharpFwdBck, k.pSharpFwdFwd, k.rhoFwd, k.pFwdBck, k.pFwdFwd, 1, &lswSub)
			k.save(c, &k.fwd)
		} else {
			k.load(c, &k.bck)
			copy(k.rhoFwd, k.rho)
			copy(k.pFwdBck, k.pBckBck)
			copy(k.pSharpFwdBck, k.pSharpBckBck)
			valid = k.build(c, k.depth, &k.propose, k.pSharpBckFwd, k.pSharpBckBck, k.rhoBck, k.pBckFwd, k.pBckBck, -1, &lswSub)
			k.save(c, &k.bck)
		}
		if !valid {
			break
		}
		k.depth++
		if lswSub > lsw || c.rng.Float64() < math.Exp(lswSub-lsw) {
			takePoint(&k.sample, &k.propose)
		}
		lsw = logAddExp(lsw, lswSub)
		persist := sumCriterion(k.pSharpBckBck, k.pSharpFwdFwd, k.rhoBck, k.rhoFwd, k.rho, nil)
		persist = persist && sumCriterion(k.pSharpBckBck, k.pSharpFwdBck, k.rhoBck, k.pFwdBck, nil, nil)
		persist = persist && sumCriterion(k.pSharpBckFwd, k.pSharpFwdFwd, k.rhoFwd, k.pBckFwd, nil, nil)
		if !persist {
			break
		}
	}
	acc := k.sumMetro / float64(max(k.nLeap, 1))
	copy(c.theta, k.sample.theta)
	copy(c.grad, k.sample.grad)
	c.logp = k.sample.logp
	k.learn(c, k.p, acc, warm)
	return acc, k.divergent
}

func (k *nuts) treeDepth() int { return k.depth }

// build extends the trajectory by 2^depth leapfrog steps in direction sign
// from the integrator state, as Stan's base_nuts::build_tree. It returns
// false when the new subtree diverged or U-turned. It sets rho to the sum
// of the subtree's momenta (Stan adds it into a zeroed rho: setting it
// saves clearing one d-vector per subtree).
func (k *nuts) build(c *chain, depth int, propose *point, pSharpBeg, pSharpEnd, rho, pBeg, pEnd []float64, sign float64, lsw *float64) bool {
	if depth == 0 {
		if c.halted() {
			return false // ends the tree like a U-turn; the state is discarded
		}
		// The leapfrog's last half kick, p♯ at both ends, the kinetic
		// energy, ρ and the end momenta in one pass over the coordinates.
		eps := sign * k.eps
		c.kickDrift(k.p, k.minv, eps)
		k.nLeap++
		half := 0.5 * eps
		p, minv, g := k.p, k.minv[:len(k.p)], c.grad[:len(k.p)]
		sb, se, r := pSharpBeg[:len(p)], pSharpEnd[:len(p)], rho[:len(p)]
		pb, pe := pBeg[:len(p)], pEnd[:len(p)]
		// The kinetic energy in four partial sums: one chain of
		// dependent additions bounded this loop.
		var kin [4]float64
		if &se[0] == &sb[0] && &pe[0] == &pb[0] && &r[0] == &pb[0] {
			// A leaf of a depth-1 subtree: its ends and ρ are one
			// momentum (see below), stored once.
			for i, pi := range p {
				pi += half * g[i]
				p[i] = pi
				s := minv[i] * pi
				sb[i] = s
				kin[i&3] += pi * s
				pb[i] = pi
			}
		} else {
			for i, pi := range p {
				pi += half * g[i]
				p[i] = pi
				s := minv[i] * pi
				sb[i], se[i] = s, s
				kin[i&3] += pi * s
				r[i] = pi
				pb[i], pe[i] = pi, pi
			}
		}
		h := -c.logp + 0.5*((kin[0]+kin[1])+(kin[2]+kin[3]))
		if math.IsNaN(h) {
			h = math.Inf(1)
		}
		if h-k.h0 > maxDeltaH {
			k.divergent = true
		}
		*lsw = logAddExp(*lsw, k.h0-h)
		if k.h0-h > 0 {
			k.sumMetro++
		} else {
			k.sumMetro += math.Exp(k.h0 - h)
		}
		copy(propose.theta, c.theta)
		copy(propose.grad, c.grad)
		propose.logp = c.logp
		return !k.divergent
	}
	L := &k.levels[depth]
	// The halves' inner ends and momentum sums. Below a depth-1 subtree
	// each half is one leapfrog step whose two ends and ρ are its
	// momentum: they alias the subtree's own ends, which hold the same
	// values, so the leaves store each vector once.
	pSharpInitEnd, pInitEnd, rhoInit := L.pSharpInitEnd, L.pInitEnd, L.rhoInit
	pSharpFinalBeg, pFinalBeg, rhoFinal := L.pSharpFinalBeg, L.pFinalBeg, L.rhoFinal
	if depth == 1 {
		pSharpInitEnd, pInitEnd, rhoInit = pSharpBeg, pBeg, pBeg
		pSharpFinalBeg, pFinalBeg, rhoFinal = pSharpEnd, pEnd, pEnd
	}
	lswInit := math.Inf(-1)
	if !k.build(c, depth-1, propose, pSharpBeg, pSharpInitEnd, rhoInit, pBeg, pInitEnd, sign, &lswInit) {
		return false
	}
	lswFinal := math.Inf(-1)
	if !k.build(c, depth-1, &L.proposeFinal, pSharpFinalBeg, pSharpEnd, rhoFinal, pFinalBeg, pEnd, sign, &lswFinal) {
		return false
	}
	lswSub := logAddExp(lswInit, lswFinal)
	*lsw = logAddExp(*lsw, lswSub)
	if lswFinal > lswSub || c.rng.Float64() < math.Exp(lswFinal-lswSub) {
		takePoint(propose, &L.proposeFinal)
	}
	persist := sumCriterion(pSharpBeg, pSharpEnd, rhoInit, rhoFinal, rho, nil)
	if depth == 1 {
		// The halves' inner ends are the subtree's ends (above): the two
		// extra checks would repeat this one's sums.
		return persist
	}
	persist = persist && sumCriterion(pSharpBeg, pSharpFinalBeg, rhoInit, pFinalBeg, nil, nil)
	persist = persist && sumCriterion(pSharpInitEnd, pSharpEnd, rhoFinal, pInitEnd, nil, nil)
	return persist
}
