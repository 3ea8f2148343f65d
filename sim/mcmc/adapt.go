package mcmc

import "math"

// Warm-up adaptation as Stan does it: dual averaging of the step size
// (Hoffman & Gelman 2014, §3.2.1) and a diagonal inverse metric estimated
// from the draws in doubling windows (Stan's windowed adaptation).

// Dual-averaging constants (Hoffman & Gelman 2014; Stan's defaults).
const (
	targetAccept = 0.8
	daGamma      = 0.05
	daT0         = 10
	daKappa      = 0.75
)

// dualAvg drives log ε so that the mean acceptance statistic tends to
// targetAccept; xbar is the averaged iterate used after warm-up.
type dualAvg struct {
	mu, sbar, xbar float64
	counter        int
}

// restart starts over around ε, with μ = log(10ε).
func (d *dualAvg) restart(eps float64) {
	*d = dualAvg{mu: math.Log(10 * eps)}
}

// learn takes one acceptance statistic and returns the next step size.
func (d *dualAvg) learn(accept float64) float64 {
	if math.IsNaN(accept) {
		accept = 0
	}
	accept = min(accept, 1)
	d.counter++
	m := float64(d.counter)
	eta := 1 / (m + daT0)
	d.sbar = (1-eta)*d.sbar + eta*(targetAccept-accept)
	x := d.mu - d.sbar*math.Sqrt(m)/daGamma
	xeta := math.Pow(m, -daKappa)
	d.xbar = (1-xeta)*d.xbar + xeta*x
	return math.Exp(x)
}

// final returns the averaged step size exp(x̄) (NaN before any learn).
func (d *dualAvg) final() float64 {
	if d.counter == 0 {
		return math.NaN()
	}
	return math.Exp(d.xbar)
}

// windows is Stan's schedule for the metric: a fast initial buffer (75
// iterations), slow windows of 25, 50, 100, … whose draws estimate the
// variances, the last stretched to the terminal buffer (50), which adapts
// the step size only. Warm-ups shorter than 150 use 15% / 75% / 10%; under
// 20 iterations the metric is not adapted.
type windows struct {
	warmup, initBuf, termBuf int
	counter, size, next      int
	off                      bool
}

func newWindows(warmup int) windows {
	w := windows{warmup: warmup, initBuf: 75, termBuf: 50, size: 25}
	if warmup < 20 {
		w.off = true
		return w
	}
	if w.initBuf+w.size+w.termBuf > warmup {
		w.initBuf = int(0.15 * float64(warmup))
		w.termBuf = int(0.1 * float64(warmup))
		w.size = warmup - (w.initBuf + w.termBuf)
	}
	w.next = w.initBuf + w.size - 1
	return w
}

func (w *windows) inWindow() bool {
	return w.counter >= w.initBuf && w.counter < w.warmup-w.termBuf && w.counter != w.warmup
}

func (w *windows) endWindow() bool { return w.counter == w.next && w.counter != w.warmup }

func (w *windows) computeNext() {
	last := w.warmup - w.termBuf - 1
	if w.next == last {
		return
	}
	w.size *= 2
	w.next = w.counter + w.size
	if w.next != last && w.next+2*w.size >= w.warmup-w.termBuf {
		w.next = last
	}
}

// learn records θ of one warm-up iteration. When a window closes it writes
// the regularised variances into minv, restarts the estimate and returns
// true: Stan's (n/(n+5))·var + 10⁻³·(5/(n+5)), which shrinks towards a
// small constant when a window holds few draws.
func (w *windows) learn(est *welford, theta, minv []float64) bool {
	if w.off {
		return false
	}
	if w.inWindow() {
		est.add(theta)
	}
	if w.endWindow() {
		w.computeNext()
		n := float64(est.n)
		for i := range minv {
			v := est.m2[i] / (n - 1)
			minv[i] = (n/(n+5))*v + 1e-3*(5/(n+5))
		}
		est.reset()
		w.counter++
		return true
	}
	w.counter++
	return false
}

// welford accumulates per-coordinate means and sums of squared deviations.
type welford struct {
	n        int
	mean, m2 []float64
}

func newWelford(d int) welford {
	return welford{mean: make([]float64, d), m2: make([]float64, d)}
}

func (e *welford) add(x []float64) {
	e.n++
	for i, v := range x {
		d := v - e.mean[i]
		e.mean[i] += d / float64(e.n)
		e.m2[i] += d * (v - e.mean[i])
	}
}

