package sampler

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/posterior-playground/playground/sim"
)

// The metrics NUTS can use: the identity, or a diagonal one adapted in
// warm-up as Stan's diag_e.
const (
	MetricDiag = "diag"
	MetricUnit = "unit"
)

// metric is a diagonal Euclidean metric: the diagonal inv of the inverse
// mass matrix M⁻¹ and the momentum's standard deviations sd = 1/√inv.
// The kinetic energy is ½pᵀM⁻¹p, the momentum is drawn from N(0, M), the
// position moves by εM⁻¹p, and the U-turn criterion reads p♯ = M⁻¹p.
// Scaling the momentum by sd is the same as running unit-metric dynamics
// on the position scaled by 1/√inv, which is why inv should approach the
// target's marginal variances.
type metric struct {
	inv, sd Point
}

func unitMetric() metric { return metric{inv: Point{1, 1}, sd: Point{1, 1}} }

func newMetric(inv Point) metric {
	return metric{inv: inv, sd: Point{1 / math.Sqrt(inv[0]), 1 / math.Sqrt(inv[1])}}
}

// checkInvMetric resolves a Config's inverse metric: the zero value is the
// identity, and each entry must be in [1e-8, 1e8].
func checkInvMetric(inv Point) (Point, error) {
	if inv == (Point{}) {
		return Point{1, 1}, nil
	}
	for _, v := range inv {
		if !(v >= 1e-8 && v <= 1e8) {
			return inv, &sim.FieldError{Field: "inv_metric", Message: fmt.Sprintf("%v has an entry outside the allowed range [1e-08, 1e+08]", inv)}
		}
	}
	return inv, nil
}

// momentum draws p ~ N(0, M).
func (m *metric) momentum(r *rand.Rand) Point {
	return Point{m.sd[0] * r.NormFloat64(), m.sd[1] * r.NormFloat64()}
}

// energy is H = −log p̃ + ½pᵀM⁻¹p, +Inf for a NaN.
func (m *metric) energy(lp float64, p Point) float64 {
	h := -lp + 0.5*(m.inv[0]*p[0]*p[0]+m.inv[1]*p[1]*p[1])
	if h != h {
		return math.Inf(1)
	}
	return h
}

// noUTurn is Stan's generalised criterion: the summed momentum rho still
// points forward, in the metric, at both ends: p♯ · rho > 0 with
// p♯ = M⁻¹p, the ends' velocities.
func (m *metric) noUTurn(pMinus, pPlus, rho Point) bool {
	r0, r1 := m.inv[0]*rho[0], m.inv[1]*rho[1]
	return pPlus[0]*r0+pPlus[1]*r1 > 0 && pMinus[0]*r0+pMinus[1]*r1 > 0
}

// windows is Stan's schedule of warm-up for the metric
// (windowed_adaptation.hpp): an initial buffer of 75 transitions adapting
// only ε, slow windows gathering the draws' variances, the first 25 long
// and each next twice the last (the last stretched to the terminal
// buffer when the one after would not fit), and a terminal buffer of 50
// adapting only ε under the final metric. When n is below 150 the three
// are 15%, 75% and 10% of it (one slow window); below 20 there is no
// metric adaptation.
type windows struct {
	n, init, term, base int
}

func newWindows(n int) windows {
	const init, base, term = 75, 25, 50
	switch {
	case n < 20:
		return windows{n: n}
	case init+base+term > n:
		i, t := int(0.15*float64(n)), int(0.1*float64(n))
		return windows{n: n, init: i, term: t, base: n - i - t}
	}
	return windows{n: n, init: init, term: term, base: base}
}

// at reports, for the warm-up transition i (from 0), whether its draw
// joins the current window's estimate and whether a window ends with it,
// the metric then being updated. It walks the windows from the first, a
// handful of steps, so that it holds no state.
func (w windows) at(i int) (gather, end bool) {
	if w.base == 0 || i >= w.n {
		return false, false
	}
	last := w.n - w.term - 1
	size := w.base
	next := w.init + size - 1
	for i > next && next != last {
		size *= 2
		next += size
		if next != last && next+2*size >= w.n-w.term {
			next = last
		}
	}
	return i >= w.init && i <= last, i == next
}

// welford accumulates the draws' means and variances (Welford 1962).
type welford struct {
	n        float64
	mean, m2 Point
}

func (w *welford) add(x Point) {
	w.n++
	for a := range 2 {
		d := x[a] - w.mean[a]
		w.mean[a] += d / w.n
		w.m2[a] += d * (x[a] - w.mean[a])
	}
}

// inv is the window's inverse metric, Stan's regularised sample variance
// (n/(n+5))·var + 1e-3·5/(n+5): shrunk towards 1e-3 when n is small. It
// is not ok with fewer than two draws, or a variance that is not finite.
func (w *welford) inv() (v Point, ok bool) {
	if w.n < 2 {
		return v, false
	}
	for a := range 2 {
		v[a] = w.n/(w.n+5)*w.m2[a]/(w.n-1) + 1e-3*5/(w.n+5)
		if math.IsInf(v[a], 0) || v[a] != v[a] {
			return v, false
		}
	}
	return v, true
}
