package engine

import (
	"github.com/posterior-playground/playground/sim/cputime"
	"github.com/posterior-playground/playground/sim/wire"

	"github.com/posterior-playground/playground/sim"

	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"runtime/debug"
	"time"
)

// loop is the run goroutine: commands, a batch of steps, a frame when one
// is due; it sleeps when paused or held back by the speed cap.
func (r *Run) loop(ctx context.Context) {
	defer close(r.done)
	if c, ok := r.m.(io.Closer); ok {
		defer c.Close() // samplers stop their chain goroutines
	}
	r.prepare()
	for r.guarded(ctx) {
	}
}

// guarded runs the loop and turns a panic outside the method's calls (a
// bug of ours) into a diverged run that still answers commands; it reports
// whether to carry on.
func (r *Run) guarded(ctx context.Context) (again bool) {
	defer func() {
		if p := recover(); p != nil {
			r.diverge(r.recovered("run loop", p).Error())
			again = ctx.Err() == nil
		}
	}()
	r.steps(ctx)
	return false
}

func (r *Run) steps(ctx context.Context) {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	counted := false
	defer func() {
		if counted {
			r.opt.Stepping.Add(-1)
		}
	}()
	for {
		r.countStepping(&counted)
		now := time.Now()
		if r.dirty && !now.Before(r.nextFrame) {
			r.publish(now)
		}
		if d := r.wait(now); d != 0 {
			var tick <-chan time.Time
			if d > 0 {
				timer.Reset(d)
				tick = timer.C
			}
			select {
			case <-ctx.Done():
				return
			case c := <-r.ctrl:
				r.handle(c)
			case <-tick:
			}
			timer.Stop()
			continue
		}
		for more := true; more; {
			select {
			case <-ctx.Done():
				return
			case c := <-r.ctrl:
				r.handle(c)
			default:
				more = false
			}
		}
		if r.active() {
			r.batch(now)
		}
		runtime.Gosched() // let viewers' writers and other runs in between batches
	}
}

// minBatchTime is the shortest batch, however many runs step: below about
// a millisecond the loop's own work (commands, frames, yielding) shows.
const minBatchTime = time.Millisecond

// share is one reading of the shared count of stepping runs: n of them
// on procs cores. A batch reads it once, so its budget, its overrun and
// the method's thread count agree; procs is 0 without a shared count.
type share struct{ n, procs int64 }

// share reads the shared count of stepping runs.
func (r *Run) share() share {
	if r.opt.Stepping == nil {
		return share{}
	}
	return share{r.opt.Stepping.Load(), int64(runtime.GOMAXPROCS(0))}
}

// crowded reports whether more runs step than there are cores, so that
// they take turns.
func (s share) crowded() bool { return s.n > s.procs }

// batchTime is how long one batch may step: BatchTime and the frame
// interval, and, when more runs step than there are cores, the share of a
// frame interval that lets every one of them have a batch in turn within
// it (a run publishes only between batches).
func (r *Run) batchTime(s share) time.Duration {
	d := min(r.opt.BatchTime, r.frameInterval())
	if !s.crowded() {
		return d
	}
	return max(minBatchTime, min(d, r.frameInterval()*time.Duration(s.procs)/time.Duration(s.n)))
}

// maxOverrun caps what one batch's overrun is paid back with: a step
// longer than that (an exact GP on hundreds of points) is not made up for
// past a second of turns.
const maxOverrun = time.Second

// batchBudget is how long this batch may step: when runs take turns, the
// batch time less the CPU time earlier batches used over theirs (a step is not cut, so
// a run whose steps outlast the batch time — HMC's four chains, 4 ms, with
// 2-ms batches — would otherwise take two or three times its share of
// the cores); 0 skips this turn. Runs that do not take turns owe nothing.
func (r *Run) batchBudget(s share) time.Duration {
	d := r.batchTime(s)
	if !s.crowded() {
		r.overrun = 0
		return d
	}
	if r.overrun >= d {
		r.overrun -= d
		return 0
	}
	d, r.overrun = d-r.overrun, 0
	return d
}

// ranOver records how much CPU time a batch used past its budget, to be
// paid back by the next ones while runs take turns.
func (r *Run) ranOver(s share, over time.Duration) {
	if s.crowded() && over > 0 {
		r.overrun = min(over, maxOverrun)
	}
}

