package mcmc

import (
	"errors"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"go.uber.org/goleak"
)

var allKinds = []kind{kindMetropolis, kindSGLD, kindHMC, kindNUTS}

func TestConstructors(t *testing.T) {
	for name, f := range map[string]func(string) (sim.Method, error){
		NameMetropolis: NewMetropolis, NameSGLD: NewSGLD, NameHMC: NewHMC, NameNUTS: NewNUTS,
	} {
		m, err := f("linear")
		if err != nil {
			t.Fatal(err)
		}
		s := m.Spec()
		if s.Name != name || s.Family != sim.FamilyMCMC {
			t.Errorf("%s: spec %q family %q", name, s.Name, s.Family)
		}
		if _, err := s.Resolve(nil); err != nil {
			t.Errorf("%s: defaults do not resolve: %v", name, err)
		}
		if c, ok := s.Control("chains"); !ok || c.Default.Num != 4 || c.Min != 1 || c.Max != 8 || !c.Integer {
			t.Errorf("%s: chains control %+v", name, c)
		}
		if len(s.Traces) != 3*maxChains+3 || s.Traces[0] != "b0.c1" || s.Traces[2*maxChains] != "sigma.c1" {
			t.Errorf("%s: traces %v", name, s.Traces)
		}
		var fe *sim.FieldError
		if _, err := f("gp"); !errors.As(err, &fe) || fe.Field != "model" {
			t.Errorf("%s: unknown model gives %v", name, err)
		}
	}
}

func TestInitErrors(t *testing.T) {
	m := newSampler(t, kindHMC, "linear")
	if _, err := sim.Init(m, nil, nil, numeric.NewRand(1)); err == nil {
		t.Error("Init without data succeeded")
	}
	var fe *sim.FieldError
	if _, err := sim.Init(m, loadData(t, "gp-classification"), nil, numeric.NewRand(1)); !errors.As(err, &fe) || fe.Field != "model" {
		t.Errorf("linear model on classification data: %v", err)
	}
	if _, err := sim.Init(m, loadData(t, "linreg"), sim.Controls{"chains": sim.Num(9)}, numeric.NewRand(1)); !errors.As(err, &fe) || fe.Field != "chains" {
		t.Errorf("chains 9: %v", err)
	}
	if m.Step().Objective == m.Step().Objective {
		t.Error("Step before a successful Init gives a number")
	}
}

// TestChainsAPI runs each sampler through warm-up into sampling and checks
// the sim.Chains view: counts, shapes, the warm-up flag and the traces.
func TestChainsAPI(t *testing.T) {
	d := loadData(t, "linreg")
	for _, k := range allKinds {
		m := newSampler(t, k, "linear")
		run(t, m, d, sim.Controls{"chains": sim.Num(3), "warmup": sim.Num(50)}, 1, 49)
		if !m.Warmup() || len(m.Draws("b0")[0]) != 0 {
			t.Errorf("%s: after 49 of 50 warm-up steps: warmup %v, draws %d", k.name(), m.Warmup(), len(m.Draws("b0")[0]))
		}
		for range 81 {
			m.Step()
		}
		if m.Warmup() {
			t.Errorf("%s: still in warm-up", k.name())
		}
		if !slices.Equal(m.Params(), []string{"b0", "b", "sigma"}) {
			t.Errorf("%s: params %v", k.name(), m.Params())
		}
		dr := m.Draws("sigma")
		if len(dr) != 3 || len(dr[0]) != 80 || len(dr[2]) != 80 || m.Draws("nope") != nil {
			t.Fatalf("%s: draws shape %d×%d", k.name(), len(dr), len(dr[0]))
		}
		dr[0][0] = -1 // a copy: the method's draws are untouched
		if m.Draws("sigma")[0][0] <= 0 {
			t.Errorf("%s: Draws does not copy", k.name())
		}
		if a := m.AcceptanceRate(); !(a > 0 && a <= 1) {
			t.Errorf("%s: acceptance rate %v", k.name(), a)
		}
		if (k == kindMetropolis) != (m.GradEvals() == 0) {
			t.Errorf("%s: %d gradient evaluations", k.name(), m.GradEvals())
		}
		tr := m.Trace()
		names := m.Spec().Traces
		if len(tr) != len(names) {
			t.Fatalf("%s: %d trace values for %d names", k.name(), len(tr), len(names))
		}
		for i, name := range names {
			chainSlot := i < 3*maxChains && i%maxChains >= 3
			if chainSlot != math.IsNaN(tr[i]) {
				t.Errorf("%s: trace %s = %v", k.name(), name, tr[i])
			}
		}
		if got := tr[2*maxChains+1]; got != math.Exp(m.chains[1].theta[2]) {
			t.Errorf("%s: sigma.c2 trace %v, chain state %v", k.name(), got, math.Exp(m.chains[1].theta[2]))
		}
		dg := m.Diagnostics()
		for _, key := range []string{"acceptance_rate", "divergences", "step_size", "warmup", "rhat_max", "ess_bulk_min"} {
			if _, ok := dg[key]; !ok {
				t.Errorf("%s: diagnostics lack %s: %v", k.name(), key, dg)
			}
		}
	}
}

