package target

import (
	"math"

	"gonum.org/v1/gonum/integrate/quad"
)

// marginals fills g.Marginal from the cell masses in g.cum: row and column
// sums when the grid is Box's uniform one; for a Quadrature target each
// cell's mass spread evenly over the extent of its image along each axis
// (the hull of its mapped corners), so that bins of Box that do not line
// up with the integration cells still get a smooth share; on sinh-mapped
// axes by quadrature over each bin (see quadMarginals).
func (g *Grid) marginals(it Target) {
	n := g.N
	for a := range 2 {
		g.Marginal[a] = make([]float64, n)
	}
	switch {
	case g.uniform():
		for j := range n {
			for i := range n {
				m := g.cum[j*n+i]
				g.Marginal[0][i] += m
				g.Marginal[1][j] += m
			}
		}
	case g.from != nil:
		g.spread()
	default:
		g.quadMarginals(it)
		return
	}
	for a, w := range [2]float64{g.Box.XMax - g.Box.XMin, g.Box.YMax - g.Box.YMin} {
		for i := range g.Marginal[a] {
			g.Marginal[a][i] *= float64(n) / w // mass per bin → density
		}
	}
}

// Gauss–Legendre panels of the bins' integrals on a sinh-mapped axis: a
// panel spans at most glPanel in u, where the integrand, a density in x
// times dx/du = a·cosh u, changes by at most a factor e^{glPanel} from the
// Jacobian (more only where the density itself has structure on the
// scale of u, which the grid's axes resolve at du ≈ 0.19): 8 points
// integrate e^u over a unit interval to 1e-18.
const (
	glPoints = 8
	glPanel  = 1.0
)

// quadMarginals sets the marginals on sinh-mapped axes: each bin's
// average density, its mass ∫ p_a over the bin by Gauss–Legendre in the
// axis's u, p_a(x) = ∫ p(θ) over the other parameter by the other axis's
// nodes and weights; the masses below and above Box the same way. The
// cells' own masses do not share out into bins: a cell's midpoint mass
// is exact only summed with the others (its error, du²/24 of itself
// where the Jacobian grows like e^u, cancels across cells), and the
// cells range from 10⁻⁵ of a bin to 10⁵. Nor does a density at the bin's
// centre do: the funnel's x marginal has a cusp at 0, where the neck's
// mass piles up, and its centre value misses a share of the bin's mass.
func (g *Grid) quadMarginals(it Target) {
	n := g.N
	var at, w [2][]float64
	for a := range 2 {
		at[a], w[a] = g.ax[a].nodes(n)
	}
	lo := [2]float64{g.Box.XMin, g.Box.YMin}
	hi := [2]float64{g.Box.XMax, g.Box.YMax}
	gx, gw := make([]float64, glPoints), make([]float64, glPoints)
	// The nodes of each axis whose cells hold any mass: p_a(x) sums over
	// these alone (far out on a sinh-mapped axis the masses underflow).
	var m [2][]float64
	for a := range 2 {
		m[a] = make([]float64, n)
	}
	for k, c := range g.cum {
		m[0][k%n] += c
		m[1][k/n] += c
	}
	var live [2][]int
	for a := range 2 {
		for k, c := range m[a] {
			if c > 0 {
				live[a] = append(live[a], k)
			}
		}
	}
	for a := range 2 {
		o, x := 1-a, g.ax[a] // o: the axis integrated over
		// mass is ∫ p_a over [ul, ur] in u.
		mass := func(ul, ur float64) float64 {
			k := max(1, int(math.Ceil((ur-ul)/glPanel)))
			var s float64
			for q := range k {
				quad.Legendre{}.FixedLocations(gx, gw, ul+(ur-ul)*float64(q)/float64(k), ul+(ur-ul)*float64(q+1)/float64(k))
				for l, u := range gx {
					var p Point
					p[a] = x.at(u)
					var d float64
					for _, k := range live[o] {
						p[o] = at[o][k]
						if lp := it.LogDensity(p) - g.LogZ; !math.IsNaN(lp) {
							d += math.Exp(lp) * w[o][k]
						}
					}
					s += d * gw[l] * x.a * math.Cosh(u)
				}
			}
			return s
		}
		h := (hi[a] - lo[a]) / float64(n)
		for i := range n {
			g.Marginal[a][i] = mass(x.u(lo[a]+float64(i)*h), x.u(lo[a]+float64(i+1)*h)) / h
		}
		end := x.u0 + float64(n)*x.du
		g.outside[a] = [2]float64{mass(x.u0, min(x.u(lo[a]), end)), mass(max(x.u(hi[a]), x.u0), end)}
	}
}

