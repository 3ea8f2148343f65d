package engine

import (
	"math"
	"time"
)

// holdMemory is how far back a frame's held looks: the share of time a
// run waited for its group is averaged over about this long.
const holdMemory = time.Second

// hold measures how long a run waits for its pacing group, so that a
// frame can say the run is held back (Frame.Held). A cheap run raced
// against a dear one waits for most of every frame; two runs of like
// speed, or one whose steps vary in cost (a sampler's trees), take turns
// waiting for a few frames each, and a run at the least waits now and
// then for microseconds. So a frame says held when the run waited for more
// than half the time over about the last second (holdMemory), and says so
// until that falls below a quarter: runs taking turns, or near the line,
// do not flash. It is owned by the run goroutine.
type hold struct {
	from   time.Time     // when the wait in progress began; zero: not waiting
	waited time.Duration // waited since the last frame
	frame  time.Time     // the last frame's time; zero before the first
	share  float64       // the share of time waited, averaged over about holdMemory
	held   bool          // what the last frame said
}

// wait notes at now whether the run is waiting for its group.
func (h *hold) wait(waiting bool, now time.Time) {
	switch {
	case waiting && h.from.IsZero():
		h.from = now
	case !waiting && !h.from.IsZero():
		h.waited += now.Sub(h.from)
		h.from = time.Time{}
	}
}

// waiting reports whether the run waits and its last frame did not say
// so: frames are then due until one does, or the page reads a run held
// through a long step of another as running.
func (h *hold) waiting() bool { return !h.from.IsZero() && !h.held }

// at returns what a frame at now says: whether the run is held back. It
// starts the next frame's count.
func (h *hold) at(now time.Time) bool {
	if !h.from.IsZero() {
		h.waited += now.Sub(h.from)
		h.from = now
	}
	if span := now.Sub(h.frame); !h.frame.IsZero() && span > 0 {
		// An exponential average in time: frames need not be evenly spaced.
		w := -math.Expm1(-span.Seconds() / holdMemory.Seconds())
		h.share += w * (min(h.waited.Seconds()/span.Seconds(), 1) - h.share)
		if h.held {
			h.held = h.share > 0.25
		} else {
			h.held = h.share > 0.5
		}
	}
	h.waited, h.frame = 0, now
	return h.held
}
