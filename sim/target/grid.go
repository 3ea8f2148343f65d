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
	LogZ   float64 // log ∫ p̃
	// LogZErr estimates LogZ's quadrature error: half the gap between the
	// midpoint rule and the trapezoid rule on the cells' corners, whose
	// leading errors are equal and opposite (zero for a Quadrature
	// target, whose base is a Gaussian).
	LogZErr float64
	Mean    Point         // E θ
	Cov     [2][2]float64 // Cov θ
	// Marginal[a][i] is the density of parameter a at the centre of the
	// i-th of N equal bins across the box along a.
	Marginal [2][]float64

	ax      [2]axis           // the integration grid's axes
	ibox    Box               // the box integrated over: Box, or the Quadrature base's
	from    func(Point) Point // maps integration to target coordinates; nil: the same
	cum     []float64         // cumulative cell mass over the integration grid, row-major
	logp    []float64         // log p̃ − log Z at the cell centres of Box, row-major
	lpn     []float64         // log p̃ − log Z at a sinh-mapped grid's nodes, for KL
	outside [2][2]float64     // mass below and above Box along each axis
}

// resolvedGap is the largest gap between the midpoint and the trapezoid
// rules' log Z on Box's uniform grid that counts as resolved. On a
// density the cells resolve the gap is ~4·exp(−2π²σ²/h²) for a feature
// of sd σ (below e^{−20} on every built-in target, h/σ ≤ 0.9); where a
// feature falls between nodes (the typed funnel's neck, x's sd e^{−5} at
// v = −10 on cells 0.125 wide) the two rules see different masses and
// the gap is of the order of that feature's share. Past 10⁻⁶ the grid
// is remade on sinh-mapped axes.
const resolvedGap = 1e-6

