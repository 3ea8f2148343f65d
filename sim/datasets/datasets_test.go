package datasets

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
)

func load(t *testing.T, name string, seed uint64) *sim.Dataset {
	t.Helper()
	d, err := Load(name, seed)
	if err != nil {
		t.Fatalf("Load(%q, %d): %v", name, seed, err)
	}
	return d
}

// popMeanStd is an independent reference: plain two-pass mean and
// population std.
func popMeanStd(v []float64) (m, s float64) {
	for _, x := range v {
		m += x
	}
	m /= float64(len(v))
	for _, x := range v {
		s += (x - m) * (x - m)
	}
	return m, math.Sqrt(s / float64(len(v)))
}

// residualStd is the population std of y − f(x), all in user units.
func residualStd(d *sim.Dataset) float64 {
	u := InUserUnits(d)
	r := make([]float64, len(u.X))
	for i := range r {
		r[i] = u.Y[i] - u.Truth(u.X[i])
	}
	_, s := popMeanStd(r)
	return s
}

// checkStandardised checks mean 0 and population std 1 to 1e-12.
func checkStandardised(t *testing.T, what string, v []float64) {
	t.Helper()
	m, s := popMeanStd(v)
	if math.Abs(m) > 1e-12 || math.Abs(s-1) > 1e-12 {
		t.Errorf("%s: mean %g, std %g; want 0 and 1", what, m, s)
	}
}

