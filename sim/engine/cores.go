package engine

import (
	"runtime"
	"sync/atomic"
	"time"

	"github.com/posterior-playground/playground/sim"
)

// minBatchTime is the shortest batch, however many runs step: below about
// a millisecond the loop's own work (commands, frames, yielding) shows.
const minBatchTime = time.Millisecond

// maxOverrun caps what one batch's overrun is paid back with: a step
// longer than that (an exact GP on hundreds of points) is not made up for
// past a second of turns.
const maxOverrun = time.Second

// cores shares the machine's cores between the runs that count themselves
// in one shared number of stepping runs (RunOptions.Stepping, a
// Registry's): it sizes each batch so that every run comes round often
// enough to publish at its frame rate, makes a run whose steps outlast a
// batch pay the excess back, and tells a threaded method how many cores it
// may use. It is owned by the run goroutine.
type cores struct {
	stepping *atomic.Int64 // runs stepping now; nil: nothing shared
	batch    time.Duration // RunOptions.BatchTime
	frame    time.Duration // the frame interval
	counted  bool          // this run is counted in stepping
	overrun  time.Duration // how far the last batch ran past its budget, while runs take turns
	parallel bool          // the method's spec declares sim.Parallel
	env      sim.Env       // what a sim.EnvSetter was last told; Threads 0: nothing yet
}

func newCores(o RunOptions) cores {
	return cores{stepping: o.Stepping, batch: o.BatchTime, frame: frameInterval(o)}
}

// frameInterval is the time between two frames.
func frameInterval(o RunOptions) time.Duration {
	return time.Duration(float64(time.Second) / o.FrameRate)
}

// share is one reading of the shared count of stepping runs: n of them
// on procs cores. A batch reads it once, so its budget, its overrun and
// the method's thread count agree; procs is 0 without a shared count.
type share struct{ n, procs int64 }

// share reads the shared count of stepping runs.
func (c *cores) share() share {
	if c.stepping == nil {
		return share{}
	}
	return share{c.stepping.Load(), int64(runtime.GOMAXPROCS(0))}
}

// crowded reports whether more runs step than there are cores, so that
// they take turns.
func (s share) crowded() bool { return s.n > s.procs }

// count keeps the shared count of stepping runs up to date with whether
// the run steps now (active).
func (c *cores) count(active bool) {
	if c.stepping == nil || active == c.counted {
		return
	}
	c.counted = active
	if active {
		c.stepping.Add(1)
	} else {
		c.stepping.Add(-1)
	}
}

// batchTime is how long one batch may step: BatchTime and the frame
// interval, and, when more runs step than there are cores, the share of a
// frame interval that lets every one of them have a batch in turn within
// it (a run publishes only between batches).
func (c *cores) batchTime(s share) time.Duration {
	d := min(c.batch, c.frame)
	if !s.crowded() {
		return d
	}
	return max(minBatchTime, min(d, c.frame*time.Duration(s.procs)/time.Duration(s.n)))
}

// budget is how long this batch may step: when runs take turns, the batch
// time less the CPU time earlier batches used over theirs (a step is not
// cut, so a run whose steps outlast the batch time — HMC's four chains,
// 4 ms, with 2-ms batches — would otherwise take two or three times its
// share of the cores); 0 skips this turn. Runs that do not take turns owe
// nothing.
func (c *cores) budget(s share) time.Duration {
	d := c.batchTime(s)
	if !s.crowded() {
		c.overrun = 0
		return d
	}
	if c.overrun >= d {
		c.overrun -= d
		return 0
	}
	d, c.overrun = d-c.overrun, 0
	return d
}

// ranOver records how much CPU time a batch used past its budget, to be
// paid back by the next ones while runs take turns.
func (c *cores) ranOver(s share, over time.Duration) {
	if s.crowded() && over > 0 {
		c.overrun = min(over, maxOverrun)
	}
}

// tell tells a method that steps in several goroutines (its spec declares
// sim.Parallel) how many a Step may use, through its sim.EnvSetter: the
// cores the other stepping runs leave, at least one. Without a shared
// count it is left as it likes.
func (c *cores) tell(m sim.Stepper, s share) {
	e, ok := m.(sim.EnvSetter)
	if !ok || !c.parallel || s.procs == 0 {
		return
	}
	n := max(1, int(s.procs-s.n+1))
	if n != c.env.Threads {
		c.env.Threads = n
		e.SetEnv(c.env)
	}
}