// shareCores tells a method that steps in several goroutines
// (sim.Threaded) how many it may use: the cores the other stepping runs
// leave, at least one. Without a shared count it is left as it likes.
func (r *Run) shareCores(s share) {
	t, ok := r.m.(sim.Threaded)
	if !ok || s.procs == 0 {
		return
	}
	n := max(1, int(s.procs-s.n+1))
	if n != r.threads {
		r.threads = n
		t.SetThreads(n)
	}
}

// countStepping keeps the shared count of stepping runs (Stepping) up to
// date with whether r steps now; on is what it last counted.
func (r *Run) countStepping(on *bool) {
	if r.opt.Stepping == nil {
		return
	}
	if now := r.active(); now != *on {
		*on = now
		if now {
			r.opt.Stepping.Add(1)
		} else {
			r.opt.Stepping.Add(-1)
		}
	}
}

// active reports whether the run should be stepping.
func (r *Run) active() bool {
	return r.status == StatusRunning || (r.status == StatusPaused && r.pending > 0)
}

func (r *Run) frameInterval() time.Duration {
	return time.Duration(float64(time.Second) / r.opt.FrameRate)
}

// wait returns 0 to step now, a positive duration to sleep at most that
// long, or a negative one to sleep until a command arrives.
func (r *Run) wait(now time.Time) time.Duration {
	if r.active() {
		if r.pending == 0 && r.speed > 0 {
			next := r.speedBase.Add(time.Duration(float64(r.step-r.speedStep+1) / r.speed * float64(time.Second)))
			if d := next.Sub(now); d > 0 {
				if r.dirty {
					d = min(d, r.nextFrame.Sub(now))
				}
				return d
			}
		}
		return 0
	}
	if r.dirty {
		return r.nextFrame.Sub(now) // positive: loop published otherwise
	}
	return -1
}

// batch steps until the batch time is used, the speed cap or a step
// command's count is reached, or the method diverges.
func (r *Run) batch(start time.Time) {
	defer func() {
		if p := recover(); p != nil {
			r.diverge(r.recovered("Step", p).Error())
		}
	}()
	limit := int64(math.MaxInt64)
	switch {
	case r.pending > 0:
		limit = r.pending
	case r.speed > 0:
		allowed := int64(start.Sub(r.speedBase).Seconds()*r.speed) - (r.step - r.speedStep)
		if allowed > int64(r.speed)+1 { // fell behind by over a second: do not race to catch up
			r.rebaseSpeed(start)
			allowed = 1
		}
		limit = max(1, allowed)
	}
	if r.budget > 0 {
		limit = min(limit, r.budget-r.step)
	}
	sh := r.share()
	r.shareCores(sh)
	budget := r.batchBudget(sh)
	if budget == 0 {
		return // this turn pays for the last batch's overrun
	}
	// The overrun is counted in the thread's CPU time, not the wall's: on a
	// loaded machine the OS may hold the thread off its core mid-batch, and
	// that is no share of the cores the run took.
	var cpu0 time.Duration
	measured := false
	if sh.crowded() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		cpu0, measured = cputime.Thread()
	}
	deadline := start.Add(budget)
	for i := int64(0); i < limit; i++ {
		if !r.stepOnce() || !time.Now().Before(deadline) {
			break
		}
	}
	if measured {
		if cpu1, ok := cputime.Thread(); ok {
			r.ranOver(sh, cpu1-cpu0-budget)
		}
	}
	r.dirty = true
	r.checkBudget()
}

// checkBudget ends a run that reached its step budget as done.
func (r *Run) checkBudget() {
	if r.budget > 0 && r.step >= r.budget && r.status != StatusDiverged {
		r.status, r.pending = StatusDone, 0
		r.message = fmt.Sprintf("step budget of %d steps spent: continue for another %d, or reset", r.opt.MaxSteps, r.opt.MaxSteps)
	}
}

// settle applies sim.Settler after a command: a method with nothing to
// iterate is stepped once to record its recomputed state when that state
// is new and someone asked for it (a control change, a play or a step
// command), and not again; a run that was playing shows StatusSettled
// until a change gives its method something to iterate, and then runs on.
// asked is true after a control change.
func (r *Run) settle(asked bool) {
	s, ok := r.m.(sim.Settler)
	if !ok || !r.ready || r.status == StatusDiverged || r.status == StatusDone {
		return
	}
	var why string
	var settled bool
	if err := r.safely("Settled", func() { why, settled = s.Settled() }); err != nil {
		r.diverge(err.Error())
		return
	}
	if !settled {
		if r.status == StatusSettled {
			r.status, r.message = StatusRunning, ""
			r.rebaseSpeed(time.Now())
		}
		return
	}
	asked = asked || r.status == StatusRunning || r.status == StatusSettled || r.pending > 0
	if asked && r.unrecorded && (r.budget <= 0 || r.step < r.budget) {
		r.stepGuarded()
		r.checkBudget()
	}
	r.pending = 0
	switch r.status {
	case StatusRunning, StatusSettled:
		r.status, r.message = StatusSettled, why
	}
}

