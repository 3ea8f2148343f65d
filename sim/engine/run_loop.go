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
	defer close(r.box.done)
	if c, ok := r.m.(io.Closer); ok {
		defer c.Close() // samplers stop their chain goroutines
	}
	defer context.AfterFunc(ctx, r.cancelled)()
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
	defer r.cores.count(false)
	defer r.acct.leave()
	for {
		r.syncRace()
		active, may := r.st.active(), r.acct.may()
		r.cores.count(active && may)
		now := time.Now()
		r.acct.hold.wait(active && !may, now)
		if r.acct.hold.waiting() {
			r.pace.dirty = true // a frame says it is held (wait)
		}
		// A stale method (its step interrupted) is not published: the
		// recorders would read a half-finished step. The reset that
		// interrupted it comes next and publishes.
		if r.pace.dirty && !r.st.stale && !now.Before(r.pace.nextFrame) {
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
			case c := <-r.box.ctrl:
				r.handle(c)
			case <-tick:
			case <-r.acct.wake(): // the least spent in the group reached this run
			}
			timer.Stop()
			continue
		}
		for more := true; more; {
			select {
			case <-ctx.Done():
				return
			case c := <-r.box.ctrl:
				r.handle(c)
			default:
				more = false
			}
		}
		if r.st.active() {
			r.batch(now)
		}
		runtime.Gosched() // let viewers' writers and other runs in between batches
	}
}

// wait returns 0 to step now, a positive duration to sleep at most that
// long, or a negative one to sleep until a command arrives.
func (r *Run) wait(now time.Time) time.Duration {
	p := &r.pace
	if r.st.active() && !r.acct.may() { // ahead of its pacing group: wait for the others
		if p.dirty {
			return max(p.nextFrame.Sub(now), 1) // positive: loop published otherwise
		}
		return -1
	}
	if r.st.active() {
		if r.st.pending == 0 && p.speed > 0 {
			next := p.base.Add(time.Duration(float64(r.st.step-p.baseStep+1) / p.speed * float64(time.Second)))
			if d := next.Sub(now); d > 0 {
				if p.dirty {
					d = min(d, p.nextFrame.Sub(now))
				}
				return d
			}
		}
		return 0
	}
	if p.dirty {
		return p.nextFrame.Sub(now) // positive: loop published otherwise
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
	case r.st.pending > 0:
		limit = r.st.pending
	case r.pace.speed > 0:
		p := &r.pace
		allowed := int64(start.Sub(p.base).Seconds()*p.speed) - (r.st.step - p.baseStep)
		if allowed > int64(p.speed)+1 { // fell behind by over a second: do not race to catch up
			r.rebaseSpeed(start)
			allowed = 1
		}
		limit = max(1, allowed)
	}
	if r.st.budget > 0 {
		limit = min(limit, r.st.budget-r.st.step)
	}
	sh := r.cores.share()
	r.cores.tell(r.m, sh)
	perStep := r.acct.perStep() // a CPU-paced run counts each step
	if perStep {
		r.oneThread()
	}
	budget := r.cores.budget(sh)
	if budget == 0 {
		return // this turn pays for the last batch's overrun
	}
	// The overrun is counted in the thread's CPU time, not the wall's: on a
	// loaded machine the OS may hold the thread off its core mid-batch, and
	// that is no share of the cores the run took.
	// The thread is locked for the batch so that its CPU time is the
	// run's: the budget a frame reports (Frame.CPU) and, when crowded, the
	// overrun. A method stepping in several goroutines (sim.Parallel) is
	// not locked unless it must be: a locked thread that waits for its
	// chains' goroutines sleeps and is woken by the OS at every step. Its
	// CPU budget is then the batch's wall time, its chains' work included.
	var cpu0 time.Duration
	measured := false
	if sh.crowded() || perStep || !r.cores.parallel {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		cpu0, measured = cputime.Thread()
	}
	deadline := start.Add(budget)
	wall := time.Now()
	for i := int64(0); i < limit; i++ {
		if !r.acct.may() {
			break // ahead of its pacing group
		}
		if !r.stepTimed(perStep) || !time.Now().Before(deadline) {
			break
		}
	}
	counted := perStep // a CPU-paced run counted each step
	if measured {
		if cpu1, ok := cputime.Thread(); ok {
			if !counted {
				r.acct.spent.cpu += cpu1 - cpu0
				counted = true
			}
			if sh.crowded() {
				r.cores.ranOver(sh, cpu1-cpu0-budget)
			}
		}
	}
	if !counted {
		r.acct.spent.cpu += time.Since(wall) // no thread clock, or a threaded method unlocked: the wall's
	}
	r.pace.dirty = true
	r.st.checkBudget(r.opt.MaxSteps)
}

