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
	// v's marginal is N(0, 9) at each bin's centre (quadrature in x, with
	// the same error as log Z).
	for _, i := range []int{10, 64, 128, 200} {
		v := g.Centre(i, 0)[0]
		want := math.Exp(-v*v/18) / (3 * math.Sqrt(2*math.Pi))
		near(t, "v's marginal density", g.Marginal[0][i], want, want, sinhTol)
	}
	// x's marginal at bin centres against Simpson's rule in v, whose
	// error at 4000 panels is far below 10⁻⁶ of it.
	for _, x := range []float64{2, 5, 12} {
		i := int((x - g.Box.YMin) / (g.Box.YMax - g.Box.YMin) * float64(g.N))
		s := funnelXMarginal(g.Centre(0, i)[1])
		near(t, "x's marginal density", g.Marginal[1][i], s, s, sinhTol)
	}
	// The quantile is linear within a bin of 30/256, as on the uniform
	// grid: quantTol scaled by v's sd.
	near(t, "v's 5% quantile", g.Quantile(0, 0.05), -3*1.6448536269514722, 3, quantTol*3)
	if kl := g.KL(Funnel{}.LogDensity); math.Abs(kl) > 1e-12 {
		t.Errorf("KL(p‖p) = %g", kl)
	}
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
