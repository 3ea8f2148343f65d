package fbnn

import (
	"slices"
	"testing"

	"github.com/posterior-playground/playground/sim"
)

// flat copies every parameter slab of m into one slice.
func flat(m *Method) []float64 {
	var out []float64
	for _, p := range m.params {
		out = append(out, p.RawMatrix().Data...)
	}
	return out
}

// TestInterruptStopsWithinOneParticle interrupts a step during its
// forward passes over the particles (the fifth of eight): the step polls
// before every particle's forward and backward pass, so it stops at the
// first poll that says stop, with no particle's pass after it, and takes
// no Adam step (the parameters are as before).
func TestInterruptStopsWithinOneParticle(t *testing.T) {
	m := newMethod(t, loadData(t, "gap", 1), sim.Controls{"particles": sim.Num(8)}, 1)
	before := flat(m)
	var polls, stops int
	m.SetEnv(sim.Env{Stop: func() bool {
		polls++
		if polls >= 5 {
			stops++
			return true
		}
		return false
	}})
	m.Step()
	if stops != 1 || polls != 5 {
		t.Errorf("polled %d times, %d of them after the interrupt; want 5 and 1 (no particle's pass after it)", polls, stops)
	}
	if !slices.Equal(before, flat(m)) {
		t.Error("the interrupted step changed the parameters")
	}
}

// TestInterruptPollChangesNothing: a poll that never fires leaves the
// trajectory bit for bit as without one.
func TestInterruptPollChangesNothing(t *testing.T) {
	c := sim.Controls{"particles": sim.Num(8)}
	a := newMethod(t, loadData(t, "gap", 1), c, 3)
	b := newMethod(t, loadData(t, "gap", 1), c, 3)
	b.SetEnv(sim.Env{Stop: func() bool { return false }})
	for range 3 {
		if oa, ob := a.Step().Objective, b.Step().Objective; oa != ob {
			t.Fatalf("objective %v without a poll, %v with one", oa, ob)
		}
	}
	if !slices.Equal(flat(a), flat(b)) {
		t.Error("a poll that never fires changed the parameters")
	}
}
