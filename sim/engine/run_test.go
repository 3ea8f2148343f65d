package engine

import (
	"github.com/posterior-playground/playground/sim/wire"

	"github.com/posterior-playground/playground/sim"

	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"math"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// startRun starts a run of f; cleanup cancels it and waits for its goroutine.
func startRun(t testing.TB, f *fakeMethod, opt RunOptions) *Run {
	t.Helper()
	if opt.Log == nil {
		opt.Log = quiet
	}
	if opt.FrameRate == 0 {
		opt.FrameRate = 200 // quick tests
	}
	r, err := NewRun("t", f, fakeDataset(), fakeControls(), 7, opt)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.Start(ctx)
	t.Cleanup(func() {
		cancel()
		select {
		case <-r.Done():
		case <-time.After(5 * time.Second):
			t.Error("run goroutine did not end after cancel")
		}
	})
	return r
}

// waitFrame waits for a published frame satisfying ok.
func waitFrame(t testing.TB, r *Run, ok func(*Frame) bool) *Frame {
	t.Helper()
	deadline := time.After(10 * time.Second)
	var c Cursor
	for {
		f, changed := r.Read(&c)
		if ok(f) {
			return f
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("no such frame; last: step %d status %s message %q", f.Step, f.Status, f.Message)
		}
	}
}

func bg() context.Context { return context.Background() }

// Tests about timing (frame rate, speed cap, band and weight budgets, idle
// pauses) run inside a synctest bubble: the clock is fake and moves only
// when every goroutine of the bubble is blocked, so a time.Sleep there
// lets fake time pass at once and the counts are the same on a loaded
// machine. A run that steps never blocks, so its method must: give the
// fake a stepDelay, or the clock stops while it steps.

func TestRunStartsPausedAndPlays(t *testing.T) {
	synctest.Test(t, testRunStartsPausedAndPlays)
}

func testRunStartsPausedAndPlays(t *testing.T) {
	r := startRun(t, &fakeMethod{stepDelay: time.Millisecond}, RunOptions{})
	f := r.Latest()
	if f.Status != StatusPaused || f.Step != 0 || f.Predictive == nil {
		t.Fatalf("first frame: %+v", f)
	}
	if err := r.Play(bg()); err != nil {
		t.Fatal(err)
	}
	waitFrame(t, r, func(f *Frame) bool { return f.Status == StatusRunning && f.Step > 100 })
	if err := r.Pause(bg()); err != nil {
		t.Fatal(err)
	}
	f = waitFrame(t, r, func(f *Frame) bool { return f.Status == StatusPaused })
	time.Sleep(30 * time.Millisecond) // fake time: six frame intervals in which a paused run must not move
	if g := r.Latest(); g.Step != f.Step || g.StepsPerSec != 0 {
		t.Fatalf("paused at step %d but now at %d (%g steps/s)", f.Step, g.Step, g.StepsPerSec)
	}
	var c Cursor
	r.Read(&c)
	// The history keeps one point in every stride, stride ≤ 2·steps/capacity.
	if n := len(c.Objective); n == 0 || c.Objective[n-1].Step > f.Step || f.Step-c.Objective[n-1].Step >= max(1, 2*f.Step/1024) {
		t.Fatalf("history ends at %v, frame at step %d", c.Objective[max(0, n-1):], f.Step)
	}
}

func TestRunStepN(t *testing.T) { synctest.Test(t, testRunStepN) }

func testRunStepN(t *testing.T) {
	r := startRun(t, &fakeMethod{}, RunOptions{})
	if err := r.Step(bg(), 7); err != nil {
		t.Fatal(err)
	}
	f := waitFrame(t, r, func(f *Frame) bool { return f.Step == 7 })
	if f.Status != StatusPaused {
		t.Fatalf("status %s after step 7", f.Status)
	}
	for _, n := range []int64{0, -1, MaxStepCommand + 1} {
		var fe *sim.FieldError
		if err := r.Step(bg(), n); !errors.As(err, &fe) || fe.Field != "n" {
			t.Fatalf("Step(%d) = %v, want a FieldError for n", n, err)
		}
	}
	time.Sleep(20 * time.Millisecond) // fake time: four frame intervals in which nothing may move
	if s := r.Latest().Step; s != 7 {
		t.Fatalf("rejected steps moved the run to %d", s)
	}
}

// A reset draws a fresh stream from the seed, so the same steps give the
// same objectives bit for bit.
func TestRunResetReproduces(t *testing.T) {
	r := startRun(t, &fakeMethod{}, RunOptions{})
	var c Cursor
	run50 := func() []float64 {
		if err := r.Step(bg(), 50); err != nil {
			t.Fatal(err)
		}
		waitFrame(t, r, func(f *Frame) bool { return f.Step == 50 })
		r.Read(&c)
		if len(c.Objective) != 50 {
			t.Fatalf("%d points, want 50", len(c.Objective))
		}
		out := make([]float64, 50)
		for i, p := range c.Objective {
			out[i] = p.Value
		}
		return out
	}
	first := run50()
	if err := r.Reset(bg()); err != nil {
		t.Fatal(err)
	}
	f := waitFrame(t, r, func(f *Frame) bool { return f.Epoch == 1 })
	if f.Step != 0 || f.Status != StatusPaused {
		t.Fatalf("after reset: step %d status %s", f.Step, f.Status)
	}
	second := run50()
	if !c.Full {
		t.Fatal("the first read after a reset should replace the viewer's points")
	}
	for i := range first {
		if first[i] != second[i] {
			t.Fatalf("step %d: %v before reset, %v after", i+1, first[i], second[i])
		}
	}
}

func TestRunSetValidatesAndMarks(t *testing.T) {
	r := startRun(t, &fakeMethod{}, RunOptions{})
	if err := r.Step(bg(), 50); err != nil {
		t.Fatal(err)
	}
	before := waitFrame(t, r, func(f *Frame) bool { return f.Step == 50 })
	// x has relaxed to k = 1: objective ≈ −log 1 = 0.
	if math.Abs(before.Objective) > 0.01 {
		t.Fatalf("objective %v, want ≈ 0", before.Objective)
	}
	bad := []struct {
		name  string
		value sim.Value
	}{
		{"nope", sim.Num(1)}, {"prior_scale", sim.Num(100)}, {"prior_scale", sim.Num(math.NaN())},
		{"prior_scale", sim.Choice("big")}, {"kernel", sim.Choice("matern")}, {"width", sim.Num(2.5)},
	}
	for _, b := range bad {
		var fe *sim.FieldError
		if err := r.Set(bg(), b.name, b.value); !errors.As(err, &fe) || fe.Field != b.name || fe.Message == "" {
			t.Fatalf("Set(%s, %v) = %v, want a FieldError naming %s", b.name, b.value, err, b.name)
		}
	}
	if err := r.Set(bg(), "prior_scale", sim.Num(5)); err != nil {
		t.Fatal(err)
	}
	f := waitFrame(t, r, func(f *Frame) bool { return f.Controls["prior_scale"] == sim.Num(5) })
	if f.Step != 50 || f.Epoch != 0 || len(f.Marks) != 1 || f.Marks[0] != (wire.Mark{Step: 50, Name: "prior_scale", Value: sim.Num(5)}) {
		t.Fatalf("after a live set: step %d epoch %d marks %v", f.Step, f.Epoch, f.Marks)
	}
	if f.Controls["kernel"] != sim.Choice("eq") || f.Controls["lr"] != sim.Num(0.1) {
		t.Fatalf("rejected sets changed controls: %v", f.Controls)
	}
	if err := r.Step(bg(), 1); err != nil {
		t.Fatal(err)
	}
	// One step with lr 0.1 moves x from ≈1 to ≈1.4: objective ≈ −3.6² − log 5 ≈ −14.6.
	f = waitFrame(t, r, func(f *Frame) bool { return f.Step == 51 })
	if f.Objective > -14 || f.Objective < -15.2 {
		t.Fatalf("objective %v after prior_scale 5, want ≈ −14.6", f.Objective)
	}
	// A control that is not live restarts the method with the new value.
	if err := r.Set(bg(), "width", sim.Num(20)); err != nil {
		t.Fatal(err)
	}
	f = waitFrame(t, r, func(f *Frame) bool { return f.Epoch == 1 })
	if f.Step != 0 || f.Controls["width"] != sim.Num(20) || f.Controls["prior_scale"] != sim.Num(5) {
		t.Fatalf("after a non-live set: step %d controls %v", f.Step, f.Controls)
	}
}

func TestRunSetInitFailureChangesNothing(t *testing.T) {
	fm := &fakeMethod{initErr: func(c sim.Controls) error {
		if c["width"].Num > 50 {
			return errors.New("too wide")
		}
		return nil
	}}
	r := startRun(t, fm, RunOptions{})
	r.Step(bg(), 5)
	waitFrame(t, r, func(f *Frame) bool { return f.Step == 5 })
	var fe *sim.FieldError
	if err := r.Set(bg(), "width", sim.Num(60)); !errors.As(err, &fe) || fe.Field != "width" {
		t.Fatalf("got %v", err)
	}
	f := r.Latest()
	if f.Controls["width"] != sim.Num(10) || f.Status == StatusDiverged {
		t.Fatalf("after a failed set: %v, %s", f.Controls, f.Status)
	}
}

func TestRunDivergesAndKeepsLastGoodState(t *testing.T) {
	r := startRun(t, &fakeMethod{nanAt: 30}, RunOptions{})
	if err := r.Play(bg()); err != nil {
		t.Fatal(err)
	}
	f := waitFrame(t, r, func(f *Frame) bool { return f.Status == StatusDiverged })
	if f.Step != 29 || !strings.Contains(f.Message, "NaN") || f.Predictive == nil || math.IsNaN(f.Objective) {
		t.Fatalf("diverged frame: step %d message %q band %v objective %v", f.Step, f.Message, f.Predictive != nil, f.Objective)
	}
	var fe *sim.FieldError
	if err := r.Play(bg()); !errors.As(err, &fe) || fe.Field != "op" {
		t.Fatalf("Play after divergence = %v", err)
	}
	if err := r.Reset(bg()); err != nil {
		t.Fatal(err)
	}
	f = waitFrame(t, r, func(f *Frame) bool { return f.Epoch == 1 })
	if f.Status != StatusPaused || f.Step != 0 || f.Message != "" {
		t.Fatalf("after reset: %s step %d %q", f.Status, f.Step, f.Message)
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestRunRecoversPanics(t *testing.T) {
	var logs syncBuffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	r := startRun(t, &fakeMethod{panicAt: 10}, RunOptions{Log: log})
	r.Play(bg())
	f := waitFrame(t, r, func(f *Frame) bool { return f.Status == StatusDiverged })
	if f.Step != 9 || !strings.Contains(f.Message, "fake step exploded") {
		t.Fatalf("step %d message %q", f.Step, f.Message)
	}
	if !strings.Contains(logs.String(), "stack=") || !strings.Contains(logs.String(), "fakeMethod).Step") {
		t.Fatalf("the log lacks the stack:\n%s", logs.String())
	}

	r2 := startRun(t, &fakeMethod{}, RunOptions{Log: log})
	var fe *sim.FieldError
	if err := r2.Set(bg(), "boom", sim.Num(1)); !errors.As(err, &fe) || fe.Field != "boom" {
		t.Fatalf("Set panicking = %v", err)
	}
	waitFrame(t, r2, func(f *Frame) bool { return f.Status == StatusDiverged })

	r3 := startRun(t, &fakeMethod{}, RunOptions{Log: log})
	r3.m.(*fakeMethod).panicPredict = true // the run goroutine only reads it after the next command
	r3.Step(bg(), 1)
	f = waitFrame(t, r3, func(f *Frame) bool { return f.Status == StatusDiverged })
	if !strings.Contains(f.Message, "Predict") {
		t.Fatalf("message %q", f.Message)
	}
}

func TestRunStopsOnCancel(t *testing.T) {
	r, err := NewRun("t", &fakeMethod{}, fakeDataset(), fakeControls(), 1, RunOptions{Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(bg())
	r.Start(ctx)
	r.Play(bg())
	cancel()
	select {
	case <-r.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("run did not stop")
	}
	if err := r.Pause(bg()); !errors.Is(err, ErrRunClosed) {
		t.Fatalf("command to a closed run = %v", err)
	}
}

func TestRunStepBudget(t *testing.T) {
	r := startRun(t, &fakeMethod{}, RunOptions{MaxSteps: 1000})
	r.Play(bg())
	f := waitFrame(t, r, func(f *Frame) bool { return f.Status == StatusDone })
	if f.Step != 1000 || f.Message == "" {
		t.Fatalf("done at %d: %q", f.Step, f.Message)
	}
	if err := r.Step(bg(), 1); err == nil {
		t.Fatal("stepping past the budget was allowed")
	}
}

// The band is mean ± 2 sd of the fake's functions in user units: the fake's
// offsets 0.1·(s − 9.5), s = 0..19, have sample sd 0.1·sqrt(20·21/12) =
// 0.1·sqrt(35); YScale multiplies it by 4 and X maps through XScale.
func TestRunBandInUserUnits(t *testing.T) {
	r := startRun(t, &fakeMethod{}, RunOptions{})
	r.Step(bg(), 3)
	f := waitFrame(t, r, func(f *Frame) bool { return f.Step == 3 })
	x := r.m.(*fakeMethod).x // the run is paused: no data race
	b := f.Predictive
	sd := 4 * 0.1 * math.Sqrt(35)
	d := fakeDataset()
	for i, g := range d.Grid {
		mean := -3 + 4*x*g
		if math.Abs(b.X[i]-(10+2*g)) > 1e-12 || math.Abs(b.Mean[i]-mean) > 1e-12 ||
			math.Abs(b.Lo[i]-(mean-2*sd)) > 1e-12 || math.Abs(b.Hi[i]-(mean+2*sd)) > 1e-12 {
			t.Fatalf("grid %d: x %v mean %v lo %v hi %v; want %v %v ± %v", i, b.X[i], b.Mean[i], b.Lo[i], b.Hi[i], 10+2*g, mean, 2*sd)
		}
	}
	if len(b.Samples) != 5 || math.Abs(b.Samples[0][2]-(-3+4*(-0.95))) > 1e-12 {
		t.Fatalf("samples %v", b.Samples)
	}
	if got := f.Diagnostics["noise_std"]; got != 2 {
		t.Fatalf("noise_std %v, want 0.5·4", got)
	}
	dp := r.Data()
	if dp.X[0] != 8 || dp.Y[0] != -1 || dp.Truth[0] != -3+4*1 {
		t.Fatalf("data in user units: %+v", dp)
	}
}

func TestRunSpeedCap(t *testing.T) { synctest.Test(t, testRunSpeedCap) }

func testRunSpeedCap(t *testing.T) {
	r := startRun(t, &fakeMethod{}, RunOptions{})
	if err := r.SetSpeed(bg(), 100); err != nil {
		t.Fatal(err)
	}
	if err := r.SetSpeed(bg(), -1); err == nil {
		t.Fatal("negative speed accepted")
	}
	start := time.Now()
	r.Play(bg())
	time.Sleep(200 * time.Millisecond) // fake time: the capped run waits on its timer
	r.Pause(bg())
	elapsed := time.Since(start).Seconds()
	f := waitFrame(t, r, func(f *Frame) bool { return f.Status == StatusPaused })
	// At most one step per 10 ms, plus the one allowed at once. On the fake
	// clock the run is never starved, so it also takes every step it is
	// allowed, less the one due at each end of the window.
	if f.Step < 1 || float64(f.Step) > 100*elapsed+2 || float64(f.Step) < 100*elapsed-2 {
		t.Fatalf("%d steps in %.3fs at 100 steps/s", f.Step, elapsed)
	}
}

// Frames go out at most FrameRate times a second however fast the method is.
func TestRunFrameRateBounded(t *testing.T) { synctest.Test(t, testRunFrameRateBounded) }

func testRunFrameRateBounded(t *testing.T) {
	r := startRun(t, &fakeMethod{stepDelay: 100 * time.Microsecond}, RunOptions{FrameRate: 20})
	seq0 := r.Latest().Seq
	start := time.Now()
	r.Play(bg())
	time.Sleep(300 * time.Millisecond) // fake time, moved by the fake's 0.1 ms steps
	frames := r.Latest().Seq - seq0
	// A frame is due 50 ms after the last and goes out at the end of the
	// batch (≤ BatchTime = 10 ms) in which it falls due: at least one per
	// 60 ms on the fake clock, which never starves the run.
	if limit := 20*time.Since(start).Seconds() + 2; float64(frames) > limit || frames < 1 || float64(frames) < time.Since(start).Seconds()/0.060-1 {
		t.Fatalf("%d frames in %v at 20/s", frames, time.Since(start))
	}
}

// A viewer that reads once and never again holds nothing the run waits for:
// the run spends its whole budget. A reading viewer sees each kept point
// once, in order.
func TestRunIgnoresStalledViewer(t *testing.T) {
	r := startRun(t, &fakeMethod{}, RunOptions{MaxSteps: 200_000, HistoryCap: 64})
	var stalled Cursor
	r.Read(&stalled)
	var c Cursor
	last := int64(math.MinInt64)
	r.Play(bg())
	for {
		f, changed := r.Read(&c)
		for _, p := range c.Objective {
			if p.Step <= last {
				t.Fatalf("point %d after %d", p.Step, last)
			}
			last = p.Step
		}
		if f.Status == StatusDone {
			break
		}
		select {
		case <-changed:
		case <-time.After(10 * time.Second):
			t.Fatal("the run stalled")
		}
	}
	var full Cursor
	r.Read(&full)
	if n := len(full.Objective); n > 64 || n < 32 || full.Objective[n-1].Step > 200_000 {
		t.Fatalf("history of %d points after 200000 steps, capacity 64", n)
	}
	if len(full.Traces) != 2 || len(full.Traces[1]) != len(full.Objective) || full.Traces[1][0].Value != 1 {
		t.Fatalf("traces %v", full.Traces)
	}
}

// BenchmarkRunSteps measures steps per second of the fake method with no
// viewer and with a viewer that never reads again.
func BenchmarkRunSteps(b *testing.B) {
	for _, stalled := range []bool{false, true} {
		name := "no-viewer"
		if stalled {
			name = "stalled-viewer"
		}
		b.Run(name, func(b *testing.B) {
			r := startRun(b, &fakeMethod{}, RunOptions{MaxSteps: int64(b.N), FrameRate: 25})
			if stalled {
				var c Cursor
				r.Read(&c)
			}
			b.ResetTimer()
			r.Play(bg())
			waitFrame(b, r, func(f *Frame) bool { return f.Status == StatusDone })
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "steps/s")
		})
	}
}

// Between a reset and its first frame the history belongs to the next
// epoch: a viewer gets no points until that frame, then all of them.
func TestRunReadDuringReset(t *testing.T) {
	r, err := NewRun("t", &fakeMethod{}, fakeDataset(), fakeControls(), 1, RunOptions{Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	// No goroutine: drive the loop's pieces by hand.
	r.st.pending = 5
	r.batch(time.Now())
	r.publish(time.Now())
	var c Cursor
	if r.Read(&c); len(c.Objective) != 5 || !c.Full {
		t.Fatalf("%d points, full %v", len(c.Objective), c.Full)
	}
	if err := r.reinit(r.ctl.now, false); err != nil {
		t.Fatal(err)
	}
	r.st.pending = 2
	r.batch(time.Now())
	if f, _ := r.Read(&c); len(c.Objective) != 0 || c.Full || f.Epoch != 0 {
		t.Fatalf("before the reset frame: %d points, full %v, epoch %d", len(c.Objective), c.Full, f.Epoch)
	}
	r.publish(time.Now())
	if f, _ := r.Read(&c); len(c.Objective) != 2 || !c.Full || f.Epoch != 1 || c.Objective[0].Step != 1 {
		t.Fatalf("after the reset frame: %v, full %v, epoch %d", c.Objective, c.Full, f.Epoch)
	}
}

// A slow Predict is not called on every frame while the run steps: bands
// take at most about 1/bandCostShare of the time, frames still go out.
func TestRunBandBudget(t *testing.T) { synctest.Test(t, testRunBandBudget) }

func testRunBandBudget(t *testing.T) {
	fm := &fakeMethod{stepDelay: 100 * time.Microsecond, predictDelay: 20 * time.Millisecond}
	r := startRun(t, fm, RunOptions{FrameRate: 100})
	seq0, p0 := r.Latest().Seq, fm.predicts // the run is paused: no race
	start := time.Now()
	// A band costs ≥ 20 ms, so the next waits max(minBandInterval, 20 ms ×
	// bandCostShare) = 200 ms: five such gaps hold at least four bands.
	gap := max(minBandInterval, fm.predictDelay*bandCostShare)
	r.Play(bg())
	time.Sleep(5 * gap) // fake time
	r.Pause(bg())
	elapsed := time.Since(start)
	f := waitFrame(t, r, func(f *Frame) bool { return f.Status == StatusPaused })
	predicts, frames := fm.predicts-p0, f.Seq-seq0
	// At most one band per gap, plus the first and the paused frame's;
	// at least two even if the machine stalls the run for a whole gap.
	if limit := int(elapsed/gap) + 2; predicts > limit || predicts < 2 {
		t.Fatalf("%d predictions in %v, want 2..%d", predicts, elapsed, limit)
	}
	if frames <= uint64(predicts) {
		t.Fatalf("%d frames for %d predictions: frames wait for bands", frames, predicts)
	}
}

// Recording a step (objective and traces into the bounded history)
// allocates nothing, before and after the history fills and halves.
func TestRunStepAllocatesNothing(t *testing.T) {
	fm := &fakeMethod{traceBuf: make([]float64, 2)}
	r, err := NewRun("t", fm, fakeDataset(), fakeControls(), 1, RunOptions{Log: quiet, HistoryCap: 64})
	if err != nil {
		t.Fatal(err)
	}
	if allocs := testing.AllocsPerRun(1000, func() { r.stepOnce() }); allocs != 0 {
		t.Fatalf("a step allocates %v times", allocs)
	}
	if r.box.hist.Stride() < 16 {
		t.Fatalf("stride %d: the history did not halve during the test", r.box.hist.Stride())
	}
}
