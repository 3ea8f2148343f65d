package sampler

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim/target"
)

// Tolerances. Each check compares a statistic of the draws with its exact
// value from the grid within z Monte Carlo standard errors, the error
// being sd/√ESS with ESS from numeric.ESS on the split chains of the
// statistic's own series (the draws for a mean, (θ − μ)² for a variance,
// the indicator θ ≤ q for a quantile's probability): the Monte Carlo
// error of an average of a stationary, geometrically ergodic chain (the
// Markov chain central limit theorem). z = 4.5 makes each check's false
// alarm 7e-6 for a normal error, and the ~20 checks of a sampler on a
// target together under 1.5e-4; the grid's own error (1e-4 of a sd,
// target's tests) is far below any of these standard errors. The seeds
// are fixed, so a run is reproducible; the margin is what keeps a change
// of seed from failing.
const zTol = 4.5

// run draws n transitions after warm transitions from each of chains
// chains of the sampler mk builds, started at reference draws of the
// target's grid, and returns the draws per chain and parameter.
func run(t *testing.T, g *target.Grid, chains, warm, n int, mk func(r *rand.Rand, start Point) Sampler) [2][][]float64 {
	t.Helper()
	starts := make([]Point, chains)
	if err := g.Draws(starts, numeric.NewStream(99, 0)); err != nil {
		t.Fatal(err)
	}
	var out [2][][]float64
	for c := range chains {
		s := mk(numeric.NewStream(7, uint64(c+1)), starts[c])
		for range warm {
			s.Step(nil)
		}
		var d [2][]float64
		for range n {
			s.Step(nil)
			p := s.Position()
			d[0] = append(d[0], p[0])
			d[1] = append(d[1], p[1])
		}
		out[0] = append(out[0], d[0])
		out[1] = append(out[1], d[1])
	}
	return out
}

// mcStat returns the mean of f over all draws and its Monte Carlo
// standard error.
func mcStat(chains [][]float64, f func(float64) float64) (mean, se float64) {
	fs := make([][]float64, len(chains))
	var s, ss, n float64
	for i, c := range chains {
		fs[i] = make([]float64, len(c))
		for j, x := range c {
			v := f(x)
			fs[i][j] = v
			s += v
			n++
		}
	}
	mean = s / n
	for _, c := range fs {
		for _, v := range c {
			ss += (v - mean) * (v - mean)
		}
	}
	ess := numeric.ESS(numeric.SplitChains(fs))
	return mean, math.Sqrt(ss/(n-1)) / math.Sqrt(ess)
}

// checkAgainstGrid compares the draws' means, variances and the mass
// below five of each marginal's quantiles with the grid's.
func checkAgainstGrid(t *testing.T, name string, g *target.Grid, draws [2][][]float64) {
	t.Helper()
	for a := range 2 {
		mu := g.Mean[a]
		m, se := mcStat(draws[a], func(x float64) float64 { return x })
		within(t, name+" "+g.Params[a]+" mean", m, mu, se)
		v, se := mcStat(draws[a], func(x float64) float64 { return (x - mu) * (x - mu) })
		within(t, name+" "+g.Params[a]+" variance", v, g.Cov[a][a], se)
		for _, p := range []float64{0.05, 0.25, 0.5, 0.75, 0.95} {
			q := g.Quantile(a, p)
			f, se := mcStat(draws[a], func(x float64) float64 {
				if x <= q {
					return 1
				}
				return 0
			})
			within(t, name+" "+g.Params[a]+" P(≤ exact quantile)", f, p, se)
		}
	}
}

func within(t *testing.T, what string, got, want, se float64) {
	t.Helper()
	if math.IsNaN(got) || math.Abs(got-want) > zTol*se {
		t.Errorf("%s = %.5g, exact %.5g, off by %.1f Monte Carlo s.e. (%.3g)", what, got, want, math.Abs(got-want)/se, se)
	}
}

func mustGrid(t *testing.T, tg target.Target) *target.Grid {
	t.Helper()
	g, err := target.NewGrid(tg, 256)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func gaussian(t testing.TB, rho float64) *target.Gaussian {
	g, err := target.NewGaussian(target.GaussianConfig{Rho: rho})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func banana(t testing.TB) *target.Banana {
	b, err := target.NewBanana(target.BananaConfig{})
	if err != nil {
		t.Fatal(err)
	}
	return b
}
