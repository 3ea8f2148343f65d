package target

import (
	"math"
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim/cputime"
)

// The grid's error. The midpoint rule on a density that is smooth and
// decays to nothing inside the box has an error of order
// exp(−2π²σ²/h²) for a feature of width σ on cells of width h; on every
// target below h/σ ≤ 0.9 (the banana's y | x at x = 4.5, curvature 2.5,
// seen along x), so that term is below e^{−24}. What remains is the box's
// truncation, ~1e-6 of the mass; in second moments the tails weigh x², so
// their share is 2(5φ(5) + Φ(−5)) ≈ 1.5e-5 of a variance. relTol covers
// both with a margin of six.
const relTol = 1e-4

// A quantile is linear within a bin, so it errs by at most h²/8·|f′/f|, h
// = box width/256; quantTol bounds it for the 5% quantile of a unit
// normal on a box of ±5 (h = 0.039, |f′/f| = 1.64 there: 3e-4).
const quantTol = 5e-4

func grid(t *testing.T, tg Target) *Grid {
	t.Helper()
	g, err := NewGrid(tg, 256)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// near reports whether got is within tol of want, relative to scale.
func near(t *testing.T, what string, got, want, scale, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol*scale {
		t.Errorf("%s = %.8g, want %.8g (±%.2g)", what, got, want, tol*scale)
	}
}

// moments checks a grid's mean, covariance and log Z against closed forms.
func moments(t *testing.T, g *Grid, mean Point, cov [2][2]float64, logZ float64) {
	t.Helper()
	sd := [2]float64{math.Sqrt(cov[0][0]), math.Sqrt(cov[1][1])}
	for a := range 2 {
		near(t, g.Params[a]+" mean", g.Mean[a], mean[a], sd[a], relTol)
		for b := range 2 {
			near(t, "cov "+g.Params[a]+g.Params[b], g.Cov[a][b], cov[a][b], sd[a]*sd[b], relTol)
		}
	}
	near(t, "log Z", g.LogZ, logZ, 1, relTol)
}

func TestGridGaussian(t *testing.T) {
	for _, c := range []GaussianConfig{{}, {Rho: 0.9, ScaleRatio: 2}, {Rho: -0.99, ScaleRatio: 0.1}} {
		tg, err := NewGaussian(c)
		if err != nil {
			t.Fatal(err)
		}
		g := grid(t, tg)
		moments(t, g, Point{}, tg.Cov(), tg.LogZ())
		// The 5% quantile of N(0, σ²) is −1.6448536σ.
		near(t, "x's 5% quantile", g.Quantile(0, 0.05), -1.6448536269514722, 1, quantTol)
		near(t, "y's 5% quantile", g.Quantile(1, 0.05), -1.6448536269514722*tg.s, tg.s, quantTol)
		near(t, "x's median", g.Quantile(0, 0.5), 0, 1, quantTol)
	}
}

// funnelXMarginal is the funnel's x marginal, p(x) = ∫ N(v; 0, 9)
// N(x; 0, eᵛ) dv, by Simpson's rule in v over [−15, 25] (4000 panels; the
// integrand is smooth and negligible at both ends for x ≥ 1).
func funnelXMarginal(x float64) float64 {
	var s float64
	const k, lo, hi = 4000, -15.0, 25.0
	h := (hi - lo) / k
	for j := 0; j <= k; j++ {
		v := lo + float64(j)*h
		w := 2.0
		if j == 0 || j == k {
			w = 1
		} else if j%2 == 1 {
			w = 4
		}
		s += w * math.Exp(-v*v/18-x*x*math.Exp(-v)/2-v/2) / (6 * math.Pi)
	}
	return s * h / 3
}

// TestGridBanana compares with the banana's moments given the box's x
// range, |x| ≤ 5: Var y = 1 + b² Var(x²) weighs x's tails by x⁴, so the
// truncation shifts it by 2e-4 of itself, beyond relTol; within the box
// only the quadrature is left. Untruncated, Var y = 1 + 2b².
func TestGridBanana(t *testing.T) {
	c := float64(boxSDs)
	p := math.Erf(c / math.Sqrt2) // P(|x| ≤ c)
	phi := math.Exp(-c*c/2) / math.Sqrt(2*math.Pi)
	m2 := (p - 2*c*phi) / p             // E[x² | |x| ≤ c]
	m4 := (3*p - 2*phi*(c*c*c+3*c)) / p // E[x⁴ | |x| ≤ c]
	for _, b := range []float64{1, 2.5} {
		tg, _ := NewBanana(BananaConfig{Curvature: b})
		g := grid(t, tg)
		moments(t, g, Point{0, b * (m2 - 1)}, [2][2]float64{{m2, 0}, {0, 1 + b*b*(m4-m2*m2)}}, math.Log(2*math.Pi*p))
		near(t, "Var y untruncated", g.Cov[1][1], 1+2*b*b, 1+2*b*b, 3e-4)
	}
}

func TestGridFunnel(t *testing.T) {
	sdX := math.Exp(9.0 / 4)
	g := grid(t, Funnel{})
	moments(t, g, Point{}, [2][2]float64{{9, 0}, {0, sdX * sdX}}, math.Log(6*math.Pi))
	near(t, "v's 5% quantile", g.Quantile(0, 0.05), -3*1.6448536269514722, 3, quantTol*3)
	// x's marginal, p(x) = ∫ N(v; 0, 9) N(x; 0, eᵛ) dv, by Simpson's rule
	// in v, against the bin's average density: the bins are 0.16 wide and
	// p changes by under 1% across one at these x, so 1% bounds the gap
	// between a bin's average and its centre's value.
	for _, x := range []float64{2, 5, 12} {
		i := int((x - g.Box.YMin) / (g.Box.YMax - g.Box.YMin) * float64(g.N))
		s := funnelXMarginal(g.Centre(0, i)[1])
		near(t, "x's marginal density", g.Marginal[1][i], s, s, 0.01)
	}
	// Non-centred: a Gaussian in (v, z) with the same log Z.
	moments(t, grid(t, NonCentredFunnel{}), Point{}, [2][2]float64{{9, 0}, {0, 1}}, math.Log(6*math.Pi))
}

func TestGridMixture(t *testing.T) {
	for _, c := range []MixtureConfig{{}, {Separation: 6, Weight: 0.2}} {
		tg, _ := NewMixture(c)
		d, w := tg.d, tg.w
		moments(t, grid(t, tg), Point{(1 - 2*w) * d / 2, 0}, [2][2]float64{{1 + w*(1-w)*d*d, 0}, {0, 1}}, math.Log(2*math.Pi))
	}
}

func TestGridSquiggle(t *testing.T) {
	// Var y = 1.5² E sin²(2x) + 0.3², E sin²(2x) = (1 − E cos 4x)/2 and
	// E cos 4x = e^{−16·4/2} for x ~ N(0, 4).
	vy := 2.25*(1-math.Exp(-32))/2 + 0.09
	g := grid(t, Squiggle{})
	moments(t, g, Point{}, [2][2]float64{{4, g.Cov[0][1]}, {g.Cov[0][1], vy}}, math.Log(2*math.Pi*2*0.3))
	// Cov(x, y) = 1.5 E[x sin 2x] = 1.5·2·4·e^{−8} (Stein: E[x f(x)] = σ² E f′(x)).
	near(t, "cov xy", g.Cov[0][1], 1.5*2*4*math.Exp(-8), 2, relTol)
}

func TestGridRing(t *testing.T) {
	for _, c := range []RingConfig{{}, {Radius: 1, Width: 0.1}, {Radius: 0.5, Width: 1}} {
		tg, _ := NewRing(c)
		r, s := tg.r, tg.s
		// Z = 2π ∫₀^∞ ρ e^{−(ρ−r)²/2σ²} dρ = 2π(σ² e^{−r²/2σ²} + rσ√(2π) Φ(r/σ)).
		z := 2 * math.Pi * (s*s*math.Exp(-r*r/(2*s*s)) + r*s*math.Sqrt(2*math.Pi)*0.5*math.Erfc(-r/(s*math.Sqrt2)))
		// E‖θ‖² by Simpson's rule in the radius over [0, r + 10σ].
		var m0, m2 float64
		const k = 20000
		h := (r + 10*s) / k
		for i := 0; i <= k; i++ {
			rho := float64(i) * h
			w := 2.0
			if i == 0 || i == k {
				w = 1
			} else if i%2 == 1 {
				w = 4
			}
			f := w * rho * math.Exp(-(rho-r)*(rho-r)/(2*s*s))
			m0 += f
			m2 += f * rho * rho
		}
		v := m2 / m0 / 2 // each coordinate's variance, by symmetry
		moments(t, grid(t, tg), Point{}, [2][2]float64{{v, 0}, {0, v}}, math.Log(z))
	}
}

// TestLogisticBox checks that the logistic posterior's box holds all but
// 1e-6 of its mass, on a 256² grid over [−12, 12]² (cells of 0.094, a
// sixth of the posterior's smaller sd).
func TestLogisticBox(t *testing.T) {
	g, err := NewGrid(wideLogistic{NewLogistic()}, 256)
	if err != nil {
		t.Fatal(err)
	}
	b, in := NewLogistic().Box(), 0.0
	g.eachCell(func(p Point, m float64) {
		if p[0] > b.XMin && p[0] < b.XMax && p[1] > b.YMin && p[1] < b.YMax {
			in += m
		}
	})
	if 1-in > 1e-6 {
		t.Errorf("%.3g of the mass outside %+v", 1-in, b)
	}
}

type wideLogistic struct{ *Logistic }

func (wideLogistic) Box() Box { return Box{-12, 12, -12, 12} }

// TestGridDraws checks the reference draws' moments against the grid's
// within Monte Carlo error: a mean of n independent draws has sd σ/√n and
// a variance's sd is σ²√(2/n) (Gaussian fourth moment); 4 sd bounds each
// of the eight checks' false alarm at 6e-5.
func TestGridDraws(t *testing.T) {
	tg, _ := NewGaussian(GaussianConfig{Rho: 0.9, ScaleRatio: 2})
	for _, tt := range []Target{tg, Funnel{}, bare{Funnel{}}} {
		g := grid(t, tt)
		d := make([]Point, 20000)
		if err := g.Draws(d, numeric.NewRand(3)); err != nil {
			t.Fatal(err)
		}
		n := float64(len(d))
		var m Point
		for _, p := range d {
			m[0] += p[0] / n
			m[1] += p[1] / n
		}
		a := 0 // the funnel's x has no fourth moment to speak of: check v
		var v float64
		for _, p := range d {
			v += (p[a] - m[a]) * (p[a] - m[a]) / (n - 1)
		}
		sd := math.Sqrt(g.Cov[a][a])
		near(t, tt.Name()+" draws' mean", m[a], g.Mean[a], sd, 4/math.Sqrt(n))
		near(t, tt.Name()+" draws' variance", v, g.Cov[a][a], g.Cov[a][a], 4*math.Sqrt(2/n))
	}
	if err := grid(t, tg).Draws(make([]Point, MaxDraws+1), numeric.NewRand(1)); err == nil {
		t.Error("no error for too many draws")
	}
}

func TestGridKL(t *testing.T) {
	tg, _ := NewGaussian(GaussianConfig{Rho: 0.9})
	g := grid(t, tg)
	if kl := g.KL(tg.LogDensity); math.Abs(kl) > 1e-12 {
		t.Errorf("KL(p‖p) = %g", kl)
	}
	// Mean-field's reverse-KL optimum on a Gaussian has variances 1/Λᵢᵢ
	// = 1 − ρ², and KL(q‖p) = −½ log(1 − ρ²).
	v := 1 - 0.81
	mf := func(p Point) float64 { return -(p[0]*p[0] + p[1]*p[1]) / (2 * v) }
	near(t, "KL(mean-field‖p)", g.KL(mf), -0.5*math.Log(v), 1, relTol)
}

func TestGridBounds(t *testing.T) {
	for _, n := range []int{MinGridSize - 1, MaxGridSize + 1} {
		if _, err := NewGrid(Squiggle{}, n); err == nil {
			t.Errorf("NewGrid(n = %d): no error", n)
		}
	}
}

func TestEnergyDistance(t *testing.T) {
	for _, c := range []struct {
		a, b []Point
		want float64
	}{
		{[]Point{{0, 0}}, []Point{{3, 4}}, 10},                  // 2·5
		{[]Point{{0, 0}, {1, 0}}, []Point{{1, 0}, {0, 0}}, 0},   // the same sample
		{[]Point{{0, 0}, {2, 0}}, []Point{{1, 0}}, 2*1 - 2*2/4}, // 2E‖X−Y‖ − E‖X−X′‖
	} {
		got, err := EnergyDistance(c.a, c.b)
		if err != nil || math.Abs(got-c.want) > 1e-15 {
			t.Errorf("EnergyDistance(%v, %v) = %g, %v; want %g", c.a, c.b, got, err, c.want)
		}
	}
	if _, err := EnergyDistance(nil, []Point{{}}); err == nil {
		t.Error("no error for no draws")
	}
	if _, err := EnergyDistance(make([]Point, MaxDistanceDraws+1), []Point{{}}); err == nil {
		t.Error("no error for too many draws")
	}
}

func BenchmarkGrid256(b *testing.B) {
	tg, _ := NewBanana(BananaConfig{})
	for _, tt := range []Target{tg, Funnel{}, NewLogistic(), bare{Funnel{}}} {
		name := tt.Name()
		if _, ok := tt.(bare); ok {
			name += "_sinh" // the centred funnel without its Quadrature route
		}
		b.Run(name, func(b *testing.B) {
			c0 := cputime.Process()
			for b.Loop() {
				if _, err := NewGrid(tt, 256); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((cputime.Process()-c0).Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}
