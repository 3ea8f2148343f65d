package datasets

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
)

// Each generator draws in a fixed, documented order so that a seed fixes the
// data: first all inputs (cluster by cluster), then all noise.

// uniform returns n draws from U(a, b).
func uniform(r *rand.Rand, n int, a, b float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = a + (b-a)*r.Float64()
	}
	return out
}

// withNoise returns f(x) + sd·ε for each x, ε standard normal.
func withNoise(r *rand.Rand, x []float64, f func(float64) float64, sd float64) []float64 {
	y := make([]float64, len(x))
	for i, xi := range x {
		y[i] = f(xi) + sd*r.NormFloat64()
	}
	return y
}

// standardised builds a data set whose x and y are both standardised from
// user-unit data and a user-unit truth f.
func standardised(xu, yu []float64, f func(float64) float64) *sim.Dataset {
	x, xs := standardise(xu)
	y, ys := standardise(yu)
	return &sim.Dataset{
		X: x, Y: y, XScale: xs, YScale: ys,
		Truth: func(v float64) float64 { return ys.ToModel(f(xs.ToUser(v))) },
	}
}

// twoClusters draws n points from U(−b, −a), then n from U(a, b). It returns
// them in that order and the midpoint between the clusters' inner edges.
func twoClusters(r *rand.Rand, n int, a, b float64) (x []float64, mid float64) {
	left := uniform(r, n, -b, -a)
	right := uniform(r, n, a, b)
	return append(left, right...), (slices.Max(left) + slices.Min(right)) / 2
}

func cube(x float64) float64 { return x * x * x }

// gap is the GIP notebook's cubic.
func gap(r *rand.Rand) (*sim.Dataset, error) {
	xu, mid := twoClusters(r, 50, 2, 4)
	d := standardised(xu, withNoise(r, xu, cube, 3), cube)
	d.Grid = linspace(-2.5, 2.5, GridPoints)
	d.HasGap, d.GapCentre = true, d.XScale.ToModel(mid)
	return d, nil
}

// sinusoid is the LIVI toy's truth (without its 1e-6 offsets).
func sinusoid(x float64) float64 {
	return x + 0.8*math.Sin(2*math.Pi*x) + 0.8*math.Sin(4*math.Pi*x)
}

// sinusoidGap is the LIVI toy: deterministic inputs, x divided by
// 1.28, y as is.
func sinusoidGap(r *rand.Rand) (*sim.Dataset, error) {
	xu := append(linspace(-1.28, -0.61, 38), linspace(0.61, 1.28, 32)...)
	xs := sim.Affine{Mean: 0, Std: 1.28}
	return &sim.Dataset{
		X:      mapped(xu, sim.Affine{Mean: 0, Std: 1 / 1.28}),
		Y:      withNoise(r, xu, sinusoid, 0.3),
		Truth:  func(v float64) float64 { return sinusoid(xs.ToUser(v)) },
		Grid:   linspace(-1.5, 1.5, GridPoints),
		HasGap: true, GapCentre: 0,
		XScale: xs, YScale: sim.Identity,
	}, nil
}

// linreg is the MCMC blog's regression, in its own units.
func linreg(r *rand.Rand) (*sim.Dataset, error) {
	line := func(x float64) float64 { return -1 + 2*x }
	x := uniform(r, 30, -1, 1)
	return &sim.Dataset{
		X: x, Y: withNoise(r, x, line, 0.5), Truth: line,
		Grid:   linspace(-1.5, 1.5, GridPoints),
		XScale: sim.Identity, YScale: sim.Identity,
	}, nil
}

// linregOffset is linreg with inputs from U(0, 2): their mean 1 against
// their sd 1/√3 gives the posterior of (b0, b) a correlation near −0.87,
// the tilt mean-field VI cannot represent.
func linregOffset(r *rand.Rand) (*sim.Dataset, error) {
	line := func(x float64) float64 { return -1 + 2*x }
	x := uniform(r, 30, 0, 2)
	return &sim.Dataset{
		X: x, Y: withNoise(r, x, line, 0.5), Truth: line,
		Grid:   linspace(-0.5, 2.5, GridPoints),
		XScale: sim.Identity, YScale: sim.Identity,
	}, nil
}

