package mcmc

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/datasets"
)

// newSampler returns an uninitialised sampler of kind k on model.
func newSampler(t testing.TB, k kind, modelName string) *Method {
	t.Helper()
	m, err := newMethod(k, modelName)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func loadData(t testing.TB, name string) *sim.Dataset {
	t.Helper()
	d, err := datasets.Load(name, 1)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// run initialises m on d with controls c (defaults otherwise), seed, and
// takes steps transitions.
func run(t testing.TB, m *Method, d *sim.Dataset, c sim.Controls, seed uint64, steps int) {
	t.Helper()
	if _, err := sim.Init(m, d, c, numeric.NewRand(seed)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	for range steps {
		m.Step()
	}
}

// exactMoments are ExactLinear's moments in Params' order.
type exactMoments struct{ mean, sd [3]float64 } // b0, b, sigma

func exactLinear(x, y []float64) exactMoments {
	m, ok := ExactLinear(x, y)
	if !ok {
		panic("exactLinear: no closed form on these data")
	}
	var e exactMoments
	for i, p := range []string{"b0", "b", "sigma"} {
		e.mean[i], e.sd[i] = m[p].Mean, m[p].SD
	}
	return e
}

// mcStat is a Monte Carlo estimate of E g with its standard error
// sd(g)/√ESS, ESS from the split chains of g (ArviZ's ess "mean" method).
type mcStat struct{ est, se, ess float64 }

func mcMean(chains [][]float64) mcStat {
	var all []float64
	for _, c := range chains {
		all = append(all, c...)
	}
	mean, sd := numeric.MeanStd(all)
	ess := numeric.ESS(numeric.SplitChains(chains))
	return mcStat{mean, sd / math.Sqrt(ess), ess}
}

// mapChains applies f to every draw.
func mapChains(chains [][]float64, f func(float64) float64) [][]float64 {
	out := make([][]float64, len(chains))
	for k, c := range chains {
		out[k] = make([]float64, len(c))
		for i, v := range c {
			out[k][i] = f(v)
		}
	}
	return out
}

// checkMoments compares the mean and sd of draws with the exact values
// within 4 Monte Carlo standard errors. The sd is √(mean of (θ − μ)²) with
// the exact μ; by the delta method its MCSE is MCSE(var)/(2 sd), where
// MCSE(var) = sd((θ−μ)²)/√ESS((θ−μ)²).
func checkMoments(t *testing.T, label string, chains [][]float64, mean, sd float64) {
	t.Helper()
	m := mcMean(chains)
	v := mcMean(mapChains(chains, func(x float64) float64 { return (x - mean) * (x - mean) }))
	sdHat := math.Sqrt(v.est)
	sdSE := v.se / (2 * sdHat)
	t.Logf("%s: mean %.5f (exact %.5f, mcse %.5f, ess %.0f); sd %.5f (exact %.5f, mcse %.5f, ess %.0f)",
		label, m.est, mean, m.se, m.ess, sdHat, sd, sdSE, v.ess)
	if math.Abs(m.est-mean) > 4*m.se {
		t.Errorf("%s: mean %.5f differs from exact %.5f by more than 4 MCSE (%.5f)", label, m.est, mean, m.se)
	}
	if math.Abs(sdHat-sd) > 4*sdSE {
		t.Errorf("%s: sd %.5f differs from exact %.5f by more than 4 MCSE (%.5f)", label, sdHat, sd, sdSE)
	}
}

func newTestRand() *rand.Rand { return numeric.NewRand(1) }
