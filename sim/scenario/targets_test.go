package scenario

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/gallery"
	"github.com/posterior-playground/playground/sim/target"
)

// targetCache holds the exact answers the target scenarios' runs share.
var targetCache = sync.OnceValue(func() *gallery.Cache {
	c, err := gallery.NewCache(gallery.CacheConfig{})
	if err != nil {
		panic(err)
	}
	return c
})

// Every scenario on a target is well formed: a known target, panels with
// distinct names whose methods are Methods, controls the specs take, a
// claim whose checks name its panels, the target's coordinates and plane
// measures, and a claim step past every warm-up; its JSON has the target
// and its panels, and its link is the gallery page's.
func TestTargetScenariosAreWellFormed(t *testing.T) {
	slugs := map[string]bool{}
	for _, s := range All() {
		slugs[s.Slug] = true
	}
	for _, s := range OnTargets() {
		if slugs[s.Slug] {
			t.Errorf("%s: slug taken", s.Slug)
		}
		slugs[s.Slug] = true
		if _, ok := target.Lookup(s.Target); !ok || !s.OnTarget() || s.Data != "" {
			t.Errorf("%s: target %q, data %q: want a built-in target and no data", s.Slug, s.Target, s.Data)
			continue
		}
		var methods, names []string
		for _, p := range s.Panels {
			methods, names = append(methods, p.Method), append(names, p.Name)
			if _, err := s.PanelTarget(p.Name); err != nil {
				t.Errorf("%s: %v", s.Slug, err)
			}
			c, err := s.PanelControls(p.Name)
			if err != nil {
				t.Errorf("%s: %v", s.Slug, err)
			}
			if w, ok := c["warmup"]; ok && s.Claim != nil && float64(s.Claim.Step) <= w.Num {
				t.Errorf("%s: claim step %d is inside %s's %g warm-up steps", s.Slug, s.Claim.Step, p.Name, w.Num)
			}
		}
		if !slices.Equal(methods, s.Methods) {
			t.Errorf("%s: methods %v, panels' %v", s.Slug, s.Methods, methods)
		}
		if len(slices.Compact(slices.Sorted(slices.Values(names)))) != len(names) {
			t.Errorf("%s: panel names %v are not distinct", s.Slug, names)
		}
		c := s.Claim
		if c == nil || c.Text == "" || c.Step < 2 || len(c.Checks) == 0 {
			t.Errorf("%s: claim %+v lacks a sentence, a step ≥ 2 or checks", s.Slug, c)
			continue
		}
		ex, err := targetCache().Exact(context.Background(), s.Target, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, ch := range c.Checks {
			if !slices.Contains(names, ch.Method) || (ch.Than != "" && !slices.Contains(names, ch.Than)) {
				t.Errorf("%s: check %+v names a panel not among %v", s.Slug, ch, names)
			}
			if !slices.Contains(planeMeasures, ch.Measure) || ch.Op != ">=" && ch.Op != "<=" {
				t.Errorf("%s: check %+v: want a plane measure and >= or <=", s.Slug, ch)
			}
			perParam := ch.Measure == SDRatio || ch.Measure == Q05Error
			if perParam != slices.Contains(ex.Shown.Params[:], ch.Param) {
				t.Errorf("%s: check %+v: param %q (the target's are %v)", s.Slug, ch, ch.Param, ex.Shown.Params)
			}
		}
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if j := string(b); !strings.Contains(j, `"target":"`+s.Target+`"`) || !strings.Contains(j, `"panels":[`) || strings.Contains(j, `"data"`) {
			t.Errorf("%s: JSON %s", s.Slug, j)
		}
		if u := s.URL(); !strings.HasPrefix(u, "/gallery?target="+s.Target) || !strings.Contains(u, "scenario="+s.Slug) {
			t.Errorf("%s: link %s", s.Slug, u)
		}
	}
}

// TestTargetScenarioClaims plays every scenario on a target as its page
// does, each panel a run of the engine on the scenario's seed, in step
// commands (deterministic for a seed), and checks its claim at k·step/2
// for k = 2…10 on seeds 1–5 (-short: at the claim step, on seed 1;
// skipped under the race detector), every checked step read off one
// trajectory per panel and seed. Subtests are scenario/seed, all parallel,
// longest claim step first (as TestScenarioClaims).
func TestTargetScenarioClaims(t *testing.T) {
	if raceEnabled {
		t.Skip("scenario claims: checked without the race detector (make test)")
	}
	t.Parallel() // beside TestScenarioClaims
	seeds, checked := claimSeeds, checkedSteps
	if testing.Short() {
		seeds, checked = seeds[:1], func(c *Claim) []int64 { return []int64{c.Step} }
	}
	for _, s := range longestFirst(OnTargets()) {
		t.Run(s.Slug, func(t *testing.T) {
			t.Parallel()
			for _, seed := range seeds {
				t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
					t.Parallel()
					steps := checked(s.Claim)
					frames := make([][]*engine.Frame, len(s.Panels)) // panel, step
					for i, p := range s.Panels {
						fs, err := playPanel(s, p.Name, seed, steps)
						if err != nil {
							t.Fatal(err)
						}
						frames[i] = fs
					}
					for k, step := range steps {
						at := make([]*engine.Frame, len(s.Panels))
						names := make([]string, len(s.Panels))
						for i, p := range s.Panels {
							at[i], names[i] = frames[i][k], p.Name
						}
						if testing.Verbose() {
							t.Logf("%s, seed %d, step %d: %s", s.Slug, seed, step, targetClaimValues(s, at))
						}
						if err := s.Claim.Holds(names, at, nil); err != nil {
							t.Errorf("%s, seed %d, step %d (claim step %d): %v", s.Slug, seed, step, s.Claim.Step, err)
						}
					}
				})
			}
		})
	}
}

