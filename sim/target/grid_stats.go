package target

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
)

// MaxDraws bounds a call of Draws.
const MaxDraws = 100_000

// Quantile returns the p-quantile of parameter axis (0 or 1), linear
// within the marginal's bins. A quantile in mass outside Box (only a
// Quadrature target has any: the funnel's x) is reported at Box's edge.
func (g *Grid) Quantile(axis int, p float64) float64 {
	lo, hi := g.Box.XMin, g.Box.XMax
	if axis == 1 {
		lo, hi = g.Box.YMin, g.Box.YMax
	}
	w := (hi - lo) / float64(g.N)
	s := g.outside[axis][0]
	if p <= s {
		return lo
	}
	for i, d := range g.Marginal[axis] {
		m := d * w
		if s+m >= p && m > 0 {
			return lo + w*(float64(i)+(p-s)/m)
		}
		s += m
	}
	return hi
}

// Draws fills dst with independent reference draws: a cell by its mass,
// then a point uniform inside it in the axes' u (mapped to the target's coordinates for
// a Quadrature target). len(dst) is at most MaxDraws.
func (g *Grid) Draws(dst []Point, r *rand.Rand) error {
	if len(dst) > MaxDraws {
		return &sim.FieldError{Field: "draws", Message: fmt.Sprintf("%d is outside the allowed range [0, %d]", len(dst), MaxDraws)}
	}
	n := g.N
	last := g.cum[len(g.cum)-1]
	for k := range dst {
		u := r.Float64() * last
		c, _ := slices.BinarySearch(g.cum, u)
		c = min(c, len(g.cum)-1)
		i, j := c%n, c/n
		p := Point{g.ax[0].point(i, r.Float64()), g.ax[1].point(j, r.Float64())}
		if g.from != nil {
			p = g.from(p)
		}
		dst[k] = p
	}
	return nil
}

// KL returns KL(q‖p) = Σ q_c (log q_c − log p_c) over the cells of Box,
// with q and p each normalised over those cells: the divergence of a
// variational fit given by its log density (up to a constant) from the
// target. On sinh-mapped axes it is the sum over the integration grid
// instead, with q normalised over it and p by log Z: Box's cells do not
// resolve such a target. It is +Inf where q has mass and p none.
func (g *Grid) KL(logq func(Point) float64) float64 {
	if g.lpn != nil {
		return g.klNodes(logq)
	}
	n := g.N
	lq := make([]float64, n*n)
	for j := range n {
		for i := range n {
			lq[j*n+i] = logq(g.Centre(i, j))
		}
	}
	zq, zp := numeric.LogSumExp(lq), numeric.LogSumExp(g.logp)
	var kl float64
	for k, l := range lq {
		l -= zq
		if q := math.Exp(l); q > 0 {
			kl += q * (l - (g.logp[k] - zp))
		}
	}
	return kl
}

// klNodes is KL on the integration grid's nodes: lq holds log q + log w,
// the log of a node's unnormalised mass under q.
func (g *Grid) klNodes(logq func(Point) float64) float64 {
	n := g.N
	xs, wx := g.ax[0].nodes(n)
	ys, wy := g.ax[1].nodes(n)
	lq := make([]float64, n*n)
	for j := range n {
		for i := range n {
			lq[j*n+i] = logq(Point{xs[i], ys[j]}) + math.Log(wx[i]*wy[j])
		}
	}
	zq := numeric.LogSumExp(lq)
	var kl float64
	for j := range n {
		for i := range n {
			k := j*n + i
			if q := math.Exp(lq[k] - zq); q > 0 {
				kl += q * (lq[k] - math.Log(wx[i]*wy[j]) - zq - g.lpn[k])
			}
		}
	}
	return kl
}
