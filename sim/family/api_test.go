package family

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/target"
)

// TestConfigErrors: a bad Config is a *sim.FieldError naming its field
// and the allowed range, and builds nothing.
func TestConfigErrors(t *testing.T) {
	inf := target.Point{math.Inf(1), 0}
	for _, c := range []struct {
		cfg   Config
		field string
	}{
		{Config{Divergence: 3}, "divergence"},
		{Config{Alpha: -0.1}, "alpha"},
		{Config{Alpha: math.NaN()}, "alpha"},
		{Config{Samples: 5000}, "samples"},
		{Config{Samples: -1}, "samples"},
		{Config{LR: 2}, "lr"},
		{Config{Layers: 17}, "layers"},
		{Config{Hidden: 129}, "hidden"},
		{Config{Particles: 1}, "particles"},
		{Config{Start: &inf}, "start"},
	} {
		for _, name := range []string{MeanFieldName, FullRankName, FlowName, SVGDName} {
			q, err := New(name, banana{b: 1}, c.cfg)
			var fe *sim.FieldError
			if !errors.As(err, &fe) || fe.Field != c.field || q != nil {
				t.Errorf("%s %+v: got %v, %v; want a field error on %q", name, c.cfg, q, err, c.field)
			}
		}
	}
	var fe *sim.FieldError
	if _, err := New("nuts", banana{b: 1}, Config{}); !errors.As(err, &fe) || fe.Field != "method" || !strings.Contains(fe.Message, FlowName) {
		t.Errorf("unknown family: %v, want a field error on method listing the families", err)
	}
	if _, err := NewFlow(emptyBox{}, Config{}); !errors.As(err, &fe) || fe.Field != "target" {
		t.Errorf("empty box: %v, want a field error on target", err)
	}
}

type emptyBox struct{ banana }

func (emptyBox) Box() target.Box { return target.Box{XMin: 1, XMax: 1, YMin: 0, YMax: 1} }

// families builds every family on p with cfg.
func families(t testing.TB, p target.Target, cfg Config) map[string]Fit {
	t.Helper()
	out := map[string]Fit{}
	for _, name := range []string{MeanFieldName, FullRankName, FlowName, SVGDName} {
		q, err := New(name, p, cfg)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = q
	}
	return out
}

// TestDeterministic: a seed fixes the run, and drawing from q (Draw,
// Moments) between steps does not change it.
func TestDeterministic(t *testing.T) {
	for _, d := range []Divergence{ReverseKL, ForwardKL, Renyi} {
		cfg := Config{Divergence: d, Alpha: 0.5, Seed: 5, Samples: 8, Particles: 10}
		a, b := families(t, banana{b: 1}, cfg), families(t, banana{b: 1}, cfg)
		buf := make([]target.Point, 7)
		for name := range a {
			for range 20 {
				a[name].Step()
				b[name].Step()
				b[name].Draw(buf)
				b[name].Moments()
			}
			ma, ca := a[name].Moments()
			mb, cb := b[name].Moments()
			if ma != mb || ca != cb || a[name].Evals() != b[name].Evals() {
				t.Errorf("%v %s: two runs of one seed differ: %v %v against %v %v", d, name, ma, ca, mb, cb)
			}
			if want := int64(20 * 8); name != SVGDName && a[name].Evals() != want {
				t.Errorf("%v %s: %d evaluations after 20 steps of 8 draws, want %d", d, name, a[name].Evals(), want)
			}
		}
		if got := a[SVGDName].Evals(); got != 21*10 {
			t.Errorf("svgd: %d evaluations after 20 steps of 10 particles, want 210 (one round at the start)", got)
		}
	}
}

// TestStepAllocs: a step allocates nothing, under every divergence.
func TestStepAllocs(t *testing.T) {
	for _, d := range []Divergence{ReverseKL, ForwardKL, Renyi} {
		for name, q := range families(t, banana{b: 1}, Config{Divergence: d, Alpha: 0.5, Particles: 20}) {
			q.Step()
			if n := testing.AllocsPerRun(20, q.Step); n != 0 {
				t.Errorf("%v %s: %g allocations a step", d, name, n)
			}
		}
	}
}

