package experiment

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/wire"
)

// runJSON runs cfg and returns its summary as `playground run --json`
// prints it, read back.
func runJSON(t *testing.T, cfg Config) Summary {
	t.Helper()
	s, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var out Summary
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// readDraws reads a draws file: its header and its rows as numbers.
func readDraws(t *testing.T, path string) ([]string, [][]float64) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	rows := make([][]float64, len(recs)-1)
	for i, r := range recs[1:] {
		rows[i] = make([]float64, len(r))
		for j, s := range r {
			if rows[i][j], err = strconv.ParseFloat(s, 64); err != nil {
				t.Fatalf("row %d column %d: %v", i+1, j, err)
			}
		}
	}
	return recs[0], rows
}

// sameBits reports whether a and b are the same float64, NaN equal to NaN
// (a null in the JSON summary reads back as NaN).
func sameBits(a, b float64) bool {
	return a == b && math.Signbit(a) == math.Signbit(b) || math.IsNaN(a) && math.IsNaN(b)
}

// writeCSV writes x, y to a file in dir.
func writeCSV(t *testing.T, dir, name string, x, y []float64) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("x,y\n")
	for i := range x {
		fmt.Fprintf(&b, "%s,%s\n", strconv.FormatFloat(x[i], 'g', -1, 64), strconv.FormatFloat(y[i], 'g', -1, 64))
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// toyXY is 40 points of sin(x) + noise with a gap in (−0.8, 0.8).
func toyXY() (x, y []float64) {
	r := numeric.NewRand(11)
	for i := range 40 {
		xi := -3 + 2.2*float64(i%20)/19
		if i >= 20 {
			xi = -xi
		}
		x = append(x, xi)
		y = append(y, math.Sin(xi)+0.2*r.NormFloat64())
	}
	return x, y
}

// The sampler's draws file holds every kept draw of every chain: split by
// .chain, numeric.Summarize over each column reproduces the JSON summary's
// params bit for bit. On a CSV with a BNN the noise std and f_mid are in the
// file's units in both.
func TestDrawsRoundTripSampler(t *testing.T) {
	dir := t.TempDir()
	x, y := toyXY()
	for i := range y {
		x[i], y[i] = 10*x[i], 1000*y[i]+5
	}
	for _, tc := range []struct {
		name string
		cfg  func(*Config)
	}{
		{"nuts-linreg", func(c *Config) {
			c.Data, c.Method, c.Steps = "linreg", "nuts", 600
			c.Controls = sim.Controls{"chains": sim.Num(3), "warmup": sim.Num(100)}
		}},
		{"metropolis-bnn-csv", func(c *Config) {
			c.DataFile, c.Method, c.Steps = writeCSV(t, dir, "scaled.csv", x, y), "metropolis", 300
			c.Controls = sim.Controls{"chains": sim.Num(2), "warmup": sim.Num(100)}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := DefaultConfig()
			tc.cfg(&cfg)
			cfg.DrawsFile = filepath.Join(dir, tc.name+".csv")
			s := runJSON(t, cfg)
			head, rows := readDraws(t, cfg.DrawsFile)
			if strings.Join(head[:3], ",") != ".chain,.iteration,.draw" || len(head) != 3+len(s.Params) {
				t.Fatalf("header %q, want .chain, .iteration, .draw and the %d params", head, len(s.Params))
			}
			chains := int(cfg.Controls["chains"].Num)
			per := cfg.Steps - int(cfg.Controls["warmup"].Num)
			if len(rows) != chains*per {
				t.Fatalf("%d rows, want %d chains × %d kept draws", len(rows), chains, per)
			}
			for i, r := range rows {
				if r[0] != float64(i/per+1) || r[1] != float64(i%per+1) || r[2] != float64(i+1) {
					t.Fatalf("row %d: .chain, .iteration, .draw = %v, want %d, %d, %d", i, r[:3], i/per+1, i%per+1, i+1)
				}
			}
			for j, name := range head[3:] {
				draws := make([][]float64, chains)
				for _, r := range rows {
					c := int(r[0]) - 1
					draws[c] = append(draws[c], r[3+j])
				}
				got := wire.ParamSummary(numeric.Summarize(draws))
				want, ok := s.Params[name]
				if !ok {
					t.Fatalf("column %q is not in the summary's params", name)
				}
				g, w := numeric.ParamSummary(got), numeric.ParamSummary(want)
				gf := []float64{g.Mean, g.SD, g.Q05, g.Q50, g.Q95, g.ESSBulk, g.ESSTail, g.RHat}
				wf := []float64{w.Mean, w.SD, w.Q05, w.Q50, w.Q95, w.ESSBulk, w.ESSTail, w.RHat}
				for k := range gf {
					if !sameBits(gf[k], wf[k]) {
						t.Errorf("%s: summary from the file %+v, JSON summary %+v", name, g, w)
						break
					}
				}
			}
			if s.GridDiagnostics == nil || len(s.GridDiagnostics) != len(s.Grid.X) || s.GradEvals == nil || s.StepSize == nil {
				t.Errorf("sampler keys missing: grid_diagnostics %d for %d points, grad_evals %v, step_size %v", len(s.GridDiagnostics), len(s.Grid.X), s.GradEvals, s.StepSize)
			}
		})
	}
}

// A VI method's draws file holds the 500 function samples behind the
// summary's band, on the chosen grid in the file's units: summarised
// again they give the JSON grid bit for bit, and the f[x] columns name the
// grid's points exactly.
func TestDrawsRoundTripVI(t *testing.T) {
	dir := t.TempDir()
	x, y := toyXY()
	for i := range y {
		x[i], y[i] = 10*x[i], 1000*y[i]+5
	}
	cfg := DefaultConfig()
	cfg.DataFile, cfg.Method, cfg.Steps = writeCSV(t, dir, "scaled.csv", x, y), "mfvi", 200
	cfg.GridLo, cfg.GridHi, cfg.GridN = -40, 40, 9
	cfg.DrawsFile = filepath.Join(dir, "draws.csv")
	s := runJSON(t, cfg)
	if s.Grid.X[4] != 0 {
		t.Errorf("the grid -40:40:9 has %v in the middle, want 0 exactly", s.Grid.X[4])
	}
	head, rows := readDraws(t, cfg.DrawsFile)
	if len(head) != 3+len(s.Grid.X) || len(rows) != predictiveSamples {
		t.Fatalf("%d columns, %d rows; want 3 + %d grid points, %d samples", len(head), len(rows), len(s.Grid.X), predictiveSamples)
	}
	p := sim.Predictive{X: s.Grid.X}
	for i, r := range rows {
		if r[0] != 1 || r[1] != float64(i+1) || r[2] != float64(i+1) {
			t.Fatalf("row %d: .chain, .iteration, .draw = %v", i, r[:3])
		}
		p.Samples = append(p.Samples, r[3:])
	}
	for i, h := range head[3:] {
		if want := "f[" + strconv.FormatFloat(s.Grid.X[i], 'g', -1, 64) + "]"; h != want {
			t.Errorf("column %d is %q, want %q", 3+i, h, want)
		}
	}
	g := summarise(p)
	for i := range g.X {
		if !sameBits(g.Mean[i], s.Grid.Mean[i]) || !sameBits(g.Std[i], s.Grid.Std[i]) || !sameBits(g.Lo[i], s.Grid.Lo[i]) || !sameBits(g.Hi[i], s.Grid.Hi[i]) {
			t.Errorf("x=%v: from the file %v %v %v %v, summary %v %v %v %v", g.X[i], g.Mean[i], g.Std[i], g.Lo[i], g.Hi[i], s.Grid.Mean[i], s.Grid.Std[i], s.Grid.Lo[i], s.Grid.Hi[i])
		}
	}
}

// fileLogMarginal is gp-exact's log p(y) computed directly in a file's
// units: y ~ N(ȳ, c²·exp(−d²/2ℓ²) + (s_y²·ε + σ²)I) with c², ℓ, σ in the
// file's units and s_y the targets' population std (the jitter ε is added
// in model units).
func fileLogMarginal(t *testing.T, x, y []float64, c2, ell, sigma float64) float64 {
	n := len(x)
	ybar, sy := numeric.MeanStd(y)
	cov := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			d := x[i] - x[j]
			cov.SetSym(i, j, c2*math.Exp(-d*d/(2*ell*ell)))
		}
		cov.SetSym(i, i, cov.At(i, i)+sy*sy*1e-6+sigma*sigma)
	}
	var ch mat.Cholesky
	if !ch.Factorize(cov) {
		t.Fatal("covariance not positive definite")
	}
	r := mat.NewVecDense(n, nil)
	for i := range n {
		r.SetVec(i, y[i]-ybar)
	}
	var a mat.VecDense
	if err := ch.SolveVecTo(&a, r); err != nil {
		t.Fatal(err)
	}
	return -0.5*mat.Dot(r, &a) - 0.5*ch.LogDet() - float64(n)/2*math.Log(2*math.Pi)
}

