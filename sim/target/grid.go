package target

import (
	"fmt"
	"math"
	"slices"

	"github.com/posterior-playground/playground/sim"
)

// Bounds of the exact answer.
const (
	MinGridSize = 256  // cells per axis: the accuracy the tests argue for
	MaxGridSize = 1024 // cells per axis: a 1024² grid is 8 MB per field
)

// Grid is a target's exact answer by quadrature on an n × n grid. It is
// immutable once built and safe for concurrent use.
type Grid struct {
	N      int
	Box    Box // the target's box: where the marginals and densities live
	Params [2]string
	LogZ   float64       // log ∫ p̃
	Mean   Point         // E θ
	Cov    [2][2]float64 // Cov θ
	// Marginal[a][i] is the density of parameter a at the centre of the
	// i-th of N equal bins across the box along a.
	Marginal [2][]float64

	ibox    Box               // the box integrated over: Box, or the Quadrature base's
	from    func(Point) Point // maps integration to target coordinates; nil: the same
	cum     []float64         // cumulative cell mass over ibox, row-major
	logp    []float64         // log p̃ − log Z at the cell centres of Box, row-major
	outside [2][2]float64     // mass below and above Box along each axis
}

// NewGrid computes t's exact answer on an n × n grid, n in [MinGridSize,
// MaxGridSize]. A target that implements Quadrature is integrated in its
// base's coordinates. A density that is not finite and positive somewhere
// on the grid, or whose mass is zero, is an error.
func NewGrid(t Target, n int) (*Grid, error) {
	if n < MinGridSize || n > MaxGridSize {
		return nil, &sim.FieldError{Field: "grid", Message: fmt.Sprintf("%d is outside the allowed range [%d, %d]", n, MinGridSize, MaxGridSize)}
	}
	g := &Grid{N: n, Box: t.Box(), Params: t.Params(), ibox: t.Box()}
	it := t
	if q, ok := t.(Quadrature); ok {
		it = q.Base()
		g.ibox = it.Box()
		g.from = q.FromBase
	}
	if err := g.integrate(it); err != nil {
		return nil, fmt.Errorf("target %s: %w", t.Name(), err)
	}
	if g.logp == nil {
		g.densities(t)
	}
	return g, nil
}

// centre returns the centre of cell (i, j) of b.
func centre(b Box, n, i, j int) Point {
	hx, hy := (b.XMax-b.XMin)/float64(n), (b.YMax-b.YMin)/float64(n)
	return Point{b.XMin + (float64(i)+0.5)*hx, b.YMin + (float64(j)+0.5)*hy}
}

// integrate evaluates it over ibox: log Z, the cell masses, the moments
// and the marginals.
func (g *Grid) integrate(it Target) error {
	n, b := g.N, g.ibox
	hx, hy := (b.XMax-b.XMin)/float64(n), (b.YMax-b.YMin)/float64(n)
	g.cum = make([]float64, n*n)
	top, k0 := math.Inf(-1), 0 // the largest log density and its cell
	for j := range n {
		for i := range n {
			lp := it.LogDensity(centre(b, n, i, j))
			if math.IsNaN(lp) || math.IsInf(lp, 1) {
				return fmt.Errorf("log density %g at %v", lp, centre(b, n, i, j))
			}
			g.cum[j*n+i] = lp
			if lp > top {
				top, k0 = lp, j*n+i
			}
		}
	}
	if math.IsInf(top, -1) {
		return fmt.Errorf("no mass on the grid over %+v", b)
	}
	// Masses relative to the largest cell, then normalised; moments by
	// two passes (mean first), which keeps the covariance of a target far
	// from the origin accurate.
	var total float64
	if g.from == nil {
		// The log densities at Box's cells, kept for Density and KL.
		g.logp = slices.Clone(g.cum)
	}
	for k, lp := range g.cum {
		m := math.Exp(lp - top)
		g.cum[k] = m
		total += m
	}
	g.LogZ = top + math.Log(total*hx*hy)
	for k := range g.logp {
		g.logp[k] -= g.LogZ
	}
	for k := range g.cum {
		g.cum[k] /= total
	}
	// The moments in one pass about the densest cell's centre, near
	// enough to the mean that the shifted sums lose nothing to
	// cancellation.
	s0 := centre(b, n, k0%n, k0/n)
	if g.from != nil {
		s0 = g.from(s0)
	}
	var m Point
	var c [2][2]float64
	g.eachCell(func(p Point, w float64) {
		dx, dy := p[0]-s0[0], p[1]-s0[1]
		m[0] += w * dx
		m[1] += w * dy
		c[0][0] += w * dx * dx
		c[0][1] += w * dx * dy
		c[1][1] += w * dy * dy
	})
	c[0][0] -= m[0] * m[0]
	c[0][1] -= m[0] * m[1]
	c[1][1] -= m[1] * m[1]
	c[1][0] = c[0][1]
	g.Mean, g.Cov = Point{s0[0] + m[0], s0[1] + m[1]}, c
	g.marginals()
	// The running sum, for drawing by mass.
	var s float64
	for k, m := range g.cum {
		s += m
		g.cum[k] = s
	}
	return nil
}

// eachCell calls f with each cell's centre in target coordinates and its
// mass (g.cum holds the masses).
func (g *Grid) eachCell(f func(p Point, m float64)) {
	n := g.N
	for j := range n {
		for i := range n {
			p := centre(g.ibox, n, i, j)
			if g.from != nil {
				p = g.from(p)
			}
			f(p, g.cum[j*n+i])
		}
	}
}

// densities evaluates log p̃ − log Z at the cell centres of Box, for the
// contours and KL.
func (g *Grid) densities(t Target) {
	n := g.N
	g.logp = make([]float64, n*n)
	for j := range n {
		for i := range n {
			g.logp[j*n+i] = t.LogDensity(centre(g.Box, n, i, j)) - g.LogZ
		}
	}
}

// Density appends p(θ), normalised, at the centres of the N × N cells of
// Box to dst[:0], row by row from YMin, each row from XMin: the field a
// page draws contours of.
func (g *Grid) Density(dst []float64) []float64 {
	dst = dst[:0]
	for _, l := range g.logp {
		dst = append(dst, math.Exp(l))
	}
	return dst
}

// Centre returns the centre of cell (i, j) of Box, i along the first
// parameter.
func (g *Grid) Centre(i, j int) Point { return centre(g.Box, g.N, i, j) }