// TestPredictLinear: Predict returns b0 + b·x of retained draws, evenly
// spaced over all chains' draws.
func TestPredictLinear(t *testing.T) {
	d := loadData(t, "linreg")
	m := newSampler(t, kindNUTS, "linear")
	run(t, m, d, sim.Controls{"chains": sim.Num(2), "warmup": sim.Num(20)}, 1, 70)
	xs := []float64{-1, 0, 2}
	p := m.Predict(xs, 10)
	if len(p.Samples) != 10 {
		t.Fatalf("%d samples", len(p.Samples))
	}
	b0, b := m.Draws("b0"), m.Draws("b")
	for s, f := range p.Samples {
		j := (2*s + 1) * 100 / 20 // pool of 2×50 draws
		c, i := j/50, j%50
		for q, x := range xs {
			if want := b0[c][i] + b[c][i]*x; math.Abs(f[q]-want) > 1e-12 {
				t.Fatalf("sample %d at x=%g: %v, want %v", s, x, f[q], want)
			}
		}
	}
	if ns := m.NoiseStd(); !(ns > 0.3 && ns < 1) {
		t.Errorf("noise std %v", ns)
	}
	// With under 1000 draws per chain NoiseStd is the plain mean of every
	// retained σ draw.
	var sum float64
	var n int
	for _, ch := range m.Draws("sigma") {
		for _, v := range ch {
			sum += v
			n++
		}
	}
	if ns, want := m.NoiseStd(), sum/float64(n); math.Abs(ns-want) > 1e-12*want {
		t.Errorf("noise std %v, mean of the σ draws %v", ns, want)
	}
}

// TestStoreThinning: a full store halves itself and doubles its thinning,
// keeping the draws at equally spaced offers.
func TestStoreThinning(t *testing.T) {
	s := newStore(1, 8)
	for i := 1; i <= 100; i++ {
		s.add([]float64{float64(i)})
	}
	// thin 1 → 2 at offer 9, → 4 at 17, → 8 at 33, → 16 at 65: keeps
	// multiples of 16 (16…96), then 8 stays under capacity.
	var got []float64
	got = s.column(got, 0)
	want := []float64{16, 32, 48, 64, 80, 96}
	if !slices.Equal(got, want) || s.thin != 16 {
		t.Errorf("kept %v with thin %d, want %v with thin 16", got, s.thin, want)
	}
}