func (e *welford) reset() {
	e.n = 0
	clear(e.mean)
	clear(e.m2)
}

// adapter is the warm-up adaptation HMC and NUTS share, and their step
// size and metric: on the first adapting transition ε is improved by
// reasonableStep; after each one ε follows dual averaging; when a metric
// window closes M⁻¹ is re-estimated, ε searched again from the current
// value and dual averaging restarted. With on false, ε is fixed and M = I.
type adapter struct {
	eps         float64
	minv        []float64 // inverse metric M⁻¹ (diagonal)
	on          bool
	p0, th0, g0 []float64 // reasonableStep's scratch

	da      dualAvg
	win     windows
	est     welford
	started bool
}

func newAdapter(d, warmup int, eps float64, on bool) adapter {
	a := adapter{eps: eps, minv: make([]float64, d), on: on,
		p0: make([]float64, d), th0: make([]float64, d), g0: make([]float64, d),
		win: newWindows(warmup), est: newWelford(d)}
	for i := range a.minv {
		a.minv[i] = 1
	}
	return a
}

// begin runs before a transition's trajectory; p is momentum scratch.
func (a *adapter) begin(c *chain, p []float64, warm bool) {
	if !a.started {
		a.started = true
		if warm && a.on {
			a.search(c, p)
		}
	}
}

// search sets ε by reasonableStep from its current value and restarts dual
// averaging there.
func (a *adapter) search(c *chain, p []float64) {
	a.eps = a.reasonableStep(c, p)
	a.da.restart(a.eps)
}

// learn takes a warm-up transition's acceptance statistic, with the chain
// at its new state.
func (a *adapter) learn(c *chain, p []float64, accept float64, warm bool) {
	if !warm || !a.on {
		return
	}
	a.eps = a.da.learn(accept)
	if a.win.learn(&a.est, c.theta, a.minv) {
		a.search(c, p)
	}
}

// endWarmup fixes ε at dual averaging's averaged iterate (if it ran).
func (a *adapter) endWarmup(*chain) {
	if a.da.counter > 0 {
		a.eps = a.da.final()
	}
}

func (a *adapter) stepSize() float64 { return a.eps }

// setStep replaces ε. During adapting warm-up dual averaging restarts from
// it; otherwise it overrides the adapted value.
func (a *adapter) setStep(eps float64, warm bool) {
	a.eps = eps
	if warm && a.on {
		a.da.restart(eps)
	}
}

// Step sizes outside these bounds mean an improper or broken target; the
// heuristic stops there.
const (
	minStep = 1e-10
	maxStep = 1e7
)

// reasonableStep is Hoffman & Gelman's heuristic (2014, Algorithm 4) for a
// first step size: from eps, double (or halve) ε until the acceptance
// probability of one leapfrog step from the current state, with one fixed
// momentum draw, crosses 0.5. It leaves the chain's state unchanged; p is
// scratch.
func (a *adapter) reasonableStep(c *chain, p []float64) float64 {
	eps, minv, p0, th0, g0 := a.eps, a.minv, a.p0, a.th0, a.g0
	if !(eps > minStep && eps < maxStep) {
		eps = 1
	}
	if !c.gradOK {
		c.evalGrad()
	}
	copy(th0, c.theta)
	copy(g0, c.grad)
	lp0 := c.logp
	c.drawMomentum(p, minv)
	copy(p0, p)
	h0 := -lp0 + kinetic(p, minv)
	logRatio := func(e float64) float64 {
		copy(c.theta, th0)
		copy(c.grad, g0)
		copy(p, p0)
		c.leapfrog(p, minv, e)
		d := h0 - (-c.logp + kinetic(p, minv))
		if math.IsNaN(d) {
			return math.Inf(-1)
		}
		return d
	}
	dir := -1.0
	if logRatio(eps) > math.Log(0.5) {
		dir = 1
	}
	for range 100 {
		if c.halted() {
			break
		}
		next := eps * math.Pow(2, dir)
		if next < minStep || next > maxStep {
			break
		}
		eps = next
		// Continue while ratio^dir > 2^−dir.
		if !(dir*logRatio(eps) > -dir*math.Ln2) {
			break
		}
	}
	copy(c.theta, th0)
	copy(c.grad, g0)
	c.logp = lp0
	return eps
}