// TestNormalised: each density integrates to one over the plane, and
// Draw's draws have the moments Moments reports. The families are trained
// a little first so that the flow's layers are not the identity. The
// midpoint rule on a 400² grid over ±12 sd of q (cells of 0.06 sd) is good
// to far better than the 1e-3 asked. The draws' moments against
// Moments': the mean differs by Monte Carlo error of sd·√(1/20000 +
// 1/2048) (the second term for the flow, whose Moments average 2,048
// draws of their own), the variance relatively by √((κ−1)(1/20000 +
// 1/2048)), κ the draws' kurtosis (the banana's tails make it more than
// a Gaussian's 3); both are asked within four of those.
func TestNormalised(t *testing.T) {
	p := banana{b: 1}
	for name, q := range families(t, p, Config{Seed: 3}) {
		for range 300 {
			q.Step()
		}
		m, c := q.Moments()
		draws := make([]target.Point, 20000)
		q.Draw(draws)
		if name == SVGDName {
			// The draws are the particles in turn: their moments are
			// the particles' exactly, up to rounding.
			dm, dc := momentsOf(draws[:DefaultParticles])
			if !slices.Equal(dm[:], m[:]) || dc != c {
				t.Errorf("svgd: the particles drawn have moments %v %v, Moments says %v %v", dm, dc, m, c)
			}
			continue
		}
		d := q.(Density)
		const n = 400
		lo, hi := [2]float64{m[0] - 12*math.Sqrt(c[0][0]), m[1] - 12*math.Sqrt(c[1][1])}, [2]float64{m[0] + 12*math.Sqrt(c[0][0]), m[1] + 12*math.Sqrt(c[1][1])}
		hx, hy := (hi[0]-lo[0])/n, (hi[1]-lo[1])/n
		mass := 0.0
		for i := range n {
			for j := range n {
				mass += math.Exp(d.LogDensity(target.Point{lo[0] + (float64(i)+0.5)*hx, lo[1] + (float64(j)+0.5)*hy})) * hx * hy
			}
		}
		if math.Abs(mass-1) > 1e-3 {
			t.Errorf("%s: ∫q = %.6f, want 1", name, mass)
		}
		dm, dc := momentsOf(draws)
		inv := 1 / float64(len(draws))
		if name == FlowName {
			inv += 1.0 / momentDraws
		}
		for i := range 2 {
			s := math.Sqrt(c[i][i])
			k4 := 0.0
			for _, x := range draws {
				d := (x[i] - dm[i]) / math.Sqrt(dc[i][i])
				k4 += d * d * d * d / float64(len(draws))
			}
			if math.Abs(dm[i]-m[i]) > 4*s*math.Sqrt(inv) || math.Abs(dc[i][i]/c[i][i]-1) > 4*math.Sqrt((k4-1)*inv) {
				t.Errorf("%s: the draws' mean and variance [%d] %.4f %.4f, Moments %.4f %.4f", name, i, dm[i], dc[i][i], m[i], c[i][i])
			}
		}
	}
}

// TestSetLR: Adam's first step moves every parameter by the learning rate
// (m̂/√v̂ = g/|g|, up to Keras's ε = 1e-7 against |g|; SVGD's pooled
// form moves each particle by lr·g/√mean(g²)), so after SetLR(2·lr) a
// family's first step moves its mean (the flow: its affine map's μ)
// twice as far as at lr, to 1e-6; a rate outside (0, 1] is a field error.
func TestSetLR(t *testing.T) {
	for _, name := range []string{MeanFieldName, FullRankName, FlowName, SVGDName} {
		var moved [2]float64
		for k, lr := range []float64{0.01, 0.02} {
			q, err := New(name, gauss2{s1: 1, s2: 1, rho: 0.5}, Config{Seed: 1, LR: 0.3, Particles: 4})
			if err != nil {
				t.Fatal(err)
			}
			var fe *sim.FieldError
			if err := q.SetLR(1.5); !errors.As(err, &fe) || fe.Field != "lr" {
				t.Errorf("%s: SetLR(1.5) = %v, want a field error on lr", name, err)
			}
			if err := q.SetLR(lr); err != nil {
				t.Fatal(err)
			}
			mean := func() float64 {
				if f, ok := q.(*Flow); ok {
					return f.Params().Mu[0]
				}
				m, _ := q.Moments()
				return m[0]
			}
			m0 := mean()
			q.Step()
			moved[k] = mean() - m0
		}
		if math.Abs(moved[1]/moved[0]-2) > 1e-6 {
			t.Errorf("%s: the first step moved the mean %g at lr 0.01 and %g at 0.02", name, moved[0], moved[1])
		}
	}
}
