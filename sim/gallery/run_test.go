package gallery

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/target"
)

// TestSamplersOnGaussian: each sampler's reported means and sds on the
// correlated Gaussian (ρ = 0.9) are the exact ones within Monte Carlo
// error. The mean's error is sd/√ESS with the bulk ESS the report gives;
// the sd's, for a Gaussian, sd/√(2·ESS₂) with ESS₂ the ESS of the
// squared deviations (computed here from the kept draws: a chain can mix
// x fast and x² slowly, HMC's anticorrelated draws do). Each of the 20
// comparisons is allowed 4.5 standard errors: a false alarm has
// probability under 2·10⁻⁵ in all. ULA is compared with its own
// stationary law: on N(0, Σ) its step x′ = x + (ε²/2)∇log p + εξ leaves
// N(0, Σ′) invariant, each eigenvalue λ of Σ becoming λ/(1 − ε²/(4λ)).
func TestSamplersOnGaussian(t *testing.T) {
	const budget, z = 100_000, 4.5
	for _, m := range []string{"metropolis", "mala", "hmc", "nuts", "langevin"} {
		r := newRun(t, gaussian(m, 1))
		if err := r.StepToBudget(context.Background(), budget); err != nil {
			t.Fatal(err)
		}
		rep := r.Report()
		g := r.Exact().Shown
		wantSD := [2]float64{math.Sqrt(g.Cov[0][0]), math.Sqrt(g.Cov[1][1])}
		if m == "langevin" {
			eps := 0.5 // the default step
			var v float64
			for _, lam := range []float64{1.9, 0.1} { // Σ's eigenvalues, 1 ± ρ
				v += lam / (1 - eps*eps/(4*lam)) / 2 // each coordinate is half of each
			}
			wantSD = [2]float64{math.Sqrt(v), math.Sqrt(v)}
		}
		for a, name := range g.Params {
			p := rep.Params[name]
			ess := float64(*p.ESSBulk)
			if err := math.Abs(float64(p.Mean) - g.Mean[a]); err > z*wantSD[a]/math.Sqrt(ess) {
				t.Errorf("%s: mean %s = %.4f, want %.4f ± %.4f (ESS %.0f)", m, name, p.Mean, g.Mean[a], z*wantSD[a]/math.Sqrt(ess), ess)
			}
			ess2 := squaredESS(r, a)
			if err := math.Abs(float64(p.SD) - wantSD[a]); err > z*wantSD[a]/math.Sqrt(2*ess2) {
				t.Errorf("%s: sd %s = %.4f, want %.4f ± %.4f (ESS of squares %.0f)", m, name, p.SD, wantSD[a], z*wantSD[a]/math.Sqrt(2*ess2), ess2)
			}
			if rh := float64(*p.RHat); !(rh < 1.05) {
				t.Errorf("%s: R̂ of %s = %.3f from chains started at exact draws", m, name, rh)
			}
		}
		if *rep.Divergences != 0 {
			t.Errorf("%s: %d divergences on a Gaussian", m, *rep.Divergences)
		}
	}
}

// squaredESS is the ESS of coordinate a's squared deviations over the
// kept draws.
func squaredESS(r *Run, a int) float64 {
	chains := r.series(a)
	var s, n float64
	for _, c := range chains {
		for _, x := range c {
			s += x
			n++
		}
	}
	for _, c := range chains {
		for i, x := range c {
			c[i] = (x - s/n) * (x - s/n)
		}
	}
	return numeric.ESS(chains)
}

