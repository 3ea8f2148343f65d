package engine

import (
	"context"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/wire"
)

// TestGroupStepsOnlyTheLeast drives lanes of very different step costs by
// hand, a random one of those the group lets step at each turn (every
// interleaving a scheduler could choose), and checks after every step that
// each has spent no more than the least plus its own step's cost (Level),
// that some lane may always step, that the others go on without a lane
// that stopped, and that a lane reset steps alone until it has caught up.
func TestGroupStepsOnlyTheLeast(t *testing.T) {
	g := NewGroup(UnitEvals)
	costs := []float64{1, 3, 7, 50}
	lanes := make([]*lane, len(costs))
	for i := range lanes {
		lanes[i] = g.join(0, true)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	level := true
	turn := func(skip int) int {
		var ok []int
		for i, l := range lanes {
			if i != skip && l.may() {
				ok = append(ok, i)
			}
		}
		if len(ok) == 0 {
			t.Fatalf("no lane may step: %+v", g.Members())
		}
		i := ok[rng.IntN(len(ok))]
		l := lanes[i]
		l.update(l.spent+costs[i], true)
		if j, ok := Level(g.Members()); level && !ok {
			t.Fatalf("lane %d (cost %g) ran ahead: %+v", j, costs[j], g.Members())
		}
		return i
	}
	for range 5000 {
		turn(-1)
	}
	// Lane 0 stops (diverged, say): the others go on without it.
	lanes[0].update(lanes[0].spent, false)
	before := lanes[0].spent
	for range 2000 {
		turn(0)
	}
	for i := 1; i < len(lanes); i++ {
		if lanes[i].spent <= before+costs[i] {
			t.Fatalf("lane %d waited for a stopped lane: spent %g, the stopped one %g", i, lanes[i].spent, before)
		}
	}
	// It is reset and plays again, behind: only it may step until it has
	// caught up, and then the group is level again.
	lanes[0].update(0, true)
	level = false
	least := lanes[1].spent
	for i := 2; i < len(lanes); i++ {
		least = min(least, lanes[i].spent)
	}
	for lanes[0].spent < least {
		if i := turn(-1); i != 0 {
			t.Fatalf("lane %d stepped while the reset lane was behind (%g < %g)", i, lanes[0].spent, least)
		}
	}
	level = true
	for range 2000 {
		turn(-1)
	}
	// Leaving lets the rest step.
	for _, l := range lanes[1:] {
		l.leave()
	}
	if !lanes[0].may() {
		t.Fatal("the last lane left may not step")
	}
}

func TestParseUnit(t *testing.T) {
	for _, s := range []string{"grads", "cpu"} {
		if u, err := ParseUnit("unit", s); err != nil || string(u) != s {
			t.Errorf("ParseUnit(%q) = %q, %v", s, u, err)
		}
	}
	if _, err := ParseUnit("unit", "steps"); err == nil {
		t.Error("ParseUnit(steps) accepted")
	} else if fe, ok := err.(*sim.FieldError); !ok || fe.Field != "unit" {
		t.Errorf("ParseUnit(steps) = %v, want a FieldError on unit", err)
	}
}

// costMethod is a method whose every step spends cost evaluations, and
// which, before each step, checks its pacing group's promise (Level) on
// one reading of the group: so the promise is checked at every step of
// every run, while the others step in their own goroutines.
type costMethod struct {
	cost   int64
	spin   int // work per step, for a group counting CPU time
	sink   float64
	g      *Group
	broken *atomic.Int64 // steps that found the promise broken
	steps  int64
}

func (m *costMethod) Spec() sim.MethodSpec {
	return sim.MethodSpec{Name: "cost", Label: "Cost", Family: sim.FamilyVI}
}
func (m *costMethod) Init(*sim.Dataset, sim.Controls, *rand.Rand) error { m.steps = 0; return nil }
func (m *costMethod) Step() sim.StepStats {
	if _, ok := Level(m.g.Members()); !ok {
		m.broken.Add(1)
	}
	m.steps++
	for i := range m.spin {
		m.sink += float64(i) * 1e-9
	}
	return sim.StepStats{Objective: -1, Evals: m.cost}
}
func (m *costMethod) Set(string, sim.Value) error { return nil }
func (m *costMethod) Trace() []float64            { return nil }
func (m *costMethod) Predict(xs []float64, samples int) sim.Predictive {
	return sim.Predictive{X: append([]float64(nil), xs...)}
}

// TestPacedRunsStayLevel plays runs whose steps cost 1, 5 and 40
// evaluations in one group, each in its own goroutine, one after the
// other, and checks the group's promise at every step of every run
// (costMethod) and at every frame: each frame's spent evaluations are
// within the run's step cost of the least of the group's reading taken
// just after. A run paused holds the others; played again, all go on.
func TestPacedRunsStayLevel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	g := NewGroup(UnitEvals)
	var broken atomic.Int64
	costs := []int64{1, 5, 40}
	runs := make([]*Run, len(costs))
	for i, c := range costs {
		r, err := NewRun("r", &costMethod{cost: c, g: g, broken: &broken}, fakeDataset(), nil, 1, RunOptions{Log: quiet, FrameRate: 200})
		if err != nil {
			t.Fatal(err)
		}
		r.Start(ctx)
		runs[i] = r
		if err := r.Pace(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	if g.Len() != len(runs) {
		t.Fatalf("%d members, want %d", g.Len(), len(runs))
	}
	for _, r := range runs {
		if err := r.Do(ctx, wire.Op{Op: OpPlay}, nil); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	var frames, far atomic.Int64
	watch := ctx
	wctx, stop := context.WithCancel(watch)
	for i, r := range runs {
		wg.Add(1)
		go func() { // a viewer: every frame within one step of the least
			defer wg.Done()
			var c Cursor
			for {
				f, next := r.Read(&c)
				least := f.Evals
				for _, m := range g.Members() {
					if m.Racing {
						least = min(least, int64(m.Spent))
					}
				}
				frames.Add(1)
				if f.Evals > least+costs[i] {
					far.Add(1)
				}
				select {
				case <-next:
				case <-wctx.Done():
					return
				}
			}
		}()
	}
	waitLeast := func(n float64, skip int) {
		t.Helper()
		deadline := time.Now().Add(time.Minute)
		for {
			least := -1.0
			for i, m := range g.Members() {
				if i != skip && (least < 0 || m.Spent < least) {
					least = m.Spent
				}
			}
			if least >= n {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the group did not reach %g evaluations: %+v", n, g.Members())
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	waitLeast(10_000, -1)
	if err := runs[0].Do(ctx, wire.Op{Op: OpPause}, nil); err != nil {
		t.Fatal(err)
	}
	if err := runs[0].Do(ctx, wire.Op{Op: OpPlay}, nil); err != nil {
		t.Fatal(err)
	}
	waitLeast(20_000, -1)
	stop()
	wg.Wait()
	if n := broken.Load(); n > 0 {
		t.Errorf("%d steps found a run more than its step's cost ahead of the least", n)
	}
	if n := far.Load(); n > 0 {
		t.Errorf("%d of %d frames were more than a step ahead of the least", n, frames.Load())
	}
	for _, r := range runs {
		if err := r.Pace(ctx, nil); err != nil {
			t.Fatal(err)
		}
	}
	if g.Len() != 0 {
		t.Errorf("%d members after every run left", g.Len())
	}
}

// TestCPUPacedRunsStayLevel paces two runs whose steps take about 1 and 30
// units of CPU work by CPU seconds, and checks the promise at every step:
// each within its last step's CPU time of the least.
func TestCPUPacedRunsStayLevel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	g := NewGroup(UnitCPU)
	var broken atomic.Int64
	var runs []*Run
	for _, spin := range []int{1_000, 30_000} {
		r, err := NewRun("r", &costMethod{cost: 1, spin: spin, g: g, broken: &broken}, fakeDataset(), nil, 1, RunOptions{Log: quiet, FrameRate: 200})
		if err != nil {
			t.Fatal(err)
		}
		r.Start(ctx)
		if err := r.Pace(ctx, g); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, r)
	}
	for _, r := range runs { // all joined before any plays: they start level
		if err := r.Do(ctx, wire.Op{Op: OpPlay}, nil); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(time.Minute)
	for {
		ms := g.Members()
		if min(ms[0].Spent, ms[1].Spent) >= 0.05 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the group did not reach 0.05 CPU seconds: %+v", ms)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if n := broken.Load(); n > 0 {
		t.Errorf("%d steps found a run more than its step's CPU time ahead of the least", n)
	}
	for _, r := range runs {
		if err := r.Do(ctx, wire.Op{Op: OpPause}, nil); err != nil {
			t.Fatal(err)
		}
	}
	for i, r := range runs {
		f := r.Latest()
		if f.CPU <= 0 || f.Step == 0 {
			t.Errorf("run %d: a frame at step %d reports %v of CPU time", i, f.Step, f.CPU)
		}
	}
}

// TestFrameBudget: a frame carries the evaluations its run's steps
// reported since the last initialisation: five steps of cost 3 are 15, and
// a reset starts them again at 0.
func TestFrameBudget(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var broken atomic.Int64
	r, err := NewRun("r", &costMethod{cost: 3, g: NewGroup(UnitEvals), broken: &broken}, fakeDataset(), nil, 1, RunOptions{Log: quiet, FrameRate: 200})
	if err != nil {
		t.Fatal(err)
	}
	r.Start(ctx)
	n := 5.0
	if err := r.Do(ctx, wire.Op{Op: OpStep, N: &n}, nil); err != nil {
		t.Fatal(err)
	}
	waitFrame(t, r, func(f *Frame) bool { return f.Step == 5 })
	if f := r.Latest(); f.Evals != 15 {
		t.Fatalf("after 5 steps of 3: a frame with %d evaluations", f.Evals)
	}
	if err := r.Do(ctx, wire.Op{Op: OpReset}, nil); err != nil {
		t.Fatal(err)
	}
	waitFrame(t, r, func(f *Frame) bool { return f.Step == 0 && f.Evals == 0 })
}

// threadedCost is a costMethod that steps in several goroutines
// (sim.Parallel), recording what it was told.
type threadedCost struct {
	costMethod
	threads atomic.Int64
}

func (m *threadedCost) SetEnv(e sim.Env) { m.threads.Store(int64(e.Threads)) }

func (m *threadedCost) Spec() sim.MethodSpec {
	s := m.costMethod.Spec()
	s.Capabilities = append(s.Capabilities, sim.Parallel)
	return s
}

// TestCPUPacedRunsStepOnOneThread: a threaded method paced by CPU time is
// told to step on one goroutine, the run's, whose CPU time is what the
// group counts.
func TestCPUPacedRunsStepOnOneThread(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var broken atomic.Int64
	g := NewGroup(UnitCPU)
	m := &threadedCost{costMethod: costMethod{cost: 1, g: g, broken: &broken}}
	r, err := NewRun("r", m, fakeDataset(), nil, 1, RunOptions{Log: quiet, FrameRate: 200})
	if err != nil {
		t.Fatal(err)
	}
	r.Start(ctx)
	if err := r.Pace(ctx, g); err != nil {
		t.Fatal(err)
	}
	n := 3.0
	if err := r.Do(ctx, wire.Op{Op: OpStep, N: &n}, nil); err != nil {
		t.Fatal(err)
	}
	waitFrame(t, r, func(f *Frame) bool { return f.Step == 3 })
	if got := m.threads.Load(); got != 1 {
		t.Errorf("a CPU-paced threaded method was told %d threads, want 1", got)
	}
}
