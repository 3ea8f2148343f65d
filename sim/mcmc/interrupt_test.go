package mcmc

import (
	"slices"
	"sync/atomic"
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
)

// counted counts the gradient evaluations of every chain's density, from
// whichever goroutine steps the chain.
type counted struct {
	problem
	evals *atomic.Int64
}

type countedDensity struct {
	density
	evals *atomic.Int64
}

func (p counted) newDensity() density { return countedDensity{p.problem.newDensity(), p.evals} }

func (d countedDensity) logpGrad(th, g []float64) float64 {
	d.evals.Add(1)
	return d.density.logpGrad(th, g)
}

// interruptible returns a sampler of kind k on a small network on gap, its
// chains stepping in threads goroutines, whose gradient evaluations are
// counted into evals.
func interruptible(t *testing.T, k kind, c sim.Controls, threads int, evals *atomic.Int64) *Method {
	t.Helper()
	m := newSampler(t, k, model.BNN)
	d := loadData(t, "gap")
	cs, err := m.SpecFor(d).Resolve(c)
	if err != nil {
		t.Fatal(err)
	}
	arch, err := model.ArchFromControls(cs)
	if err != nil {
		t.Fatal(err)
	}
	prob := counted{newBNN(arch, d, cs["prior_scale"].Num), evals}
	if err := m.initProblem(prob, cs, numeric.NewRand(3)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	m.minParallel = 0 // step the small network's chains in parallel all the same
	m.SetEnv(sim.Env{Threads: threads})
	return m
}

// TestInterruptStopsWithinOneGradient interrupts a long NUTS tree (max
// depth 10: up to 1023 leapfrog steps a chain) and a long HMC trajectory
// (1000 leapfrog steps) in the middle of a Step, and counts the gradient
// evaluations done after the poll first answered true: every goroutine
// stepping chains may finish the evaluation it is in, none starts another.
func TestInterruptStopsWithinOneGradient(t *testing.T) {
	cases := []struct {
		name string
		k    kind
		c    sim.Controls
	}{
		{"nuts", kindNUTS, sim.Controls{"max_depth": sim.Num(10), "step": sim.Num(1e-4)}},
		{"hmc", kindHMC, sim.Controls{"leapfrog_steps": sim.Num(1000), "adapt": sim.Num(0)}},
	}
	for _, tc := range cases {
		for _, threads := range []int{1, 4} {
			var evals atomic.Int64
			c := sim.Controls{"chains": sim.Num(4), "arch": sim.Choice("20"), "warmup": sim.Num(0)}
			for k, v := range tc.c {
				c[k] = v
			}
			m := interruptible(t, tc.k, c, threads, &evals)
			trip := evals.Load() + 40 // mid-step: 40 of the ≥ 4000 a step would take
			at := int64(-1)
			var atomicAt atomic.Int64
			atomicAt.Store(at)
			m.SetEnv(sim.Env{Threads: threads, Stop: func() bool {
				n := evals.Load()
				if n < trip {
					return false
				}
				atomicAt.CompareAndSwap(-1, n)
				return true
			}})
			m.Step()
			at = atomicAt.Load()
			after := evals.Load() - at
			t.Logf("%s, %d goroutines: interrupted at %d evaluations, %d after", tc.name, threads, at, after)
			if at < 0 {
				t.Fatalf("%s: the step never polled past %d evaluations", tc.name, trip)
			}
			if after > int64(threads) {
				t.Errorf("%s, %d goroutines: %d gradient evaluations after the interrupt, want at most one per goroutine (%d)", tc.name, threads, after, threads)
			}
		}
	}
}

// TestInterruptPollChangesNothing: a poll that never fires leaves the
// trajectory bit for bit as without one, and a method interrupted mid-step
// and initialised again steps as a fresh one does (the engine's reset).
func TestInterruptPollChangesNothing(t *testing.T) {
	d := loadData(t, "gap")
	for _, k := range []kind{kindNUTS, kindHMC, kindMetropolis, kindSGLD} {
		c := sim.Controls{"chains": sim.Num(2), "arch": sim.Choice("10"), "warmup": sim.Num(5)}
		trace := func(poll func() bool, interruptFirst bool) []float64 {
			m := newSampler(t, k, model.BNN)
			m.SetEnv(sim.Env{Stop: poll})
			if interruptFirst {
				m.SetEnv(sim.Env{Stop: func() bool { return true }})
				if _, err := sim.Init(m, d, c, numeric.NewRand(5)); err == nil {
					t.Errorf("%s: Init ignored the interrupt", k.name())
				}
				m.SetEnv(sim.Env{})
				if _, err := sim.Init(m, d, c, numeric.NewRand(5)); err != nil {
					t.Fatal(err)
				}
				fired := false
				m.SetEnv(sim.Env{Stop: func() bool {
					if !fired {
						fired = true
						return false
					}
					return true
				}})
				m.Step() // interrupted after its first poll: half a step, discarded
				m.SetEnv(sim.Env{Stop: poll})
			}
			if _, err := sim.Init(m, d, c, numeric.NewRand(5)); err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			for range 8 {
				m.Step()
			}
			return slices.Clone(m.Trace())
		}
		plain := trace(nil, false)
		polled := trace(func() bool { return false }, false)
		again := trace(nil, true)
		if !slices.Equal(nanless(plain), nanless(polled)) {
			t.Errorf("%s: a poll that never fires changed the trace:\n%v\n%v", k.name(), plain, polled)
		}
		if !slices.Equal(nanless(plain), nanless(again)) {
			t.Errorf("%s: initialised again after an interrupt, the trace differs from a fresh run's:\n%v\n%v", k.name(), plain, again)
		}
	}
}

// nanless replaces NaN (chains a run does not have) by a sentinel, so
// slices.Equal compares the traces.
func nanless(xs []float64) []float64 {
	out := slices.Clone(xs)
	for i, x := range out {
		if x != x {
			out[i] = -1e300
		}
	}
	return out
}
