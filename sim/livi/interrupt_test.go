package livi

import (
	"slices"
	"testing"

	"github.com/posterior-playground/playground/sim"
)

// TestInterruptPolls: LIVI polls before each of its MC samples and the
// ensemble before each member, so a step interrupted at its first poll
// evaluates no gradient and changes nothing the trace shows; a poll that
// never fires changes nothing at all (the traces match bit for bit a run's
// without one).
func TestInterruptPolls(t *testing.T) {
	d := loadData(t, "gap")
	type method interface {
		sim.Method
		sim.EnvSetter
	}
	build := map[string]func() method{
		"livi":     func() method { return newLIVI(t, d, "", sim.Controls{"mc_samples": sim.Num(4)}, 2) },
		"ensemble": func() method { return newPoint(t, d, true, "", sim.Controls{"members": sim.Num(4)}, 2) },
	}
	for name, mk := range build {
		a, b := mk(), mk()
		b.SetEnv(sim.Env{Stop: func() bool { return false }})
		for range 3 {
			if oa, ob := a.Step().Objective, b.Step().Objective; oa != ob {
				t.Fatalf("%s: objective %v without a poll, %v with one", name, oa, ob)
			}
		}
		if ta, tb := a.Trace(), b.Trace(); !slices.Equal(ta, tb) {
			t.Errorf("%s: a poll that never fires changed the trace: %v, %v", name, ta, tb)
		}
		polls := 0
		before := slices.Clone(b.Trace())
		b.SetEnv(sim.Env{Stop: func() bool { polls++; return true }})
		b.Step()
		if polls != 1 {
			t.Errorf("%s: polled %d times after the interrupt, want 1", name, polls)
		}
		if after := b.Trace(); !slices.Equal(before, after) {
			t.Errorf("%s: a step interrupted before its first gradient changed the trace: %v, %v", name, before, after)
		}
	}
}
