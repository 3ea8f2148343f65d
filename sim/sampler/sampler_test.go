package sampler

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/target"
)

func must[S Sampler](s S, err error) Sampler {
	if err != nil {
		panic(err)
	}
	return s
}

// samplers builds each sampler at settings that suit a unit-scale target.
func samplers() []struct {
	name string
	mk   func(t target.Target, r *rand.Rand, start Point) Sampler
} {
	return []struct {
		name string
		mk   func(t target.Target, r *rand.Rand, start Point) Sampler
	}{
		{"metropolis", func(t target.Target, r *rand.Rand, s Point) Sampler {
			return must(NewMetropolis(t, MetropolisConfig{Scale: 1}, r, s))
		}},
		{"mala", func(t target.Target, r *rand.Rand, s Point) Sampler {
			return must(NewMALA(t, LangevinConfig{Step: 0.35}, r, s))
		}},
		{"hmc", func(t target.Target, r *rand.Rand, s Point) Sampler {
			return must(NewHMC(t, HMCConfig{Step: 0.15, Leapfrogs: 12}, r, s))
		}},
		{"nuts", func(t target.Target, r *rand.Rand, s Point) Sampler {
			return must(NewNUTS(t, NUTSConfig{Warmup: 300}, r, s))
		}},
		{"nuts unit metric", func(t target.Target, r *rand.Rand, s Point) Sampler {
			return must(NewNUTS(t, NUTSConfig{Warmup: 300, Metric: MetricUnit}, r, s))
		}},
	}
}

// TestStationary runs every exact sampler on the correlated Gaussian
// (ρ = 0.9) and the banana and compares the draws with the grid.
func TestStationary(t *testing.T) {
	for _, tg := range []target.Target{gaussian(t, 0.9), banana(t)} {
		g := mustGrid(t, tg)
		for _, s := range samplers() {
			n := 20000
			if strings.HasPrefix(s.name, "nuts") || s.name == "hmc" {
				n = 4000
			}
			d := run(t, g, 4, 300, n, func(r *rand.Rand, start Point) Sampler { return s.mk(tg, r, start) })
			checkAgainstGrid(t, s.name+" on "+tg.Name(), g, d)
		}
	}
}

// ulaCov is the unadjusted Langevin chain's stationary covariance on
// N(0, Σ): θ′ = Aθ + εξ with A = I − (ε²/2)Σ⁻¹, so S = ε²(I − A²)⁻¹, and
// along an eigenvector of Σ with eigenvalue λ, S's eigenvalue is
// λ/(1 − ε²/(4λ)). For Σ = [[1, ρ], [ρ, 1]] the eigenvalues are 1 ± ρ on
// (1, ±1)/√2, so Var θ₁ = Var θ₂ is the mean of the two.
func ulaVar(rho, eps float64) float64 {
	s := 0.0
	for _, l := range []float64{1 + rho, 1 - rho} {
		s += l / (1 - eps*eps/(4*l)) / 2
	}
	return s
}

// TestLangevinBias: at ε = 0.55 on the Gaussian with ρ = 0.9, ULA's
// variance is its own stationary one, 20% above the target's (the narrow
// direction, sd √0.1, is stretched 2.0 times), while MALA at the same
// step matches the target. The gap must be twice the tolerance, so the
// bias is plain and not a fluctuation.
func TestLangevinBias(t *testing.T) {
	const rho, eps = 0.9, 0.55
	tg := gaussian(t, rho)
	g := mustGrid(t, tg)
	mk := func(adjusted bool) func(r *rand.Rand, s Point) Sampler {
		return func(r *rand.Rand, s Point) Sampler {
			return must(newLangevin(tg, LangevinConfig{Step: eps}, r, s, adjusted))
		}
	}
	ula := run(t, g, 4, 500, 20000, mk(false))
	mala := run(t, g, 4, 500, 20000, mk(true))
	want := ulaVar(rho, eps)
	for a := range 2 {
		v, se := mcStat(ula[a], func(x float64) float64 { return x * x })
		within(t, "ULA's variance against its stationary one", v, want, se)
		if math.Abs(v-1) < 2*zTol*se {
			t.Errorf("ULA's variance %.4g is within %g s.e. (%.2g) of the target's 1", v, 2*zTol, se)
		}
		v, se = mcStat(mala[a], func(x float64) float64 { return x * x })
		within(t, "MALA's variance", v, 1, se)
	}
}