func TestNamesAndInfos(t *testing.T) {
	want := []string{"gap", "sinusoid-gap", "linreg", "linreg-offset", "gp-cauchy", "gp-classification", "periodic"}
	if got := Names(); !slices.Equal(got, want) {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	for _, in := range Infos() {
		d := load(t, in.Name, 1)
		if d.N() != in.N || d.Task != in.Task || d.DefaultModel != in.DefaultModel ||
			d.Name != in.Name || d.Label != in.Label || in.Label == "" || in.Description == "" {
			t.Errorf("%s: Info %+v does not describe the data (N %d, task %s, model %s, label %q)",
				in.Name, in, d.N(), d.Task, d.DefaultModel, d.Label)
		}
	}
	b, err := json.Marshal(Infos()[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{`"name"`, `"label"`, `"description"`, `"n"`, `"task"`, `"default_model"`} {
		if !strings.Contains(string(b), k) {
			t.Errorf("Info JSON %s lacks key %s", b, k)
		}
	}
}

func TestLoadUnknown(t *testing.T) {
	_, err := Load("cubic", 1)
	var fe *sim.FieldError
	if !errors.As(err, &fe) || fe.Field != "data" {
		t.Fatalf("Load(cubic) error %v, want a *sim.FieldError for field data", err)
	}
	if !strings.Contains(fe.Message, `"cubic"`) || !strings.Contains(fe.Message, strings.Join(Names(), ", ")) {
		t.Errorf("message %q should name the bad value and every allowed name", fe.Message)
	}
}

func TestDeterminism(t *testing.T) {
	for _, name := range Names() {
		a, b, c := load(t, name, 42), load(t, name, 42), load(t, name, 43)
		same := slices.Equal(a.X, b.X) && slices.Equal(a.Y, b.Y) && slices.Equal(a.Grid, b.Grid) &&
			a.XScale == b.XScale && a.YScale == b.YScale && a.GapCentre == b.GapCentre && a.HasGap == b.HasGap
		for _, g := range a.Grid {
			same = same && a.Truth(g) == b.Truth(g)
		}
		if !same {
			t.Errorf("%s: two loads with seed 42 differ", name)
		}
		if slices.Equal(a.X, c.X) && slices.Equal(a.Y, c.Y) {
			t.Errorf("%s: seeds 42 and 43 give the same data", name)
		}
	}
}

func TestShapes(t *testing.T) {
	for _, name := range Names() {
		d := load(t, name, 3)
		if len(d.Y) != d.N() || len(d.Grid) != GridPoints || d.Truth == nil {
			t.Errorf("%s: %d x, %d y, %d grid points, truth %v", name, d.N(), len(d.Y), len(d.Grid), d.Truth != nil)
			continue
		}
		if !slices.IsSorted(d.Grid) || d.Grid[0] > slices.Min(d.X) || d.Grid[GridPoints-1] < slices.Max(d.X) {
			t.Errorf("%s: grid [%g, %g] is unsorted or does not cover the data [%g, %g]",
				name, d.Grid[0], d.Grid[GridPoints-1], slices.Min(d.X), slices.Max(d.X))
		}
		for _, g := range d.Grid {
			if v := d.Truth(g); math.IsNaN(v) || math.IsInf(v, 0) {
				t.Errorf("%s: truth(%g) = %g", name, g, v)
			}
		}
		if d.HasGap && (d.GapCentre <= d.Grid[0] || d.GapCentre >= d.Grid[GridPoints-1]) {
			t.Errorf("%s: gap centre %g outside the grid", name, d.GapCentre)
		}
	}
}

func TestGap(t *testing.T) {
	d := load(t, "gap", 1)
	checkStandardised(t, "gap x", d.X)
	checkStandardised(t, "gap y", d.Y)
	u := InUserUnits(d)
	for i, x := range u.X {
		lo := map[bool]float64{true: -4, false: 2}[i < 50]
		if x < lo-1e-12 || x > lo+2+1e-12 {
			t.Errorf("x[%d] = %g (user units) outside [%g, %g]", i, x, lo, lo+2)
		}
	}
	mid := (slices.Max(u.X[:50]) + slices.Min(u.X[50:])) / 2
	if !d.HasGap || math.Abs(u.GapCentre-mid) > 1e-12 {
		t.Errorf("gap centre %g (user), want %g", u.GapCentre, mid)
	}
	if d.Grid[0] != -2.5 || d.Grid[GridPoints-1] != 2.5 {
		t.Errorf("grid [%g, %g], want [-2.5, 2.5]", d.Grid[0], d.Grid[GridPoints-1])
	}
	// y − x³ = 3ε: the sample std of 100 N(0, 9) draws has sd ≈ 3/√200 ≈
	// 0.21; allow 4 of those.
	if s := residualStd(d); math.Abs(s-3) > 4*3/math.Sqrt(200) {
		t.Errorf("residual std %g, want 3 ± 0.85", s)
	}
	for _, x := range []float64{-3.5, 0, 1.7} {
		if got := u.Truth(x); math.Abs(got-x*x*x) > 1e-12*(1+math.Abs(x*x*x)) {
			t.Errorf("user truth(%g) = %g, want %g", x, got, x*x*x)
		}
	}
}

func TestSinusoidGap(t *testing.T) {
	d := load(t, "sinusoid-gap", 1)
	want := append(linspace(-1.28, -0.61, 38), linspace(0.61, 1.28, 32)...)
	for i, x := range d.X {
		if math.Abs(1.28*x-want[i]) > 1e-15 {
			t.Fatalf("x[%d]·1.28 = %g, want %g", i, 1.28*x, want[i])
		}
	}
	if d.XScale != (sim.Affine{Mean: 0, Std: 1.28}) || d.YScale != sim.Identity || !d.HasGap || d.GapCentre != 0 {
		t.Errorf("scales %v %v, gap %v at %g", d.XScale, d.YScale, d.HasGap, d.GapCentre)
	}
	x := 0.3 // truth in model units is f(1.28x)
	if got, w := d.Truth(x), sinusoid(1.28*x); got != w {
		t.Errorf("truth(%g) = %g, want %g", x, got, w)
	}
	// 70 N(0, 0.09) residuals: sample-std sd ≈ 0.3/√140 ≈ 0.025; 4 of those.
	if s := residualStd(d); math.Abs(s-0.3) > 4*0.3/math.Sqrt(140) {
		t.Errorf("residual std %g, want 0.3 ± 0.10", s)
	}
}

func TestLinreg(t *testing.T) {
	d := load(t, "linreg", 1)
	if d.XScale != sim.Identity || d.YScale != sim.Identity || d.HasGap || d.DefaultModel != "linear" {
		t.Errorf("linreg should be unscaled, gapless, linear: %+v", d)
	}
	for _, x := range d.X {
		if x < -1 || x >= 1 {
			t.Errorf("x = %g outside [-1, 1)", x)
		}
	}
	// OLS slope: se = σ/(√n·sd x) ≈ 0.5/(√30·0.577) ≈ 0.158; 4 of those.
	mx, sx := popMeanStd(d.X)
	my, _ := popMeanStd(d.Y)
	cov := 0.0
	for i := range d.X {
		cov += (d.X[i] - mx) * (d.Y[i] - my)
	}
	b := cov / float64(d.N()) / (sx * sx)
	if math.Abs(b-2) > 4*0.5/(math.Sqrt(30)/math.Sqrt(3)) {
		t.Errorf("OLS slope %g, want 2 ± 0.63", b)
	}
	// 30 N(0, 0.25) residuals: sample-std sd ≈ 0.5/√60 ≈ 0.065; 4 of those.
	if s := residualStd(d); math.Abs(s-0.5) > 4*0.5/math.Sqrt(60) {
		t.Errorf("residual std %g, want 0.5 ± 0.26", s)
	}
}

// linreg-offset's inputs lie in [0, 2) and, with mean near 1 and sd near
// 1/√3, make the least-squares intercept and slope correlated:
// ρ = −x̄/√(x̄² + s²) ≈ −0.87 for U(0, 2); with 30 draws x̄ has sd
// 0.105 and s² sd ≈ 0.05, so ρ stays below −0.75 on any plausible draw.
func TestLinregOffset(t *testing.T) {
	for seed := range uint64(5) {
		d := load(t, "linreg-offset", seed+1)
		if d.XScale != sim.Identity || d.YScale != sim.Identity || d.HasGap || d.DefaultModel != "linear" || d.N() != 30 {
			t.Fatalf("linreg-offset should be 30 points, unscaled, gapless, linear: %+v", d)
		}
		for _, x := range d.X {
			if x < 0 || x >= 2 {
				t.Errorf("x = %g outside [0, 2)", x)
			}
		}
		mx, sx := popMeanStd(d.X)
		if rho := -mx / math.Sqrt(mx*mx+sx*sx); rho > -0.75 {
			t.Errorf("seed %d: correlation of the least-squares b0 and b %.3f, want below −0.75", seed+1, rho)
		}
	}
}

func TestPeriodic(t *testing.T) {
	d := load(t, "periodic", 1)
	checkStandardised(t, "periodic x", d.X)
	checkStandardised(t, "periodic y", d.Y)
	u := InUserUnits(d)
	for i, x := range u.X {
		lo := map[bool]float64{true: -2, false: 0.5}[i < 10]
		if x < lo-1e-12 || x > lo+1.5+1e-12 {
			t.Errorf("x[%d] = %g (user units) outside [%g, %g]", i, x, lo, lo+1.5)
		}
	}
	w := 3 * max(-slices.Min(d.X), slices.Max(d.X))
	if math.Abs(d.Grid[0]+w) > 1e-12 || math.Abs(d.Grid[GridPoints-1]-w) > 1e-12 {
		t.Errorf("grid [%g, %g], want ±%g", d.Grid[0], d.Grid[GridPoints-1], w)
	}
	if !d.HasGap || math.Abs(u.GapCentre) >= 0.5 {
		t.Errorf("gap centre %g (user), want in (-0.5, 0.5)", u.GapCentre)
	}
	// 20 N(0, 0.04) residuals: sample-std sd ≈ 0.2/√40 ≈ 0.032; 4 of those.
	if s := residualStd(d); math.Abs(s-0.2) > 4*0.2/math.Sqrt(40) {
		t.Errorf("residual std %g, want 0.2 ± 0.13", s)
	}
}

func TestInUserUnitsInverts(t *testing.T) {
	for _, name := range Names() {
		d := load(t, name, 5)
		u := InUserUnits(d)
		if u.XScale != sim.Identity || u.YScale != sim.Identity {
			t.Errorf("%s: user scales %v %v", name, u.XScale, u.YScale)
		}
		for i := range d.X {
			if math.Abs(d.XScale.ToModel(u.X[i])-d.X[i]) > 1e-12 || math.Abs(d.YScale.ToModel(u.Y[i])-d.Y[i]) > 1e-12 {
				t.Fatalf("%s: point %d does not map back", name, i)
			}
		}
		for _, g := range d.Grid {
			want := d.YScale.ToUser(d.Truth(g))
			if got := u.Truth(d.XScale.ToUser(g)); math.Abs(got-want) > 1e-9*(1+math.Abs(want)) {
				t.Errorf("%s: user truth at %g is %g, want %g", name, g, got, want)
			}
		}
		if math.Abs(d.XScale.ToModel(u.GapCentre)-d.GapCentre) > 1e-12 {
			t.Errorf("%s: gap centre does not map back", name)
		}
		// InUserUnits twice changes nothing more.
		if uu := InUserUnits(u); !slices.Equal(uu.X, u.X) || !slices.Equal(uu.Y, u.Y) {
			t.Errorf("%s: InUserUnits is not idempotent", name)
		}
	}
}

// TestEQSampleMoments checks the GP sample's covariance (eqCholesky's L
// through numeric.SampleMVN, as gpObserved draws it): 2000 draws, the
// variance at x ≈ 0 and the covariance at lag 40 grid steps (≈ 1.0025).
// The sample variance of n N(0, v) draws has sd v√(2/n); the sample covariance
// of a bivariate normal has sd √((v² + c²)/n). Allow 4 sds.
func TestEQSampleMoments(t *testing.T) {
	grid := linspace(-5, 5, gpGridPoints)
	for _, v := range []float64{1, math.E * math.E} {
		l, err := eqCholesky(grid, v, 1)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(1, 2))
		const n = 2000
		i, j := 200, 240
		c := v * math.Exp(-0.5*(grid[j]-grid[i])*(grid[j]-grid[i]))
		var sii, sij float64
		z, mu := make([]float64, gpGridPoints), make([]float64, gpGridPoints)
		for range n {
			numeric.SampleMVN(z, mu, l, r)
			sii += z[i] * z[i]
			sij += z[i] * z[j]
		}
		sii, sij = sii/n, sij/n
		if math.Abs(sii-v) > 4*v*math.Sqrt(2.0/n) {
			t.Errorf("variance %g, want %g", sii, v)
		}
		if math.Abs(sij-c) > 4*math.Sqrt((v*v+c*c)/n) {
			t.Errorf("covariance %g, want %g", sij, c)
		}
	}
}

// BenchmarkLoad measures generating each data set (the GP sets factorise a
// 400×400 kernel matrix per load).
func BenchmarkLoad(b *testing.B) {
	for _, name := range Names() {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for i := range b.N {
				if _, err := Load(name, uint64(i)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
