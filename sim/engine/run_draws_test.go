package engine

import (
	"github.com/posterior-playground/playground/sim/wire"

	"github.com/posterior-playground/playground/sim"

	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/posterior-playground/playground/numeric"
)

// fakeSampler is a sampler stand-in: every chain draws a ~ N(c, 1) (chain
// c's mean is c·shift, 0 by default) and b = 2a + N(0, 1) independently each
// step; chain 2 diverges at every step divisible by 97. Traces follow the
// samplers' layout: "a.c1"…"a.c8", "b.c1"…"b.c8", then step_size.
type fakeSampler struct {
	nc, warm, iter int
	shift          float64
	r              *rand.Rand
	trace          []float64
	div            []int
	cls            bool // "a" is NaN, as a classifier's noise
	traces         int  // Trace calls
}

func (f *fakeSampler) Spec() sim.MethodSpec {
	var tr []string
	for _, p := range []string{"a", "b"} {
		for k := 1; k <= 8; k++ {
			tr = append(tr, fmt.Sprintf("%s.c%d", p, k))
		}
	}
	return sim.MethodSpec{Name: "fakemc", Family: sim.FamilyMCMC, Traces: append(tr, "step_size"), Controls: []sim.ControlSpec{
		{Name: "chains", Min: 1, Max: 8, Step: 1, Default: sim.Num(3), Integer: true},
		{Name: "warmup", Min: 0, Max: 1e6, Step: 1, Default: sim.Num(50), Integer: true},
	}}
}

func (f *fakeSampler) Init(d *sim.Dataset, c sim.Controls, r *rand.Rand) error {
	f.nc, f.warm, f.iter, f.r = int(c["chains"].Num), int(c["warmup"].Num), 0, r
	f.trace = make([]float64, 17)
	f.div = make([]int, f.nc)
	return nil
}

func (f *fakeSampler) Step() sim.StepStats {
	f.iter++
	for i := range f.trace {
		f.trace[i] = math.NaN()
	}
	for c := range f.nc {
		a := float64(c)*f.shift + f.r.NormFloat64()
		f.trace[c] = a
		if f.cls {
			f.trace[c] = math.NaN()
		}
		f.trace[8+c] = 2*a + f.r.NormFloat64()
	}
	f.trace[16] = 0.5
	if f.iter%97 == 0 && f.nc > 1 {
		f.div[1]++
	}
	return sim.StepStats{Objective: -1}
}

func (f *fakeSampler) Set(string, sim.Value) error                { return nil }
func (f *fakeSampler) Predict(xs []float64, n int) sim.Predictive { return sim.Predictive{X: xs} }
func (f *fakeSampler) Trace() []float64                           { f.traces++; return f.trace }
func (f *fakeSampler) Params() []string                           { return []string{"a", "b"} }
func (f *fakeSampler) Draws(string) [][]float64                   { return nil }
func (f *fakeSampler) AcceptanceRate() float64                    { return 1 }
func (f *fakeSampler) Divergences() int                           { return 0 }
func (f *fakeSampler) GradEvals() int64                           { return 0 }
func (f *fakeSampler) Warmup() bool                               { return f.iter < f.warm }
func (f *fakeSampler) ChainDivergences(dst []int) []int           { return append(dst[:0], f.div...) }

