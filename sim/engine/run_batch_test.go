package engine

import (
	"context"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/posterior-playground/playground/sim"
)

// Runs sharing a Stepping count keep it equal to how many of them step,
// and back at zero once they stop.
func TestSteppingCountsActiveRuns(t *testing.T) {
	var n atomic.Int64
	ctx, cancel := context.WithCancel(t.Context())
	var runs []*Run
	for range 3 {
		r, err := NewRun("t", &fakeMethod{stepDelay: 100 * time.Microsecond}, fakeDataset(), fakeControls(), 7, RunOptions{Log: quiet, Stepping: &n})
		if err != nil {
			t.Fatal(err)
		}
		r.Start(ctx)
		runs = append(runs, r)
	}
	waitCount := func(want int64) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); n.Load() != want; {
			if time.Now().After(deadline) {
				t.Fatalf("stepping count %d, want %d", n.Load(), want)
			}
			time.Sleep(time.Millisecond)
		}
	}
	for _, r := range runs {
		if err := r.Play(ctx); err != nil {
			t.Fatal(err)
		}
	}
	waitCount(3)
	if err := runs[0].Pause(ctx); err != nil {
		t.Fatal(err)
	}
	waitCount(2)
	cancel()
	for _, r := range runs {
		<-r.Done()
	}
	if got := n.Load(); got != 0 {
		t.Fatalf("stepping count %d after every run stopped, want 0", got)
	}
}

// With more stepping runs than cores a batch is the share of a frame
// interval that lets each have one in turn, never under minBatchTime.
func TestBatchTimeSharesTheFrameInterval(t *testing.T) {
	var n atomic.Int64
	r := newCores(RunOptions{FrameRate: 25, BatchTime: 10 * time.Millisecond, Stepping: &n})
	procs := int64(runtime.GOMAXPROCS(0))
	for _, tc := range []struct {
		stepping int64
		want     time.Duration
	}{
		{0, 10 * time.Millisecond},
		{procs, 10 * time.Millisecond},
		{4 * procs, 10 * time.Millisecond}, // 40 ms / 4 = 10 ms
		{8 * procs, 5 * time.Millisecond},
		{1000 * procs, minBatchTime},
	} {
		n.Store(tc.stepping)
		if got := r.batchTime(r.share()); got != tc.want {
			t.Errorf("%d stepping on %d cores: batch %v, want %v", tc.stepping, procs, got, tc.want)
		}
	}
	r.stepping = nil
	if got := r.batchTime(r.share()); got != 10*time.Millisecond {
		t.Errorf("no shared count: batch %v, want 10ms", got)
	}
}

// threadedMethod records the threads the engine told it (sim.EnvSetter).
type threadedMethod struct {
	fakeMethod
	told []int
}

func (m *threadedMethod) SetEnv(e sim.Env) { m.told = append(m.told, e.Threads) }

// A method that steps in several goroutines is told the cores the other
// stepping runs leave it, at least one, and only when that changes.
func TestShareCoresTellsThreadedMethods(t *testing.T) {
	var n atomic.Int64
	m := &threadedMethod{}
	r := newCores(RunOptions{Stepping: &n}.withDefaults())
	r.parallel = true // its spec declares sim.Parallel
	procs := runtime.GOMAXPROCS(0)
	var want []int
	for _, stepping := range []int{1, 1, 2, int(procs), int(procs) + 5} {
		n.Store(int64(stepping)) // the run itself among them
		r.tell(m, r.share())
		if w := max(1, procs-stepping+1); len(want) == 0 || want[len(want)-1] != w {
			want = append(want, w)
		}
	}
	if !slices.Equal(m.told, want) {
		t.Errorf("on %d cores told %v, want %v", procs, m.told, want)
	}
	r.stepping = nil
	r.tell(m, r.share())
	if len(m.told) != len(want) {
		t.Errorf("no shared count: told %v more", m.told[len(want):])
	}
}

// parallelMethod is threadedMethod with a spec that declares sim.Parallel.
type parallelMethod struct{ threadedMethod }

func (m *parallelMethod) Spec() sim.MethodSpec {
	s := m.threadedMethod.Spec()
	s.Capabilities = append(s.Capabilities, sim.Parallel)
	return s
}

// A run tells its method the threads a Step may use only when the spec
// declares sim.Parallel; every method that takes an Env gets the run's
// before Init, with no threads set.
func TestRunTellsParallelMethodsTheirThreads(t *testing.T) {
	var n atomic.Int64
	par, not := &parallelMethod{}, &threadedMethod{}
	for _, m := range []sim.Method{par, not} {
		r, err := NewRun("t", m, fakeDataset(), fakeControls(), 7, RunOptions{Log: quiet, Stepping: &n})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(t.Context())
		r.Start(ctx)
		if err := r.Step(ctx, 3); err != nil {
			t.Fatal(err)
		}
		waitFrame(t, r, func(f *Frame) bool { return f.Step == 3 })
		cancel()
		<-r.Done()
	}
	if len(par.told) < 2 || par.told[0] != 0 || par.told[1] < 1 {
		t.Errorf("a sim.Parallel method was told threads %v, want 0 at Init and then at least 1", par.told)
	}
	if !slices.Equal(not.told, []int{0}) {
		t.Errorf("a method without sim.Parallel was told threads %v, want only the Env before Init (0)", not.told)
	}
}

// While runs take turns, a batch that ran over its budget (a step is not
// cut) is paid back by the next ones, so a run of long steps gets its
// share of the turns' time and no more; a run that does not take turns
// owes nothing.
func TestBatchBudgetPaysBackOverruns(t *testing.T) {
	var n atomic.Int64
	r := newCores(RunOptions{FrameRate: 25, BatchTime: 2 * time.Millisecond, Stepping: &n})
	procs := int64(runtime.GOMAXPROCS(0))
	n.Store(procs + 1)
	sh := r.share()
	d := r.batchTime(sh)
	r.ranOver(sh, d/2+2*d) // a step of 3.5 batch times: 2.5 owed
	var got []time.Duration
	for range 4 {
		got = append(got, r.budget(sh))
	}
	if want := []time.Duration{0, 0, d / 2, d}; !slices.Equal(got, want) {
		t.Errorf("after an overrun of 2.5 batch times (%v) the budgets are %v, want %v", d, got, want)
	}
	r.ranOver(sh, time.Hour)
	if r.overrun != maxOverrun {
		t.Errorf("an hour's overrun is owed as %v, want %v", r.overrun, maxOverrun)
	}
	n.Store(procs) // no longer taking turns: the debt is forgiven
	sh = r.share()
	if b := r.budget(sh); b != r.batchTime(sh) || sh.crowded() || r.overrun != 0 {
		t.Errorf("not crowded: budget %v (want %v), owing %v", b, r.batchTime(sh), r.overrun)
	}
	r.ranOver(sh, time.Second)
	if r.overrun != 0 {
		t.Errorf("not crowded: an overrun is owed (%v)", r.overrun)
	}
}
