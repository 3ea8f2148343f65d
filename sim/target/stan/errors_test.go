package stan

import (
	"errors"
	"strings"
	"testing"
)

// Every error names the line and character it is about, first.
func TestErrors(t *testing.T) {
	deep := "target += " + strings.Repeat("(", MaxDepth) + "x + y" + strings.Repeat(")", MaxDepth) + ";"
	wide := "target += x" + strings.Repeat("+y", MaxNodes/2) + ";"
	long := "x ~ normal(0, 1); y ~ normal(0, 1);" + strings.Repeat(" ", MaxChars)
	for _, c := range []struct{ src, want string }{
		{"target += nromal_lpdf(x | 0, 1); y ~ normal(0, 1);",
			`1:11: unknown function "nromal_lpdf"; did you mean "normal_lpdf"?`},
		{"target += 2 * nromal(x); y ~ normal(0, 1);",
			`1:15: unknown function "nromal"; did you mean "normal_lpdf"?`},
		{"x ~ nromal(0, 1);\ny ~ normal(0, 1);",
			`1:5: unknown distribution "nromal"; did you mean "normal"?`},
		{"x ~ normal(0, 1);\ny ~ studnet_t(3, 0, 1);",
			`2:5: unknown distribution "studnet_t"; did you mean "student_t"?`},
		{"x ~ normal(0, 1);\ny ~ wibble(3);", `2:5: unknown distribution "wibble"`},
		{"x ~ normal(0, 1);\ny ~ normal(0, 1)\n",
			`3:1: expected ";" after the sampling statement, found the end of the text`},
		{"x ~ normal(0, 1); y ~ normal(0, 1) @", `1:36: unexpected character '@'`},
		{"x ~ normal(0, 1); y ~ normal(0, 1); z ~ normal(0, 1);",
			`1:37: a third parameter "z": a density takes exactly two, here "x" and "y"`},
		{"x ~ normal(0, 1); y ~ normal(0, 1); yy ~ normal(0, 1);",
			`1:37: a third parameter "yy": a density takes exactly two, here "x" and "y"; did you mean "y"?`},
		{"x ~ normal(0, 1);", `1:1: the density uses one parameter, "x"; it needs two`},
		{"target += 1;", `1:1: the density uses no parameters; it needs two, e.g. x and y`},
		{"  // nothing\n", `2:1: no statements: write a sampling statement (x ~ normal(0, 1);) or target += …;`},
		{"x ~ normal(0); y ~ normal(0, 1);", `1:5: normal takes 2 parameters (mu, sigma), got 1`},
		{"target += normal_lpdf(x, 0, 1); y ~ normal(0, 1);",
			`1:24: expected "|" after the variate (Stan writes normal_lpdf(y | …)), found ","`},
		{"target += normal_lpdf(x | 0); y ~ normal(0, 1);",
			`1:11: normal_lpdf takes 2 parameters after the bar (mu, sigma), got 1`},
		{"target += normal(x, 1); y ~ normal(0, 1);",
			`1:11: unknown function "normal"; did you mean "normal_lpdf"?`},
		{"target += log_sum_exp(x); y ~ normal(0, 1);", `1:11: log_sum_exp takes 2 arguments, got 1`},
		{"target += pi * x; y ~ normal(0, 1);", `1:11: "pi" is a constant: write pi()`},
		{"target += exp * x; y ~ normal(0, 1);", `1:11: "exp" is a function: call it as exp(…)`},
		{"x ~ normal(0, 1); y ~ normal(0, -1);", `1:33: normal's sigma must be positive; here it is -1`},
		{"x ~ student_t(0, 0, 1); y ~ normal(0, 1);", `1:15: student_t's nu must be positive; here it is 0`},
		{"x ~ normal(0, 1); y ~ normal(0, 1); target += log(-1);",
			`1:47: this is NaN (not a number) whatever the parameters`},
		{"x ~ normal(0, 1); y ~ normal(0, 1) /* unclosed", `1:36: comment opened here is never closed with */`},
		{"x ~ normal(0, 1); y ~ normal(0, 1); x + 1;",
			`1:42: expected "~" after the expression (or write target += …), found ";"`},
		{"x ~ normal(0, 1); y ~ normal(0, 1); x in [2, 1];", `1:43: a box needs lo < hi; here [2, 1]`},
		{"x ~ normal(0, 1); y ~ normal(0, 1); x in [y, 1];", `1:43: a box's bounds must be finite numbers`},
		{"x ~ normal(0, 1); y ~ normal(0, 1); x in [-1, 1]; x in [-2, 2];", `1:51: a second box for x`},
		{"x ~ normal(0, 1); y ~ normal(0, 1); target += 1e999 * x;", `1:47: number 1e999 is out of range`},
		{"x ~ lognormal(0, 1); y ~ normal(0, 1); x in [-3, -1];",
			`1:1: this statement is −∞ or NaN everywhere on the box [-3, -1] × [-512, 512]`},
		{"x ~ lognormal(0, 1); target += log(-x); y ~ normal(0, 1);",
			`1:1: the density is −∞ or NaN everywhere on the box [-512, 512] × [-512, 512]: its statements' supports do not meet there`},
		{"x ~ normal(0, 1); target += 0 * y;",
			`1:1: the density does not fall off within ±512 in y; give its box, e.g. y in [-10, 10];`},
		{deep, `1:75: the expression is nested deeper than 64 levels`},
		{wide, `1:1010: the density has more than 1000 nodes (numbers, names, operators and calls)`},
		{long, `1:2001: the text is 2035 characters long; at most 2000 are allowed`},
	} {
		_, err := Parse(c.src)
		if err == nil {
			t.Errorf("%q: no error, want %s", c.src, c.want)
			continue
		}
		if err.Error() != c.want {
			t.Errorf("%q:\n got %s\nwant %s", c.src, err, c.want)
		}
		var e *Error
		if !errors.As(err, &e) || e.Offset > len(c.src) {
			t.Errorf("%q: %#v is not an *Error within the text", c.src, err)
		}
	}
}

// The brief's own example: the column counts characters, not bytes.
func TestErrorColumnCountsCharacters(t *testing.T) {
	_, err := Parse("/* θ */ x ~ nromal(0, 1);")
	if want := `1:13: unknown distribution "nromal"; did you mean "normal"?`; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}