// settle applies sim.Extras.Settled after a command: a method with nothing to
// iterate is stepped once to record its recomputed state when that state
// is new and someone asked for it (a control change, a play or a step
// command), and not again; a run that was playing shows StatusSettled
// until a change gives its method something to iterate, and then runs on.
// asked is true after a control change.
func (r *Run) settle(asked bool) {
	ask := sim.ExtrasOf(r.m).Settled
	if ask == nil || !r.st.shows() || r.st.status == StatusDone {
		return
	}
	var why string
	var settled bool
	if err := r.safely("Settled", func() { why, settled = ask() }); err != nil {
		r.diverge(err.Error())
		return
	}
	if !settled {
		if r.st.unsettled() {
			r.rebaseSpeed(time.Now())
		}
		return
	}
	asked = asked || r.st.status == StatusRunning || r.st.status == StatusSettled || r.st.pending > 0
	if asked && r.st.unrecorded && r.st.inBudget() {
		r.stepGuarded()
		r.st.checkBudget(r.opt.MaxSteps)
	}
	r.st.settled(why)
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

// stepOnce performs one step and has the recorders record it; false when
// it diverged. The trace is asked for only when a recorder needs it, and
// once for all: HMC's Trace on linreg costs 8% of its step.
func (r *Run) stepOnce() bool {
	if r.st.stale {
		return false
	}
	want := r.rec.before()
	st := r.m.Step()
	obj := st.Objective
	r.acct.spent.evals += st.Evals
	if r.interrupted() {
		r.st.stale = true // half a step: a reset or the end of the run follows
		return false
	}
	if math.IsNaN(obj) || math.IsInf(obj, 0) {
		r.diverge(fmt.Sprintf("the objective became %v at step %d: stepping stopped, showing the last good state; reset to start again (a smaller step size may help)", obj, r.st.step+1))
		return false
	}
	r.st.stepped()
	r.counts.taken.Add(1)
	var tr []float64
	if want {
		tr = r.m.Trace()
	}
	r.rec.observe(r.st.step, obj, tr)
	r.syncRace()
	return true
}

func (r *Run) diverge(msg string) {
	r.opt.Log.Warn("run diverged", "method", r.Spec().Name, "step", r.st.step, "reason", msg)
	r.st.diverge(msg)
	r.pace.dirty = true
}

// recovered logs a panic from the method with its stack and returns an
// error for the UI.
func (r *Run) recovered(call string, p any) error {
	r.opt.Log.Error("panic in method", "method", r.Spec().Name, "call", call, "step", r.st.step, "panic", p, "stack", string(debug.Stack()))
	return fmt.Errorf("internal error in the method's %s: %v (details are in the server log)", call, p)
}

func (r *Run) rebaseSpeed(now time.Time) { r.pace.base, r.pace.baseStep = now, r.st.step }

// handle applies one command and answers it.
func (r *Run) handle(c command) {
	if c.op == nil { // Inspect: looked, changed nothing: no settling, no new frame
		c.reply <- r.safely("Inspect", func() { c.fn(r.m, r.prob.d) })
		return
	}
	r.dequeued(c)
	err := c.op.run(r, c)
	r.pace.dirty = true
	c.reply <- err
}

// extend grants a done run another step budget and plays it.
func (r *Run) extend(command) error {
	if err := r.st.extend(r.opt.MaxSteps); err != nil {
		return err
	}
	r.rebaseSpeed(time.Now())
	return nil
}

// set applies a control change checked against checked (Do); it is
// checked again when the run's spec was refitted since (a data edit).
func (r *Run) set(name string, v sim.Value, checked *sim.MethodSpec) error {
	spec, ok := checked.Control(name)
	if cur := r.prob.spec.Load(); cur != checked || !ok {
		var err error
		if spec, err = cur.Check(name, v); err != nil {
			return err
		}
	}
	v = spec.Canonical(v) // " 50 , 50 " is stored, replayed and shown as "50,50"
	if old, ok := r.ctl.now[name]; ok && old == v {
		return nil
	}
	next := cloneControls(r.ctl.now)
	next[name] = v
	switch {
	case spec.Live && r.st.status == StatusDone:
		return &sim.FieldError{Field: name, Message: fmt.Sprintf("not applied: the step budget of %d steps is spent, so a change would not act; continue (another %d steps) or reset first", r.opt.MaxSteps, r.opt.MaxSteps)}
	case spec.Live && r.st.status == StatusDiverged:
		r.ctl.now = next // the broken method is left alone; reset applies it
	case spec.Live:
		var err error
		if perr := r.safely("Set", func() { err = r.m.Set(name, v) }); perr != nil {
			r.diverge(perr.Error())
			return &sim.FieldError{Field: name, Message: perr.Error()}
		}
		if err != nil {
			return asFieldError(name, err)
		}
		r.ctl.now = next
		r.addMark(wire.Mark{Step: r.st.step, Name: name, Value: v})
		r.changed(changeControl)
	default: // not live: start again with the new value
		err := r.reinit(next, true)
		if err != nil && r.interrupted() {
			// A queued reset (or the run's end) interrupted Init: keep the
			// new value for that reset to start the method with.
			r.ctl.now, r.st.stale = next, true
			return nil
		}
		if err != nil {
			if err2 := r.reinit(r.ctl.now, true); err2 != nil {
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
	keep := r.ctl.marks[max(0, len(r.ctl.marks)-maxMarks+1):]
	marks := make([]wire.Mark, 0, len(keep)+1)
	r.ctl.marks = append(append(marks, keep...), m)
}

// reinit initialises the method again with controls c and a fresh stream
// from the seed, and clears the histories. It changes nothing else when
// Init fails. keepRunning keeps a running run running.
func (r *Run) reinit(c sim.Controls, keepRunning bool) error {
	if err := r.initMethod(c); err != nil {
		return err
	}
	r.st.restarted(keepRunning, r.opt.MaxSteps)
	r.ctl.now, r.ctl.start = cloneControls(c), cloneControls(c)
	r.ctl.marks = nil
	r.acct.spent = spent{}
	r.pace.rateStep, r.pace.rateTime = 0, time.Time{}
	r.rebaseSpeed(time.Now())
	r.box.newEpoch()
	r.changed(changeInit)
	r.pace.dirty = true
	return nil
}

// changed records that the method changed between steps: it is
// unrecorded (sim.Extras.Settled), and its recorders are told.
func (r *Run) changed(e change) {
	r.st.changed()
	r.rec.reset(e)
}
