package gallery

import (
	"context"
	"math"
	"testing"

	"github.com/posterior-playground/playground/sim"
)

// The per-coordinate measures the scenarios check: a sampler's sd is its
// moments' (MeanError's), its quantiles those of its kept draws, within
// Monte Carlo error of the exact ones, and its ESS per evaluation is the
// bulk ESS over the evaluations while every draw is kept, scaled by the
// share kept once the rings have dropped some.
func TestMeasureQuantilesAndESSPerEval(t *testing.T) {
	for _, tc := range []struct {
		steps, maxDraws int
	}{{2000, 0}, {2000, 4000}} {
		cfg := gaussian("nuts", 5)
		cfg.MethodControls = sim.Controls{"warmup": sim.Num(200)}
		cfg.MaxDraws = tc.maxDraws
		r := newRun(t, cfg)
		if err := r.Step(context.Background(), tc.steps); err != nil {
			t.Fatal(err)
		}
		m := r.Measure()
		_, cov := r.moments()
		g := r.ex.Shown
		for a := range 2 {
			if float64(m.SD[a]) != math.Sqrt(cov[a][a]) {
				t.Errorf("sd %d: %v, moments' %v", a, m.SD[a], math.Sqrt(cov[a][a]))
			}
			// The 5% quantile of a unit normal from n effective draws has
			// sd √(0.05·0.95/n)/φ(1.645) ≈ 2.1/√n; n ≥ the bulk ESS.
			tol := 4 * 2.1 / math.Sqrt(float64(m.ESSBulk))
			for _, q := range []struct {
				got  Float
				want float64
			}{{m.Q05[a], g.Quantile(a, 0.05)}, {m.Q95[a], g.Quantile(a, 0.95)}} {
				if math.Abs(float64(q.got)-q.want) > tol {
					t.Errorf("max draws %d, coordinate %d: quantile %.3f, exact %.3f (tolerance %.3f)", tc.maxDraws, a, q.got, q.want, tol)
				}
			}
		}
		kept := 0
		for c := range r.rings {
			kept += r.rings[c].n
		}
		want := float64(m.ESSBulk) * float64(r.trans) / float64(kept) / float64(m.Evals)
		if tc.maxDraws == 0 && kept != int(r.trans) || tc.maxDraws > 0 && kept != tc.maxDraws {
			t.Errorf("max draws %d: %d kept of %d", tc.maxDraws, kept, r.trans)
		}
		if math.Abs(float64(m.ESSPerEval)-want) > 1e-12*want || !(want > 0) {
			t.Errorf("max draws %d: ESS per evaluation %v, want %v", tc.maxDraws, m.ESSPerEval, want)
		}
	}
}