// TestSetLive: live controls change the running kernels, invalid values are
// rejected without effect, non-live controls are refused.
func TestSetLive(t *testing.T) {
	d := loadData(t, "linreg")
	m := newSampler(t, kindHMC, "linear")
	run(t, m, d, sim.Controls{"warmup": sim.Num(100)}, 1, 150)
	if err := sim.Set(m, nil, "step", sim.Num(0.123)); err != nil {
		t.Fatal(err)
	}
	if err := sim.Set(m, nil, "leapfrog_steps", sim.Num(7)); err != nil {
		t.Fatal(err)
	}
	for _, c := range m.chains {
		k := c.k.(*hmc)
		if k.eps != 0.123 || k.L != 7 {
			t.Errorf("chain %d: ε %v L %d", c.id, k.eps, k.L)
		}
	}
	before := m.GradEvals()
	m.Step()
	if got := m.GradEvals() - before; got != 4*7 {
		t.Errorf("one step after L = 7 took %d gradients, want 28", got)
	}
	var fe *sim.FieldError
	for name, v := range map[string]sim.Value{"step": sim.Num(-1), "leapfrog_steps": sim.Num(2.5), "chains": sim.Num(2), "adapt": sim.Num(0), "nope": sim.Num(1)} {
		if err := sim.Set(m, nil, name, v); !errors.As(err, &fe) || fe.Field != name {
			t.Errorf("Set(%s, %v) = %v", name, v, err)
		}
	}
	if m.chains[0].k.(*hmc).eps != 0.123 {
		t.Error("a rejected Set changed the step")
	}
	// prior_scale on the BNN re-evaluates the chains' densities.
	b := newSampler(t, kindMetropolis, "bnn")
	run(t, b, loadData(t, "gap"), sim.Controls{"chains": sim.Num(1)}, 1, 2)
	lp := b.chains[0].logp
	if err := sim.Set(b, nil, "prior_scale", sim.Num(1)); err != nil {
		t.Fatal(err)
	}
	if got, want := b.chains[0].logp, b.chains[0].dens.logp(b.chains[0].theta); got == lp || got != want {
		t.Errorf("after prior_scale: logp %v (before %v, fresh %v)", got, lp, want)
	}
}

// TestDeterministic: a seed fixes every chain's path, whatever the
// goroutine scheduling, and the chains differ from each other.
func TestDeterministic(t *testing.T) {
	d := loadData(t, "linreg")
	for _, k := range allKinds {
		var runs [2][]float64
		for r := range runs {
			m := newSampler(t, k, "linear")
			run(t, m, d, sim.Controls{"warmup": sim.Num(30)}, 11, 60)
			for _, ch := range m.Draws("b") {
				runs[r] = append(runs[r], ch...)
			}
		}
		if !slices.Equal(runs[0], runs[1]) {
			t.Errorf("%s: two runs with one seed differ", k.name())
		}
		if runs[0][0] == runs[0][30] {
			t.Errorf("%s: chains 1 and 2 start identically", k.name())
		}
	}
}

// TestWorkersStop: Close ends the chains' goroutines, and so does dropping
// an unclosed method (runtime cleanup). goleak compares goroutines by
// identity, so an earlier test's worker still exiting cannot count.
func TestWorkersStop(t *testing.T) {
	d := loadData(t, "linreg")
	before := goleak.IgnoreCurrent()
	m := newSampler(t, kindHMC, "linear")
	if _, err := sim.Init(m, d, sim.Controls{"chains": sim.Num(8)}, numeric.NewRand(1)); err != nil {
		t.Fatal(err)
	}
	m.Step()
	if n := chainWorkers(); n < 7 {
		t.Fatalf("%d chain workers, want ≥ 7", n)
	}
	m.Close()
	if err := goleak.Find(before); err != nil {
		t.Errorf("after Close: %v", err)
	}
	m.Step() // restarts the workers
	m = nil
	runtime.GC() // the workers of a dropped method stop in its cleanup
	if err := goleak.Find(before); err != nil {
		t.Errorf("after dropping an unclosed method: %v", err)
	}
}