// TestFamiliesOnGaussian: on N(0, Σ), ρ = 0.9, full-rank's optimum is p
// itself (KL 0) and mean-field's under reverse KL is N(0, diag(σᵢ²(1−ρ²)))
// with KL(q‖p) = −½log(1−ρ²) ≈ 0.830 (both as the family package tests
// them; here through the run and its report). Mean-field's ELBO
// gradient keeps its noise at the optimum (q ≠ p), so Adam's mean wanders
// about it, by about 0.08 sd at the default learning rate, which costs
// ½δᵀΣ⁻¹δ ≈ 0.005 nats; a quarter of the rate (0.005) halves δ at least,
// a quarter of the cost. KL is at its minimum over the family there, so
// it may not be below −½log(1−ρ²) by more than the grid's error. Full-rank's
// noise vanishes at q = p (the path derivative), so 0.005 nats is wide
// for it. The flow holds the Gaussian exactly (its coupling layers
// at the identity), and is allowed the same. SVGD's 100 particles are
// held to an iid sample's error of 100 draws at 4.5 standard errors
// (Liu & Wang's particles do better than iid on a Gaussian).
func TestFamiliesOnGaussian(t *testing.T) {
	const budget = 100_000
	want := map[string]float64{"mfvi": -0.5 * math.Log(1-0.81), "fullrank": 0, "flow": 0}
	for _, m := range []string{"mfvi", "fullrank", "flow", "svgd"} {
		cfg := gaussian(m, 2)
		if m == "mfvi" {
			cfg.MethodControls = sim.Controls{"lr": sim.Num(0.005)}
		}
		r := newRun(t, cfg)
		if err := r.StepToBudget(context.Background(), budget); err != nil {
			t.Fatal(err)
		}
		rep := r.Report()
		if m == "svgd" {
			for _, name := range []string{"x", "y"} {
				p := rep.Params[name]
				if math.Abs(float64(p.Mean-p.ExactMean)) > 4.5/math.Sqrt(100) || math.Abs(float64(p.SD/p.ExactSD)-1) > 4.5/math.Sqrt(200) {
					t.Errorf("svgd: %s mean %.3f sd %.3f, want %.3f, %.3f within an iid sample's error", name, p.Mean, p.SD, p.ExactMean, p.ExactSD)
				}
			}
			if rep.KLExact != nil || rep.EnergyDistance == nil {
				t.Error("svgd: want an energy distance and no KL")
			}
			continue
		}
		t.Logf("%s: kl_exact %.5f, optimum %.5f", m, float64(*rep.KLExact), want[m])
		if kl := float64(*rep.KLExact); kl < want[m]-1e-4 || kl > want[m]+0.005 {
			t.Errorf("%s: kl_exact %.4f, want %.4f + [0, 0.005]", m, kl, want[m])
		}
		// The ELBO's gap below log Z is KL(q‖p), up to one step's
		// estimate's noise: at q = p none (every log w is log Z), for
		// mean-field the sd of log p − log q over q's draws over √32.
		if gap := float64(rep.LogZ - *rep.ELBO); m == "mfvi" && math.Abs(gap-want[m]) > 0.5 || m != "mfvi" && math.Abs(gap) > 0.01 {
			t.Errorf("%s: log Z − ELBO = %.4f, want about %.4f", m, gap, want[m])
		}
		if m == "mfvi" {
			for _, name := range []string{"x", "y"} {
				if sd := float64(rep.Params[name].SD); math.Abs(sd-math.Sqrt(1-0.81)) > 0.01 {
					t.Errorf("mfvi: sd %s = %.4f, want √(1−ρ²) = %.4f", name, sd, math.Sqrt(1-0.81))
				}
			}
		}
		if rep.ParetoK == nil {
			t.Errorf("%s: no pareto_k", m)
		}
	}
}

// TestEqualBudget: runs of different methods paced to one budget end
// within one step's cost of each other, each at or past it.
func TestEqualBudget(t *testing.T) {
	const budget = 30_000
	// The most a step can cost: 4 chains × 2^10 leapfrogs for NUTS, 4
	// for Metropolis, 32 draws for a Gaussian, 100 particles for SVGD.
	cost := map[string]int64{"metropolis": 4, "nuts": 4 << 10, "mfvi": 32, "svgd": 100}
	lo, hi := int64(math.MaxInt64), int64(0)
	maxCost := int64(0)
	for m, c := range cost {
		r := newRun(t, gaussian(m, 3))
		if err := r.StepToBudget(context.Background(), budget); err != nil {
			t.Fatal(err)
		}
		e := r.Evals()
		if e < budget || e >= budget+c {
			t.Errorf("%s: %d evaluations, want [%d, %d)", m, e, budget, budget+c)
		}
		lo, hi, maxCost = min(lo, e), max(hi, e), max(maxCost, c)
	}
	if hi-lo >= maxCost {
		t.Errorf("spread %d, want under one step's cost %d", hi-lo, maxCost)
	}
}