// TestFunnelDivergences: fixed-step HMC on the centred funnel diverges,
// and where it does v is low (the neck, where x's sd e^{v/2} is below the
// step); on the non-centred funnel, a Gaussian with sds 3 and 1 on which
// the leapfrog with ε = 0.3 is stable (ε < 2·sd), it never does.
func TestFunnelDivergences(t *testing.T) {
	for _, c := range []struct {
		tg     target.Target
		centre bool
	}{{target.Funnel{}, true}, {target.NonCentredFunnel{}, false}} {
		g := mustGrid(t, c.tg)
		starts := make([]Point, 4)
		if err := g.Draws(starts, numeric.NewStream(5, 0)); err != nil {
			t.Fatal(err)
		}
		var div int
		var vDiv float64
		for i, st := range starts {
			h := must(NewHMC(c.tg, HMCConfig{Step: 0.3, Leapfrogs: 10}, numeric.NewStream(5, uint64(i+1)), st))
			for range 5000 {
				v := h.Position()[0]
				if h.Step(nil).Divergent {
					div++
					vDiv += v
				}
			}
		}
		switch {
		case c.centre && div == 0:
			t.Error("centred funnel: no divergences")
		case c.centre && vDiv/float64(div) > -2:
			t.Errorf("centred funnel: divergences start at mean v = %.2f, want the neck (v < −2)", vDiv/float64(div))
		case !c.centre && div > 0:
			t.Errorf("non-centred funnel: %d divergences", div)
		}
	}
}

// TestDeterministic: a seed reproduces a chain exactly.
func TestDeterministic(t *testing.T) {
	tg := banana(t)
	for _, s := range samplers() {
		a := s.mk(tg, numeric.NewStream(3, 1), Point{0.1, 0.2})
		b := s.mk(tg, numeric.NewStream(3, 1), Point{0.1, 0.2})
		for range 200 {
			a.Step(nil)
			b.Step(NewRecord(1024)) // recording must not change the chain
			if a.Position() != b.Position() || a.Counts() != b.Counts() {
				t.Fatalf("%s: the same seed gave %v and %v", s.name, a.Position(), b.Position())
			}
		}
	}
}

func TestBadConfig(t *testing.T) {
	tg := gaussian(t, 0)
	r := numeric.NewRand(1)
	for _, c := range []struct {
		err   error
		field string
	}{
		{second(NewMetropolis(tg, MetropolisConfig{Scale: -1}, r, Point{})), "scale"},
		{second(NewMALA(tg, LangevinConfig{Step: 9}, r, Point{})), "step"},
		{second(NewHMC(tg, HMCConfig{Leapfrogs: MaxLeapfrogs + 1}, r, Point{})), "leapfrogs"},
		{second(NewNUTS(tg, NUTSConfig{MaxDepth: MaxTreeDepth + 1}, r, Point{})), "max_depth"},
		{second(NewNUTS(tg, NUTSConfig{Delta: 1}, r, Point{})), "delta"},
		{second(NewNUTS(tg, NUTSConfig{Metric: "dense"}, r, Point{})), "metric"},
		{second(NewNUTS(tg, NUTSConfig{InvMetric: Point{1, -1}}, r, Point{})), "inv_metric"},
		{second(NewHMC(tg, HMCConfig{InvMetric: Point{math.NaN(), 1}}, r, Point{})), "inv_metric"},
		{second(New("nuts", tg, sim.Controls{"metric": sim.Choice("dense")}, r, Point{})), "metric"},
		{second(New("nuts", tg, sim.Controls{"metric": sim.Num(1)}, r, Point{})), "metric"},
		{second(NewMetropolis(tg, MetropolisConfig{}, r, Point{math.NaN(), 0})), "start"},
		{second(New("gibbs", tg, nil, r, Point{})), "method"},
		{second(New("hmc", tg, sim.Controls{"leapfrogs": sim.Num(2.5)}, r, Point{})), "leapfrogs"},
		{second(New("nuts", tg, sim.Controls{"scale": sim.Num(1)}, r, Point{})), "scale"},
	} {
		var fe *sim.FieldError
		if !errors.As(c.err, &fe) || fe.Field != c.field {
			t.Errorf("got %v, want a field error on %q", c.err, c.field)
		}
	}
	for _, s := range Specs() {
		if _, err := New(s.Name, tg, nil, r, Point{}); err != nil {
			t.Errorf("New(%q) at its defaults: %v", s.Name, err)
		}
	}
}