// One unit system: a CSV in other units (x·10, y·1000 + 5) gives the same
// model, with the controls given in each file's units, so every bound is
// the first file's minus N·log 1000 (the log-Jacobian of y ↦ 1000y + 5),
// the noise std 1000 times as large and the band mapped. gp-exact's log
// marginal also matches a direct computation in the file's units.
func TestCSVUnits(t *testing.T) {
	dir := t.TempDir()
	x, y := toyXY()
	x2, y2 := make([]float64, len(x)), make([]float64, len(y))
	for i := range x {
		x2[i], y2[i] = 10*x[i], 1000*y[i]+5
	}
	fileA, fileB := writeCSV(t, dir, "a.csv", x, y), writeCSV(t, dir, "b.csv", x2, y2)
	jac := -float64(len(y)) * math.Log(1000)

	run := func(file, method string, steps int, c sim.Controls, lo, hi float64) Summary {
		cfg := DefaultConfig()
		cfg.DataFile, cfg.Method, cfg.Steps, cfg.Controls = file, method, steps, c
		cfg.GridLo, cfg.GridHi, cfg.GridN = lo, hi, 5
		return runJSON(t, cfg)
	}

	const c2, ell, sigma = 1.2, 0.9, 0.25
	a := run(fileA, "gp-exact", 1, sim.Controls{"variance": sim.Num(c2), "lengthscale": sim.Num(ell), "noise": sim.Num(sigma)}, -2, 2)
	b := run(fileB, "gp-exact", 1, sim.Controls{"variance": sim.Num(c2 * 1e6), "lengthscale": sim.Num(ell * 10), "noise": sim.Num(sigma * 1000)}, -20, 20)
	if a.Model != "gp" || a.Units != UnitsFile {
		t.Errorf("gp-exact on a CSV reports model %q, units %q; want gp, file", a.Model, a.Units)
	}
	if b.Controls["noise"].Num != sigma*1000 || b.Controls["lengthscale"].Num != ell*10 {
		t.Errorf("controls reported %v, want the given noise %v and lengthscale %v", b.Controls, sigma*1000, ell*10)
	}
	// Both files standardise to the same model data up to rounding
	// (~1e-16 relative); cond(K + σ²I) stays below ~1e3, so log p(y), O(100),
	// agrees to ~1e-11.
	if a.LogMarginal == nil || b.LogMarginal == nil {
		t.Fatal("gp-exact reports no log_marginal")
	}
	if d := *b.LogMarginal - *a.LogMarginal - jac; math.Abs(d) > 1e-9 {
		t.Errorf("log marginal: %v (file b) − %v (file a) = %v, want N·log(1/1000) = %v", *b.LogMarginal, *a.LogMarginal, *b.LogMarginal-*a.LogMarginal, jac)
	}
	if want := fileLogMarginal(t, x, y, c2, ell, sigma); math.Abs(*a.LogMarginal-want) > 1e-9 {
		t.Errorf("log marginal in file a's units = %v, direct computation %v", *a.LogMarginal, want)
	}
	if want := fileLogMarginal(t, x2, y2, c2*1e6, ell*10, sigma*1000); math.Abs(*b.LogMarginal-want) > 1e-9 {
		t.Errorf("log marginal in file b's units = %v, direct computation %v", *b.LogMarginal, want)
	}
	if math.Abs(*b.NoiseStd/(*a.NoiseStd)-1000) > 1e-9 {
		t.Errorf("noise std %v and %v, want a ratio of 1000", *b.NoiseStd, *a.NoiseStd)
	}
	for i := range a.Grid.X {
		if b.Grid.X[i] != 10*a.Grid.X[i] || math.Abs(b.Grid.Mean[i]-(1000*a.Grid.Mean[i]+5)) > 1e-9*1000 || math.Abs(b.Grid.Std[i]-1000*a.Grid.Std[i]) > 1e-9*1000 {
			t.Errorf("grid point %d: (%v, %v ± %v) vs (%v, %v ± %v), want x·10, mean·1000 + 5, std·1000", i, b.Grid.X[i], b.Grid.Mean[i], b.Grid.Std[i], a.Grid.X[i], a.Grid.Mean[i], a.Grid.Std[i])
		}
	}

	// Monte Carlo bounds: each mean has standard error se; treating the two
	// runs as independent (they share seeds, so their errors are in fact
	// correlated and the difference smaller), the difference of the means
	// is within 4·√(se_a² + se_b²) of the Jacobian but for a 6e-5 chance.
	for _, method := range []string{"mfvi", "gpvi"} {
		ca, cb := sim.Controls{}, sim.Controls{}
		if method == "gpvi" {
			ca = sim.Controls{"likelihood": sim.Choice("gaussian"), "noise": sim.Num(sigma), "learn_noise": sim.Num(0)}
			cb = sim.Controls{"likelihood": sim.Choice("gaussian"), "noise": sim.Num(sigma * 1000), "learn_noise": sim.Num(0)}
		}
		a := run(fileA, method, 300, ca, -2, 2)
		b := run(fileB, method, 300, cb, -20, 20)
		for _, k := range []struct {
			name           string
			ma, sa, mb, sb *float64
		}{{"elbo", a.ELBOMean, a.ELBOSE, b.ELBOMean, b.ELBOSE}, {"iwbo", a.IWBOMean, a.IWBOSE, b.IWBOMean, b.IWBOSE}} {
			if k.ma == nil || k.mb == nil {
				t.Fatalf("%s: no %s", method, k.name)
			}
			tol := 4 * math.Hypot(*k.sa, *k.sb)
			tol = max(tol, 1e-9) // gpvi's Gaussian ELBO is closed form: se = 0, rounding only
			if d := *k.mb - *k.ma - jac; math.Abs(d) > tol {
				t.Errorf("%s %s: %v (file b) − %v (file a) − N·log(1/1000) = %v, want 0 ± %v", method, k.name, *k.mb, *k.ma, d, tol)
			}
		}
	}
}

