package datasets

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/posterior-playground/playground/sim"
)

func loadCSVString(s string) (*sim.Dataset, error) {
	return LoadCSV(strings.NewReader(s), "test.csv")
}

func TestCSVRoundTrip(t *testing.T) {
	x := []float64{-3, -1.5, 0.25, 2, 7.5}
	y := []float64{10, -2, 0, 3.5, 1e-3}
	var b strings.Builder
	b.WriteString("\uFEFF y , note, x \n") // BOM, spaces, order, an extra column
	for i := range x {
		fmt.Fprintf(&b, " %g ,row %d, %g\n", y[i], i, x[i])
	}
	d, err := loadCSVString(b.String())
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "test.csv" || d.Task != sim.Regression || d.DefaultModel != "bnn" || d.Truth != nil || d.N() != 5 {
		t.Errorf("dataset %+v", d)
	}
	checkStandardised(t, "csv x", d.X)
	checkStandardised(t, "csv y", d.Y)
	u := InUserUnits(d)
	for i := range x {
		if math.Abs(u.X[i]-x[i]) > 1e-12*(1+math.Abs(x[i])) || math.Abs(u.Y[i]-y[i]) > 1e-12*(1+math.Abs(y[i])) {
			t.Errorf("row %d: (%g, %g) back in user units, want (%g, %g)", i+2, u.X[i], u.Y[i], x[i], y[i])
		}
	}
	// Grid: GridPoints points over the range widened by a quarter each side.
	lo, hi := -3-10.5/4, 7.5+10.5/4
	if len(u.Grid) != GridPoints || math.Abs(u.Grid[0]-lo) > 1e-12 || math.Abs(u.Grid[GridPoints-1]-hi) > 1e-12 {
		t.Errorf("user grid [%g, %g] (%d points), want [%g, %g]", u.Grid[0], u.Grid[len(u.Grid)-1], len(u.Grid), lo, hi)
	}
	// Widest interval 2 → 7.5 (5.5 > 10.5/5): centre 4.75.
	if !d.HasGap || math.Abs(u.GapCentre-4.75) > 1e-12 {
		t.Errorf("gap %v at %g (user), want at 4.75", d.HasGap, u.GapCentre)
	}
}

func TestCSVGapDetection(t *testing.T) {
	var with, without strings.Builder
	with.WriteString("x,y\n")
	without.WriteString("x,y\n")
	for i := range 20 {
		fmt.Fprintf(&without, "%d,%d\n", i, i%3)
		xi := float64(i) / 10 // [0, 0.9] ∪ [3.1, 4]: the gap 0.9 → 3.1 is 2.2 > 4/5
		if i >= 10 {
			xi += 2.1
		}
		fmt.Fprintf(&with, "%g,%d\n", xi, i%3)
	}
	d, err := loadCSVString(with.String())
	if err != nil {
		t.Fatal(err)
	}
	if c := d.XScale.ToUser(d.GapCentre); !d.HasGap || math.Abs(c-2) > 1e-12 {
		t.Errorf("gap %v at %g, want at 2", d.HasGap, c)
	}
	d, err = loadCSVString(without.String())
	if err != nil {
		t.Fatal(err)
	}
	if d.HasGap {
		t.Errorf("evenly spaced x: found a gap at %g", d.GapCentre)
	}
}

func rows(n int) string {
	var b strings.Builder
	b.WriteString("x,y\n")
	for i := range n {
		fmt.Fprintf(&b, "%d,%d\n", i, 2*i)
	}
	return b.String()
}

