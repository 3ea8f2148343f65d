package numeric

import (
	"bufio"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// readLines reads a fixture: lines of comma-separated fields, skipping
// comment lines (#) and a header that does not parse.
func readLines(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" && !strings.HasPrefix(line, "#") {
			rows = append(rows, strings.Split(line, ","))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

func readLogRatios(t *testing.T, name string) []float64 {
	t.Helper()
	var r []float64
	for _, row := range readLines(t, filepath.Join("testdata", "psis", name+".csv")) {
		v, err := strconv.ParseFloat(row[0], 64)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		r = append(r, v)
	}
	return r
}

// TestParetoKhatLoo compares ParetoKhat with R's loo::psis on the fixed
// log-ratios of testdata/psis (made by make.R there). Both compute the
// same sums in the same order but for R's mean (a long-double sum with a
// correction pass) and matrixStats' logSumExp, which differ from Go's in
// the last bits; through the grid's weights that is far below 1e-6.
func TestParetoKhatLoo(t *testing.T) {
	rows := readLines(t, filepath.Join("testdata", "psis", "khat.csv"))
	above := 0
	for _, row := range rows[1:] { // rows[0] is the header
		name := row[0]
		want, err := strconv.ParseFloat(row[1], 64)
		if err != nil {
			t.Fatal(err)
		}
		got := ParetoKhat(readLogRatios(t, name))
		t.Logf("%s: k̂ = %.17g, loo %.17g, difference %.2g", name, got, want, got-want)
		if math.Abs(got-want) > 1e-6 {
			t.Errorf("%s: k̂ = %.10g, loo gives %.10g", name, got, want)
		}
		if want > 0.7 {
			above++
		}
	}
	if above == 0 || above == len(rows)-1 {
		t.Errorf("the fixtures' k̂ should lie on both sides of 0.7; %d of %d are above", above, len(rows)-1)
	}
}

// A draw outside p's support has log-ratio −Inf and weight zero. Below the
// tail's cutoff a log-ratio enters k̂ only through its rank, so −Inf there
// gives k̂ exactly as any other value below the cutoff does.
func TestParetoKhatOutsideSupport(t *testing.T) {
	r := readLogRatios(t, "wider")
	lowest := math.Inf(1)
	for _, v := range r {
		lowest = math.Min(lowest, v)
	}
	withInf, withLow := append([]float64(nil), r...), append([]float64(nil), r...)
	for i := 0; i < len(r); i += 7 {
		withInf[i], withLow[i] = math.Inf(-1), lowest-1
	}
	kInf, kLow := ParetoKhat(withInf), ParetoKhat(withLow)
	if math.IsInf(kInf, 0) || math.IsNaN(kInf) || kInf != kLow {
		t.Errorf("k̂ with −Inf draws = %v, with the same draws finite below the cutoff = %v", kInf, kLow)
	}
}

// ParetoKhat reports +Inf where loo does, and NaN for a NaN log-ratio.
func TestParetoKhatDegenerate(t *testing.T) {
	same := make([]float64, 100)
	outside := make([]float64, 100)
	for i := range outside {
		outside[i] = math.Inf(-1)
	}
	for _, c := range []struct {
		name string
		r    []float64
		want float64
	}{
		{"too few draws for a 5-draw tail", make([]float64, 24), math.Inf(1)},
		{"a tail of equal values", same, math.Inf(1)},
		{"all outside the support", outside, math.Inf(1)},
		{"an infinite ratio", append(make([]float64, 99), math.Inf(1)), math.Inf(1)},
		{"a NaN", append(make([]float64, 99), math.NaN()), math.NaN()},
	} {
		got := ParetoKhat(c.r)
		if !(got == c.want || math.IsNaN(got) && math.IsNaN(c.want)) {
			t.Errorf("%s: k̂ = %v, want %v", c.name, got, c.want)
		}
	}
}

// The threshold is 1 − 1/log₁₀ S, capped at 0.7 (reached at S = 10^{10/3}).
func TestParetoKThreshold(t *testing.T) {
	for _, c := range []struct {
		s    int
		want float64
	}{{100, 0.5}, {1000, 1 - 1.0/3}, {2155, 0.7}, {100000, 0.7}} {
		if got := ParetoKThreshold(c.s); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("ParetoKThreshold(%d) = %v, want %v", c.s, got, c.want)
		}
	}
}
