package datasets

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/posterior-playground/playground/sim"
)

// Limits on a user's CSV file.
const (
	MaxCSVRows  = 10_000  // data rows, not counting the header
	MaxCSVBytes = 1 << 20 // 1 MiB
)

// csvField is the field name CSV errors carry (the CLI flag --data-file).
const csvField = "data-file"

func csvErr(format string, args ...any) error {
	return &sim.FieldError{Field: csvField, Message: fmt.Sprintf(format, args...)}
}

// LoadCSVFile reads a CSV file as LoadCSV does, naming the data set after the
// file.
func LoadCSVFile(path string) (*sim.Dataset, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, csvErr("%v", err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > MaxCSVBytes {
		return nil, csvErr("%s is %d bytes; the limit is %d bytes (1 MiB)", filepath.Base(path), st.Size(), MaxCSVBytes)
	}
	return LoadCSV(f, filepath.Base(path))
}

// LoadCSV reads a regression data set from CSV with a header row naming the
// columns x and y (in any order; other columns are ignored). Rows are
// numbered as in the file, the header being row 1. Cells hold numbers in
// decimal or exponent notation (see decimal). It rejects files over
// MaxCSVBytes or MaxCSVRows, non-numeric, NaN or infinite cells, fewer than
// two rows and inputs that are all equal, with a *sim.FieldError for the
// field "data-file".
//
// x and y are standardised (mean 0, population std 1; a constant y is only
// centred); XScale and YScale map back to the file's units. Truth is nil.
func LoadCSV(r io.Reader, name string) (*sim.Dataset, error) {
	raw, err := io.ReadAll(io.LimitReader(r, MaxCSVBytes+1))
	if err != nil {
		return nil, csvErr("reading %s: %v", name, err)
	}
	if len(raw) > MaxCSVBytes {
		return nil, csvErr("%s is larger than the limit of %d bytes (1 MiB)", name, MaxCSVBytes)
	}
	xu, yu, err := parseXY(bytes.TrimPrefix(raw, []byte("\uFEFF"))) // spreadsheets write a BOM
	if err != nil {
		return nil, err
	}
	return fromUserXY(name, xu, yu)
}

// parseXY reads the columns x and y from CSV text.
func parseXY(raw []byte) (xs, ys []float64, err error) {
	cr := csv.NewReader(bytes.NewReader(raw))
	cr.FieldsPerRecord = -1 // checked below, with a clearer message
	cr.TrimLeadingSpace = true
	cr.ReuseRecord = true

	header, err := cr.Read()
	if err == io.EOF {
		return nil, nil, csvErr("the file is empty; want a header row with columns x and y")
	}
	if err != nil {
		return nil, nil, malformed(err)
	}
	nCols := len(header)
	col := map[string]int{"x": -1, "y": -1}
	for i, h := range header {
		h = strings.TrimSpace(h)
		if j, ok := col[h]; ok {
			if j >= 0 {
				return nil, nil, csvErr("row 1: column %q appears twice in the header", h)
			}
			col[h] = i
		}
	}
	for _, c := range []string{"x", "y"} {
		if col[c] < 0 {
			return nil, nil, csvErr("row 1: the header has no column %q (want columns x and y; got %s)", c, quoteAll(header))
		}
	}

	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, malformed(err)
		}
		row, _ := cr.FieldPos(0)
		if len(xs) == MaxCSVRows {
			return nil, nil, csvErr("row %d: more than %d data rows (the limit)", row, MaxCSVRows)
		}
		if len(rec) != nCols {
			return nil, nil, csvErr("row %d: %d fields, but the header has %d", row, len(rec), nCols)
		}
		var v [2]float64
		for k, c := range []string{"x", "y"} {
			if v[k], err = parseCell(rec[col[c]], row, c); err != nil {
				return nil, nil, err
			}
		}
		xs, ys = append(xs, v[0]), append(ys, v[1])
	}
	if len(xs) < 2 {
		return nil, nil, csvErr("need at least 2 data rows, got %d", len(xs))
	}
	return xs, ys, nil
}

// parseCell reads one finite number in ordinary notation (see decimal).
func parseCell(s string, row int, col string) (float64, error) {
	s = strings.TrimSpace(s)
	switch strings.ToLower(strings.TrimLeft(s, "+-")) {
	case "nan":
		return 0, csvErr("row %d, column %s: NaN is not allowed; want a finite number", row, col)
	case "inf", "infinity":
		return 0, csvErr("row %d, column %s: %q is infinite; want a finite number", row, col, s)
	}
	if !decimal(s) {
		return 0, csvErr("row %d, column %s: %q is not a number; want decimal or exponent notation such as -1.5, .25 or 2.5e-3", row, col, s)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) { // underflow to 0 is fine
		return 0, csvErr("row %d, column %s: %q is not a number", row, col, s)
	}
	if math.IsInf(v, 0) {
		return 0, csvErr("row %d, column %s: %q is too large for a float64", row, col, s)
	}
	return v, nil
}

// decimal reports whether s is a number as people and spreadsheets write
// one: an optional sign, digits with an optional decimal point (1, 1.5, 1.
// or .5), and an optional exponent (e or E, an optional sign, digits).
// strconv.ParseFloat takes more, which a data file should not mean: digit
// separators (1_000), hexadecimal (0x10, 0x1p-2), Inf and NaN. A leading
// '+' is allowed: some programs write it, and it cannot mean anything else.
func decimal(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i, n = i+1, n+1
		}
		return n
	}
	mantissa := digits()
	if i < len(s) && s[i] == '.' {
		i++
		mantissa += digits()
	}
	if mantissa == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

func malformed(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return csvErr("row %d, column %d: malformed CSV: %v", pe.Line, pe.Column, pe.Err)
	}
	return csvErr("malformed CSV: %v", err)
}

func quoteAll(h []string) string {
	q := make([]string, len(h))
	for i, s := range h {
		q[i] = strconv.Quote(strings.TrimSpace(s))
	}
	return strings.Join(q, ", ")
}

// fromUserXY standardises user data and fills in the grid and the gap.
func fromUserXY(name string, xu, yu []float64) (*sim.Dataset, error) {
	lo, hi := span(xu)
	if lo == hi {
		return nil, csvErr("all %d x values equal %g; x must vary", len(xu), lo)
	}
	x, xs := standardise(xu)
	y, ys := standardise(yu)
	if xs.Std == 0 || ys.Std == 0 { // subnormal spreads underflow
		return nil, csvErr("the values vary too little to standardise in float64")
	}
	for i := range x { // a guard: standardise keeps finite data finite
		if math.IsInf(x[i], 0) || math.IsNaN(x[i]) || math.IsInf(y[i], 0) || math.IsNaN(y[i]) {
			return nil, csvErr("the values of x and y cannot be standardised in float64")
		}
	}
	mlo, mhi := span(x)
	w := mhi - mlo
	centre, hasGap := widestGap(x)
	if !hasGap {
		centre = 0
	}
	return &sim.Dataset{
		Name: name, Label: name, Task: sim.Regression,
		X: x, Y: y,
		Grid:   linspace(mlo-w/4, mhi+w/4, GridPoints),
		HasGap: hasGap, GapCentre: centre,
		XScale: xs, YScale: ys,
		DefaultModel: "bnn",
		FromFile:     true,
	}, nil
}
