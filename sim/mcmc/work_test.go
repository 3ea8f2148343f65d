package mcmc

import (
	"math"
	"testing"

	"github.com/posterior-playground/playground/sim"
)

// HMC without adaptation takes exactly L leapfrog steps per transition and
// chain (none on linreg's well-behaved posterior ends early on a NaN).
func TestLeapfrogsHMC(t *testing.T) {
	m := newSampler(t, kindHMC, "linear")
	const chains, L, steps = 3, 7, 50
	run(t, m, loadData(t, "linreg"), sim.Controls{"chains": sim.Num(chains), "warmup": sim.Num(0), "adapt": sim.Num(0), "leapfrog_steps": sim.Num(L), "step": sim.Num(0.05)}, 1, 0)
	before := m.Leapfrogs()
	for range steps {
		m.Step()
	}
	if got := m.Leapfrogs() - before; got != chains*L*steps {
		t.Errorf("leapfrogs over %d transitions = %d, want %d", steps, got, chains*L*steps)
	}
	if !math.IsNaN(m.MeanTreeDepth()) {
		t.Errorf("HMC's mean tree depth = %v, want NaN", m.MeanTreeDepth())
	}
}

// NUTS with max_depth 1 builds one leapfrog step per transition; its tree
// reaches depth 1 unless that step diverged (an invalid subtree), so the
// mean depth is exactly 1 − divergences/transitions.
func TestTreeDepthNUTS(t *testing.T) {
	m := newSampler(t, kindNUTS, "linear")
	const chains, warmup, steps = 2, 100, 200
	run(t, m, loadData(t, "linreg"), sim.Controls{"chains": sim.Num(chains), "warmup": sim.Num(warmup), "max_depth": sim.Num(1)}, 2, warmup)
	before := m.Leapfrogs()
	for range steps {
		m.Step()
	}
	if got := m.Leapfrogs() - before; got != chains*steps {
		t.Errorf("leapfrogs over %d transitions = %d, want %d", steps, got, chains*steps)
	}
	want := 1 - float64(m.Divergences())/float64(chains*steps)
	if got := m.MeanTreeDepth(); got != want {
		t.Errorf("mean tree depth = %v, want %v", got, want)
	}
	// Every leapfrog step evaluates one gradient; the rest are the chains'
	// first evaluations.
	if g, l := m.GradEvals(), m.Leapfrogs(); g != l+chains {
		t.Errorf("gradient evaluations = %d, want leapfrogs %d + %d initial", g, l, chains)
	}
}

// For the linear model f(x) = b0 + b·x, so f at 0 and 1 over the kept whole
// draws are the b0 and b0 + b draws Draws returns (both stores keep the
// same offers while under their capacity).
func TestFunctionDrawsLinear(t *testing.T) {
	m := newSampler(t, kindNUTS, "linear")
	run(t, m, loadData(t, "linreg"), sim.Controls{"chains": sim.Num(3), "warmup": sim.Num(100)}, 3, 400)
	fd := m.FunctionDraws([]float64{0, 1}, 1000)
	b0, b := m.Draws("b0"), m.Draws("b")
	if len(fd) != 3 || len(fd[0]) != 300 {
		t.Fatalf("FunctionDraws shape %d×%d, want 3×300", len(fd), len(fd[0]))
	}
	for c := range fd {
		for i, f := range fd[c] {
			if f[0] != b0[c][i] || f[1] != b0[c][i]+b[c][i] {
				t.Fatalf("chain %d draw %d: f(0), f(1) = %v, %v, want %v, %v", c, i, f[0], f[1], b0[c][i], b0[c][i]+b[c][i])
			}
		}
	}
	// A cap keeps evenly spaced draws: every third of 300 for 100.
	thin := m.FunctionDraws([]float64{0}, 100)
	if len(thin[0]) != 100 || thin[1][5][0] != b0[1][15] {
		t.Errorf("thinned to %d draws, draw 5 = %v, want 100 and %v", len(thin[0]), thin[1][5][0], b0[1][15])
	}
}
