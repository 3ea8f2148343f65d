package stan

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/posterior-playground/playground/sim/target"
)

// FuzzParse checks that any text either compiles to a usable density or
// gives an *Error that points inside it, and never panics. It cannot hang:
// the text is at most MaxChars long and MaxNodes nodes, parsing is one
// pass, and compiling evaluates the program on at most
// (len(searchRadii) + refines) grids of gridN² points plus one grid per
// statement to diagnose an empty support.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		typedBanana,
		"v ~ normal(0, 3); x ~ normal(0, exp(v / 2));",
		"x ~ student_t(3, 0, 1); y ~ cauchy(x, 2); x in [-4, 4];",
		"target += log_sum_exp(normal_lpdf(x | -2, 1), normal_lpdf(x | 2, 1)) - y^2/2;",
		"a ~ gamma(2, 1); b ~ beta(a, 2); /* c */ a in [0, 10]; # d",
		"target += -(sqrt(x^2 + y^2) - 2)^2 / (2 * 0.1^2);",
		"x ~ lognormal(0, 1); y ~ exponential(inv_logit(x));",
		"target += tanh(x) * sin(y) - abs(expm1(x)) + log1p(y^2) - cos(x * y) - pi() * e();",
		"x ~ nromal(0, 1);",
		"x ~ normal(0, 1);\ny ~ normal(0, 1)",
		"target += ((((x))));",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		d, err := Parse(src)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("%q: %v is not an *Error", src, err)
			}
			if e.Line < 1 || e.Col < 1 || e.Offset < 0 || e.Offset > len(src) ||
				!strings.HasPrefix(err.Error(), fmt.Sprintf("%d:%d: ", e.Line, e.Col)) {
				t.Fatalf("%q: error %q points at %d:%d, offset %d", src, err, e.Line, e.Col, e.Offset)
			}
			return
		}
		p := d.Params()
		if p[0] == "" || p[1] == "" || p[0] == p[1] {
			t.Fatalf("%q: Params %v", src, p)
		}
		b := d.Box()
		for _, v := range []float64{b.XMin, b.XMax, b.YMin, b.YMax} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("%q: Box %+v", src, b)
			}
		}
		if !(b.XMin < b.XMax && b.YMin < b.YMax) {
			t.Fatalf("%q: Box %+v", src, b)
		}
		for _, q := range []target.Point{
			{b.XMin, b.YMin}, {b.XMax, b.YMax}, {(b.XMin + b.XMax) / 2, (b.YMin + b.YMax) / 2},
			{0, 0}, {math.Inf(1), 1}, {math.NaN(), 0}, {1e308, -1e308},
		} {
			if v, _ := d.LogDensityGrad(q); math.IsNaN(v) {
				t.Fatalf("%q at %v: NaN", src, q)
			}
		}
	})
}
