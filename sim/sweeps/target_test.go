package sweeps

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"math"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/posterior-playground/playground/sim"
)

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// TestTargetSweepMeanField sweeps the Gaussian's ρ with mean-field and
// full-rank. Mean-field's optimum on unit sds is sd √(1−ρ²) in each
// coordinate (KL(q‖p) is minimised by matching the precision's diagonal,
// 1/(1−ρ²)); full-rank's is p itself, sd 1.
//
// The tolerance: a fit at a fixed learning rate does not stop at the
// optimum but wanders about it, each step's gradient estimated from 32
// draws of q; runs on different seeds are independent draws of where it
// is when the budget ends. With five seeds the point's sd ratio is their
// mean and sd_ratio_se its standard error from their spread; 4.6 of
// them is Student's t on 4 degrees of freedom at a two-sided 1%. The
// exact sd is the grid's, on a box that cuts each conditional at ±5 sds:
// the variance lost is 2(5φ(5) + Φ(−5)) ≈ 1.5e-5 of a Gaussian's, and
// the box of a correlated pair cuts its diagonal too, so four times
// that is added (a fit at p itself, full-rank's, sits that far from the
// grid's sd with no spread over seeds). The test also checks that the tolerance
// is tight enough to tell mean-field from the exact answer wherever ρ ≥
// 0.3 (a tolerance as wide as the effect would assert nothing).
func TestTargetSweepMeanField(t *testing.T) {
	g := New(Config{Log: quiet(), Limits: Limits{MaxRuns: 50}})
	defer g.Close()
	req := Request{Target: "gaussian", Param: "rho", Values: "0,0.3,0.6,0.9,0.99",
		Arms: []Arm{{Method: "mfvi"}, {Method: "fullrank"}}, Budget: 40_000, Seeds: 5, Seed: 1}
	s, err := g.Create(req, "a")
	if err != nil {
		t.Fatal(err)
	}
	<-s.Done()
	in := s.Info()
	if in.Status != Done || in.Finished != 50 || in.Total != 50 || len(in.Points) != 5 {
		t.Fatalf("sweep ended %s (%s) with %d of %d runs and %d points", in.Status, in.Message, in.Finished, in.Total, len(in.Points))
	}
	const tQuantile = 4.6
	phi5 := math.Exp(-12.5) / math.Sqrt(2*math.Pi)
	boxErr := 4 * 2 * (5*phi5 + 0.5*math.Erfc(5/math.Sqrt2))
	for i, pt := range in.Points {
		if pt.Index != i || pt.Value != in.Values[i] || len(pt.Arms) != 2 {
			t.Fatalf("point %d: %+v", i, pt)
		}
		rho := pt.Value
		for _, a := range pt.Arms {
			want := 1.0
			if a.Method == "mfvi" {
				want = math.Sqrt(1 - rho*rho)
			}
			if len(a.Params) != 2 || a.Params[0].Name != "x" || a.Params[1].Name != "y" {
				t.Fatalf("ρ = %g, %s: params %+v", rho, a.Method, a.Params)
			}
			for _, p := range a.Params {
				got, se := float64(p.SDRatio), float64(p.SDRatioSE)
				tol := tQuantile*se + boxErr
				t.Logf("ρ = %.2f %-8s %s: sd ratio %.4f ± %.4f, closed form %.4f", rho, a.Method, p.Name, got, se, want)
				if !(math.Abs(got-want) <= tol) {
					t.Errorf("ρ = %g, %s, %s: sd ratio %.4f, closed form %.4f, tolerance %.4f", rho, a.Method, p.Name, got, want, tol)
				}
				if a.Method == "mfvi" && rho >= 0.3 && !(tol < 1-want) {
					t.Errorf("ρ = %g: tolerance %.4f does not separate mean-field's %.4f from 1", rho, tol, want)
				}
			}
			if a.KL == nil || a.Distance != nil || a.Divs != nil {
				t.Errorf("ρ = %g, %s: a family reports KL on the grid, no energy distance or divergences: %+v", rho, a.Method, a)
			}
		}
	}
	// A target point's JSON has its methods and none of a data sweep's bounds.
	b, err := json.Marshal(in.Points[0])
	if err != nil {
		t.Fatal(err)
	}
	if s := string(b); !strings.Contains(s, `"methods":[{"method":"mfvi"`) || strings.Contains(s, "elbo_mean") {
		t.Errorf("a target sweep's point: %s", s)
	}
}