// TestCancel: a run stops at the step where its context is cancelled,
// short of its budget.
func TestCancel(t *testing.T) {
	for _, m := range []string{"nuts", "flow"} {
		r := newRun(t, gaussian(m, 4))
		ctx := &stopAfter{Context: context.Background(), k: 7}
		err := r.StepToBudget(ctx, 1<<40)
		if !errors.Is(err, context.Canceled) || r.Steps() != 7 {
			t.Errorf("%s: error %v after %d steps, want cancelled after 7", m, err, r.Steps())
		}
		ctx.k = 3
		if err := r.Step(ctx, 100); !errors.Is(err, context.Canceled) || r.Steps() != 10 {
			t.Errorf("%s: Step: error %v after %d steps, want cancelled after 10", m, err, r.Steps())
		}
	}
}

// TestAllocs: a step allocates nothing once the run's buffers are in
// place, a cheap point of the history included. The costly measures come
// at doublings of the budget; the window measured holds none.
func TestAllocs(t *testing.T) {
	for _, m := range Methods() {
		r := newRun(t, gaussian(m.Name, 5))
		ctx := context.Background()
		if err := r.StepToBudget(ctx, 50_000); err != nil {
			t.Fatal(err)
		}
		// A window long enough, at the mean cost of a step, to reach the
		// next cheap point of the history.
		runs := int(float64(r.hist.nextCheap-r.Evals())*float64(r.Steps())/float64(r.Evals())) + 10
		next, points := r.hist.nextCostly, len(r.hist.pts)
		a := testing.AllocsPerRun(runs, func() { r.Step(ctx, 1) })
		if a != 0 {
			t.Errorf("%s: %.1f allocations a step", m.Name, a)
		}
		if len(r.hist.pts) == points {
			t.Errorf("%s: no cheap point in the window: it measured nothing", m.Name)
		}
		if r.hist.nextCostly != next {
			t.Errorf("%s: a costly measure fell in the window", m.Name)
		}
	}
}

// TestDrawsBounded: a run keeps at most MaxDraws draws, each chain its
// latest, the newest being the chain's position.
func TestDrawsBounded(t *testing.T) {
	cfg := gaussian("metropolis", 6)
	cfg.MaxDraws = 1000
	r := newRun(t, cfg)
	if err := r.Step(context.Background(), 3000); err != nil {
		t.Fatal(err)
	}
	var v View
	r.View(&v)
	if len(v.Draws) != 1000 || len(v.Chain) != 1000 {
		t.Fatalf("%d draws kept, want 1000", len(v.Draws))
	}
	for c := range 4 {
		last := v.Draws[(c+1)*250-1]
		if v.Chain[(c+1)*250-1] != uint8(c) || last != r.chains[c].Position() {
			t.Errorf("chain %d: last kept %v, position %v", c, last, r.chains[c].Position())
		}
	}
	if r.mom.n != 12000 {
		t.Errorf("running moments over %g draws, want all 12000", r.mom.n)
	}
}

