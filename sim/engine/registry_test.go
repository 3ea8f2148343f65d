package engine

import (
	"fmt"
	"runtime/pprof"

	"github.com/posterior-playground/playground/sim"

	"errors"
	"log/slog"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// fakeFactory builds fake runs; data "bad" gives a FieldError, data
// "noinit" an Init failure, data "big" one point more than the method
// accepts, data "slow" steps of 0.1 ms.
func fakeFactory(cfg RunConfig) (sim.Method, *sim.Dataset, sim.Controls, error) {
	if cfg.Data == "bad" {
		return nil, nil, nil, &sim.FieldError{Field: "data", Message: "unknown data set"}
	}
	f := &fakeMethod{}
	if cfg.Data == "slow" {
		f.stepDelay = 100 * time.Microsecond // moves a bubble's fake clock while the run steps
	}
	if cfg.Data == "big" {
		f.maxPoints = len(fakeDataset().X) - 1
	}
	if cfg.Data == "noinit" {
		f.initErr = func(sim.Controls) error { return errors.New("no") }
	}
	c, err := f.Spec().Resolve(cfg.Controls)
	if err != nil {
		return nil, nil, nil, err
	}
	return f, fakeDataset(), c, nil
}

func newRegistry(t *testing.T, cfg RegistryConfig) *Registry {
	t.Helper()
	if cfg.Run.FrameRate == 0 {
		cfg.Run.FrameRate = 200
	}
	g := NewRegistry(cfg, fakeFactory, quiet)
	t.Cleanup(g.Close)
	return g
}

func TestRegistryCaps(t *testing.T) {
	g := newRegistry(t, RegistryConfig{MaxRuns: 3, MaxRunsPerClient: 2})
	cfg := RunConfig{Data: "d", Method: "fake"}
	a1, err := g.Create(cfg, "a")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Create(cfg, "a"); err != nil {
		t.Fatal(err)
	}
	var le *LimitError
	if _, err := g.Create(cfg, "a"); !errors.As(err, &le) || !errors.Is(err, ErrTooManyRuns) {
		t.Fatalf("third run for a: %v", err)
	}
	if _, err := g.Create(cfg, "b"); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Create(cfg, "c"); !errors.Is(err, ErrTooManyRuns) {
		t.Fatalf("fourth run: %v", err)
	}
	if err := g.Delete(a1.ID()); err != nil {
		t.Fatal(err)
	}
	select {
	case <-a1.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("a deleted run kept running")
	}
	if _, err := g.Get(a1.ID()); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get of a deleted run: %v", err)
	}
	if err := g.Delete(a1.ID()); !errors.Is(err, ErrNotFound) {
		t.Fatalf("second Delete: %v", err)
	}
	if _, err := g.Create(cfg, "c"); err != nil {
		t.Fatalf("after a delete: %v", err)
	}
	if g.Len() != 3 {
		t.Fatalf("%d runs", g.Len())
	}
}

func TestRegistryBadConfigsFreeTheirSlot(t *testing.T) {
	g := newRegistry(t, RegistryConfig{MaxRuns: 1, MaxRunsPerClient: 1})
	var fe *sim.FieldError
	if _, err := g.Create(RunConfig{Data: "bad"}, "a"); !errors.As(err, &fe) || fe.Field != "data" {
		t.Fatalf("bad data: %v", err)
	}
	if _, err := g.Create(RunConfig{Data: "d", Controls: sim.Controls{"prior_scale": sim.Num(-1)}}, "a"); !errors.As(err, &fe) || fe.Field != "prior_scale" {
		t.Fatalf("bad control: %v", err)
	}
	if _, err := g.Create(RunConfig{Data: "big", Method: "fake"}, "a"); !errors.As(err, &fe) || fe.Field != "data" {
		t.Fatalf("too many training points: %v", err)
	}
	r, err := g.Create(RunConfig{Data: "d", Method: "fake", Seed: 3, Controls: sim.Controls{"lr": sim.Num(0.5)}}, "a")
	if err != nil {
		t.Fatalf("the failed creates kept their slots: %v", err)
	}
	c := r.Config()
	if c.Seed != 3 || c.Controls["lr"] != sim.Num(0.5) || c.Controls["prior_scale"] != sim.Num(1) {
		t.Fatalf("config %+v", c)
	}
}

func TestRegistryStepBudget(t *testing.T) {
	g := newRegistry(t, RegistryConfig{MaxSteps: 500})
	r, err := g.Create(RunConfig{Data: "d"}, "a")
	if err != nil {
		t.Fatal(err)
	}
	r.Play(bg())
	if f := waitFrame(t, r, func(f *Frame) bool { return f.Status == StatusDone }); f.Step != 500 {
		t.Fatalf("done at %d", f.Step)
	}
}

func TestRegistryPausesUnwatchedRuns(t *testing.T) {
	synctest.Test(t, testRegistryPausesUnwatchedRuns)
}

