package stan

import (
	"math"
	"testing"

	"github.com/posterior-playground/playground/sim/target"
)

// A box on both parameters skips the box search, so these densities are
// exactly the expression typed, with no sampling statements around them.
const testBox = " x in [-2, 2]; y in [-2, 2];"

// Inside every function's domain (the argument x·y − 0.3x is in (0.5, 1))
// and, for the functions defined on the whole line, also where it is
// negative.
var (
	positivePoints = []target.Point{{0.9, 1.2}, {1.5, 0.7}, {0.6, 1.9}}
	negativePoints = []target.Point{{1, 0.2}, {-1.3, 0.9}}
)

func TestFunctions(t *testing.T) {
	arg := func(p target.Point) float64 { return p[0]*p[1] - 0.3*p[0] }
	for _, c := range []struct {
		name  string
		f     func(float64) float64
		whole bool // defined on the whole line
	}{
		{"exp", math.Exp, true},
		{"log", math.Log, false},
		{"log1p", math.Log1p, false},
		{"expm1", math.Expm1, true},
		{"sqrt", math.Sqrt, false},
		{"abs", math.Abs, true},
		{"sin", math.Sin, true},
		{"cos", math.Cos, true},
		{"tanh", math.Tanh, true},
		{"inv_logit", func(a float64) float64 { return 1 / (1 + math.Exp(-a)) }, true},
		{"square", func(a float64) float64 { return a * a }, true},
	} {
		d := mustParse(t, "target += "+c.name+"(x * y - 0.3 * x);"+testBox)
		points := positivePoints
		if c.whole {
			points = append(points, negativePoints...)
		}
		for _, p := range points {
			if got, want := d.LogDensity(p), c.f(arg(p)); !near(got, want, 1e-14) {
				t.Errorf("%s at %v = %v, want %v", c.name, p, got, want)
			}
			checkGrad(t, c.name, d, p)
		}
	}
}

func TestOperators(t *testing.T) {
	for _, c := range []struct {
		src string
		f   func(x, y float64) float64
	}{
		{"x + y", func(x, y float64) float64 { return x + y }},
		{"x - y - 1", func(x, y float64) float64 { return x - y - 1 }},
		{"x * y", func(x, y float64) float64 { return x * y }},
		{"x / y / 2", func(x, y float64) float64 { return x / y / 2 }},
		{"-x^2 * y", func(x, y float64) float64 { return -(x * x) * y }}, // ^ before unary minus
		{"x^y", math.Pow},
		{"pow(x, y)", math.Pow},
		{"x^3 + y", func(x, y float64) float64 { return x*x*x + y }},
		{"x^-1.5 * y", func(x, y float64) float64 { return math.Pow(x, -1.5) * y }},
		{"x^0.5 + y^1", func(x, y float64) float64 { return math.Sqrt(x) + y }},
		{"2^3^2 * x + y", func(x, y float64) float64 { return 512*x + y }}, // right-associative
		{"(2^3)^2 * x + y", func(x, y float64) float64 { return 64*x + y }},
		{"2^-1 * x + -y", func(x, y float64) float64 { return x/2 - y }},
		{"0 * x + y^x", func(x, y float64) float64 { return math.Pow(y, x) }}, // x first: Params is (x, y)
		{"pi() * x + e() * y", func(x, y float64) float64 { return math.Pi*x + math.E*y }},
		{"log_sum_exp(x, 2 * y)", func(x, y float64) float64 { return math.Log(math.Exp(x) + math.Exp(2*y)) }},
		{"log_sum_exp(-800 * x, -800 * y)", func(x, y float64) float64 { // no underflow
			m := math.Max(-800*x, -800*y)
			return m + math.Log(math.Exp(-800*x-m)+math.Exp(-800*y-m))
		}},
		{"1.5e-1 * x + .5 * y + 2E0", func(x, y float64) float64 { return 0.15*x + 0.5*y + 2 }},
	} {
		d := mustParse(t, "target += "+c.src+";"+testBox)
		for _, p := range positivePoints {
			if got, want := d.LogDensity(p), c.f(p[0], p[1]); !near(got, want, 1e-13) {
				t.Errorf("%s at %v = %v, want %v", c.src, p, got, want)
			}
			checkGrad(t, c.src, d, p)
		}
	}
}

// Where a function is undefined the density is −Inf with a zero gradient,
// not NaN.
func TestOutsideDomain(t *testing.T) {
	d := mustParse(t, "target += log(x) + sqrt(y);"+testBox)
	for _, p := range []target.Point{{-1, 1}, {1, -1}, {0, 1}} {
		v, g := d.LogDensityGrad(p)
		if !math.IsInf(v, -1) || g != (target.Point{}) {
			t.Errorf("at %v: %v, %v; want −Inf and a zero gradient", p, v, g)
		}
	}
}