// TestTargetSweepBounds: every bad field of a target sweep is a field
// error naming it and what is allowed, before anything runs.
func TestTargetSweepBounds(t *testing.T) {
	g := New(Config{Log: quiet()})
	defer g.Close()
	good := func() Request {
		return Request{Target: "gaussian", Param: "rho", Values: "0,0.5", Arms: []Arm{{Method: "mfvi"}}, Budget: 1000, Seeds: 1, Seed: 1}
	}
	for _, tc := range []struct {
		name  string
		edit  func(*Request)
		field string
		say   string
	}{
		{"unknown target", func(r *Request) { r.Target = "cube" }, "target", "gaussian, banana"},
		{"no param", func(r *Request) { r.Param = "" }, "param", "rho, scale_ratio"},
		{"unknown param", func(r *Request) { r.Param = "curvature" }, "param", "rho, scale_ratio"},
		{"a target without controls", func(r *Request) { r.Target = "squiggle" }, "param", "gaussian, banana"},
		{"value out of range", func(r *Request) { r.Values = "0,1.5" }, "values", "[-0.99, 0.99]"},
		{"bad values", func(r *Request) { r.Values = "linspace:0:1" }, "values", "linspace"},
		{"too many points", func(r *Request) { r.Values = "linspace:0:0.9:51" }, "values", "at most 50"},
		{"too many runs", func(r *Request) { r.Values = "linspace:0:0.9:20"; r.Seeds = 3 }, "values", "60 runs"},
		{"budget too big", func(r *Request) { r.Budget = 2_000_000 }, "budget", "[1, 1000000]"},
		{"budget zero", func(r *Request) { r.Budget = 0 }, "budget", "[1, 1000000]"},
		{"no methods", func(r *Request) { r.Arms = nil }, "methods", "required"},
		{"too many methods", func(r *Request) { r.Arms = make([]Arm, 7) }, "methods", "at most 6"},
		{"unknown method", func(r *Request) { r.Arms = []Arm{{Method: "mfvi"}, {Method: "gibbs"}} }, "methods[1].method", "nuts"},
		{"bad method control", func(r *Request) { r.Arms[0].Controls = sim.Controls{"lr": sim.Num(5)} }, "methods[0].controls.lr", "[0, 1]"},
		{"unknown method control", func(r *Request) { r.Arms[0].Controls = sim.Controls{"depth": sim.Num(5)} }, "methods[0].controls.depth", "no control"},
		{"bad target control", func(r *Request) { r.Controls = sim.Controls{"scale_ratio": sim.Num(50)} }, "controls.scale_ratio", "[0.1, 10]"},
		{"data and target", func(r *Request) { r.Data = "gap" }, "data", "not both"},
		{"no seeds", func(r *Request) { r.Seeds = 0 }, "seeds", "below 1"},
	} {
		r := good()
		tc.edit(&r)
		_, err := g.Create(r, "a")
		fe, ok := errors.AsType[*sim.FieldError](err)
		if !ok || fe.Field != tc.field || !strings.Contains(fe.Message, tc.say) {
			t.Errorf("%s: %v, want a field error on %s saying %q", tc.name, err, tc.field, tc.say)
		}
	}
	// The page's default ρ sweep ends at the range's end exactly (the
	// interpolated last value was a rounding error past it, and refused).
	r0 := good()
	r0.Values = "linspace:0:0.99:12"
	if p, err := checkTarget(r0, g.Config().Limits, g.Config().Gallery); err != nil || p.values[11] != 0.99 {
		t.Errorf("linspace:0:0.99:12: %v", err)
	}
	// The swept control's entry among the others is ignored, as a data
	// sweep's is.
	r := good()
	r.Controls = sim.Controls{"rho": sim.Num(5)}
	s, err := g.Create(r, "b")
	if err != nil {
		t.Fatalf("rho among the controls: %v", err)
	}
	g.Cancel(t.Context(), s.ID())
}

// TestTargetSweepCancels: a target sweep cancelled after its first run
// ends at once for its viewers, its workers stop (each run checks the
// context before every step), and no goroutine is left behind.
func TestTargetSweepCancels(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	g := New(Config{Log: quiet(), Workers: 1})
	defer g.Close()
	// Each value's first run is cheap, its second (a million evaluations
	// of NUTS) is not: the cancel lands inside it.
	s, err := g.Create(Request{Target: "gaussian", Param: "rho", Values: "0,0.5,0.9",
		Arms: []Arm{{Method: "mfvi", Controls: sim.Controls{"samples": sim.Num(1)}}, {Method: "nuts"}}, Budget: 1_000_000, Seeds: 1, Seed: 1}, "a")
	if err != nil {
		t.Fatal(err)
	}
	for {
		evs, changed, _ := s.Events(0)
		if evs[len(evs)-1].Finished >= 1 {
			break
		}
		<-changed
	}
	if _, err := g.Cancel(t.Context(), s.ID()); err != nil {
		t.Fatal(err)
	}
	<-s.Done()
	if in := s.Info(); in.Status != Cancelled || in.Finished >= in.Total || len(in.Points) != 0 {
		t.Errorf("after the cancel: %s, %d of %d runs, %d points", in.Status, in.Finished, in.Total, len(in.Points))
	}
}