func testRegistryPausesUnwatchedRuns(t *testing.T) {
	g := newRegistry(t, RegistryConfig{IdleTimeout: 40 * time.Millisecond})
	r, err := g.Create(RunConfig{Data: "slow"}, "a")
	if err != nil {
		t.Fatal(err)
	}
	_, release, err := g.Watch(r.ID())
	if err != nil {
		t.Fatal(err)
	}
	r.Play(bg())
	time.Sleep(150 * time.Millisecond) // fake time (run_test.go): several idle timeouts, but watched
	if s := r.Latest().Status; s != StatusRunning {
		t.Fatalf("a watched run is %s", s)
	}
	left := time.Now()
	release()
	release() // idempotent
	if r.Viewers() != 0 {
		t.Fatalf("%d viewers", r.Viewers())
	}
	f := waitFrame(t, r, func(f *Frame) bool { return f.Status == StatusPaused })
	// On the fake clock: not before the idle timeout, and within it plus a
	// janitor period (10 ms), a batch (10 ms) and a frame interval (5 ms).
	if d := f.Time.Sub(left); d < 40*time.Millisecond || d > 65*time.Millisecond {
		t.Fatalf("paused %v after the last viewer left; idle timeout 40ms", d)
	}
}

func TestRegistryExpiresAbandonedRuns(t *testing.T) {
	synctest.Test(t, testRegistryExpiresAbandonedRuns)
}

func testRegistryExpiresAbandonedRuns(t *testing.T) {
	g := newRegistry(t, RegistryConfig{IdleTimeout: 20 * time.Millisecond, ExpireAfter: 60 * time.Millisecond})
	r, err := g.Create(RunConfig{Data: "d"}, "a")
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-r.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("abandoned run not deleted")
	}
	if _, err := g.Get(r.ID()); !errors.Is(err, ErrNotFound) {
		t.Fatal(err)
	}
}

func TestRegistryClose(t *testing.T) {
	g := NewRegistry(RegistryConfig{}, fakeFactory, quiet)
	r, err := g.Create(RunConfig{Data: "d"}, "a")
	if err != nil {
		t.Fatal(err)
	}
	r.Play(bg())
	g.Close()
	select {
	case <-r.Done():
	default:
		t.Fatal("Close returned before the run stopped")
	}
	if _, err := g.Create(RunConfig{Data: "d"}, "a"); !errors.Is(err, ErrRegistryClosed) {
		t.Fatalf("Create after Close: %v", err)
	}
}

// DefaultRegistryConfig writes out what zero values take: the registry's
// limits and every run option whose zero means "default".
func TestDefaultRegistryConfig(t *testing.T) {
	d := DefaultRegistryConfig()
	g := NewRegistry(RegistryConfig{}, fakeFactory, quiet)
	defer g.Close()
	z := g.Config()
	if d.MaxRuns != z.MaxRuns || d.MaxRunsPerClient != z.MaxRunsPerClient || d.MaxSteps != z.MaxSteps ||
		d.IdleTimeout != z.IdleTimeout || d.ExpireAfter != z.ExpireAfter {
		t.Fatalf("DefaultRegistryConfig %+v, zero config after defaults %+v", d, z)
	}
	o := d.Run
	if o.FrameRate <= 0 || o.HistoryCap <= 0 || o.BandSamples <= 0 || o.ShownSamples <= 0 || o.BatchTime <= 0 {
		t.Fatalf("run options not written out: %+v", o)
	}
	if o.Log != nil || o.MaxSteps != 0 || o.Speed != 0 {
		t.Fatalf("Log, MaxSteps and Speed should stay zero: %+v", o)
	}
	w := o.withDefaults()
	if w.Log != slog.Default() {
		t.Fatalf("withDefaults left Log %v", w.Log)
	}
	if w.Log = nil; w != o {
		t.Fatalf("DefaultRunOptions %+v changes under withDefaults: %+v", o, w)
	}
}

// An instance name begins every run id, so a balancer can route by it
// (web/deploy/haproxy.cfg); without one ids are plain hex.
func TestRegistryInstancePrefixesIDs(t *testing.T) {
	for _, instance := range []string{"", "i2"} {
		g := newRegistry(t, RegistryConfig{Instance: instance})
		run, err := g.Create(RunConfig{Data: "d", Method: "fake"}, "a")
		if err != nil {
			t.Fatal(err)
		}
		want := 16
		if instance != "" {
			want += len(instance) + 1
			if !strings.HasPrefix(run.ID(), instance+"-") {
				t.Errorf("id %q does not begin with %q", run.ID(), instance+"-")
			}
		}
		if len(run.ID()) != want {
			t.Errorf("instance %q: id %q has %d characters, want %d", instance, run.ID(), len(run.ID()), want)
		}
	}
	for name, ok := range map[string]bool{"i1": true, "a": true, "0123456789abcdef": true, "": false,
		"0123456789abcdefg": false, "I1": false, "i-1": false, "i/1": false, "é": false} {
		if ValidInstance(name) != ok {
			t.Errorf("ValidInstance(%q) = %v, want %v", name, !ok, ok)
		}
	}
}

// A run's goroutine carries the profiler labels run and method, so a CPU
// profile of a server with many runs splits by run.
func TestRegistryRunsCarryProfilerLabels(t *testing.T) {
	g := newRegistry(t, RegistryConfig{})
	r, err := g.Create(RunConfig{Data: "d", Method: "fake"}, "a")
	if err != nil {
		t.Fatal(err)
	}
	r.Play(bg())
	waitFrame(t, r, func(f *Frame) bool { return f.Step > 0 })
	var b strings.Builder
	if err := pprof.Lookup("goroutine").WriteTo(&b, 1); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf(`labels: {"method":"fake", "run":%q}`, r.ID())
	if !strings.Contains(b.String(), want) {
		t.Errorf("no goroutine labelled %s in the goroutine profile:\n%s", want, b.String())
	}
}