// NewGrid computes t's exact answer on an n × n grid, n in [MinGridSize,
// MaxGridSize]. A target that implements Quadrature is integrated on a
// uniform grid in its base's coordinates. Any other is integrated on a
// uniform grid over its box if that resolves it (see resolvedGap), and
// otherwise on sinh-mapped axes about its box's centre, which reach 10⁵
// box widths out and resolve 10⁻⁵ of one at the centre (see sinhDepth),
// if their own gap is the smaller (a jump at a support's edge is
// resolved by neither, and LogZErr then says how far off log Z is): its
// mass outside the box is counted in the moments and log Z, and its
// quantiles there are reported at the box's edge. A density that is not
// finite and positive somewhere on the grid, or whose mass is zero, or
// that is NaN or +Inf inside the box, is an error.
func NewGrid(t Target, n int) (*Grid, error) {
	if n < MinGridSize || n > MaxGridSize {
		return nil, &sim.FieldError{Field: "grid", Message: fmt.Sprintf("%d is outside the allowed range [%d, %d]", n, MinGridSize, MaxGridSize)}
	}
	b := t.Box()
	g := &Grid{N: n, Box: b, Params: t.Params(), ibox: b}
	it := t
	if q, ok := t.(Quadrature); ok {
		it = q.Base()
		g.ibox = it.Box()
		g.from = q.FromBase
	}
	g.ax = [2]axis{uniformAxis(g.ibox.XMin, g.ibox.XMax, n), uniformAxis(g.ibox.YMin, g.ibox.YMax, n)}
	if err := g.integrate(it); err != nil {
		return nil, fmt.Errorf("target %s: %w", t.Name(), err)
	}
	if g.from == nil {
		g.LogZErr = g.gap(it) / 2
		if !(g.LogZErr <= resolvedGap/2) {
			s := &Grid{N: n, Box: b, Params: g.Params, ibox: b,
				ax: [2]axis{sinhAxis(b.XMin, b.XMax, n), sinhAxis(b.YMin, b.YMax, n)}}
			if err := s.integrate(it); err == nil {
				if s.LogZErr = s.gap(it) / 2; s.LogZErr < g.LogZErr || math.IsNaN(g.LogZErr) {
					g = s
				}
			}
		}
	}
	g.marginals(it)
	g.running()
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

// uniform reports whether the integration grid is Box's uniform one.
func (g *Grid) uniform() bool { return g.from == nil && g.ax[0].a == 0 && g.ax[1].a == 0 }

// inBox reports whether p, in target coordinates, is in the closed Box.
func (g *Grid) inBox(p Point) bool {
	b := g.Box
	return p[0] >= b.XMin && p[0] <= b.XMax && p[1] >= b.YMin && p[1] <= b.YMax
}

// integrate evaluates it on the integration grid: log Z, the cell masses
// (in g.cum) and the moments. Outside Box (a sinh-mapped grid's far
// reaches) a NaN or +Inf, which overflow there gives (exp of a large
// argument as a scale), counts as no mass.
func (g *Grid) integrate(it Target) error {
	n := g.N
	xs, wx := g.ax[0].nodes(n)
	ys, wy := g.ax[1].nodes(n)
	g.cum = make([]float64, n*n)
	top, k0 := math.Inf(-1), 0 // the largest log density and its cell
	for j := range n {
		for i := range n {
			p := Point{xs[i], ys[j]}
			lp := it.LogDensity(p)
			if math.IsNaN(lp) || math.IsInf(lp, 1) {
				if g.from != nil || g.inBox(p) {
					return fmt.Errorf("log density %g at %v", lp, p)
				}
				lp = math.Inf(-1)
			}
			g.cum[j*n+i] = lp
			if lp > top {
				top, k0 = lp, j*n+i
			}
		}
	}
	if math.IsInf(top, -1) {
		return fmt.Errorf("no mass on the grid over %+v", g.ibox)
	}
	// Masses relative to the largest density, then normalised.
	var total float64
	if g.uniform() {
		// The log densities at Box's cells, kept for Density and KL.
		g.logp = slices.Clone(g.cum)
	} else if g.from == nil {
		g.lpn = slices.Clone(g.cum) // the nodes' log densities, for KL
	}
	for j := range n {
		for i := range n {
			k := j*n + i
			m := math.Exp(g.cum[k]-top) * wx[i] * wy[j]
			g.cum[k] = m
			total += m
		}
	}
	g.LogZ = top + math.Log(total)
	for k := range g.logp {
		g.logp[k] -= g.LogZ
	}
	for k := range g.lpn {
		g.lpn[k] -= g.LogZ
	}
	for k := range g.cum {
		g.cum[k] /= total
	}
	// The moments in one pass about the densest cell's centre, near
	// enough to the mean that the shifted sums lose nothing to
	// cancellation.
	s0 := Point{xs[k0%n], ys[k0/n]}
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
	return nil
}

// running turns the cell masses into their running sum, for drawing by
// mass.
func (g *Grid) running() {
	var s float64
	for k, m := range g.cum {
		s += m
		g.cum[k] = s
	}
}

// gap is |log Z by the trapezoid rule on the integration cells' corners −
// LogZ|: +Inf where a corner's density is +Inf. A NaN corner counts as no
// mass (the corners include the box's edges, where a support may end).
func (g *Grid) gap(it Target) float64 {
	n := g.N
	xs, wx := g.ax[0].corners(n)
	ys, wy := g.ax[1].corners(n)
	top := g.LogZ // scales the sum; any value near log Z will do
	var total float64
	for j := range n + 1 {
		for i := range n + 1 {
			lp := it.LogDensity(Point{xs[i], ys[j]})
			if math.IsInf(lp, 1) {
				return math.Inf(1)
			}
			if !math.IsNaN(lp) {
				total += math.Exp(lp-top) * wx[i] * wy[j]
			}
		}
	}
	return math.Abs(math.Log(total))
}

// eachCell calls f with each cell's centre in target coordinates and its
// mass (g.cum holds the masses).
func (g *Grid) eachCell(f func(p Point, m float64)) {
	n := g.N
	xs, _ := g.ax[0].nodes(n)
	ys, _ := g.ax[1].nodes(n)
	for j := range n {
		for i := range n {
			p := Point{xs[i], ys[j]}
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

// Bytes is the grid's memory in its fields: what a cache of grids
// bounds. A grid on sinh-mapped axes holds a third n² field.
func (g *Grid) Bytes() int64 {
	return 8 * int64(len(g.cum)+len(g.logp)+len(g.lpn)+len(g.Marginal[0])+len(g.Marginal[1]))
}

// Centre returns the centre of cell (i, j) of Box, i along the first
// parameter.
func (g *Grid) Centre(i, j int) Point { return centre(g.Box, g.N, i, j) }