func TestGridValidation(t *testing.T) {
	base := DefaultConfig()
	base.Data, base.Method = "gap", "mfvi"
	for _, g := range [][3]float64{{-1, 1, 1}, {-1, 1, MaxGridPoints + 1}, {1, 1, 5}, {2, 1, 5}, {math.NaN(), 1, 5}, {-1, math.Inf(1), 5}, {0, 0, 3}} {
		c := base
		c.GridLo, c.GridHi, c.GridN = g[0], g[1], int(g[2])
		var fe *sim.FieldError
		if _, err := Prepare(c); !errors.As(err, &fe) || fe.Field != "grid" {
			t.Errorf("grid %v: error %v, want a FieldError on grid", g, err)
		}
	}
	c := base
	c.GridLo, c.GridHi, c.GridN = -1, 1, 3
	p, err := Prepare(c)
	if err != nil {
		t.Fatal(err)
	}
	if g := p.Dataset.Grid; len(g) != 3 || g[1] != 0 {
		t.Errorf("grid -1:1:3 = %v, want 3 points with 0 in the middle", g)
	}
}

// NoDiagnostics (the text report's setting) leaves out exactly the
// per-parameter and grid summaries: every other key of a sampler's summary
// is the full run's, bit for bit, for the same seed.
func TestNoDiagnosticsKeepsTheRest(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Data, cfg.Method, cfg.Steps = "linreg", "nuts", 300
	cfg.Controls = sim.Controls{"warmup": sim.Num(100)}
	full := runJSON(t, cfg)
	cfg.NoDiagnostics = true
	brief := runJSON(t, cfg)
	if brief.Params != nil || brief.GridDiagnostics != nil || brief.GridDiagnosticsDraws != nil || brief.ESSPerSec != nil {
		t.Errorf("NoDiagnostics: params %v, grid diagnostics %d, their draws %v, ess/s %v; want all null",
			brief.Params, len(brief.GridDiagnostics), brief.GridDiagnosticsDraws, brief.ESSPerSec)
	}
	if full.Params == nil || full.GridDiagnostics == nil {
		t.Fatal("the full summary has no params or grid diagnostics")
	}
	full.Params, full.GridDiagnostics, full.GridDiagnosticsDraws, full.ESSPerSec = nil, nil, nil, nil
	full.StepsPerSec, brief.StepsPerSec = 0, 0 // wall time
	a, _ := json.Marshal(full)
	b, _ := json.Marshal(brief)
	if string(a) != string(b) {
		t.Errorf("the rest of the summary differs:\nfull  %s\nbrief %s", a, b)
	}
}