func newFakeSamplerRun(t testing.TB, f *fakeSampler, c sim.Controls) *Run {
	t.Helper()
	cs, err := f.Spec().Resolve(c)
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRun("mc", f, fakeDataset(), cs, 3, RunOptions{Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// steps runs n steps in the test's goroutine (the run is not started).
func steps(t testing.TB, r *Run, n int) {
	t.Helper()
	for range n {
		if !r.stepOnce() {
			t.Fatal("step failed")
		}
	}
}

// TestDrawSetWindowsAndStats checks the draw set against the draws
// themselves: the windows are the last DrawWindow retained draws, warm-up
// excluded, the statistics equal numeric.Summarize on the last StatsWindow
// draws exactly, the rank bins count every draw once, and the divergent
// indices are the steps where chain 2's count rose.
func TestDrawSetWindowsAndStats(t *testing.T) {
	f := &fakeSampler{}
	r := newFakeSamplerRun(t, f, nil)
	all := make([][]float64, 3) // every retained a, chain by chain
	for i := range 5000 {
		steps(t, r, 1)
		if i+1 > 50 {
			for c := range 3 {
				all[c] = append(all[c], f.trace[c])
			}
		}
	}
	set := r.rec.draws.set(time.Now())
	if set == nil {
		t.Fatal("no draw set for a sampler")
	}
	if set.Retained != 4950 || set.Chains != 3 || fmt.Sprint(set.Params) != "[a b]" || set.StatsDraws != StatsWindow {
		t.Fatalf("retained %d chains %d params %v stats over %d", set.Retained, set.Chains, set.Params, set.StatsDraws)
	}
	for c := range 3 {
		got, want := set.Values["a"][c], all[c][len(all[c])-DrawWindow:]
		if len(got) != DrawWindow || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("chain %d window: %d draws, first %v want %v", c+1, len(got), got[:3], want[:3])
		}
	}
	last := make([][]float64, 3)
	for c := range 3 {
		last[c] = all[c][len(all[c])-StatsWindow:]
	}
	want := numeric.Summarize(last)
	if got := set.Stats["a"].ParamSummary; got != want {
		t.Errorf("stats %+v, want Summarize of the last %d draws %+v", got, StatsWindow, want)
	}
	// iid draws: split R-hat over m = 6 half-chains of n = 1000 is
	// sqrt(1 − 1/n + (B/W)/n) with B/W ~ F(5, 5994) ≈ χ²₅/5, so
	// R-hat − 1 ≈ (B/W − 1)/(2n): sd ≈ sqrt(2/5)/2000 ≈ 0.0003 (0.00036
	// measured over 300 seeds). It exceeds 0.003 only if χ²₅ > 35, p ≈ 2e-6
	// for each of the bulk and folded statistics R-hat is the larger of.
	if rh := set.Stats["b"].RHat; math.Abs(rh-1) > 0.003 {
		t.Errorf("R-hat of iid chains %g", rh)
	}
	for _, p := range set.Params {
		total := 0
		for c, row := range set.Stats[p].Ranks {
			n := 0
			for _, k := range row {
				n += k
			}
			if n != StatsWindow {
				t.Errorf("%s chain %d: rank bins hold %d draws, want %d", p, c+1, n, StatsWindow)
			}
			total += n
		}
		if total != 3*StatsWindow {
			t.Errorf("%s: %d ranked draws", p, total)
		}
	}
	// Chain 2 diverged at steps 97k; the window holds steps 4501…5000.
	var wantDiv []int
	for s := 4501; s <= 5000; s++ {
		if s%97 == 0 {
			wantDiv = append(wantDiv, s-4501)
		}
	}
	if fmt.Sprint(set.Divergent[1]) != fmt.Sprint(wantDiv) || len(set.Divergent[0]) != 0 || len(set.Divergent[2]) != 0 {
		t.Errorf("divergent %v, want chain 2 at %v", set.Divergent, wantDiv)
	}
	// The JSON is valid and carries the same numbers to six digits.
	var w struct {
		Values     map[string][][]*float64   `json:"values"`
		ParamStats map[string]map[string]any `json:"param_stats"`
		Divergent  [][]int                   `json:"divergent"`
	}
	raw, err := json.Marshal(set)
	if err != nil || !json.Valid(raw) {
		t.Fatalf("encoding: %v", err)
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		t.Fatal(err)
	}
	if v := *w.Values["b"][2][7]; math.Abs(v-set.Values["b"][2][7]) > 1e-5*math.Abs(v) {
		t.Errorf("b chain 3 draw 8 is %g in JSON, %g in Go", v, set.Values["b"][2][7])
	}
	if rh := w.ParamStats["a"]["rhat"].(float64); math.Abs(rh-want.RHat) > 1e-5 {
		t.Errorf("JSON rhat %g, want %g", rh, want.RHat)
	}
	if len(raw) > 3*2*DrawWindow*14+4096 {
		t.Errorf("draw set is %d bytes", len(raw))
	}
}

// TestDrawSetDropsNaNParamsAndChains: a parameter that is NaN in every
// chain (a classifier's noise) is not sent; chains past the count are not
// recorded.
func TestDrawSetDropsNaNParams(t *testing.T) {
	f := &fakeSampler{cls: true}
	r := newFakeSamplerRun(t, f, sim.Controls{"chains": sim.Num(2), "warmup": sim.Num(0)})
	steps(t, r, 10)
	set := r.rec.draws.set(time.Now())
	if fmt.Sprint(set.Params) != "[b]" || len(set.Values["b"]) != 2 || len(set.Values["b"][0]) != 10 {
		t.Fatalf("params %v, values %v", set.Params, set.Values)
	}
	if _, err := json.Marshal(set); err != nil {
		t.Fatal(err)
	}
}

// TestDrawSetsAtABoundedRate: while running, a new set (and new
// statistics) at most every drawsInterval whatever the frame rate; while
// paused, at once after a step; none during warm-up; reset clears them.
func TestDrawSetsAtABoundedRate(t *testing.T) {
	f := &fakeSampler{}
	r := newFakeSamplerRun(t, f, sim.Controls{"warmup": sim.Num(20)})
	steps(t, r, 20)
	if set := r.rec.draws.set(time.Now()); set != nil {
		t.Fatalf("a draw set during warm-up: %+v", set)
	}
	r.st.status = StatusRunning
	t0 := time.Now()
	sets := map[*wire.DrawSet]bool{}
	const frames = 200 // 4 s of frames at 50 per second
	for i := range frames {
		steps(t, r, 3)
		r.st.step += 3
		if s := r.rec.draws.set(t0.Add(time.Duration(i) * 20 * time.Millisecond)); s != nil {
			sets[s] = true
		}
	}
	if max := 1 + int(4*time.Second/drawsInterval); len(sets) > max || len(sets) < max/2 {
		t.Errorf("%d draw sets over 4 s of frames, want between %d and %d", len(sets), max/2, max)
	}
	r.st.status = StatusPaused
	before := r.rec.draws.set(t0.Add(5 * time.Second))
	steps(t, r, 1)
	if after := r.rec.draws.set(t0.Add(5 * time.Second)); after == before || after.Retained != before.Retained+1 {
		t.Error("a step while paused did not refresh the draws")
	}
	if err := r.reinit(r.ctl.now, false); err != nil {
		t.Fatal(err)
	}
	if set := r.rec.draws.set(time.Now()); set != nil {
		t.Error("draws survived a reset")
	}
	steps(t, r, 25)
	if set := r.rec.draws.set(time.Now()); set == nil || set.Retained != 5 {
		t.Errorf("after a reset and 25 steps (20 warm-up): %+v", set)
	}
}

// TestDrawRecordingAllocatesNothing: recording a step's draws allocates
// nothing, and the recorder's memory is fixed by the windows, not the run's
// length.
func TestDrawRecordingAllocatesNothing(t *testing.T) {
	f := &fakeSampler{}
	r := newFakeSamplerRun(t, f, sim.Controls{"warmup": sim.Num(0), "chains": sim.Num(4)})
	steps(t, r, 10)
	allocs := testing.AllocsPerRun(1000, func() {
		r.rec.draws.before()
		f.Step()
		r.rec.draws.observe(0, 0, f.Trace())
	})
	if allocs != 0 {
		t.Errorf("recording a draw allocates %v times", allocs)
	}
	d := r.rec.draws.rec
	if len(d.ring) != 2*4*StatsWindow || len(d.divRing) != 4*StatsWindow {
		t.Errorf("rings of %d and %d values", len(d.ring), len(d.divRing))
	}
	steps(t, r, 3*StatsWindow)
	if len(d.ring) != 2*4*StatsWindow || cap(d.ring) != 2*4*StatsWindow {
		t.Errorf("the ring grew to %d", cap(d.ring))
	}
}

// TestRunTracesOncePerStep: a retained step whose traces the history also
// keeps asks the sampler for them once (HMC's Trace costs 8% of its step
// on linreg); a warm-up step the history skips does not ask at all.
func TestRunTracesOncePerStep(t *testing.T) {
	f := &fakeSampler{}
	cs, err := f.Spec().Resolve(sim.Controls{"warmup": sim.Num(20)})
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRun("mc", f, fakeDataset(), cs, 3, RunOptions{Log: quiet, HistoryCap: 8})
	if err != nil {
		t.Fatal(err)
	}
	steps(t, r, 20)
	// Warm-up: Trace only for the steps a history of 8 points keeps (every
	// step, then every 2nd, then every 4th as it halves).
	h, kept := numeric.NewHistory(8, 1), 0
	for s := range int64(20) {
		if h.Wants() {
			kept++
		}
		h.Add(s+1, []float64{0})
	}
	warm := f.traces
	if warm != kept || kept >= 20 {
		t.Fatalf("%d Trace calls in 20 warm-up steps, want %d (the steps the history keeps)", warm, kept)
	}
	steps(t, r, 100) // retained: every step's draw is recorded
	if n := f.traces - warm; n != 100 {
		t.Fatalf("%d Trace calls in 100 retained steps, want 100", n)
	}
	if r.rec.draws.rec.n != 100 {
		t.Fatalf("%d draws recorded", r.rec.draws.rec.n)
	}
}

// TestNoDrawsForOtherMethods: a method without chains gets no recorder.
func TestNoDrawsForOtherMethods(t *testing.T) {
	r, err := NewRun("vi", &fakeMethod{}, fakeDataset(), fakeControls(), 1, RunOptions{Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	steps(t, r, 5)
	if r.rec.draws.set(time.Now()) != nil || r.rec.draws.rec != nil || !r.rec.draws.off {
		t.Error("a VI method got draws")
	}
}

func BenchmarkDrawRecording(b *testing.B) {
	f := &fakeSampler{}
	r := newFakeSamplerRun(b, f, sim.Controls{"warmup": sim.Num(0), "chains": sim.Num(4)})
	steps(b, r, 10) // the recorder's rings are made on first use
	b.ReportAllocs()
	for b.Loop() {
		r.rec.draws.before()
		f.Step()
		r.rec.draws.observe(0, 0, f.Trace())
	}
}

// BenchmarkDrawSetRefresh is the cost of one draw set (statistics on 4×2000
// draws of two parameters and the JSON), paid at most twice a second.
func BenchmarkDrawSetRefresh(b *testing.B) {
	f := &fakeSampler{}
	r := newFakeSamplerRun(b, f, sim.Controls{"warmup": sim.Num(0), "chains": sim.Num(4)})
	steps(b, r, StatsWindow)
	b.ReportAllocs()
	for b.Loop() {
		r.rec.draws.rec.refresh(r.st.step)
	}
}