// playPanel runs panel name of s on seed as the API does (the exact
// answer from the cache, the method on it, its controls resolved, the
// run started paused at 0) and steps it through steps, returning the
// frame at each.
func playPanel(s Scenario, name string, seed uint64, steps []int64) ([]*engine.Frame, error) {
	p, _ := s.PanelByName(name)
	tc, err := s.PanelTarget(name)
	if err != nil {
		return nil, err
	}
	mc, err := s.PanelControls(name)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ex, err := targetCache().Exact(ctx, s.Target, tc)
	if err != nil {
		return nil, err
	}
	m, err := gallery.NewEngineMethod(ex, p.Method, p.Chains)
	if err != nil {
		return nil, err
	}
	c, err := m.Spec().Resolve(mc)
	if err != nil {
		return nil, err
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	r, err := engine.NewTargetRun(fmt.Sprintf("%s-%s-%d", s.Slug, name, seed), m, ex.Target, c, seed, engine.RunOptions{Log: log})
	if err != nil {
		return nil, err
	}
	r.Start(ctx)
	defer func() { cancel(); <-r.Done() }()
	out := make([]*engine.Frame, len(steps))
	for i, step := range steps {
		f, err := stepTo(ctx, r, step)
		if err != nil {
			return nil, fmt.Errorf("%s, %s, seed %d: %w", s.Slug, name, seed, err)
		}
		out[i] = f
	}
	return out, nil
}

// targetClaimValues lists the measures s's claim checks, as frames (one
// per panel) show them, for the log.
func targetClaimValues(s Scenario, frames []*engine.Frame) string {
	var out []string
	seen := map[string]bool{}
	for _, ch := range s.Claim.Checks {
		for _, name := range []string{ch.Method, ch.Than} {
			i := slices.IndexFunc(s.Panels, func(p Panel) bool { return p.Name == name })
			key := name + string(ch.Measure) + ch.Param
			if name == "" || i < 0 || seen[key] {
				continue
			}
			seen[key] = true
			m := string(ch.Measure)
			if ch.Param != "" {
				m += "(" + ch.Param + ")"
			}
			out = append(out, fmt.Sprintf("%s %s %.4g", name, m, measure(ch.Measure, ch.Param, frames[i], nil)))
		}
	}
	return strings.Join(out, ", ")
}

// A scenario's bad control is a field error naming where it is set: the
// scenario's target control, a panel's own target control, or a panel's
// method control, with the allowed range.
func TestTargetScenarioControlErrors(t *testing.T) {
	s, ok := ByTargetSlug("mean-field-too-sure")
	if !ok {
		t.Fatal("no mean-field-too-sure")
	}
	for _, tc := range []struct {
		edit  func(*Scenario)
		field string
		err   func(Scenario) error
	}{
		{func(s *Scenario) { s.TargetControls = map[string]string{"rho": "2"} }, "target.rho",
			func(s Scenario) error { _, err := s.PanelTarget("mfvi"); return err }},
		{func(s *Scenario) { s.Panels[0].TargetControls = map[string]string{"tilt": "1"} }, "mfvi.target.tilt",
			func(s Scenario) error { _, err := s.PanelTarget("mfvi"); return err }},
		{func(s *Scenario) { s.Panels[0].Controls = map[string]string{"lr": "x"} }, "mfvi.lr",
			func(s Scenario) error { _, err := s.PanelControls("mfvi"); return err }},
		{func(s *Scenario) {}, "panel",
			func(s Scenario) error { _, err := s.PanelControls("nope"); return err }},
	} {
		c := s
		c.Panels = slices.Clone(s.Panels)
		tc.edit(&c)
		var fe *sim.FieldError
		if err := tc.err(c); !errors.As(err, &fe) || fe.Field != tc.field || fe.Message == "" {
			t.Errorf("want a field error on %s, got %v", tc.field, err)
		}
	}
}
