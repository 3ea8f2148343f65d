package target

import (
	"fmt"
	"math"

	"github.com/posterior-playground/playground/sim"
)

// MaxDistanceDraws bounds each set of draws EnergyDistance compares: its
// cost grows with the square of their number.
const MaxDistanceDraws = 4000

// EnergyDistance returns the energy distance between the empirical
// distributions of a and b (Székely & Rizzo 2013),
// 2 E‖X − Y‖ − E‖X − X′‖ − E‖Y − Y′‖ with every expectation an average
// over all pairs (the V-statistic, which is never negative and is 0 only
// for equal samples). It is the squared distance of the two
// distributions' characteristic functions under a weight, so it is 0
// exactly when they are equal: a sampler's draws against a grid's
// reference draws. Each set holds 1 to MaxDistanceDraws points.
func EnergyDistance(a, b []Point) (float64, error) {
	for _, s := range []struct {
		name string
		n    int
	}{{"draws", len(a)}, {"reference draws", len(b)}} {
		if s.n < 1 || s.n > MaxDistanceDraws {
			return 0, &sim.FieldError{Field: s.name, Message: fmt.Sprintf("%d is outside the allowed range [1, %d]", s.n, MaxDistanceDraws)}
		}
	}
	xy := meanDist(a, b)
	return 2*xy - selfDist(a) - selfDist(b), nil
}

func meanDist(a, b []Point) float64 {
	var s float64
	for _, p := range a {
		for _, q := range b {
			dx, dy := p[0]-q[0], p[1]-q[1]
			s += math.Sqrt(dx*dx + dy*dy)
		}
	}
	return s / float64(len(a)*len(b))
}

// selfDist is the mean distance over all ordered pairs of a, the diagonal's
// zeros included; each unordered pair is summed once and counted twice.
func selfDist(a []Point) float64 {
	var s float64
	for i, p := range a {
		for _, q := range a[i+1:] {
			dx, dy := p[0]-q[0], p[1]-q[1]
			s += math.Sqrt(dx*dx + dy*dy)
		}
	}
	return 2 * s / float64(len(a)*len(a))
}
