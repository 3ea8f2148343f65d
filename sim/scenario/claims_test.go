package scenario

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/model"
	"github.com/posterior-playground/playground/sim/wire"
)

// claimPending lists the scenarios allowed no claim yet (none now: a new
// scenario without one must say why here).
var claimPending []string

// claimSeeds are the seeds every claim must hold on.
var claimSeeds = []uint64{1, 2, 3, 4, 5}

// checkedSteps are the steps a claim is checked at: k·step/2 for k = 2…10,
// from the claim step to five times it.
func checkedSteps(c *Claim) []int64 {
	var out []int64
	for k := int64(2); k <= 10; k++ {
		out = append(out, k*c.Step/2)
	}
	return out
}

// TestScenarioClaimsAreWellFormed: every scenario but the pending ones has
// a claim, with a sentence, a step, and checks on its own panels' measures.
func TestScenarioClaimsAreWellFormed(t *testing.T) {
	for _, s := range All() {
		c := s.Claim
		if c == nil {
			if !slices.Contains(claimPending, s.Slug) {
				t.Errorf("%s has no claim", s.Slug)
			}
			continue
		}
		if c.Text == "" || c.Step < 2 || len(c.Checks) == 0 {
			t.Errorf("%s: claim %+v lacks a sentence, a step ≥ 2 or checks", s.Slug, c)
		}
		for _, ch := range c.Checks {
			if !slices.Contains(s.Methods, ch.Method) || (ch.Than != "" && !slices.Contains(s.Methods, ch.Than)) {
				t.Errorf("%s: check %+v names a method not among %v", s.Slug, ch, s.Methods)
			}
			if ch.Op != ">=" && ch.Op != "<=" {
				t.Errorf("%s: check %+v: op %q", s.Slug, ch, ch.Op)
			}
			if !slices.Contains(measures, ch.Measure) {
				t.Errorf("%s: check %+v: unknown measure", s.Slug, ch)
			}
		}
		// A sampler's band in warm-up is its chains' current states, not
		// its posterior: a claim is checked only past every warm-up.
		for _, m := range s.Methods {
			if w, ok := scenarioControls(t, s, m)["warmup"]; ok && float64(c.Step) <= w.Num {
				t.Errorf("%s: claim step %d is inside %s's %g warm-up steps", s.Slug, c.Step, m, w.Num)
			}
		}
		for _, w := range []string{" left", " right", "(left", "(right"} {
			if strings.Contains(strings.ToLower(s.Description), w) {
				t.Errorf("%s: the description says %q; panels stack on a phone", s.Slug, strings.TrimSpace(w))
			}
		}
	}
}

// The checks fail as they should: a NaN (a measure the frame lacks) fails
// either way, and a relative bound reads the other panel.
func TestClaimHoldsChecksBounds(t *testing.T) {
	c := &Claim{Checks: []Check{
		{Method: "a", Measure: InbetweenRatio, Op: ">=", Value: 3},
		{Method: "b", Measure: Objective, Op: "<=", Value: 0.5, Than: "a"},
	}}
	frame := func(ratio, obj float64) *engine.Frame {
		d := map[string]float64{"objective": obj}
		if !math.IsNaN(ratio) {
			d["inbetween_ratio"] = ratio
		}
		return &engine.Frame{Diagnostics: d}
	}
	for _, tc := range []struct {
		a, b *engine.Frame
		ok   bool
	}{
		{frame(3, 10), frame(1, 5), true},
		{frame(2.9, 10), frame(1, 5), false},
		{frame(3, 10), frame(1, 5.1), false},
		{frame(math.NaN(), 10), frame(1, 5), false},
	} {
		err := c.Holds([]string{"a", "b"}, []*engine.Frame{tc.a, tc.b}, nil)
		if (err == nil) != tc.ok {
			t.Errorf("a %v, b %v: %v, want holds=%v", tc.a.Diagnostics, tc.b.Diagnostics, err, tc.ok)
		}
	}
	// The truth error of a band off the truth by 1 everywhere is 1; outside
	// the data's range [0, 1] only the points at −1 and 2 count.
	d := &wire.DataPoints{X: []float64{0, 1}, Truth: []float64{0, 0, 0, 0}}
	b := &wire.Band{X: []float64{-1, 0.5, 1, 2}, Mean: []float64{3, 1, 1, 3}}
	if got := truthRMSE(b, d, false); math.Abs(got-math.Sqrt(5)) > 1e-12 {
		t.Errorf("truth RMSE %v, want √5", got)
	}
	if got := truthRMSE(b, d, true); got != 3 {
		t.Errorf("truth RMSE outside %v, want 3", got)
	}
}

