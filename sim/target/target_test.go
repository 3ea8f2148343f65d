package target

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
)

// builtins returns every built-in target at its defaults, the funnel both
// ways, and a few at other controls.
func builtins(t *testing.T) []Target {
	t.Helper()
	var ts []Target
	for _, s := range Specs() {
		x, err := New(s.Name, nil)
		if err != nil {
			t.Fatalf("New(%q): %v", s.Name, err)
		}
		ts = append(ts, x)
	}
	for _, c := range []struct {
		name string
		ctl  sim.Controls
	}{
		{"gaussian", sim.Controls{"rho": sim.Num(0.9), "scale_ratio": sim.Num(3)}},
		{"banana", sim.Controls{"curvature": sim.Num(2.5)}},
		{"funnel", sim.Controls{"centred": sim.Num(0)}},
		{"mixture", sim.Controls{"separation": sim.Num(6), "weight": sim.Num(0.2)}},
		{"ring", sim.Controls{"radius": sim.Num(1), "width": sim.Num(0.1)}},
	} {
		x, err := New(c.name, c.ctl)
		if err != nil {
			t.Fatalf("New(%q, %v): %v", c.name, c.ctl, err)
		}
		ts = append(ts, x)
	}
	return ts
}

// TestGradients checks every target's gradient against central finite
// differences at points across its box. With step h the difference's
// error is h²/6·f‴ plus rounding ε|f|/h; h = 1e-5·(1 + |θ|) keeps both
// below 1e-6 relative to the gradient's and the density's scale.
func TestGradients(t *testing.T) {
	r := numeric.NewRand(1)
	for _, tg := range builtins(t) {
		b := tg.Box()
		for range 200 {
			p := Point{b.XMin + r.Float64()*(b.XMax-b.XMin), b.YMin + r.Float64()*(b.YMax-b.YMin)}
			lp, g := tg.LogDensityGrad(p)
			if want := tg.LogDensity(p); lp != want {
				t.Fatalf("%s at %v: LogDensityGrad's value %g, LogDensity %g", tg.Name(), p, lp, want)
			}
			for a := range 2 {
				h := 1e-5 * (1 + math.Abs(p[a]))
				up, dn := p, p
				up[a] += h
				dn[a] -= h
				fd := (tg.LogDensity(up) - tg.LogDensity(dn)) / (2 * h)
				if tol := 1e-6 * (1 + math.Abs(g[a]) + math.Abs(lp)); math.Abs(fd-g[a]) > tol {
					t.Errorf("%s %v at %v: gradient %g, finite difference %g", tg.Name(), tg.Params(), p, g[a], fd)
				}
			}
		}
	}
}

func TestRegistry(t *testing.T) {
	want := []string{"gaussian", "banana", "funnel", "mixture", "ring", "squiggle", "logistic"}
	specs := Specs()
	if len(specs) != len(want) {
		t.Fatalf("%d specs, want %d", len(specs), len(want))
	}
	for i, s := range specs {
		if s.Name != want[i] || s.Label == "" || s.Help == "" {
			t.Errorf("spec %d: %+v", i, s)
		}
		for _, c := range s.Controls {
			if c.Label == "" || c.Min >= c.Max || c.Default.Num < c.Min || c.Default.Num > c.Max {
				t.Errorf("%s: control %+v", s.Name, c)
			}
		}
		tg, err := New(s.Name, nil)
		if err != nil {
			t.Fatal(err)
		}
		if tg.Name() != s.Name {
			t.Errorf("New(%q).Name() = %q", s.Name, tg.Name())
		}
		if src, ok := tg.(Sourced); !ok || !strings.Contains(src.Source(), "~") && !strings.Contains(src.Source(), "target +=") {
			t.Errorf("%s: no Stan source", s.Name)
		}
	}
}

// TestZeroConfigIsDefault builds each target from its zero Config and from
// the registry's defaults and compares their densities.
func TestZeroConfigIsDefault(t *testing.T) {
	g, _ := NewGaussian(GaussianConfig{})
	b, _ := NewBanana(BananaConfig{})
	m, _ := NewMixture(MixtureConfig{})
	r, _ := NewRing(RingConfig{})
	for _, z := range []Target{g, b, NewFunnel(FunnelConfig{}), m, r} {
		d, err := New(z.Name(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []Point{{0.3, -0.7}, {1.9, 2.2}} {
			if z.LogDensity(p) != d.LogDensity(p) || z.Box() != d.Box() {
				t.Errorf("%s: zero Config and registry defaults differ at %v", z.Name(), p)
			}
		}
	}
}

func TestBadControls(t *testing.T) {
	for _, c := range []struct {
		target string
		ctl    sim.Controls
		field  string
	}{
		{"gaussian", sim.Controls{"rho": sim.Num(1)}, "rho"},
		{"gaussian", sim.Controls{"scale_ratio": sim.Num(math.NaN())}, "scale_ratio"},
		{"banana", sim.Controls{"curvature": sim.Num(-1)}, "curvature"},
		{"funnel", sim.Controls{"centred": sim.Num(0.5)}, "centred"},
		{"mixture", sim.Controls{"weight": sim.Num(1)}, "weight"},
		{"ring", sim.Controls{"width": sim.Num(0)}, "width"},
		{"squiggle", sim.Controls{"rho": sim.Num(0)}, "rho"},
		{"nope", nil, "target"},
	} {
		_, err := New(c.target, c.ctl)
		var fe *sim.FieldError
		if !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("New(%q, %v) = %v, want a field error on %q", c.target, c.ctl, err, c.field)
		}
	}
	if _, err := NewGaussian(GaussianConfig{Rho: -2}); err == nil || !strings.Contains(err.Error(), "[-0.99, 0.99]") {
		t.Errorf("NewGaussian(ρ = −2): %v, want the allowed range", err)
	}
}

func TestDisplayed(t *testing.T) {
	nc := NewFunnel(FunnelConfig{NonCentred: true})
	d, ok := nc.(Displayed)
	if !ok {
		t.Fatal("the non-centred funnel is not Displayed")
	}
	if d.Shown().Params() != [2]string{"v", "x"} || nc.Params() != [2]string{"v", "z"} {
		t.Errorf("params %v shown as %v", nc.Params(), d.Shown().Params())
	}
	// The densities agree up to log Z and the Jacobian e^{v/2}:
	// log p̃_x(v, z e^{v/2}) + v/2 = log p̃_z(v, z).
	for _, u := range []Point{{-3, 0.5}, {2, -1.2}, {0, 0}} {
		x := d.ToShown(u)
		if got, want := d.Shown().LogDensity(x)+u[0]/2, nc.LogDensity(u); math.Abs(got-want) > 1e-12 {
			t.Errorf("at %v: %g, want %g", u, got, want)
		}
	}
}

// TestNoAllocs: the hot loop's calls allocate nothing.
func TestNoAllocs(t *testing.T) {
	for _, tg := range builtins(t) {
		p := Point{0.3, -0.2}
		var sink float64
		if n := testing.AllocsPerRun(100, func() {
			lp, g := tg.LogDensityGrad(p)
			sink += lp + g[0] + tg.LogDensity(p)
		}); n != 0 {
			t.Errorf("%s: %g allocations per call", tg.Name(), n)
		}
		_ = sink
	}
}
