package stan

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/posterior-playground/playground/sim/target"
)

// funnel is Neal's funnel written by hand, up to its constant:
// −v²/18 − x²e^{−v}/2 − v/2.
func funnel(p target.Point) (float64, target.Point) {
	v, x := p[0], p[1]
	e := math.Exp(-v)
	return -v*v/18 - x*x*e/2 - v/2, target.Point{-v/9 + x*x*e/2 - 0.5, -x * e}
}

// The funnel in Stan's notation is the hand-written funnel plus the two
// normal densities' constants, −log 3 − log 2π (the lpdfs are normalised,
// so a typed density's log Z means what a built-in's does), with the
// same gradient; both are sums of a few terms of size up to e^{9}, so
// they agree to rounding, 1e-12 relative.
func TestFunnelMatchesHandWritten(t *testing.T) {
	d := mustParse(t, "v ~ normal(0, 3);\nx ~ normal(0, exp(v / 2));")
	if got := d.Params(); got != [2]string{"v", "x"} {
		t.Errorf("Params = %v, want [v x]", got)
	}
	constant := -math.Log(3) - math.Log(2*math.Pi)
	for _, p := range []target.Point{{0, 0}, {-3, 0.1}, {2.5, -7}, {-8, 0.02}, {6, 30}} {
		got, g := d.LogDensityGrad(p)
		want, wg := funnel(p)
		if !near(got, want+constant, 1e-12) || !near(g[0], wg[0], 1e-12) || !near(g[1], wg[1], 1e-12) {
			t.Errorf("at %v: typed %v %v, hand-written %v %v", p, got, g, want+constant, wg)
		}
		checkGrad(t, "funnel", d, p)
	}
}

// The banana in Stan's notation is the hand-written one less log 2π.
func TestBananaMatchesHandWritten(t *testing.T) {
	d := mustParse(t, typedBanana)
	for _, p := range []target.Point{{0, 0}, {1.5, 1}, {-2, 4}, {0.3, -2}} {
		got, g := d.LogDensityGrad(p)
		want, wg := banana{}.LogDensityGrad(p)
		if !near(got, want-math.Log(2*math.Pi), 1e-13) || !near(g[0], wg[0], 1e-13) || !near(g[1], wg[1], 1e-13) {
			t.Errorf("at %v: typed %v %v, hand-written %v %v", p, got, g, want-math.Log(2*math.Pi), wg)
		}
	}
}

func TestParamsInOrderOfFirstUse(t *testing.T) {
	for src, want := range map[string][2]string{
		"y ~ normal(0, 1); x ~ normal(y, 1);":                            {"y", "x"},
		"theta in [-3, 3]; mu ~ normal(theta, 1); theta ~ normal(0, 1);": {"theta", "mu"},
		"target += -a^2 - (b - a)^2;":                                    {"a", "b"},
	} {
		d := mustParse(t, src)
		if got := d.Params(); got != want {
			t.Errorf("%q: Params = %v, want %v", src, got, want)
		}
		if d.Name() != "typed" || d.Source() != src {
			t.Errorf("%q: Name %q, Source %q", src, d.Name(), d.Source())
		}
	}
}

// Without a box, a Gaussian's is its mode ± √20 σ (the region within 10
// nats of the mode), widened by one step of the last grid at most twice
// over (the grid's points straddle the region's edge, then one step is
// added). A box in the text is taken as written.
func TestBox(t *testing.T) {
	d := mustParse(t, "x ~ normal(1, 2); y ~ normal(-3, 0.5);")
	b := d.Box()
	for _, c := range []struct {
		name         string
		lo, hi, m, s float64
	}{{"x", b.XMin, b.XMax, 1, 2}, {"y", b.YMin, b.YMax, -3, 0.5}} {
		h := (c.hi - c.lo) / (gridN - 1)
		r := math.Sqrt(2*levelDrop) * c.s
		if !(c.hi >= c.m+r && c.hi <= c.m+r+2*h && c.lo <= c.m-r && c.lo >= c.m-r-2*h) {
			t.Errorf("%s's box [%g, %g], want [%g, %g] widened by at most %g", c.name, c.lo, c.hi, c.m-r, c.m+r, 2*h)
		}
	}
	d = mustParse(t, "x ~ normal(1, 2); y ~ normal(-3, 0.5); y in [-5, -1]; x in [-pi(), 2 * pi()];")
	if want := (target.Box{XMin: -math.Pi, XMax: 2 * math.Pi, YMin: -5, YMax: -1}); d.Box() != want {
		t.Errorf("Box = %+v, want %+v", d.Box(), want)
	}
}

// A program too large for the small register files runs on the largest,
// and no evaluation allocates.
func TestNoAllocations(t *testing.T) {
	var terms []string
	for i := range 50 {
		terms = append(terms, fmt.Sprintf("-(x-%d.5)^2-(y+%d)^2", i, i+1))
	}
	large := mustParse(t, "target += "+strings.Join(terms, "")+";")
	if large.prog.nregs <= 64 {
		t.Fatalf("the large program has %d registers; the test wants more than 64", large.prog.nregs)
	}
	for _, d := range []*Density{mustParse(t, typedBanana), large} {
		p := target.Point{0.3, -0.2}
		if a := testing.AllocsPerRun(100, func() {
			v, g := d.LogDensityGrad(p)
			sink += v + g[0] + g[1] + d.LogDensity(p)
		}); a != 0 {
			t.Errorf("%d registers: %v allocations per evaluation", d.prog.nregs, a)
		}
	}
}

// The banana compiles to four instructions on five registers (x, y, the
// constants 0 and 1, one temporary), as the package documentation says.
func TestBananaProgramSize(t *testing.T) {
	d := mustParse(t, typedBanana)
	if len(d.prog.code) != 4 || d.prog.nregs != 5 {
		t.Errorf("banana: %d instructions on %d registers, want 4 on 5", len(d.prog.code), d.prog.nregs)
	}
}

// A Density holds no state an evaluation changes: goroutines sharing one
// get what one goroutine gets (and -race sees no shared writes).
func TestConcurrentUse(t *testing.T) {
	d := mustParse(t, "v ~ normal(0, 3); x ~ student_t(4, 0, exp(v / 2));")
	points := []target.Point{{0, 0}, {-2, 0.5}, {1.5, -3}, {4, 20}}
	var want [4]float64
	for i, p := range points {
		want[i], _ = d.LogDensityGrad(p)
	}
	done := make(chan error)
	for range 4 {
		go func() {
			for range 200 {
				for i, p := range points {
					if v, _ := d.LogDensityGrad(p); v != want[i] {
						done <- fmt.Errorf("at %v: %v, sequentially %v", p, v, want[i])
						return
					}
				}
			}
			done <- nil
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
