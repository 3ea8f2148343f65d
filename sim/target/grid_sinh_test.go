package target

import (
	"math"
	"testing"
)

// bare is a target with only the Target methods: the funnel without its
// Quadrature route, as a typed density comes.
type bare struct{ t Target }

func (b bare) Name() string                            { return b.t.Name() }
func (b bare) Params() [2]string                       { return b.t.Params() }
func (b bare) Box() Box                                { return b.t.Box() }
func (b bare) LogDensity(p Point) float64              { return b.t.LogDensity(p) }
func (b bare) LogDensityGrad(p Point) (float64, Point) { return b.t.LogDensityGrad(p) }

// The sinh-mapped grid's error. Its axes reach 10⁵ box widths out, so the
// funnel loses no mass to truncation (v's box reaches 2·10⁶, x's 2.6·10⁶
// against e^{12}·5 ≈ 8·10⁵ at v = 24), and its midpoint error is of order
// e^{−26} (see sinhDepth), which LogZErr estimates. sinhTol is a
// thousandfold margin over the LogZErr these grids report (~10⁻⁹).
const sinhTol = 1e-6

// TestGridSinhFunnel: the centred funnel integrated in its own
// coordinates, where a uniform grid cannot resolve the neck (x's sd is
// e^{−7.5} at the box's bottom, v = −15, on cells 0.16 wide): the grid
// turns to sinh-mapped axes and gets the closed forms, sd v = 3, sd x =
// e^{9/4}, log Z = log 6π, the marginals and v's 5% quantile.
func TestGridSinhFunnel(t *testing.T) {
	g := grid(t, bare{Funnel{}})
	if g.uniform() {
		t.Fatal("the funnel's neck passed as resolved on a uniform grid")
	}
	if g.LogZErr > sinhTol {
		t.Errorf("LogZErr = %g, want below %g", g.LogZErr, sinhTol)
	}
	sdX := math.Exp(9.0 / 4)
	sd := [2]float64{3, sdX}
	for a := range 2 {
		near(t, g.Params[a]+" mean", g.Mean[a], 0, sd[a], sinhTol)
		near(t, g.Params[a]+" sd", math.Sqrt(g.Cov[a][a]), sd[a], sd[a], sinhTol)
	}
	near(t, "cov vx", g.Cov[0][1], 0, 3*sdX, sinhTol)
	near(t, "log Z", g.LogZ, math.Log(6*math.Pi), 1, sinhTol)
	// Each bin's marginal is its average density (its mass by
	// Gauss–Legendre in u, over quadrature in the other parameter), as
	// on the uniform grid: v's is (Φ(b/3) − Φ(a/3))/h on a bin [a, b].
	h := (g.Box.XMax - g.Box.XMin) / float64(g.N)
	for _, i := range []int{0, 64, 127, 128, 200} {
		v := g.Box.XMin + float64(i)*h
		want := (math.Erf((v+h)/(3*math.Sqrt2)) - math.Erf(v/(3*math.Sqrt2))) / (2 * h)
		near(t, "v's marginal density", g.Marginal[0][i], want, want, sinhTol)
	}
	// x's bin averages against Simpson's rule over the bin of the
	// marginal by Simpson's rule in v: at these x the marginal is smooth
	// on the bin's scale (0.16), so Simpson's h⁵ error is far below 10⁻⁶.
	hx := (g.Box.YMax - g.Box.YMin) / float64(g.N)
	for _, x := range []float64{2, 5, 12} {
		i := int((x - g.Box.YMin) / hx)
		a := g.Box.YMin + float64(i)*hx
		s := (funnelXMarginal(a) + 4*funnelXMarginal(a+hx/2) + funnelXMarginal(a+hx)) / 6
		near(t, "x's marginal density", g.Marginal[1][i], s, s, sinhTol)
	}
	// The marginals and the masses outside the box hold the whole mass
	// (x's tails put 0.9% beyond each end), and x's quantiles are
	// symmetric, as its marginal is, to the bins' linear interpolation.
	for a, w := range [2]float64{h, hx} {
		m := g.outside[a][0] + g.outside[a][1]
		for _, d := range g.Marginal[a] {
			m += d * w
		}
		near(t, g.Params[a]+"'s mass", m, 1, 1, sinhTol)
	}
	near(t, "x's 5% + 95% quantiles", g.Quantile(1, 0.05)+g.Quantile(1, 0.95), 0, sdX, quantTol)
	// The quantile is linear within a bin of 30/256, as on the uniform
	// grid: quantTol scaled by v's sd.
	near(t, "v's 5% quantile", g.Quantile(0, 0.05), -3*1.6448536269514722, 3, quantTol*3)
	if kl := g.KL(Funnel{}.LogDensity); math.Abs(kl) > 1e-12 {
		t.Errorf("KL(p‖p) = %g", kl)
	}
	// q = N(v; 0, 9) N(x; 0, 1) has KL(q‖p) = E_q[log N(x; 0, 1) −
	// log N(x; 0, eᵛ)] = E[v]/2 + E[e^{−v}]/2 − 1/2 = (e^{9/2} − 1)/2, its
	// weight on v from e^{−v}·N(v; 0, 9) ∝ N(−9, 9), past the box's bottom.
	q := func(p Point) float64 { return -p[0]*p[0]/18 - p[1]*p[1]/2 }
	want := (math.Exp(4.5) - 1) / 2
	near(t, "KL(q‖p)", g.KL(q), want, want, sinhTol)
}

// TestGridResolved: the built-in targets integrated in their own
// coordinates keep Box's uniform grid, where their other tests hold them
// to the closed forms.
func TestGridResolved(t *testing.T) {
	for _, s := range Specs() {
		tg, err := New(s.Name, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := tg.(Quadrature); ok {
			continue
		}
		if g := grid(t, tg); !g.uniform() || g.LogZErr > resolvedGap/2 {
			t.Errorf("%s: uniform %v, LogZErr %g", s.Name, g.uniform(), g.LogZErr)
		}
	}
}
