package engine

import "time"

// hold measures how long a run waits for its pacing group between two
// frames, so that a frame can say the run is held back (Frame.Held). A run
// at the least of its group waits now and then for a step of another as
// fast, for microseconds; a cheap run raced against a dear one waits for
// most of every frame. So a frame says held when the run waited for more
// than half the time since the last frame, and says so until it waits for
// less than a quarter: the margin keeps a run near the line from
// flashing. It is owned by the run goroutine.
type hold struct {
	from   time.Time     // when the wait in progress began; zero: not waiting
	waited time.Duration // waited since the last frame
	frame  time.Time     // the last frame's time; zero before the first
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
// so: a frame is then due, or the page reads a run held for a long step
// of another as running.
func (h *hold) waiting() bool { return !h.from.IsZero() && !h.held }

// at returns what a frame at now says: whether the run was held back over
// the time since the last frame. It starts the next frame's count.
func (h *hold) at(now time.Time) bool {
	if !h.from.IsZero() {
		h.waited += now.Sub(h.from)
		h.from = now
	}
	if span := now.Sub(h.frame); !h.frame.IsZero() && span > 0 {
		if h.held {
			h.held = 4*h.waited > span
		} else {
			h.held = 2*h.waited > span
		}
	}
	h.waited, h.frame = 0, now
	return h.held
}
