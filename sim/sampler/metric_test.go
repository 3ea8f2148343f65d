package sampler

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim/target"
)

// TestWindows checks the schedule against Stan's for its default 1000
// warm-up transitions (the slow windows [75, 100), [100, 150),
// [150, 250), [250, 450) and [450, 950), the last stretched because a
// window of 400 and then one of 800 would not fit), for 500 (the last
// window the 200 before the terminal buffer), for 100 (15/75/10%: one
// window [15, 90)) and for 19 (none).
func TestWindows(t *testing.T) {
	for _, c := range []struct {
		n, first, last int
		ends           []int
	}{
		{1000, 75, 949, []int{99, 149, 249, 449, 949}},
		{500, 75, 449, []int{99, 149, 249, 449}},
		{150, 75, 99, []int{99}},
		{100, 15, 89, []int{89}},
		{19, -1, -1, nil},
	} {
		w := newWindows(c.n)
		var ends []int
		first, last := -1, -1
		for i := range c.n + 10 {
			gather, end := w.at(i)
			if end {
				ends = append(ends, i)
			}
			if gather && first < 0 {
				first = i
			}
			if gather {
				if last >= 0 && last != i-1 {
					t.Errorf("n = %d: gathering stops at %d and starts again at %d", c.n, last, i)
				}
				last = i
			}
		}
		if first != c.first || last != c.last || !slices.Equal(ends, c.ends) {
			t.Errorf("n = %d: gathers %d–%d, windows end at %v; Stan's %d–%d, %v", c.n, first, last, ends, c.first, c.last, c.ends)
		}
	}
}

// TestWelfordInv: for the draws 1, 2, 3, 4 (and twice that) the sample
// variance is 5/3 (and 20/3), and Stan's regularisation with n = 4 gives
// (4/9)·var + 1e-3·5/9.
func TestWelfordInv(t *testing.T) {
	var w welford
	if _, ok := w.inv(); ok {
		t.Error("an empty window gave a metric")
	}
	for _, x := range []float64{1, 2, 3, 4} {
		w.add(Point{x, 2 * x})
	}
	got, ok := w.inv()
	for a, v := range []float64{5.0 / 3, 20.0 / 3} {
		want := 4.0/9*v + 1e-3*5/9
		if !ok || math.Abs(got[a]-want) > 1e-14*want {
			t.Errorf("inv[%d] = %.17g (ok %v), want %.17g", a, got[a], ok, want)
		}
	}
}

// scaled are two targets whose marginal sds differ by a factor of 3 or
// 10: on them a metric that is not the identity moves the chain
// differently, and a sampler that used the metric in one place and not
// another would have the wrong stationary law.
func scaled(t *testing.T) []target.Target {
	g, err := target.NewGaussian(target.GaussianConfig{Rho: 0.5, ScaleRatio: 10})
	if err != nil {
		t.Fatal(err)
	}
	return []target.Target{g, target.NonCentredFunnel{}}
}

// TestStationaryMetric runs HMC with a fixed diagonal metric (the
// marginal variances, under which the targets look unit-scale to the
// dynamics), NUTS with the same metric fixed and NUTS adapting its own
// (the default), and compares the draws with the grid within the Monte
// Carlo errors of checkAgainstGrid. HMC's ε = 0.15 with L = 12 is
// stable for the rescaled targets, whose sds are at least √0.5 ≈ 0.7.
func TestStationaryMetric(t *testing.T) {
	for _, tg := range scaled(t) {
		g := mustGrid(t, tg)
		inv := Point{g.Cov[0][0], g.Cov[1][1]}
		for _, s := range []struct {
			name string
			mk   func(r *rand.Rand, start Point) Sampler
		}{
			{"hmc", func(r *rand.Rand, s Point) Sampler {
				return must(NewHMC(tg, HMCConfig{Step: 0.15, Leapfrogs: 12, InvMetric: inv}, r, s))
			}},
			{"nuts fixed metric", func(r *rand.Rand, s Point) Sampler {
				return must(NewNUTS(tg, NUTSConfig{Warmup: 300, Metric: MetricUnit, InvMetric: inv}, r, s))
			}},
			{"nuts adapted metric", func(r *rand.Rand, s Point) Sampler {
				return must(NewNUTS(tg, NUTSConfig{Warmup: 300}, r, s))
			}},
		} {
			d := run(t, g, 4, 300, 4000, s.mk)
			checkAgainstGrid(t, s.name+" on "+tg.Name(), g, d)
		}
	}
}

