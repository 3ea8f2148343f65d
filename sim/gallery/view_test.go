package gallery

import (
	"context"
	"encoding/json"
	"math"
	"slices"
	"testing"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/target"
)

func funnel(method string, centred float64) RunConfig {
	return RunConfig{Target: "funnel", TargetControls: sim.Controls{"centred": sim.Num(centred)}, Method: method, Seed: 7}
}

// TestViewShown: on the non-centred funnel, sampled in (v, z), the view's
// draws and the latest transition are in the shown (v, x = z·e^{v/2}).
func TestViewShown(t *testing.T) {
	r := newRun(t, funnel("nuts", 0))
	if err := r.Step(context.Background(), 1200); err != nil { // past the 1,000 warm-up transitions
		t.Fatal(err)
	}
	var v View
	r.View(&v)
	if v.Params != [2]string{"v", "x"} {
		t.Errorf("params %v, want v, x", v.Params)
	}
	for c := range 4 {
		p := r.chains[c].Position()
		shown := target.Point{p[0], p[1] * math.Exp(p[0]/2)}
		if i := slices.Index(v.Chain, uint8(c+1)); c < 3 && v.Draws[i-1] != shown || c == 3 && v.Draws[len(v.Draws)-1] != shown {
			t.Errorf("chain %d: its latest draw is not its position %v shown as %v", c, p, shown)
		}
	}
	if v.Record == nil || v.RecordChain != 3 || len(v.Record.Path) != len(r.rec.Path) {
		t.Fatalf("record %v of chain %d, want chain 3's with %d points", v.Record != nil, v.RecordChain, len(r.rec.Path))
	}
	for i, p := range r.rec.Path {
		if q := v.Record.Path[i]; q != r.Exact().ToShown(p) {
			t.Fatalf("path point %d: %v shown as %v", i, p, q)
		}
	}
}

// TestReportFunnel: the report names the funnel's coordinates v and x
// whether it is sampled centred or not, with the same exact answer:
// sd v = 3, sd x = e^{9/4} (E x² = E eᵛ = e^{9/2}).
func TestReportFunnel(t *testing.T) {
	for _, centred := range []float64{0, 1} {
		for _, m := range []string{"nuts", "fullrank"} {
			r := newRun(t, funnel(m, centred))
			if err := r.Step(context.Background(), 50); err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(r.Report())
			if err != nil {
				t.Fatal(err)
			}
			var rep struct {
				Controls map[string]any                 `json:"method_controls"`
				Params   map[string]map[string]*float64 `json:"params"`
				KL       *float64                       `json:"kl_exact"`
				K        *float64                       `json:"pareto_k"`
				Div      *int64                         `json:"divergences"`
			}
			if err := json.Unmarshal(b, &rep); err != nil {
				t.Fatal(err)
			}
			if want := map[string]string{"nuts": "max_depth", "fullrank": "divergence"}[m]; rep.Controls[want] == nil {
				t.Errorf("%s: method controls %v, want %s's default among them", m, rep.Controls, want)
			}
			v, x := rep.Params["v"], rep.Params["x"]
			if len(rep.Params) != 2 || v == nil || x == nil {
				t.Fatalf("%s centred=%g: params %v, want v and x", m, centred, rep.Params)
			}
			// The grid's sds to its quadrature error: the box holds all but
			// about 1e-6 of the mass, and x's fourth moment is huge, so 1e-3
			// relative.
			if math.Abs(*v["exact_sd"]/3-1) > 1e-3 || math.Abs(*x["exact_sd"]/math.Exp(2.25)-1) > 1e-3 {
				t.Errorf("%s centred=%g: exact sds %g, %g, want 3, %g", m, centred, *v["exact_sd"], *x["exact_sd"], math.Exp(2.25))
			}
			// v's 5% and 95% quantiles are ∓1.6449·3 (v ~ N(0, 3²)), linear
			// within bins of 30/256 ≈ 0.12 and so within 0.01, and x's
			// symmetric about 0.
			if math.Abs(*v["exact_q05"]+1.6448536*3) > 0.01 || math.Abs(*v["exact_q95"]-1.6448536*3) > 0.01 || math.Abs(*x["exact_q05"]+*x["exact_q95"]) > 0.01 {
				t.Errorf("%s centred=%g: exact quantiles v %g, %g; x %g, %g", m, centred, *v["exact_q05"], *v["exact_q95"], *x["exact_q05"], *x["exact_q95"])
			}
			// NUTS is still in its 1,000 warm-up transitions: no draws yet,
			// so nulls, not numbers of nothing.
			if (v["q05"] == nil || x["mean"] == nil) != (m == "nuts") {
				t.Errorf("%s: quantiles and means in %s", m, b)
			}
			sampler := m == "nuts"
			if _, ok := v["rhat"]; ok != sampler || (rep.Div != nil) != sampler || (rep.KL != nil) == sampler || (rep.K != nil) == sampler {
				t.Errorf("%s: report %s", m, b)
			}
		}
	}
}

// TestHistory: the history's budgets grow by at least 2^(1/8) a point,
// its costly measures fall at doublings, and it stays bounded.
func TestHistory(t *testing.T) {
	for _, m := range []string{"metropolis", "flow", "svgd"} {
		r := newRun(t, gaussian(m, 8))
		if err := r.StepToBudget(context.Background(), 40_000); err != nil {
			t.Fatal(err)
		}
		h := r.History(nil)
		lastCostly := int64(0)
		for i, p := range h {
			if i > 0 && float64(p.Evals) < float64(h[i-1].Evals)*cheapFactor-1 {
				t.Errorf("%s: point %d at %d after %d", m, i, p.Evals, h[i-1].Evals)
			}
			costly := !math.IsNaN(float64(p.KL)) || !math.IsNaN(float64(p.Distance))
			if costly {
				if p.Evals < 2*lastCostly {
					t.Errorf("%s: costly points at %d and %d", m, lastCostly, p.Evals)
				}
				lastCostly = p.Evals
			}
		}
		if n := len(h); n == 0 || n > 8*17 {
			t.Errorf("%s: %d points for a budget under 2^16", m, n)
		}
		if m == "metropolis" && (math.IsNaN(float64(h[len(h)-1].Acceptance)) || h[len(h)-1].Divergences != 0) {
			t.Errorf("metropolis: last point %+v", h[len(h)-1])
		}
		// The error falls with the budget: at the end under a tenth of
		// its first value (the first point is one step in).
		if first, last := h[0].MeanError+h[0].CovError, h[len(h)-1].MeanError+h[len(h)-1].CovError; !(last < first/10) {
			t.Errorf("%s: error %g at the start, %g at the end", m, first, last)
		}
	}
}