// spread adds each integration cell's mass to the marginals as a uniform
// density over its image's extent. Bins wholly inside an extent are
// filled through a difference array of densities, so a cell costs O(1)
// however many bins it covers.
func (g *Grid) spread() {
	n, b := g.N, g.ibox
	hx, hy := (b.XMax-b.XMin)/float64(n), (b.YMax-b.YMin)/float64(n)
	lo := [2]float64{g.Box.XMin, g.Box.YMin}
	w := [2]float64{(g.Box.XMax - g.Box.XMin) / float64(n), (g.Box.YMax - g.Box.YMin) / float64(n)}
	var diff [2][]float64 // density added from bin i on
	for a := range 2 {
		diff[a] = make([]float64, n+1)
	}
	// Two rows of mapped corners: a corner is mapped once, not four times.
	below, above := make([]Point, n+1), make([]Point, n+1)
	corners := func(dst []Point, j int) {
		for i := range dst {
			dst[i] = g.from(Point{b.XMin + float64(i)*hx, b.YMin + float64(j)*hy})
		}
	}
	corners(above, 0)
	for j := range n {
		below, above = above, below
		corners(above, j+1)
		for i := range n {
			m := g.cum[j*n+i]
			if m == 0 {
				continue
			}
			c := [4]Point{below[i], below[i+1], above[i], above[i+1]}
			for a := range 2 {
				l, r := c[0][a], c[0][a]
				for _, p := range c[1:] {
					l, r = min(l, p[a]), max(r, p[a])
				}
				// In bin units.
				l, r = (l-lo[a])/w[a], (r-lo[a])/w[a]
				g.addUniform(a, diff[a], l, r, m)
			}
		}
	}
	for a := range 2 {
		var d float64
		for i := range n {
			d += diff[a][i]
			g.Marginal[a][i] += d
		}
	}
}

// addUniform adds mass m spread evenly over [l, r] (in bin units) to axis
// a: the parts below 0 and above n to the mass outside, the partial bins
// at the ends directly, the whole bins between through diff.
func (g *Grid) addUniform(a int, diff []float64, l, r, m float64) {
	n := float64(g.N)
	if r-l < 1e-12 {
		switch {
		case l < 0:
			g.outside[a][0] += m
		case l >= n:
			g.outside[a][1] += m
		default:
			g.Marginal[a][int(l)] += m
		}
		return
	}
	d := m / (r - l) // mass per bin width
	if l < 0 {
		g.outside[a][0] += d * (min(r, 0) - l)
		l = 0
	}
	if r > n {
		g.outside[a][1] += d * (r - max(l, n))
		r = n
	}
	if l >= r {
		return
	}
	il, ir := int(l), int(r)
	if il == ir || ir == int(n) && il == int(n)-1 {
		g.Marginal[a][min(il, g.N-1)] += d * (r - l)
		return
	}
	// [l, il+1) partial, [il+1, ir) whole, [ir, r) partial.
	g.Marginal[a][il] += d * (float64(il+1) - l)
	diff[il+1] += d
	diff[ir] -= d
	if ir < g.N {
		g.Marginal[a][ir] += d * (r - float64(ir))
	}
}