// TestMetricAdapts: after Stan's 1000 warm-up transitions the inverse
// metric is the last slow window's regularised variance of 500 draws. A
// variance estimated from an effective sample of m draws has relative sd
// about √(2/m); NUTS's draws on these Gaussians have an ESS of at least
// 200 of 500 (a relative sd under 0.1), so a factor of 1.5 either way
// (log 1.5 ≈ 0.41) is over 4 sds of the estimate, and the shrinkage
// 500/505 is far inside it. With MetricUnit the metric stays the
// identity.
func TestMetricAdapts(t *testing.T) {
	for _, tg := range scaled(t) {
		g := mustGrid(t, tg)
		for c := range 4 {
			for _, m := range []string{MetricDiag, MetricUnit} {
				n := must(NewNUTS(tg, NUTSConfig{Metric: m}, numeric.NewStream(4, uint64(c)), Point{})).(*NUTS)
				for range 1000 {
					n.Step(nil)
				}
				inv := n.InvMetric()
				if m == MetricUnit {
					if inv != (Point{1, 1}) {
						t.Errorf("%s chain %d: unit metric became %v", tg.Name(), c, inv)
					}
					continue
				}
				for a := range 2 {
					if r := inv[a] / g.Cov[a][a]; !(r > 1/1.5 && r < 1.5) {
						t.Errorf("%s chain %d: inverse metric %v, marginal variances %.3g, %.3g", tg.Name(), c, inv, g.Cov[0][0], g.Cov[1][1])
					}
				}
			}
		}
	}
}

// stretched is the law of x = s∘y for y from the target q: log p̃(x) =
// log q̃(x/s), ∇ = ∇q/s.
type stretched struct {
	target.Target
	s Point
}

func (t stretched) LogDensity(x Point) float64 {
	return t.Target.LogDensity(Point{x[0] / t.s[0], x[1] / t.s[1]})
}

func (t stretched) LogDensityGrad(x Point) (float64, Point) {
	lp, g := t.Target.LogDensityGrad(Point{x[0] / t.s[0], x[1] / t.s[1]})
	return lp, Point{g[0] / t.s[0], g[1] / t.s[1]}
}

// TestMetricInvariance: Hamiltonian dynamics with the metric M⁻¹ =
// diag(s²) on the law of x = s∘y are the identity metric's dynamics on
// y, mapped by s: the momentum is p/s, the kinetic energy, the
// acceptance statistics and the generalised U-turn criterion p♯·ρ are
// the same numbers. With s = (4, ½), powers of two, every product is
// exact, so HMC and NUTS (ε adapted, metric fixed) on the stretched
// banana retrace the identity metric's chains on the banana bit for bit,
// stretched. The scales differ per coordinate, so a criterion on p·ρ
// instead of p♯·ρ would stop other trees.
func TestMetricInvariance(t *testing.T) {
	s := Point{4, 0.5}
	q := banana(t)
	x := stretched{q, s}
	inv := Point{s[0] * s[0], s[1] * s[1]}
	for _, c := range []struct {
		name       string
		unit, diag func(r *rand.Rand, start Point) Sampler
	}{
		{"hmc", func(r *rand.Rand, st Point) Sampler {
			return must(NewHMC(q, HMCConfig{Step: 0.2, Leapfrogs: 10}, r, st))
		}, func(r *rand.Rand, st Point) Sampler {
			return must(NewHMC(x, HMCConfig{Step: 0.2, Leapfrogs: 10, InvMetric: inv}, r, st))
		}},
		{"nuts", func(r *rand.Rand, st Point) Sampler {
			return must(NewNUTS(q, NUTSConfig{Warmup: 200, Metric: MetricUnit}, r, st))
		}, func(r *rand.Rand, st Point) Sampler {
			return must(NewNUTS(x, NUTSConfig{Warmup: 200, Metric: MetricUnit, InvMetric: inv}, r, st))
		}},
	} {
		st := Point{0.3, -0.7}
		a := c.unit(numeric.NewStream(6, 1), st)
		b := c.diag(numeric.NewStream(6, 1), Point{st[0] * s[0], st[1] * s[1]})
		ra, rb := NewRecord(1<<10), NewRecord(1<<10)
		for i := range 1000 {
			ta, tb := a.Step(ra), b.Step(rb)
			pa, pb := a.Position(), b.Position()
			if ta != tb || pb != (Point{pa[0] * s[0], pa[1] * s[1]}) || len(ra.Path) != len(rb.Path) || ra.Stop != rb.Stop {
				t.Fatalf("%s step %d: %+v at %v (%d points) with the identity, %+v at %v (%d points) stretched", c.name, i, ta, pa, len(ra.Path), tb, pb, len(rb.Path))
			}
		}
	}
}