// stepGuarded is one stepOnce outside a batch, a panic diverging the run.
func (r *Run) stepGuarded() {
	defer func() {
		if p := recover(); p != nil {
			r.diverge(r.recovered("Step", p).Error())
		}
	}()
	r.stepOnce()
}

// stepOnce performs one step and records it; false when it diverged.
func (r *Run) stepOnce() bool {
	retained := r.drawsBeforeStep() // samplers: is this step's draw kept? (run_draws.go)
	obj := r.m.Step().Objective
	if math.IsNaN(obj) || math.IsInf(obj, 0) {
		r.diverge(fmt.Sprintf("the objective became %v at step %d: stepping stopped, showing the last good state; reset to start again (a smaller step size may help)", obj, r.step+1))
		return false
	}
	r.step++
	r.taken.Add(1)
	r.lastObj = obj
	r.unrecorded = false
	if r.pending > 0 {
		r.pending--
	}
	// Traces are asked for only when the history keeps this step or a
	// sampler's draw is retained, and once for both: HMC's Trace on linreg
	// costs 8% of its step.
	keep := r.hist.Wants()
	var tr []float64
	if keep || retained {
		tr = r.m.Trace()
	}
	if keep {
		r.row[0] = obj
		for i := range r.traceNames {
			r.row[i+1] = math.NaN()
			if i < len(tr) {
				r.row[i+1] = tr[i] * r.traceScale[i]
			}
		}
		r.mu.Lock()
		r.hist.Add(r.step, r.row)
		r.mu.Unlock()
	} else {
		// Only counts the step (its stride counter, which viewers never
		// read): no lock, so a decimated history does not contend with
		// viewers' copies on every step.
		r.hist.Add(r.step, nil)
	}
	r.drawsAfterStep(retained, tr)
	return true
}

func (r *Run) diverge(msg string) {
	r.log.Warn("run diverged", "method", r.spec.Name, "step", r.step, "reason", msg)
	r.status, r.message, r.pending, r.dirty = StatusDiverged, msg, 0, true
}

// recovered logs a panic from the method with its stack and returns an
// error for the UI.
func (r *Run) recovered(call string, p any) error {
	r.log.Error("panic in method", "method", r.spec.Name, "call", call, "step", r.step, "panic", p, "stack", string(debug.Stack()))
	return fmt.Errorf("internal error in the method's %s: %v (details are in the server log)", call, p)
}

func (r *Run) rebaseSpeed(now time.Time) { r.speedBase, r.speedStep = now, r.step }

// handle applies one command and answers it.
func (r *Run) handle(c command) {
	var err error
	switch c.op {
	case OpPlay:
		if err = r.stopped(); err == nil {
			r.status, r.pending = StatusRunning, 0
			r.rebaseSpeed(time.Now())
		}
	case OpContinue:
		err = r.extend()
	case OpPause:
		if r.status == StatusRunning || r.status == StatusSettled {
			r.status, r.message = StatusPaused, ""
		}
		r.pending = 0
	case OpStep:
		if err = r.stopped(); err == nil {
			r.status, r.pending = StatusPaused, c.n
		}
	case OpReset:
		if err = r.reinit(r.controls, false); err != nil {
			r.diverge("reset failed: " + err.Error())
		}
	case OpSet:
		err = r.set(c.name, c.value)
	case OpSpeed:
		r.speed = c.value.Num
		r.rebaseSpeed(time.Now())
	case OpWeight:
		err = r.setWeightIndex(c.n) // run_weights.go
	case OpData:
		err = r.setData(c.data) // run_data.go
	case OpInducing:
		err = r.setInducing(int(c.n), c.value.Num) // run_data.go
	case opInspect:
		err = r.safely("Inspect", func() { c.fn(r.m, r.d) })
		c.reply <- err
		return // looked, changed nothing: no settling, no new frame
	default:
		err = &sim.FieldError{Field: "op", Message: fmt.Sprintf("unknown command %q", c.op)}
	}
	if c.op != OpSpeed && c.op != OpWeight {
		r.settle((c.op == OpSet || c.op == OpData || c.op == OpInducing) && err == nil)
	}
	r.dirty = true
	c.reply <- err
}

