package mcmc

import (
	"math"
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
)

// NUTS and HMC, two independent samplers of one density, agree on a small
// network of another activation: 1 → 3 → 1 tanh (10 weights and log σ) on
// the periodic data (20 points). f at the mid-point and the noise σ are
// identified (hidden units can be permuted, so single weights are not);
// their posterior means and sds from each sampler must agree within 4
// combined Monte Carlo standard errors, √(se₁² + se₂²), with each se from
// the split chains' ESS (mcMean; the sd's by the delta method as in
// checkMoments). Four standard errors fail a correct pair about 6 times in
// 100,000 per comparison.
func TestSamplersAgreeOnSmallNetwork(t *testing.T) {
	if testing.Short() {
		t.Skip("two samplers, 2,500 transitions of 4 chains each")
	}
	d := loadData(t, "periodic")
	net := sim.Controls{"arch": sim.Choice("3"), "activation": sim.Choice("tanh"), "chains": sim.Num(4), "warmup": sim.Num(500)}
	draws := func(k kind, extra sim.Controls, seed uint64) map[string][][]float64 {
		m := newSampler(t, k, "bnn")
		c := sim.Controls{}
		for k, v := range net {
			c[k] = v
		}
		for k, v := range extra {
			c[k] = v
		}
		run(t, m, d, c, seed, 2500)
		out := map[string][][]float64{}
		for _, p := range []string{"f_mid", "noise"} {
			out[p] = m.Draws(p)
			if rh := numeric.RHat(out[p]); rh > 1.01 {
				t.Errorf("%s: R-hat of %s is %.4f, want < 1.01", k.name(), p, rh)
			}
		}
		return out
	}
	nuts := draws(kindNUTS, nil, 1)
	hmc := draws(kindHMC, sim.Controls{"leapfrog_steps": sim.Num(20)}, 2)
	for _, p := range []string{"f_mid", "noise"} {
		a, b := mcMean(nuts[p]), mcMean(hmc[p])
		se := math.Hypot(a.se, b.se)
		t.Logf("%s: NUTS %.5f ± %.5f (ess %.0f), HMC %.5f ± %.5f (ess %.0f)", p, a.est, a.se, a.ess, b.est, b.se, b.ess)
		if math.Abs(a.est-b.est) > 4*se {
			t.Errorf("%s: NUTS mean %.5f and HMC mean %.5f differ by more than 4 combined MCSE (%.5f)", p, a.est, b.est, se)
		}
		sa, sb := sdStat(nuts[p], a.est), sdStat(hmc[p], b.est)
		sse := math.Hypot(sa.se, sb.se)
		t.Logf("%s sd: NUTS %.5f ± %.5f, HMC %.5f ± %.5f", p, sa.est, sa.se, sb.est, sb.se)
		if math.Abs(sa.est-sb.est) > 4*sse {
			t.Errorf("%s: NUTS sd %.5f and HMC sd %.5f differ by more than 4 combined MCSE (%.5f)", p, sa.est, sb.est, sse)
		}
	}
}

// sdStat is the sd of the draws about mean with its delta-method MCSE.
func sdStat(chains [][]float64, mean float64) mcStat {
	v := mcMean(mapChains(chains, func(x float64) float64 { return (x - mean) * (x - mean) }))
	sd := math.Sqrt(v.est)
	return mcStat{sd, v.se / (2 * sd), v.ess}
}