func TestRunErrors(t *testing.T) {
	base := gaussian("nuts", 1)
	for _, tc := range []struct {
		edit  func(*RunConfig)
		field string
	}{
		{func(c *RunConfig) { c.Method = "gibbs" }, "method"},
		{func(c *RunConfig) { c.Chains = 9 }, "chains"},
		{func(c *RunConfig) { c.Method, c.Chains = "mfvi", 2 }, "chains"},
		{func(c *RunConfig) { c.MaxDraws = MaxKeptDraws + 1 }, "max_draws"},
		{func(c *RunConfig) { c.MethodControls = sim.Controls{"max_depth": sim.Num(20)} }, "max_depth"},
		{func(c *RunConfig) { c.MethodControls = sim.Controls{"scale": sim.Num(1)} }, "scale"},
		{func(c *RunConfig) { c.Method, c.MethodControls = "flow", sim.Controls{"divergence": sim.Choice("tv")} }, "divergence"},
		{func(c *RunConfig) { c.TargetControls = sim.Controls{"rho": sim.Num(-1)} }, "rho"},
		{func(c *RunConfig) { c.Target = "moon" }, "target"},
	} {
		cfg := base
		tc.edit(&cfg)
		_, err := NewRun(context.Background(), testCache(), cfg)
		var fe *sim.FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field {
			t.Errorf("%+v: error %v, want a field error on %s", cfg, err, tc.field)
		}
	}
	r := newRun(t, base)
	var fe *sim.FieldError
	if err := r.StepToBudget(context.Background(), -1); !errors.As(err, &fe) || fe.Field != "budget" {
		t.Errorf("budget −1: %v", err)
	}
	if err := r.Set("max_depth", sim.Num(99)); !errors.As(err, &fe) || fe.Field != "max_depth" {
		t.Errorf("Set max_depth 99: %v", err)
	}
}

// TestSetLive: a sampler's control and a family's learning rate change
// between steps; a family's other controls and a 0 rate do not.
func TestSetLive(t *testing.T) {
	r := newRun(t, gaussian("hmc", 1))
	if err := r.Set("leapfrogs", sim.Num(5)); err != nil {
		t.Fatal(err)
	}
	r.Step(context.Background(), 1) // the first also takes the gradient at each start
	e := r.Evals()
	r.Step(context.Background(), 1)
	if d := r.Evals() - e; d != 4*5 {
		t.Errorf("a step of 4 chains at 5 leapfrogs spent %d gradients, want 20", d)
	}
	q := newRun(t, gaussian("flow", 1))
	var fe *sim.FieldError
	if err := q.Set("lr", sim.Num(0.01)); err != nil {
		t.Error(err)
	}
	for _, tc := range []struct {
		name string
		v    float64
	}{{"layers", 2}, {"lr", 0}, {"lr", 2}} {
		if err := q.Set(tc.name, sim.Num(tc.v)); !errors.As(err, &fe) || fe.Field != tc.name {
			t.Errorf("Set %s %g: %v, want a field error on it", tc.name, tc.v, err)
		}
	}
}

// TestFamilyControlsLive: a family's control is marked live exactly when
// Set takes a new in-range value of it between steps, and the help of a
// live control does not call it "not live".
func TestFamilyControlsLive(t *testing.T) {
	for _, m := range Methods() {
		if m.Sampler {
			continue
		}
		r := newRun(t, gaussian(m.Name, 1))
		for _, c := range m.Controls {
			if c.Options != nil {
				continue // a choice: no in-range number to set
			}
			v := c.Max // in range and, for every control, not its 0 default
			err := r.Set(c.Name, sim.Num(v))
			if (err == nil) != c.Live {
				t.Errorf("%s's %s: Live %v, but Set(%g) = %v", m.Name, c.Name, c.Live, v, err)
			}
			if c.Live && strings.Contains(c.Help, "not live") {
				t.Errorf("%s's %s is live, but its help says %q", m.Name, c.Name, c.Help)
			}
		}
	}
}

// TestPace: runs paced together are, at every step, within one step's
// cost of each other (the most any of them can spend in a step), however
// far apart their costs per step: checked at every stop of a context
// that cancels after k steps, for k along the race.
func TestPace(t *testing.T) {
	// The most a step can cost: 4 chains × 2^10 leapfrogs for NUTS,
	// 4 × 20 for HMC, 4 for Metropolis, 32 draws for a Gaussian, 100
	// particles for SVGD.
	const maxCost = 4 << 10
	methods := []string{"metropolis", "hmc", "nuts", "fullrank", "svgd"}
	runs := make([]*Run, len(methods))
	for i, m := range methods {
		runs[i] = newRun(t, gaussian(m, 12))
	}
	steps := int64(0)
	for k := 1; ; k *= 2 {
		err := Pace(&stopAfter{Context: context.Background(), k: k}, runs, 200_000)
		lo, hi := runs[0].Evals(), runs[0].Evals()
		var n int64
		for _, r := range runs {
			lo, hi, n = min(lo, r.Evals()), max(hi, r.Evals()), n+r.Steps()
		}
		if hi-lo > maxCost {
			t.Fatalf("after %d steps: budgets from %d to %d", n, lo, hi)
		}
		if err == nil {
			if lo < 200_000 || n-steps > int64(k) {
				t.Errorf("finished at %d with %d steps, want all at 200000", lo, n-steps)
			}
			break
		}
		if !errors.Is(err, context.Canceled) || n-steps != int64(k) {
			t.Fatalf("stopped with %v after %d steps, want cancelled after %d", err, n-steps, k)
		}
		steps = n
	}
}