func TestCSVErrors(t *testing.T) {
	big := "x,y,pad\n1,2," + strings.Repeat("a", MaxCSVBytes) + "\n3,4,\n"
	cases := []struct {
		name, in string
		want     []string // substrings of the message
	}{
		{"missing x", "a,y\n1,2\n3,4\n", []string{"row 1", `"x"`}},
		{"missing y", "x,z\n1,2\n3,4\n", []string{"row 1", `"y"`}},
		{"non-numeric", "x,y\n1,2\n3,abc\n", []string{"row 3", "column y", `"abc"`}},
		{"empty cell", "x,y\n1,2\n,4\n", []string{"row 3", "column x"}},
		{"NaN", "x,y\n1,2\n3,4\nNaN,5\n", []string{"row 4", "column x", "NaN"}},
		{"Inf", "x,y\n1,2\n3,-Inf\n", []string{"row 3", "column y", "infinite"}},
		{"overflow", "x,y\n1,2\n1e999,4\n", []string{"row 3", "column x", "too large"}},
		{"one row", "x,y\n1,2\n", []string{"at least 2", "got 1"}},
		{"header only", "x,y\n", []string{"at least 2", "got 0"}},
		{"empty", "", []string{"empty"}},
		{"x constant", "x,y\n1,2\n1,3\n1,4\n", []string{"x values", "equal"}},
		{"duplicate column", "x,y,x\n1,2,3\n", []string{"row 1", `"x"`, "twice"}},
		{"field count", "x,y\n1,2\n3\n", []string{"row 3", "1 fields", "header has 2"}},
		{"bad quote", "x,y\n1,2\n3,\"4\n", []string{"row", "malformed"}},
		{"too many rows", rows(MaxCSVRows + 1), []string{fmt.Sprintf("row %d", MaxCSVRows+2), "10000"}},
		{"too many bytes", big, []string{"1048576"}},
	}
	for _, c := range cases {
		_, err := loadCSVString(c.in)
		var fe *sim.FieldError
		if !errors.As(err, &fe) || fe.Field != "data-file" {
			t.Errorf("%s: error %v, want a *sim.FieldError for data-file", c.name, err)
			continue
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: message has a newline: %q", c.name, err)
		}
		for _, w := range c.want {
			if !strings.Contains(fe.Message, w) {
				t.Errorf("%s: message %q lacks %q", c.name, fe.Message, w)
			}
		}
	}
}

// TestCSVLimitsInclusive: exactly MaxCSVRows rows and exactly MaxCSVBytes
// bytes are accepted.
func TestCSVLimitsInclusive(t *testing.T) {
	if d, err := loadCSVString(rows(MaxCSVRows)); err != nil || d.N() != MaxCSVRows {
		t.Errorf("%d rows: %v", MaxCSVRows, err)
	}
	head := "x,y,pad\n1,2,\n3,4,"
	exact := head + strings.Repeat("a", MaxCSVBytes-len(head)-1) + "\n"
	if len(exact) != MaxCSVBytes {
		t.Fatalf("built %d bytes", len(exact))
	}
	if _, err := loadCSVString(exact); err != nil {
		t.Errorf("exactly %d bytes: %v", MaxCSVBytes, err)
	}
}

// TestCSVExtremeValues: values near the float64 limits stay finite.
func TestCSVExtremeValues(t *testing.T) {
	for _, in := range []string{
		"x,y\n1e308,-1e308\n-1e308,1e308\n0,5e-324\n",
		"x,y\n5e-324,1\n1e-323,1\n0,1\n",
		"x,y\n1,7\n2,7\n",
	} {
		d, err := loadCSVString(in)
		if err != nil {
			continue // a clean rejection is fine too
		}
		checkFinite(t, in, d)
	}
	d, err := loadCSVString("x,y\n1,7\n2,7\n") // constant y is only centred
	if err != nil || d.Y[0] != 0 || d.Y[1] != 0 || d.YScale != (sim.Affine{Mean: 7, Std: 1}) {
		t.Errorf("constant y: %v, %+v", err, d)
	}
}

func checkFinite(t *testing.T, in string, d *sim.Dataset) {
	t.Helper()
	bad := func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }
	for i := range d.X {
		if bad(d.X[i]) || bad(d.Y[i]) {
			t.Fatalf("%q: point %d is (%g, %g)", in, i, d.X[i], d.Y[i])
		}
	}
	for _, g := range d.Grid {
		if bad(g) {
			t.Fatalf("%q: grid point %g", in, g)
		}
	}
	if bad(d.GapCentre) || bad(d.XScale.Mean) || bad(d.XScale.Std) || bad(d.YScale.Mean) || bad(d.YScale.Std) ||
		d.XScale.Std <= 0 || d.YScale.Std <= 0 || len(d.Grid) != GridPoints || d.N() < 2 {
		t.Fatalf("%q: scales %v %v, gap %g, %d grid points, n %d", in, d.XScale, d.YScale, d.GapCentre, len(d.Grid), d.N())
	}
}

func TestLoadCSVFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "points.csv")
	if err := os.WriteFile(p, []byte(rows(5)), 0o600); err != nil {
		t.Fatal(err)
	}
	d, err := LoadCSVFile(p)
	if err != nil || d.Name != "points.csv" || d.N() != 5 {
		t.Fatalf("LoadCSVFile: %v, %+v", err, d)
	}
	big := filepath.Join(dir, "big.csv")
	if err := os.WriteFile(big, bytes.Repeat([]byte("1,2\n"), MaxCSVBytes/4+1), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{filepath.Join(dir, "missing.csv"), big} {
		var fe *sim.FieldError
		if _, err := LoadCSVFile(path); !errors.As(err, &fe) || fe.Field != "data-file" {
			t.Errorf("%s: error %v, want a *sim.FieldError for data-file", filepath.Base(path), err)
		}
	}
}

func FuzzLoadCSV(f *testing.F) {
	for _, s := range []string{
		rows(3), "y,x\n1,2\n3,4\n", "x,y\n1e308,-1e308\n-1e308,1e308\n",
		"x,y\n5e-324,0\n0,1\n", "x,y\n1,2\n1,3\n", "x,y\n\"1\",2\n3,\"4\"\n",
		"x,y\n1,2\n3,NaN\n", "x , y\n0x1p-3,1_0\n-0,+4\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := LoadCSV(bytes.NewReader(data), "fuzz")
		if err != nil {
			var fe *sim.FieldError
			if !errors.As(err, &fe) || fe.Field != "data-file" {
				t.Fatalf("error %v is not a *sim.FieldError for data-file", err)
			}
			return
		}
		checkFinite(t, string(data), d)
		// Standardised: mean ≈ 0 and std ≈ 1 (loose: extreme inputs are
		// rescaled before standardising, which costs a few ulps per point).
		m, s := popMeanStd(d.X)
		if math.Abs(m) > 1e-9 || math.Abs(s-1) > 1e-9 {
			t.Fatalf("%q: x mean %g, std %g", data, m, s)
		}
	})
}

// TestCSVNumberNotation: cells take ordinary decimal and exponent notation
// only; strconv.ParseFloat's extensions are refused, each by name.
func TestCSVNumberNotation(t *testing.T) {
	for _, cell := range []string{"1", "-1", "+1", "1.5", "-0.25", "1.", ".5", "-.5", "+.5", "0", "007",
		"1e3", "1E3", "1e+3", "1e-3", "-2.5E-03", ".5e1", "1.e2", " 3 "} {
		want, err := strconv.ParseFloat(strings.TrimSpace(cell), 64)
		if err != nil {
			t.Fatalf("bad case %q", cell)
		}
		d, err := loadCSVString("x,y\n0,0\n1," + cell + "\n")
		if err != nil {
			t.Errorf("%q refused: %v", cell, err)
			continue
		}
		// y is standardised: with two rows, y[1] = YScale.Mean + YScale.Std.
		if got := d.YScale.Mean + d.YScale.Std*d.Y[1]; math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
			t.Errorf("%q read as %g, want %g", cell, got, want)
		}
	}
	for _, cell := range []string{"1_000", "1_0.5", "0x10", "0X1F", "0x1p-2", "0b101", "0o17",
		"Inf", "inf", "+Inf", "-inf", "Infinity", "-INFINITY", "NaN", "nan", "-NaN", "+nan",
		"", ".", "-", "+", "e5", ".e5", "1e", "1e+", "1e-", "1.5.2", "1,5", "--1", "+-1", "1 000", "1e5.5", "١٢"} {
		_, err := loadCSVString("x,y\n0,0\n1,\"" + cell + "\"\n")
		var fe *sim.FieldError
		if !errors.As(err, &fe) || fe.Field != "data-file" || !strings.Contains(fe.Message, "row 3, column y") {
			t.Errorf("%q: %v, want a data-file error naming row 3, column y", cell, err)
		}
	}
}