// The slope's sd ratio is read off the joint view as its table reads it:
// q's sd, else the sampler's over all its draws, else the shown draws'.
func TestSlopeSDRatioReadsTheJointView(t *testing.T) {
	exact := &model.Gauss2{Cov: [2][2]float64{{1, -0.5}, {-0.5, 4}}} // sd of b: 2
	frame := func(j *model.Joint) *engine.Frame {
		e, err := wire.NewExtra("joint", j)
		if err != nil {
			t.Fatal(err)
		}
		return &engine.Frame{Extras: []*wire.Extra{e}}
	}
	for _, tc := range []struct {
		name string
		j    *model.Joint
		want float64
	}{
		{"gaussian", &model.Joint{Exact: exact, Gaussian: &model.Gauss2{Cov: [2][2]float64{{9, 0}, {0, 1}}}}, 0.5},
		{"moments", &model.Joint{Exact: exact, Moments: []sim.Moments{{SD: 7}, {SD: 3}}, B: []float64{0, 100}}, 1.5},
		{"draws", &model.Joint{Exact: exact, B0: []float64{0, 0, 0}, B: []float64{-2, 0, 2}}, 1}, // sample sd 2
		{"no exact", &model.Joint{Gaussian: &model.Gauss2{Cov: [2][2]float64{{1, 0}, {0, 1}}}}, math.NaN()},
		{"one draw", &model.Joint{Exact: exact, B0: []float64{0}, B: []float64{1}}, math.NaN()},
	} {
		got := measure(SlopeSDRatio, "", frame(tc.j), nil)
		if !(math.Abs(got-tc.want) < 1e-12 || math.IsNaN(got) && math.IsNaN(tc.want)) {
			t.Errorf("%s: ratio %v, want %v", tc.name, got, tc.want)
		}
	}
	if got := measure(SlopeSDRatio, "", &engine.Frame{}, nil); !math.IsNaN(got) {
		t.Errorf("a frame without a joint view: ratio %v, want NaN", got)
	}
}

// TestScenarioClaims plays every scenario with its defaults through the
// engine, as the page does but in step commands (runs are deterministic
// for a seed, so the frames at a step do not depend on wall time), and
// checks its claim at k·step/2 for k = 2…10 on seeds 1–5 (-short: at the
// claim step, on seed 1; skipped under the race detector). Subtests are
// scenario/seed, so -run 'TestScenarioClaims/nn-vi-vs-mcmc' checks one
// scenario. Runs that scenarios share (same data, method and controls)
// are played once per seed, to every step any claim checks them at: one
// trajectory per run and seed, every checked step read off it.
//
// The cost is the methods' own steps (the recorders' frames and bands are
// about 5% of it in a CPU profile), so what the test can do about its wall
// time is keep the cores busy: every scenario/seed subtest is parallel
// with every other (not only with its scenario's other seeds, which left a
// core idle while a scenario's last seed ran alone), and the scenarios
// start longest claim step first (the longest runs: fBNN's 20,000 steps on
// periodic), so that they do not finish alone at the end. A subtest plays
// its runs one after another: playing a scenario's panels at once, more
// runs than cores, cost about 10% more CPU for the same steps in one
// measurement (the runs preempting one another).
func TestScenarioClaims(t *testing.T) {
	if raceEnabled {
		// Single-goroutine numerics, deterministic for a seed; the engine's
		// concurrency is raced in sim/engine. Under the detector the NUTS
		// scenarios alone would take many minutes.
		t.Skip("scenario claims: checked without the race detector (make test)")
	}
	t.Parallel() // beside TestTargetScenarioClaims: each fills the cores the other's last runs leave
	seeds, checked := claimSeeds, checkedSteps
	if testing.Short() {
		seeds, checked = seeds[:1], func(c *Claim) []int64 { return []int64{c.Step} }
	}
	var claimed []Scenario
	for _, s := range All() {
		if s.Claim != nil {
			claimed = append(claimed, s)
		}
	}
	played := newClaimRuns(t, claimed, checked)
	for _, s := range longestFirst(claimed) {
		t.Run(s.Slug, func(t *testing.T) {
			t.Parallel()
			for _, seed := range seeds {
				t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
					t.Parallel()
					runs := make([]*playedRun, len(s.Methods))
					for i, m := range s.Methods {
						p, err := played.get(t, claimRunKey(t, s, m), seed)
						if err != nil {
							t.Fatal(err)
						}
						runs[i] = p
					}
					for _, step := range checked(s.Claim) {
						frames := make([]*engine.Frame, len(s.Methods))
						var data *wire.DataPoints
						for i, p := range runs {
							frames[i], data = p.frames[step], p.data
						}
						if testing.Verbose() {
							t.Logf("%s, seed %d, step %d: %s", s.Slug, seed, step, claimValues(s, frames, data))
						}
						if err := s.Claim.Holds(s.Methods, frames, data); err != nil {
							t.Errorf("%s, seed %d, step %d (claim step %d): %v", s.Slug, seed, step, s.Claim.Step, err)
						}
					}
				})
			}
		})
	}
}