// TestStart: a start point starts every chain (or q's mean) there, and a
// start where the density is not finite is a field error on it.
func TestStart(t *testing.T) {
	p := target.Point{3, -3}
	cfg := gaussian("metropolis", 13)
	cfg.Start = &p
	r := newRun(t, cfg)
	for c, s := range r.chains {
		if s.Position() != p {
			t.Errorf("chain %d starts at %v, want %v", c, s.Position(), p)
		}
	}
	cfg.Method = "fullrank"
	q := newRun(t, cfg)
	// Started at p, nudged by N(0, 0.1²) in u, whose unit is an eighth of
	// the box (about 1.3 here): off by more than 0.5 is a χ²₂ past 14, a
	// chance of 1e-3.
	if m, _ := q.fit.Moments(); math.Hypot(m[0]-p[0], m[1]-p[1]) > 0.5 {
		t.Errorf("q's mean starts at %v, want near %v", m, p)
	}
	for _, m := range []string{"nuts", "mfvi"} {
		bad := target.Point{math.NaN(), 0}
		cfg := gaussian(m, 1)
		cfg.Start = &bad
		_, err := NewRun(context.Background(), testCache(), cfg)
		var fe *sim.FieldError
		if !errors.As(err, &fe) || fe.Field != "start" {
			t.Errorf("%s: start at NaN: %v", m, err)
		}
	}
}

// TestSeed: a seed reproduces a run bit for bit; another seed does not.
func TestSeed(t *testing.T) {
	for _, m := range []string{"mala", "mfvi"} {
		var reps [3]string
		for i, seed := range []uint64{5, 5, 6} {
			r := newRun(t, gaussian(m, seed))
			if err := r.StepToBudget(context.Background(), 5_000); err != nil {
				t.Fatal(err)
			}
			rep := r.Report()
			rep.Seed = 0
			b, err := json.Marshal(rep)
			if err != nil {
				t.Fatal(err)
			}
			reps[i] = string(b)
		}
		if reps[0] != reps[1] || reps[0] == reps[2] {
			t.Errorf("%s: seed 5 twice gave\n%s\n%s\nseed 6\n%s", m, reps[0], reps[1], reps[2])
		}
	}
}

// TestRHatSeparatedModes: on two unit modes 10 apart, a MALA chain of
// step 0.5 cannot cross (the density between them falls to e^{−12.5} of
// a peak, and a step moves about 0.5), so chains that started in
// different modes stay apart and R̂ flags it, far past 1.1: between
// chains the variance of x is about 25, within each about 1. Chains that
// all started in one mode (probability 2·2⁻⁴ a seed) would not; the
// seeds are checked by where the chains started.
func TestRHatSeparatedModes(t *testing.T) {
	for seed := range uint64(5) {
		r := newRun(t, RunConfig{Target: "mixture", TargetControls: sim.Controls{"separation": sim.Num(10)}, Method: "mala", Seed: seed})
		var left int
		for _, s := range r.chains {
			if s.Position()[0] < 0 {
				left++
			}
		}
		if err := r.Step(context.Background(), 2000); err != nil {
			t.Fatal(err)
		}
		rh := float64(*r.Report().Params["x"].RHat)
		split := left > 0 && left < len(r.chains)
		if split && !(rh > 1.5) || !split && !(rh < 1.1) {
			t.Errorf("seed %d: %d of 4 chains started left, R̂ %.3f", seed, left, rh)
		}
	}
}
