package mcmc

import (
	"math"
	"math/rand/v2"
	"sync"
	"time"
)

// kernel is one sampler's transition and warm-up adaptation for one chain.
// Its state is private to the chain; the method changes it only between
// steps.
type kernel interface {
	// init prepares the kernel at the chain's starting point (c.theta is set).
	init(c *chain)
	// transition moves the chain once and returns the acceptance statistic
	// (the Metropolis acceptance probability, or its mean over a NUTS tree)
	// and whether the transition diverged.
	transition(c *chain, warm bool) (accept float64, divergent bool)
	// endWarmup fixes the adapted step size before the first kept draw.
	endWarmup(c *chain)
	// stepSize returns the current (nominal) step size.
	stepSize() float64
	// setStep sets the step size from the user (Set).
	setStep(eps float64, warm bool)
}

// treeKernel is a kernel that builds trajectories as trees (NUTS).
type treeKernel interface {
	// treeDepth is the depth of the last transition's tree, as Stan's
	// treedepth__ counts it.
	treeDepth() int
}

// chain is one Markov chain: its state, its random stream, its density and
// kernel, its statistics and retained draws. A chain never refers to the
// Method, so a dropped Method can be collected while its workers wait.
type chain struct {
	id   int
	rng  *rand.Rand
	dens density
	k    kernel

	theta, grad []float64
	logp        float64
	gradOK      bool // grad is ∇log π at theta (full data)

	iter, warmup int // transitions done; warm-up length

	phaseAcc  float64 // acceptance statistics summed since the phase began
	phaseN    int
	postAcc   float64 // … over the kept transitions
	postN     int
	divWarm   int
	divPost   int
	gradEvals int64
	leapfrogs int64 // leapfrog steps, warm-up and step-size searches included
	depthSum  int64 // NUTS tree depths summed over the kept transitions

	summ        []float64
	draws, full store
	panicked    any

	// halt is the engine's interrupt poll (sim.Env.Stop), nil for
	// none: checked before every leapfrog step, it bounds the work after
	// an interrupt to the gradient evaluation in flight.
	halt func() bool
}

// halted reports whether the step in progress is no longer wanted.
func (c *chain) halted() bool { return c.halt != nil && c.halt() }

// evalGrad sets logp and grad at theta.
func (c *chain) evalGrad() {
	c.logp = c.dens.logpGrad(c.theta, c.grad)
	c.gradEvals++
	c.gradOK = true
}

// leapfrog moves (θ, p) by one leapfrog step of size eps with inverse
// metric minv; grad and logp follow θ.
func (c *chain) leapfrog(p, minv []float64, eps float64) {
	c.kickDrift(p, minv, eps)
	h := 0.5 * eps
	for i, g := range c.grad {
		p[i] += h * g
	}
}

// kickDrift is a leapfrog step up to its last half kick: the first half
// kick and the drift in one pass over the coordinates, then the gradient
// at the new θ. The caller completes the step with p += (eps/2)·grad.
func (c *chain) kickDrift(p, minv []float64, eps float64) {
	c.leapfrogs++
	h := 0.5 * eps
	th, g := c.theta[:len(p)], c.grad[:len(p)]
	for i, pi := range p {
		pi += h * g[i]
		p[i] = pi
		th[i] += eps * minv[i] * pi
	}
	c.evalGrad()
}

// kinetic returns ½ pᵀ M⁻¹ p.
func kinetic(p, minv []float64) float64 {
	var k float64
	for i, pi := range p {
		k += pi * pi * minv[i]
	}
	return 0.5 * k
}

// drawMomentum fills p ~ N(0, M) with M = diag(1/minv).
func (c *chain) drawMomentum(p, minv []float64) {
	for i := range p {
		p[i] = c.rng.NormFloat64() / math.Sqrt(minv[i])
	}
}

// advance performs the chain's next transition and records it. A panic is
// kept for the method to re-raise in its own goroutine.
func (c *chain) advance() {
	defer func() {
		if p := recover(); p != nil {
			c.panicked = p
		}
	}()
	if c.halted() {
		return // the method is discarded: its state need not be whole
	}
	if c.iter == c.warmup {
		c.k.endWarmup(c)
		c.phaseAcc, c.phaseN = 0, 0
	}
	warm := c.iter < c.warmup
	acc, div := c.k.transition(c, warm)
	if math.IsNaN(acc) {
		acc = 0
	}
	c.phaseAcc += acc
	c.phaseN++
	if warm {
		if div {
			c.divWarm++
		}
	} else {
		c.postAcc += acc
		c.postN++
		if t, ok := c.k.(treeKernel); ok {
			c.depthSum += int64(t.treeDepth())
		}
		if div {
			c.divPost++
		}
		c.dens.summarize(c.summ, c.theta)
		c.draws.add(c.summ)
		c.full.add(c.theta)
	}
	c.iter++
}

// workers steps the chains in up to len(chains) goroutines: the caller's
// and persistent workers 1…, each idle between rounds. A round in k
// goroutines gives goroutine g the chains g, g+k, g+2k, …; the chains are
// independent within a round, so the result is the same for every k. One
// round is a send to k−1 workers and as many receives, which allocates
// nothing.
type workers struct {
	start []chan int // worker w+1's channel: the round's k
	done  chan struct{}
	once  sync.Once
	alive sync.WaitGroup
}

func startWorkers(chains []*chain) *workers {
	w := &workers{done: make(chan struct{}, len(chains))}
	for g := 1; g < len(chains); g++ {
		ch := make(chan int)
		w.start = append(w.start, ch)
		w.alive.Add(1)
		go func() {
			defer w.alive.Done()
			for k := range ch {
				advanceGroup(chains, g, k)
				w.done <- struct{}{}
			}
		}()
	}
	return w
}

// advanceGroup advances the chains g, g+k, … of a round in k goroutines.
func advanceGroup(chains []*chain, g, k int) {
	for i := g; i < len(chains); i += k {
		chains[i].advance()
	}
}

// round advances every chain once in k goroutines (1 ≤ k ≤ len(chains)).
// When timed it returns the time a chain's transition took in the
// caller's goroutine (the workers' wake-ups left out), else 0.
func (w *workers) round(chains []*chain, k int, timed bool) time.Duration {
	for _, ch := range w.start[:k-1] {
		ch <- k
	}
	var t0 time.Time
	if timed {
		t0 = time.Now()
	}
	advanceGroup(chains, 0, k)
	var d time.Duration
	if timed {
		d = time.Since(t0) / time.Duration((len(chains)+k-1)/k)
	}
	for range k - 1 {
		<-w.done
	}
	return d
}

// stop ends the worker goroutines and waits until they have returned (they
// are idle between rounds, so this is prompt). It is safe to call more
// than once.
func (w *workers) stop() {
	w.once.Do(func() {
		for _, ch := range w.start {
			close(ch)
		}
		w.alive.Wait()
	})
}
