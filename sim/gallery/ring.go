package gallery

import (
	"math"

	"github.com/posterior-playground/playground/sim/target"
)

// ring keeps a chain's latest draws: a fixed buffer written in a circle.
type ring struct {
	p    []target.Point
	next int // where the next draw goes
	n    int // draws held, up to len(p)
	// total counts the draws ever pushed, so a reader that took the
	// draws up to some count knows which are new since.
	total int64
}

func newRing(size int) ring { return ring{p: make([]target.Point, size)} }

func (r *ring) push(x target.Point) {
	r.p[r.next] = x
	r.next++
	if r.next == len(r.p) {
		r.next = 0
	}
	if r.n < len(r.p) {
		r.n++
	}
	r.total++
}

// at returns the i-th draw held, oldest first.
func (r *ring) at(i int) target.Point {
	k := r.next - r.n + i
	if k < 0 {
		k += len(r.p)
	}
	return r.p[k]
}

// moments are running moments of points in the plane (Welford's updates,
// which lose nothing to cancellation far from the origin).
type moments struct {
	n  float64
	m  target.Point
	m2 [2][2]float64 // sums of products of deviations
}

func (s *moments) add(x target.Point) {
	s.n++
	d0, d1 := x[0]-s.m[0], x[1]-s.m[1]
	s.m[0] += d0 / s.n
	s.m[1] += d1 / s.n
	e0, e1 := x[0]-s.m[0], x[1]-s.m[1]
	s.m2[0][0] += d0 * e0
	s.m2[0][1] += d0 * e1
	s.m2[1][1] += d1 * e1
}

// get returns the mean and covariance (divisor n − 1), NaN before two
// points.
func (s *moments) get() (target.Point, [2][2]float64) {
	if s.n < 2 {
		nan := math.NaN()
		return target.Point{nan, nan}, [2][2]float64{{nan, nan}, {nan, nan}}
	}
	k := s.n - 1
	c := [2][2]float64{{s.m2[0][0] / k, s.m2[0][1] / k}, {s.m2[0][1] / k, s.m2[1][1] / k}}
	return s.m, c
}

// meanError is ‖(m − m*)/sd*‖, the Euclidean error of the mean in units
// of the exact sds.
func meanError(m target.Point, g *target.Grid) float64 {
	a := (m[0] - g.Mean[0]) / math.Sqrt(g.Cov[0][0])
	b := (m[1] - g.Mean[1]) / math.Sqrt(g.Cov[1][1])
	return math.Hypot(a, b)
}

// covError is ‖C − C*‖_F / ‖C*‖_F.
func covError(c [2][2]float64, g *target.Grid) float64 {
	var num, den float64
	for i := range 2 {
		for j := range 2 {
			d := c[i][j] - g.Cov[i][j]
			num += d * d
			den += g.Cov[i][j] * g.Cov[i][j]
		}
	}
	return math.Sqrt(num / den)
}
