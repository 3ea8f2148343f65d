package experiment

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/posterior-playground/playground/sim"
)

func TestParseValues(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []float64
	}{
		{"1,2,5", []float64{1, 2, 5}},
		{" 0.5 , 3", []float64{0.5, 3}},
		{"linspace:0:1:3", []float64{0, 0.5, 1}},
		// The GIP notebook's prior-scale sweep: 10^linspace(-0.5, 0.5, 11).
		{"logspace:0.316:3.16:3", []float64{0.316, math.Sqrt(0.316 * 3.16), 3.16}},
	} {
		got, err := ParseValues(tc.in)
		if err != nil {
			t.Fatalf("ParseValues(%q): %v", tc.in, err)
		}
		if len(got) != len(tc.want) {
			t.Fatalf("ParseValues(%q) = %v, want %v", tc.in, got, tc.want)
		}
		for i := range got {
			if math.Abs(got[i]-tc.want[i]) > 1e-12 {
				t.Errorf("ParseValues(%q)[%d] = %v, want %v", tc.in, i, got[i], tc.want[i])
			}
		}
	}
	for _, bad := range []string{"", "a,b", "logspace:0:1:3", "linspace:1:2", "cubic:1:2:3", "1,NaN", "linspace:0:1:0"} {
		_, err := ParseValues(bad)
		var fe *sim.FieldError
		if !errors.As(err, &fe) || fe.Field != "values" {
			t.Errorf("ParseValues(%q) error = %v, want a FieldError on values", bad, err)
		}
	}
}

// gaussianMethod predicts f(x) = a + b·x with a ~ N(0,1) and b ~ N(0,1)
// independent, so std f(x) = sqrt(1 + x²) exactly.
type gaussianMethod struct{ r *rand.Rand }

func (g *gaussianMethod) Spec() sim.MethodSpec                              { return sim.MethodSpec{Name: "gauss"} }
func (g *gaussianMethod) Init(*sim.Dataset, sim.Controls, *rand.Rand) error { return nil }
func (g *gaussianMethod) Step() sim.StepStats                               { return sim.StepStats{} }
func (g *gaussianMethod) Set(string, sim.Value) error                       { return nil }
func (g *gaussianMethod) Trace() []float64                                  { return nil }
func (g *gaussianMethod) Predict(xs []float64, n int) sim.Predictive {
	p := sim.Predictive{X: xs, Samples: make([][]float64, n)}
	for s := range p.Samples {
		a, b := g.r.NormFloat64(), g.r.NormFloat64()
		p.Samples[s] = make([]float64, len(xs))
		for i, x := range xs {
			p.Samples[s][i] = a + b*x
		}
	}
	return p
}

func TestSummariseBand(t *testing.T) {
	m := &gaussianMethod{r: rand.New(rand.NewPCG(1, 2))}
	const n = 20000
	g := summarise(m.Predict([]float64{0, 2}, n))
	for i, x := range g.X {
		sd := math.Sqrt(1 + x*x)
		// The sample mean has sd sd/√n; the sample std has sd ≈ sd/√(2n);
		// a 2.5% quantile has sd ≈ sqrt(p(1-p)/n)/φ(1.96) ≈ 2.7 sd/√n.
		tol := 4 * sd / math.Sqrt(n)
		if math.Abs(g.Mean[i]) > tol {
			t.Errorf("mean at x=%v: %v, want 0 ± %v", x, g.Mean[i], tol)
		}
		if math.Abs(g.Std[i]-sd) > tol {
			t.Errorf("std at x=%v: %v, want %v ± %v", x, g.Std[i], sd, tol)
		}
		if math.Abs(g.Lo[i]+1.959964*sd) > 3*tol || math.Abs(g.Hi[i]-1.959964*sd) > 3*tol {
			t.Errorf("quantiles at x=%v: [%v, %v], want ±%v", x, g.Lo[i], g.Hi[i], 1.959964*sd)
		}
	}
}

func TestInbetweenRatio(t *testing.T) {
	m := &gaussianMethod{r: rand.New(rand.NewPCG(3, 4))}
	// Training inputs at ±2 have std √5; the gap centre 0 has std 1.
	d := &sim.Dataset{X: []float64{-2, 2, -2, 2}, HasGap: true, GapCentre: 0}
	got := inbetweenRatio(m, d)
	want := 1 / math.Sqrt(5)
	// 500 samples: each std estimate has relative sd about 1/√1000 ≈ 3%.
	if math.Abs(got-want) > 4*0.032*want {
		t.Errorf("in-between ratio = %v, want %v", got, want)
	}
}

func TestGridToReportUnits(t *testing.T) {
	g := Grid{X: []float64{1}, Mean: []float64{2}, Std: []float64{0.5}, Lo: []float64{1}, Hi: []float64{3}}
	out := g.to(sim.Affine{Mean: 10, Std: 2}, sim.Affine{Mean: -1, Std: 4})
	want := Grid{X: []float64{12}, Mean: []float64{7}, Std: []float64{2}, Lo: []float64{3}, Hi: []float64{11}}
	if out.X[0] != want.X[0] || out.Mean[0] != want.Mean[0] || out.Std[0] != want.Std[0] || out.Lo[0] != want.Lo[0] || out.Hi[0] != want.Hi[0] {
		t.Errorf("to() = %+v, want %+v", out, want)
	}
}

func TestConfigValidation(t *testing.T) {
	base := DefaultConfig()
	base.Data, base.Method = "gap", "mfvi"
	for _, tc := range []struct {
		field string
		edit  func(*Config)
	}{
		{"data", func(c *Config) { c.Data = "" }},
		{"data", func(c *Config) { c.DataFile = "x.csv" }},
		{"steps", func(c *Config) { c.Steps = -1 }},
		{"eval-reps", func(c *Config) { c.EvalReps = 0 }},
		{"iwbo-samples", func(c *Config) { c.IWBOSamples = MaxIWBOSamples + 1 }},
	} {
		c := base
		tc.edit(&c)
		var fe *sim.FieldError
		if err := c.validate(); !errors.As(err, &fe) || fe.Field != tc.field {
			t.Errorf("validate() = %v, want a FieldError on %s", err, tc.field)
		}
	}
}
