package family

import (
	"math"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim/target"
)

// SVGD is Stein variational gradient descent (Liu & Wang 2016): n
// particles moved together along
//
//	φ(x) = (1/n) Σⱼ [k(xⱼ, x)∇log p̃(xⱼ) + ∇_{xⱼ}k(xⱼ, x)],
//
// k(x, y) = exp(−‖x − y‖²/h) in the target's coordinates, with the median
// heuristic h = med²/log n, med the median distance between particles
// (the upper median of the n(n−1)/2 pairs), taken afresh each step. The
// first term pulls particles up the density, the second pushes them apart.
//
// The particles step along φ by Adam in the standardised coordinates with
// the second moment pooled over the particles (one per coordinate, the
// mean of φ² over them) and the first moment per particle. Plain Adam
// normalises each particle's own step to about the learning rate whatever
// φ's size there, so a particle the others' kernels no longer reach
// drifts off at that speed for ever; pooled, the field keeps one step
// size and a particle's speed stays in proportion to its φ.
type SVGD struct {
	t      target.Target
	f      frame
	cfg    Config
	pos    []float64  // positions u, n×2 row-major
	grad   []float64  // −φ in u
	m      []float64  // Adam's first moments, per particle
	v      [2]float64 // Adam's second moments, pooled
	steps  int
	prev   []float64      // each particle's last position inside the support
	pg     []target.Point // ∇log p̃ there
	inside []bool         // whether it has one
	th     []target.Point // positions θ
	g      []target.Point // ∇log p̃ at th
	d2     []float64      // squared distances of the pairs, for the median
	next   int            // the particle Draw returns next
	evals  int64
}

// NewSVGD returns cfg.Particles particles for t, drawn from N(cfg.Start,
// (box/8)²) independently per coordinate.
func NewSVGD(t target.Target, cfg Config) (*SVGD, error) {
	c, err := cfg.resolve(defaultLRSVGD)
	if err != nil {
		return nil, err
	}
	f, err := newFrame(t)
	if err != nil {
		return nil, err
	}
	n := c.Particles
	s := &SVGD{
		t: t, f: f, cfg: c,
		pos: make([]float64, 2*n), grad: make([]float64, 2*n), m: make([]float64, 2*n),
		prev: make([]float64, 2*n), pg: make([]target.Point, n), inside: make([]bool, n),
		th: make([]target.Point, n), g: make([]target.Point, n),
		d2: make([]float64, n*(n-1)/2),
	}
	numeric.FillNormal(s.pos, numeric.NewStream(c.Seed, 2))
	st := f.start(c)
	for i := range n {
		s.pos[2*i] += st[0]
		s.pos[2*i+1] += st[1]
	}
	s.evaluate()
	return s, nil
}

// Step moves every particle one Adam step along φ, then evaluates the
// target's gradient where they landed, for the next step. A particle a
// step took outside the target's support (log p̃ or its gradient not
// finite) goes back to where it was, as a sampler rejects a move, and
// loses its momentum; one that has never been inside pulls no one (its
// gradient taken as zero) but still repels.
func (s *SVGD) Step() {
	n := len(s.th)
	m := 0
	for i := range n {
		for j := i + 1; j < n; j++ {
			d0, d1 := s.th[i][0]-s.th[j][0], s.th[i][1]-s.th[j][1]
			s.d2[m] = d0*d0 + d1*d1
			m++
		}
	}
	h := nth(s.d2, len(s.d2)/2) / math.Log(float64(n))
	if !(h > 0) || math.IsInf(h, 0) {
		h = 1 // every particle in one place (or n = 2 at a tie): any width
	}
	clear(s.grad)
	for i := range n {
		for j := i; j < n; j++ {
			d0, d1 := s.th[i][0]-s.th[j][0], s.th[i][1]-s.th[j][1]
			k := math.Exp(-(d0*d0 + d1*d1) / h)
			// j's pull and push on i, and i's on j: ∇_{xⱼ}k(xⱼ, xᵢ) =
			// (2/h)(xᵢ − xⱼ)k.
			r0, r1 := 2/h*d0*k, 2/h*d1*k
			s.grad[2*i] += k*s.g[j][0] + r0
			s.grad[2*i+1] += k*s.g[j][1] + r1
			if j != i {
				s.grad[2*j] += k*s.g[i][0] - r0
				s.grad[2*j+1] += k*s.g[i][1] - r1
			}
		}
	}
	// The loss's gradient in u is −r⊙φ.
	for i := range n {
		s.grad[2*i] *= -s.f.r[0] / float64(n)
		s.grad[2*i+1] *= -s.f.r[1] / float64(n)
	}
	s.adam()
	s.evaluate()
}

