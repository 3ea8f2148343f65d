package target

import "math"

// axis is one axis of the integration grid: n cells uniform in a
// coordinate u, mapped to the target's by x = u (a uniform axis) or by
// x = c + a·sinh(u). The sinh map has cells of width a·du about c and of
// relative width du far from it, so one grid resolves a feature of width
// a at c and one of width 1000a a thousand widths away; each cell's
// quadrature weight is dx/du at its centre times du, the midpoint rule in
// u.
type axis struct {
	u0, du float64 // u at the first cell's lower edge; cell width in u
	c, a   float64 // x = c + a·sinh(u); a == 0: x = u
}

// uniformAxis is n equal cells over [lo, hi].
func uniformAxis(lo, hi float64, n int) axis {
	return axis{u0: lo, du: (hi - lo) / float64(n)}
}

// Sinh-mapped axes. An axis of half-width w about its centre c gets
// a = w·2^−sinhDepth, resolving features 2^17 ≈ 10⁵ times narrower than
// the box, and reaches c ± w·2^sinhDepth, holding tails 10⁵ times wider:
// the centred funnel, typed, has sd x = e^{v/2} from e^{−9} at the bottom
// of its box to e^{12} at v = 24, where E x² = E eᵛ takes its mass, a
// ratio of e^{21} ≈ 10⁹ inside these bounds (16·2^−17 = 1.2·10⁻⁴ to
// 16·2^17 = 2.1·10⁶). Such an axis spans u ∈ ±asinh(2^{2·sinhDepth}) ≈
// ±24.3, so du = 0.19 at n = 256: a density whose log scale varies
// smoothly is resolved, its midpoint error of order exp(−π²/(2du)) ≈
// e^{−26} (a Gaussian in x is analytic in u within |Im u| < π/4).
const sinhDepth = 17

// sinhAxis is n cells of a sinh-mapped axis about the middle of [lo, hi].
func sinhAxis(lo, hi float64, n int) axis {
	w := (hi - lo) / 2
	a := math.Ldexp(w, -sinhDepth)
	u := math.Asinh(math.Ldexp(1, 2*sinhDepth))
	return axis{u0: -u, du: 2 * u / float64(n), c: lo + w, a: a}
}

// at maps u to the target's coordinate.
func (x axis) at(u float64) float64 {
	if x.a == 0 {
		return u
	}
	return x.c + x.a*math.Sinh(u)
}

// u maps a sinh-mapped axis's coordinate back to u.
func (x axis) u(v float64) float64 { return math.Asinh((v - x.c) / x.a) }

// node is the centre of cell i, its weight the cell's quadrature weight.
func (x axis) node(i int) float64 { return x.at(x.u0 + (float64(i)+0.5)*x.du) }

func (x axis) weight(i int) float64 {
	if x.a == 0 {
		return x.du
	}
	return x.a * math.Cosh(x.u0+(float64(i)+0.5)*x.du) * x.du
}

// point is the point a fraction f ∈ [0, 1) of the way across cell i in u.
func (x axis) point(i int, f float64) float64 { return x.at(x.u0 + (float64(i)+f)*x.du) }

// nodes returns the n nodes and weights of x.
func (x axis) nodes(n int) (at, w []float64) {
	at, w = make([]float64, n), make([]float64, n)
	for i := range n {
		at[i], w[i] = x.node(i), x.weight(i)
	}
	return at, w
}

// corners returns the n + 1 edges of x with the trapezoid rule's weights
// in u: half a cell's at the ends.
func (x axis) corners(n int) (at, w []float64) {
	at, w = make([]float64, n+1), make([]float64, n+1)
	for k := range n + 1 {
		u := x.u0 + float64(k)*x.du
		at[k], w[k] = x.at(u), x.du
		if x.a != 0 {
			w[k] *= x.a * math.Cosh(u)
		}
		if k == 0 || k == n {
			w[k] /= 2
		}
	}
	return at, w
}