func second[S any](_ S, err error) error { return err }

// TestNoAllocs: a step allocates nothing, recording or not.
func TestNoAllocs(t *testing.T) {
	tg := banana(t)
	for _, s := range append(samplers(), struct {
		name string
		mk   func(t target.Target, r *rand.Rand, start Point) Sampler
	}{"langevin", func(t target.Target, r *rand.Rand, s Point) Sampler {
		return must(NewULA(t, LangevinConfig{Step: 0.3}, r, s))
	}}) {
		sm := s.mk(tg, numeric.NewRand(2), Point{0.5, 0})
		rec := NewRecord(1 << 10)
		for _, r := range []*Record{nil, rec} {
			if n := testing.AllocsPerRun(200, func() { sm.Step(r) }); n != 0 {
				t.Errorf("%s (record %v): %g allocations a step", s.name, r != nil, n)
			}
		}
	}
}

func TestSet(t *testing.T) {
	tg := gaussian(t, 0.5)
	r := numeric.NewRand(1)
	for _, c := range []struct {
		method, control string
		value           float64
		read            func(Sampler) float64
	}{
		{"metropolis", "scale", 2.5, func(s Sampler) float64 { return s.(*Metropolis).cfg.Scale }},
		{"mala", "step", 0.2, func(s Sampler) float64 { return s.(*Langevin).cfg.Step }},
		{"langevin", "step", 0.3, func(s Sampler) float64 { return s.(*Langevin).cfg.Step }},
		{"hmc", "leapfrogs", 7, func(s Sampler) float64 { return float64(s.(*HMC).cfg.Leapfrogs) }},
		{"hmc", "step", 0.05, func(s Sampler) float64 { return s.(*HMC).cfg.Step }},
		{"nuts", "max_depth", 4, func(s Sampler) float64 { return float64(s.(*NUTS).cfg.MaxDepth) }},
	} {
		s, err := New(c.method, tg, nil, r, Point{})
		if err != nil {
			t.Fatal(err)
		}
		if err := Set(s, c.control, sim.Num(c.value)); err != nil || c.read(s) != c.value {
			t.Errorf("%s: set %s to %g: %v, reads %g", c.method, c.control, c.value, err, c.read(s))
		}
		var fe *sim.FieldError
		if err := Set(s, c.control, sim.Num(-1)); !errors.As(err, &fe) || fe.Field != c.control || c.read(s) != c.value {
			t.Errorf("%s: set %s to −1: %v, reads %g", c.method, c.control, err, c.read(s))
		}
	}
	if hmc, _ := New("hmc", tg, nil, r, Point{}); Set(hmc, "scale", sim.Num(1)) == nil {
		t.Error("HMC took a scale")
	}
	nuts, _ := New("nuts", tg, sim.Controls{"metric": sim.Choice(MetricUnit)}, r, Point{})
	var fe *sim.FieldError
	if err := Set(nuts, "metric", sim.Choice(MetricDiag)); !errors.As(err, &fe) || fe.Field != "metric" || nuts.(*NUTS).cfg.Metric != MetricUnit {
		t.Errorf("setting a running NUTS's metric: %v, metric %s", err, nuts.(*NUTS).cfg.Metric)
	}
}