// chainWorkers counts the goroutines running startWorkers' loop.
func chainWorkers() int {
	buf := make([]byte, 1<<20)
	n := 0
	for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
		if strings.Contains(g, "mcmc.startWorkers.func") {
			n++
		}
	}
	return n
}

// TestStepNoAlloc: after warm-up starts, a Step allocates nothing — the
// chains' goroutines are persistent and every kernel works in place. Draw
// stores are given a small capacity, so they stop growing and recycle.
func TestStepNoAlloc(t *testing.T) {
	for _, data := range []string{"linreg", "gap"} {
		d := loadData(t, data)
		modelName := d.DefaultModel
		for _, k := range allKinds {
			m := newSampler(t, k, modelName)
			c := sim.Controls{"warmup": sim.Num(30), "max_depth": sim.Num(3)}
			if k != kindNUTS {
				delete(c, "max_depth")
			}
			if k == kindHMC {
				c["leapfrog_steps"] = sim.Num(2)
			}
			if k == kindSGLD {
				c["batch"] = sim.Num(10)
			}
			if _, err := sim.Init(m, d, c, numeric.NewRand(1)); err != nil {
				t.Fatal(err)
			}
			for _, ch := range m.chains {
				ch.draws = newStore(ch.draws.w, 16)
				ch.full = newStore(ch.full.w, 16)
			}
			for range 40 {
				m.Step()
			}
			if a := testing.AllocsPerRun(20, func() { m.Step() }); a != 0 {
				t.Errorf("%s on %s: Step allocates %v times", k.name(), data, a)
			}
			m.Close()
		}
	}
}

// The chains step in as many goroutines as Env.Threads allows, and the
// draws are the same bit for bit whatever that is (each chain has its own
// stream and state; a round only groups them), changed between steps too.
func TestThreadsKeepTheDraws(t *testing.T) {
	d := loadData(t, "linreg")
	for _, k := range allKinds {
		var want [][]float64
		for _, threads := range []int{0, 1, 2, 3, 4, 5} {
			m := newSampler(t, k, "linear")
			m.minParallel = 0 // in parallel however short a transition is
			m.SetEnv(sim.Env{Threads: threads})
			run(t, m, d, sim.Controls{"chains": sim.Num(4), "warmup": sim.Num(20)}, 7, 30)
			m.SetEnv(sim.Env{Threads: 5 - threads}) // mid-run, as the engine does when runs start or stop
			for range 30 {
				m.Step()
			}
			got := m.Draws("b")
			if want == nil {
				want = got
				continue
			}
			for c := range want {
				if !slices.Equal(got[c], want[c]) {
					t.Errorf("%s: chain %d's draws of b with Env.Threads %d differ from one goroutine per chain", k.name(), c, threads)
				}
			}
		}
	}
}

// Chains whose transitions are shorter than parallelMin step in turn
// whatever Env.Threads allows, and in parallel, as far as it allows, once
// they are longer; the first step is timed. (How long a linear model's
// transition takes is wall time on a shared machine: not asserted.)
func TestShortTransitionsStepInTurn(t *testing.T) {
	for _, tc := range []struct {
		n, threads int
		chain      time.Duration
		want       int
	}{
		{4, 0, 0, 1}, // not yet timed
		{4, 0, time.Microsecond, 1},
		{4, 0, parallelMin, 4},
		{4, 2, time.Millisecond, 2},
		{4, 8, time.Millisecond, 4},
		{4, 1, time.Millisecond, 1},
	} {
		if got := goroutines(tc.n, tc.threads, tc.chain, parallelMin); got != tc.want {
			t.Errorf("%d chains, threads %d, %v a transition: %d goroutines, want %d", tc.n, tc.threads, tc.chain, got, tc.want)
		}
	}
	m := newSampler(t, kindHMC, "linear")
	run(t, m, loadData(t, "linreg"), sim.Controls{"chains": sim.Num(4)}, 1, 1)
	if m.chainTime <= 0 {
		t.Errorf("the first step's transition timed at %v, want > 0", m.chainTime)
	}
}