// longestFirst orders scenarios by their claim step, longest first (the
// order parallel subtests start in; a scenario's runs are played to a
// multiple of its claim step).
func longestFirst(scenarios []Scenario) []Scenario {
	out := slices.Clone(scenarios)
	step := func(s Scenario) int64 {
		if s.Claim == nil {
			return 0
		}
		return s.Claim.Step
	}
	slices.SortStableFunc(out, func(a, b Scenario) int { return cmp.Compare(step(b), step(a)) })
	return out
}

// playedRun is one run's frames at the steps some claim checks.
type playedRun struct {
	data   *wire.DataPoints
	frames map[int64]*engine.Frame
}

// claimRunKey names a scenario's run of method: its data, method and
// controls (the seed is the caller's).
func claimRunKey(tb testing.TB, s Scenario, method string) string {
	c := scenarioControls(tb, s, method)
	key := s.Data + "|" + method
	for _, k := range slices.Sorted(maps.Keys(c)) {
		key += "|" + k + "=" + c[k].String()
	}
	return key
}

// claimRuns plays each distinct run of the scenarios, for a seed, once,
// when a subtest first asks for it, stepping it through every step a
// claim checks it at; it is safe for concurrent use.
type claimRuns struct {
	wants map[string]*claimWant
	mu    sync.Mutex
	runs  map[string]*claimRunOnce // key and seed
}

// claimWant is a distinct run and the steps the claims check it at.
type claimWant struct {
	data, method string
	controls     sim.Controls
	steps        []int64 // ascending
}

type claimRunOnce struct {
	once sync.Once
	p    *playedRun
	err  error
}

func newClaimRuns(tb testing.TB, scenarios []Scenario, checked func(*Claim) []int64) *claimRuns {
	steps := map[string]map[int64]bool{}
	wants := map[string]*claimWant{}
	for _, s := range scenarios {
		for _, m := range s.Methods {
			k := claimRunKey(tb, s, m)
			if wants[k] == nil {
				wants[k] = &claimWant{data: s.Data, method: m, controls: scenarioControls(tb, s, m)}
				steps[k] = map[int64]bool{}
			}
			for _, step := range checked(s.Claim) {
				steps[k][step] = true
			}
		}
	}
	for k, w := range wants {
		w.steps = slices.Sorted(maps.Keys(steps[k]))
	}
	return &claimRuns{wants: wants, runs: map[string]*claimRunOnce{}}
}

// get returns the run named key played on seed, playing it if no caller
// has yet (and logging that on tb).
func (c *claimRuns) get(tb testing.TB, key string, seed uint64) (*playedRun, error) {
	w := c.wants[key]
	if w == nil {
		return nil, fmt.Errorf("no scenario has the run %s", key)
	}
	c.mu.Lock()
	id := fmt.Sprintf("%s|seed=%d", key, seed)
	o := c.runs[id]
	if o == nil {
		o = &claimRunOnce{}
		c.runs[id] = o
	}
	c.mu.Unlock()
	o.once.Do(func() { o.p, o.err = play(tb, w, seed) })
	return o.p, o.err
}

// play steps w's run on seed through w.steps, keeping the frame at each.
func play(tb testing.TB, w *claimWant, seed uint64) (*playedRun, error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, settled, err := startRun(ctx, w.data, w.method, w.controls, seed)
	if err != nil {
		return nil, fmt.Errorf("%s, %s, seed %d: %w", w.data, w.method, seed, err)
	}
	defer func() { cancel(); <-r.Done() }()
	p := &playedRun{data: r.Data(), frames: map[int64]*engine.Frame{}}
	start := time.Now()
	for _, step := range w.steps {
		f, err := stepTo(ctx, r, settledTarget(step, settled))
		if err != nil {
			return nil, fmt.Errorf("seed %d: %w", seed, err)
		}
		p.frames[step] = f
	}
	if testing.Verbose() {
		tb.Logf("played %s, %s, seed %d to step %d in %v", w.data, w.method, seed, w.steps[len(w.steps)-1], time.Since(start).Round(time.Millisecond))
	}
	return p, nil
}

// claimValues lists the measures the claim of s checks, as frames show
// them, for the log.
func claimValues(s Scenario, frames []*engine.Frame, data *wire.DataPoints) string {
	var out []string
	seen := map[string]bool{}
	for _, ch := range s.Claim.Checks {
		for _, m := range []string{ch.Method, ch.Than} {
			i := slices.Index(s.Methods, m)
			if m == "" || i < 0 || seen[m+string(ch.Measure)] {
				continue
			}
			seen[m+string(ch.Measure)] = true
			out = append(out, fmt.Sprintf("%s %s %.4g", m, ch.Measure, measure(ch.Measure, ch.Param, frames[i], data)))
		}
	}
	return strings.Join(out, ", ")
}