// TestNUTSAdapts: after warm-up, dual averaging has brought the mean
// acceptance statistic near its target 0.8. The averaged iterate x̄ is
// not the last one, and with a fixed ε the statistic's mean differs from
// 0.8 by the adaptation's bias (Stan's runs typically land at 0.8–0.9),
// hence ±0.1 with the unit metric, where ε is averaged over all 500
// transitions; its Monte Carlo error over 4000 transitions is ~0.005.
// With the adapted metric the last restart of the dual averaging has only
// the 50 transitions of the terminal buffer, whose average x̄ leans to
// the small steps it starts from after overshooting (as Stan's does), so
// the statistic lands higher: 0.75–0.97.
func TestNUTSAdapts(t *testing.T) {
	for _, c := range []struct {
		tg     target.Target
		metric string
		lo, hi float64
	}{
		{gaussian(t, 0.9), MetricUnit, 0.7, 0.9},
		{banana(t), MetricUnit, 0.7, 0.9},
		{gaussian(t, 0.9), MetricDiag, 0.75, 0.97},
		{banana(t), MetricDiag, 0.75, 0.97},
	} {
		tg := c.tg
		n := must(NewNUTS(tg, NUTSConfig{Warmup: 500, Metric: c.metric}, numeric.NewRand(8), Point{})).(*NUTS)
		for range 500 {
			if !n.Step(nil).Warmup {
				t.Fatal("a warm-up step not marked so")
			}
		}
		var acc float64
		const m = 4000
		for range m {
			tr := n.Step(nil)
			if tr.Warmup {
				t.Fatal("a step after warm-up marked warm-up")
			}
			acc += tr.Accept / m
		}
		if acc < c.lo || acc > c.hi {
			t.Errorf("%s, %s metric: mean acceptance %.3f after warm-up, ε = %.3g", tg.Name(), c.metric, acc, n.StepSize())
		}
	}
}

// TestEnergyDistanceSeesBias compares thinned draws of MALA and ULA at
// ε = 0.55 on the Gaussian with ρ = 0.9 with the grid's reference draws by
// the energy distance. For two independent samples of sizes n and m from
// one distribution its V-statistic has mean E₀ = D(1/n + 1/m), D =
// E‖X − X′‖, and is a weighted sum of χ²₁ variables, which exceeds 5 times
// its mean with probability at most P(χ²₁ > 5) = 2.5% (Székely & Bakirov
// 2003). Thinned by 50, MALA's draws are close to independent, so its
// distance stays under 5E₀; ULA's stationary law is another one, and its
// distance is well over.
func TestEnergyDistanceSeesBias(t *testing.T) {
	tg := gaussian(t, 0.9)
	g := mustGrid(t, tg)
	const n = 2000
	ref := make([]Point, n)
	if err := g.Draws(ref, numeric.NewStream(1, 9)); err != nil {
		t.Fatal(err)
	}
	var d float64 // D, estimated from the reference's pairs
	for i, p := range ref {
		for _, q := range ref[i+1:] {
			d += math.Hypot(p[0]-q[0], p[1]-q[1])
		}
	}
	d /= n * (n - 1) / 2
	e0 := d * 2 / n
	for _, adjusted := range []bool{true, false} {
		s := must(newLangevin(tg, LangevinConfig{Step: 0.55}, numeric.NewStream(2, 1), Point{}, adjusted))
		draws := make([]Point, 0, n)
		for i := range 50 * (n + 10) {
			s.Step(nil)
			if i%50 == 0 && i >= 500 {
				draws = append(draws, s.Position())
			}
		}
		ed, err := target.EnergyDistance(draws[:n], ref)
		if err != nil {
			t.Fatal(err)
		}
		if adjusted && ed > 5*e0 || !adjusted && ed < 5*e0 {
			t.Errorf("adjusted %v: energy distance %.3g, 5E₀ = %.3g", adjusted, ed, 5*e0)
		}
	}
}