// periodic is the fBNN sine toy; its grid is three times the data's
// half-width each side, so extrapolation shows.
func periodic(r *rand.Rand) (*sim.Dataset, error) {
	f := func(x float64) float64 { return 2 * math.Sin(4*x) }
	xu, mid := twoClusters(r, 10, 0.5, 2)
	d := standardised(xu, withNoise(r, xu, f, 0.2), f)
	lo, hi := span(d.X)
	w := 3 * max(-lo, hi)
	d.Grid = linspace(-w, w, GridPoints)
	d.HasGap, d.GapCentre = true, d.XScale.ToModel(mid)
	return d, nil
}

// GP data (Opper–Archambeau notebook): a sample on a 400-point grid of [−5, 5], observed at
// distinct grid points.
const (
	gpGridPoints = 400
	gpJitter     = 1e-9
)

// eqCholesky returns L = chol(K + jitter·I) for the EQ kernel
// K = variance·exp(−½(x−x')²/ℓ²) on grid.
func eqCholesky(grid []float64, variance, lengthscale float64) (*mat.TriDense, error) {
	n := len(grid)
	k := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			d := (grid[i] - grid[j]) / lengthscale
			k.SetSym(i, j, variance*math.Exp(-0.5*d*d))
		}
		k.SetSym(i, i, k.At(i, i)+gpJitter)
	}
	var ch mat.Cholesky
	if !ch.Factorize(k) {
		return nil, fmt.Errorf("EQ kernel on %d points is not positive definite with jitter %g", n, gpJitter)
	}
	var l mat.TriDense
	ch.LTo(&l)
	return &l, nil
}

// gpObserved draws the GP sample, then n distinct grid indices (sorted, so
// X increases); it returns the grid, the sample and the chosen indices.
func gpObserved(r *rand.Rand, variance float64, n int) (grid, z []float64, idx []int, err error) {
	grid = linspace(-5, 5, gpGridPoints)
	l, err := eqCholesky(grid, variance, 1)
	if err != nil {
		return nil, nil, nil, err
	}
	z = make([]float64, gpGridPoints)
	numeric.SampleMVN(z, make([]float64, gpGridPoints), l, r) // L·ε
	idx = r.Perm(gpGridPoints)[:n]
	slices.Sort(idx)
	return grid, z, idx, nil
}

func gpCauchy(r *rand.Rand) (*sim.Dataset, error) {
	grid, z, idx, err := gpObserved(r, 1, 20)
	if err != nil {
		return nil, err
	}
	scale := math.Exp(-2)
	x, y := make([]float64, len(idx)), make([]float64, len(idx))
	for i, j := range idx {
		u := r.Float64()
		for u == 0 { // tan(−π/2): keep draws finite
			u = r.Float64()
		}
		x[i], y[i] = grid[j], z[j]+scale*math.Tan(math.Pi*(u-0.5))
	}
	return &sim.Dataset{
		X: x, Y: y, Truth: interpolator(grid, z),
		Grid:   linspace(-5, 5, GridPoints),
		XScale: sim.Identity, YScale: sim.Identity,
	}, nil
}

func gpClassification(r *rand.Rand) (*sim.Dataset, error) {
	grid, z, idx, err := gpObserved(r, math.E*math.E, 50)
	if err != nil {
		return nil, err
	}
	p := make([]float64, len(z))
	for i, zi := range z {
		p[i] = numeric.Sigmoid(zi)
	}
	x, y := make([]float64, len(idx)), make([]float64, len(idx))
	for i, j := range idx {
		x[i] = grid[j]
		if r.Float64() < p[j] {
			y[i] = 1
		}
	}
	return &sim.Dataset{
		X: x, Y: y, Truth: interpolator(grid, p),
		Grid:   linspace(-5, 5, GridPoints),
		XScale: sim.Identity, YScale: sim.Identity,
	}, nil
}
