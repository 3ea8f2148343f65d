package engine

import (
	"fmt"
	"math"
	"sync"

	"github.com/posterior-playground/playground/sim"
)

// Unit is what a pacing group counts as the budget its runs spend.
type Unit string

const (
	// UnitEvals counts the evaluations each step reports
	// (sim.StepStats.Evals): gradient evaluations, or density evaluations
	// for a method that takes no gradient.
	UnitEvals Unit = "grads"
	// UnitCPU counts the CPU seconds each step takes on its thread.
	UnitCPU Unit = "cpu"
)

// ParseUnit reads a pacing unit, "grads" or "cpu"; the error names field.
func ParseUnit(field, s string) (Unit, error) {
	switch u := Unit(s); u {
	case UnitEvals, UnitCPU:
		return u, nil
	}
	return "", &sim.FieldError{Field: field, Message: fmt.Sprintf("%q is not a pacing unit (allowed: %s, %s)", s, UnitEvals, UnitCPU)}
}

// Group paces runs by a shared budget clock, so that at every moment the
// runs in it have spent the same, to within one step each: a run may take
// a step only while what it has spent is no more than the least any
// racing member has spent (its own included). The least never falls while
// members race, so a member is never more than its last step's cost ahead
// of any other (Level). Members at the least step in parallel; the others
// sleep on a channel until the least reaches them (no polling).
//
// A member races until it stops: a diverged or done run, or a settled
// closed form, drops out of the least and the others go on without it. A
// paused member still races, holding the others at its budget until it
// plays again, so runs played one after the other start level. A run's
// spent budget is counted from its last initialisation: a run reset (or
// one that joins behind) steps alone until it has caught up, and one that
// joins ahead waits for the others. Unit says what is counted. A Group is
// safe for concurrent use.
type Group struct {
	unit Unit
	mu   sync.Mutex
	lns  []*lane
}

// NewGroup returns an empty group counting u.
func NewGroup(u Unit) *Group { return &Group{unit: u} }

// Unit is what the group counts.
func (g *Group) Unit() Unit { return g.unit }

// lane is one run's place in a group. Its fields are guarded by the
// group's mutex, except wake, which only the group sends on and only the
// run receives from.
type lane struct {
	g      *Group
	spent  float64
	last   float64 // the cost of its last step: how far ahead of the least it may be
	racing bool
	wake   chan struct{} // capacity 1: a wake-up never blocks and is never lost
}

// join adds a lane with what the run has spent so far.
func (g *Group) join(spent float64, racing bool) *lane {
	l := &lane{g: g, spent: spent, racing: racing, wake: make(chan struct{}, 1)}
	g.mu.Lock()
	g.lns = append(g.lns, l)
	g.wakeLocked()
	g.mu.Unlock()
	return l
}

// leave removes l; the others may then step.
func (l *lane) leave() {
	g := l.g
	g.mu.Lock()
	for i, o := range g.lns {
		if o == l {
			g.lns = append(g.lns[:i], g.lns[i+1:]...)
			break
		}
	}
	g.wakeLocked()
	g.mu.Unlock()
}

// least is the least any racing lane has spent; +Inf when none races.
func (g *Group) leastLocked() float64 {
	m := math.Inf(1)
	for _, l := range g.lns {
		if l.racing {
			m = min(m, l.spent)
		}
	}
	return m
}

// wakeLocked wakes every racing lane allowed to step.
func (g *Group) wakeLocked() {
	m := g.leastLocked()
	for _, l := range g.lns {
		if l.racing && l.spent <= m {
			select {
			case l.wake <- struct{}{}:
			default: // a wake-up is already waiting
			}
		}
	}
}

// may reports whether l may take a step now: it races, and has spent no
// more than the least.
func (l *lane) may() bool {
	g := l.g
	g.mu.Lock()
	defer g.mu.Unlock()
	return l.racing && l.spent <= g.leastLocked()
}

// update sets what l has spent and whether it races, and wakes the lanes
// that may then step.
func (l *lane) update(spent float64, racing bool) {
	g := l.g
	g.mu.Lock()
	if l.spent != spent || l.racing != racing {
		if spent > l.spent {
			l.last = spent - l.spent
		}
		l.spent, l.racing = spent, racing
		g.wakeLocked()
	}
	g.mu.Unlock()
}

// Member is one member's state in a group.
type Member struct {
	Spent  float64 // the budget spent since its run was last initialised
	Last   float64 // its last step's cost
	Racing bool    // stepping but for the group: counted in the least
}

// Members returns every member's state, in the order they joined: one
// consistent reading, for tests and views.
func (g *Group) Members() []Member {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := make([]Member, len(g.lns))
	for i, l := range g.lns {
		out[i] = Member{l.spent, l.last, l.racing}
	}
	return out
}

// Level checks the group's promise on ms (Members): every racing member
// has spent no more than the least any racing member has, plus its own
// last step's cost. It returns the index of a member that broke it and
// false, or −1 and true.
func Level(ms []Member) (int, bool) {
	least := math.Inf(1)
	for _, m := range ms {
		if m.Racing {
			least = min(least, m.Spent)
		}
	}
	for i, m := range ms {
		// The tolerance is rounding's: CPU seconds are differences of
		// float64s; evaluations are whole numbers, exact.
		if m.Racing && m.Spent > least+m.Last+1e-12*max(1, least) {
			return i, false
		}
	}
	return -1, true
}

// Len is the number of members.
func (g *Group) Len() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.lns)
}
