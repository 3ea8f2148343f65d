package target

import "math"

// marginals fills g.Marginal from the cell masses in g.cum: row and column
// sums when the grid is Box's uniform one; for a Quadrature target each
// cell's mass spread evenly over the extent of its image along each axis
// (the hull of its mapped corners), so that bins of Box that do not line
// up with the integration cells still get a smooth share; on sinh-mapped
// axes by quadrature at the bins' centres (see quadMarginals).
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

// quadMarginals sets each bin's marginal density to its value at the
// bin's centre, ∫ p(θ) over the other parameter by the other axis's
// nodes and weights: a cell of a sinh-mapped axis can be far wider than a
// bin (or far narrower), so the cells' masses do not share out into bins
// as a uniform grid's do. The mass outside Box along an axis is that of
// the cells whose centres lie outside it.
func (g *Grid) quadMarginals(it Target) {
	n := g.N
	var at, w [2][]float64
	for a := range 2 {
		at[a], w[a] = g.ax[a].nodes(n)
	}
	lo := [2]float64{g.Box.XMin, g.Box.YMin}
	hi := [2]float64{g.Box.XMax, g.Box.YMax}
	for a := range 2 {
		o := 1 - a // the axis integrated over
		h := (hi[a] - lo[a]) / float64(n)
		for i := range n {
			var p Point
			p[a] = lo[a] + (float64(i)+0.5)*h
			var s float64
			for k := range n {
				p[o] = at[o][k]
				if lp := it.LogDensity(p) - g.LogZ; !math.IsNaN(lp) {
					s += math.Exp(lp) * w[o][k]
				}
			}
			g.Marginal[a][i] = s
		}
		// The axis's masses, cell by cell, to find what lies outside.
		for i := range n {
			var m float64
			for k := range n {
				if a == 0 {
					m += g.cum[k*n+i]
				} else {
					m += g.cum[i*n+k]
				}
			}
			switch x := at[a][i]; {
			case x < lo[a]:
				g.outside[a][0] += m
			case x > hi[a]:
				g.outside[a][1] += m
			}
		}
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