// evaluate sets th and g at the particles' positions, sending back any
// particle outside the support to its last position inside.
func (s *SVGD) evaluate() {
	s.positions()
	for j, p := range s.th {
		lp, g := s.t.LogDensityGrad(p)
		switch {
		case !math.IsNaN(lp+g[0]+g[1]) && !math.IsInf(lp+g[0]+g[1], 0):
			s.prev[2*j], s.prev[2*j+1] = s.pos[2*j], s.pos[2*j+1]
			s.pg[j], s.inside[j] = g, true
		case s.inside[j]:
			s.pos[2*j], s.pos[2*j+1] = s.prev[2*j], s.prev[2*j+1]
			s.m[2*j], s.m[2*j+1] = 0, 0
			s.th[j] = s.f.toTheta([2]float64{s.pos[2*j], s.pos[2*j+1]})
			g = s.pg[j]
		default:
			g = target.Point{}
		}
		s.g[j] = g
	}
	s.evals += int64(len(s.th))
}

// adam takes one Adam step (numeric.Adam's update and Keras's constants)
// on the particles with the second moment pooled over them.
func (s *SVGD) adam() {
	a := numeric.DefaultAdam(s.cfg.LR)
	s.steps++
	t := float64(s.steps)
	alpha := a.LR * math.Sqrt(1-math.Pow(a.Beta2, t)) / (1 - math.Pow(a.Beta1, t))
	n := len(s.th)
	var g2 [2]float64
	for i, g := range s.grad {
		g2[i&1] += g * g / float64(n)
	}
	for c := range 2 {
		s.v[c] = a.Beta2*s.v[c] + (1-a.Beta2)*g2[c]
	}
	for i, g := range s.grad {
		s.m[i] = a.Beta1*s.m[i] + (1-a.Beta1)*g
		s.pos[i] -= alpha * s.m[i] / (math.Sqrt(s.v[i&1]) + a.Eps)
	}
}

// positions sets th from the particles' u.
func (s *SVGD) positions() {
	for i := range s.th {
		s.th[i] = s.f.toTheta([2]float64{s.pos[2*i], s.pos[2*i+1]})
	}
}

// nth returns the k-th smallest of a (0-based), reordering a: Hoare's
// selection with the middle element as pivot.
func nth(a []float64, k int) float64 {
	lo, hi := 0, len(a)-1
	for lo < hi {
		p := a[(lo+hi)/2]
		i, j := lo, hi
		for i <= j {
			for a[i] < p {
				i++
			}
			for a[j] > p {
				j--
			}
			if i <= j {
				a[i], a[j] = a[j], a[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return a[k]
		}
	}
	return a[k]
}

// SetLR changes the learning rate from the next step on.
func (s *SVGD) SetLR(lr float64) error {
	if err := checkLR(lr); err != nil {
		return err
	}
	s.cfg.LR = lr
	return nil
}

// Evals returns the target gradient evaluations spent: n at the start,
// n a step.
func (s *SVGD) Evals() int64 { return s.evals }

// Particles appends the particles' current positions to dst.
func (s *SVGD) Particles(dst []target.Point) []target.Point {
	s.positions()
	return append(dst, s.th...)
}

// Moments returns the particles' mean and covariance (divisor n: the
// particles are the approximation, an empirical measure).
func (s *SVGD) Moments() (target.Point, Cov) {
	s.positions()
	return momentsOf(s.th)
}

// Draw fills dst with the particles in turn, continuing where the last
// call stopped.
func (s *SVGD) Draw(dst []target.Point) {
	s.positions()
	for i := range dst {
		dst[i] = s.th[s.next]
		s.next = (s.next + 1) % len(s.th)
	}
}
