package stan

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/posterior-playground/playground/sim/target"
)

// distCase is a distribution, a variate and parameters inside its support,
// and gonum's (or, for the Cauchy, the closed-form) log density as the
// reference.
type distCase struct {
	name   string
	y      float64
	params []float64
	lp     func(y float64, p []float64) float64
}

var distCases = []distCase{
	{"normal", 0.4, []float64{-0.3, 1.3}, func(y float64, p []float64) float64 {
		return distuv.Normal{Mu: p[0], Sigma: p[1]}.LogProb(y)
	}},
	{"student_t", 0.4, []float64{3.5, -0.3, 1.3}, func(y float64, p []float64) float64 {
		return distuv.StudentsT{Nu: p[0], Mu: p[1], Sigma: p[2]}.LogProb(y)
	}},
	{"cauchy", 0.4, []float64{-0.3, 1.3}, func(y float64, p []float64) float64 {
		z := (y - p[0]) / p[1]
		return -math.Log(math.Pi * p[1] * (1 + z*z))
	}},
	{"lognormal", 1.4, []float64{0.2, 0.8}, func(y float64, p []float64) float64 {
		return distuv.LogNormal{Mu: p[0], Sigma: p[1]}.LogProb(y)
	}},
	{"exponential", 0.9, []float64{1.7}, func(y float64, p []float64) float64 {
		return distuv.Exponential{Rate: p[0]}.LogProb(y)
	}},
	{"gamma", 1.4, []float64{2.5, 1.7}, func(y float64, p []float64) float64 {
		return distuv.Gamma{Alpha: p[0], Beta: p[1]}.LogProb(y)
	}},
	{"beta", 0.4, []float64{2.5, 1.7}, func(y float64, p []float64) float64 {
		return distuv.Beta{Alpha: p[0], Beta: p[1]}.LogProb(y)
	}},
}

// Points that move every operand by at most 0.08, inside every support.
var distPoints = []target.Point{{0.3, -0.2}, {-0.5, 0.4}, {0.8, 0.6}}

// TestDistributions checks each distribution's value against gonum's and
// its gradient against central differences in every operand: the variate
// moves with x, and in form j parameter j moves with y (so ∂/∂y is that
// parameter's partial derivative alone); in form −1 only the variate
// moves, so the scales are constants and the compiled normaliser is used.
// The sampling statement and the _lpdf call must agree exactly.
func TestDistributions(t *testing.T) {
	for _, c := range distCases {
		for j := -1; j < len(c.params); j++ {
			args := make([]string, len(c.params))
			for i, v := range c.params {
				args[i] = fmt.Sprint(v)
				if i == j {
					args[i] += " + 0.1 * y"
				}
			}
			variate := fmt.Sprintf("%v + 0.1 * x", c.y)
			if j < 0 {
				variate += " + 0.05 * y"
			}
			lpdf := mustParse(t, fmt.Sprintf("target += %s_lpdf(%s | %s);%s", c.name, variate, strings.Join(args, ", "), testBox))
			tilde := mustParse(t, fmt.Sprintf("%s ~ %s(%s);%s", variate, c.name, strings.Join(args, ", "), testBox))
			for _, p := range distPoints {
				y := c.y + 0.1*p[0]
				ps := append([]float64(nil), c.params...)
				if j < 0 {
					y += 0.05 * p[1]
				} else {
					ps[j] += 0.1 * p[1]
				}
				label := fmt.Sprintf("%s form %d", c.name, j)
				if got, want := lpdf.LogDensity(p), c.lp(y, ps); !near(got, want, 1e-12) {
					t.Errorf("%s at %v = %.15g, want %.15g", label, p, got, want)
				}
				if a, b := lpdf.LogDensity(p), tilde.LogDensity(p); a != b {
					t.Errorf("%s at %v: _lpdf %v, sampling statement %v", label, p, a, b)
				}
				checkGrad(t, label, lpdf, p)
			}
		}
	}
}

// Outside a distribution's support, or where a scale or shape computed
// from the parameters is not positive, the density is −Inf: not an error,
// not NaN.
func TestDistributionSupports(t *testing.T) {
	for _, c := range []struct {
		src string
		out target.Point
	}{
		{"x ~ lognormal(0, 1); y ~ normal(0, 1);", target.Point{-0.5, 0}},
		{"x ~ exponential(1); y ~ normal(0, 1);", target.Point{-0.5, 0}},
		{"x ~ gamma(2, 1); y ~ normal(0, 1);", target.Point{-0.5, 0}},
		{"x ~ beta(2, 2); y ~ normal(0, 1);", target.Point{1.5, 0}},
		{"x ~ normal(0, y);" + testBox, target.Point{0.5, -1}},
		{"x ~ student_t(y, 0, 1);" + testBox, target.Point{0.5, -1}},
		{"x ~ cauchy(0, y);" + testBox, target.Point{0.5, -1}},
		{"x ~ lognormal(0, y);" + testBox, target.Point{0.5, -1}},
		{"x ~ exponential(y);" + testBox, target.Point{0.5, -1}},
		{"x ~ gamma(y, 1);" + testBox, target.Point{0.5, -1}},
		{"x ~ beta(1, y);" + testBox, target.Point{0.5, -1}},
	} {
		d := mustParse(t, c.src)
		if v, g := d.LogDensityGrad(c.out); !math.IsInf(v, -1) || g != (target.Point{}) {
			t.Errorf("%s at %v: %v, %v; want −Inf and a zero gradient", c.src, c.out, v, g)
		}
	}
}