// extend grants a done run another step budget and plays it.
func (r *Run) extend() error {
	switch {
	case r.status == StatusDiverged:
		return r.stopped()
	case r.status != StatusDone:
		left := "no step budget"
		if r.budget > 0 {
			left = fmt.Sprintf("%d of its budget's steps left", r.budget-r.step)
		}
		return &sim.FieldError{Field: "op", Message: fmt.Sprintf("nothing to continue: the run has not spent its step budget (%s); play runs it", left)}
	}
	r.budget = min(r.budget, math.MaxInt64-r.opt.MaxSteps) + r.opt.MaxSteps
	r.status, r.message, r.pending = StatusRunning, "", 0
	r.rebaseSpeed(time.Now())
	return nil
}

// stopped returns an error when the run cannot step until it is reset.
func (r *Run) stopped() error {
	switch r.status {
	case StatusDiverged:
		return &sim.FieldError{Field: "op", Message: "the run diverged (" + r.message + "); reset it to start again"}
	case StatusDone:
		return &sim.FieldError{Field: "op", Message: r.message}
	}
	return nil
}

// set validates and applies a control change.
func (r *Run) set(name string, v sim.Value) error {
	spec, err := r.dataSpec.Check(name, v) // the ranges for the current data (run_data.go)
	if err != nil {
		return err
	}
	v = spec.Canonical(v) // " 50 , 50 " is stored, replayed and shown as "50,50"
	if old, ok := r.controls[name]; ok && old == v {
		return nil
	}
	next := cloneControls(r.controls)
	next[name] = v
	switch {
	case spec.Live && r.status == StatusDone:
		return &sim.FieldError{Field: name, Message: fmt.Sprintf("not applied: the step budget of %d steps is spent, so a change would not act; continue (another %d steps) or reset first", r.opt.MaxSteps, r.opt.MaxSteps)}
	case spec.Live && r.status == StatusDiverged:
		r.controls = next // the broken method is left alone; reset applies it
	case spec.Live:
		var err error
		if perr := r.safely("Set", func() { err = r.m.Set(name, v) }); perr != nil {
			r.diverge(perr.Error())
			return &sim.FieldError{Field: name, Message: perr.Error()}
		}
		if err != nil {
			return asFieldError(name, err)
		}
		r.controls = next
		r.addMark(wire.Mark{Step: r.step, Name: name, Value: v})
		r.bandFresh, r.unrecorded = false, true
	default: // not live: start again with the new value
		if err := r.reinit(next, true); err != nil {
			if err2 := r.reinit(r.controls, true); err2 != nil {
				r.diverge("could not restore the previous controls: " + err2.Error())
			}
			return &sim.FieldError{Field: name, Message: "cannot apply: " + err.Error()}
		}
	}
	return nil
}

func asFieldError(name string, err error) error {
	if _, ok := errors.AsType[*sim.FieldError](err); ok {
		return err
	}
	return &sim.FieldError{Field: name, Message: err.Error()}
}

// addMark appends m to a fresh slice: published frames share the old one.
func (r *Run) addMark(m wire.Mark) {
	keep := r.marks[max(0, len(r.marks)-maxMarks+1):]
	marks := make([]wire.Mark, 0, len(keep)+1)
	r.marks = append(append(marks, keep...), m)
}

// reinit initialises the method again with controls c and a fresh stream
// from the seed, and clears the histories. It changes nothing else when
// Init fails. keepRunning keeps a running run running.
func (r *Run) reinit(c sim.Controls, keepRunning bool) error {
	if err := r.initMethod(c); err != nil {
		return err
	}
	r.ready = true
	if !keepRunning || (r.status != StatusRunning && r.status != StatusSettled) {
		r.status = StatusPaused
	}
	r.controls, r.start = cloneControls(c), cloneControls(c)
	r.step, r.pending, r.message, r.lastObj, r.marks = 0, 0, "", math.NaN(), nil
	r.budget, r.unrecorded = r.opt.MaxSteps, true
	r.rateStep, r.rateTime = 0, time.Time{}
	r.rebaseSpeed(time.Now())
	r.band, r.bandFresh = nil, false
	r.resetDraws() // run_draws.go
	r.mu.Lock()
	r.hist.Reset()
	r.epoch++
	r.mu.Unlock()
	r.dirty = true
	return nil
}
