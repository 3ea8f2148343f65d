package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/catalog"
	"github.com/posterior-playground/playground/sim/datasets"
)

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestRunJSONHasEveryKey(t *testing.T) {
	code, out, errs := runCLI(t, "run", "--data", "gap", "--method", "mfvi", "--steps", "200",
		"--eval-reps", "3", "--iwbo-samples", "20", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got map[string]any
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, out)
	}
	if dec.More() {
		t.Fatalf("stdout holds more than one JSON value")
	}
	for _, k := range []string{"method", "data", "seed", "steps", "elbo_mean", "elbo_se", "iwbo_mean", "iwbo_se",
		"steps_per_sec", "noise_std", "rmse_truth", "inbetween_ratio", "grid"} {
		if _, ok := got[k]; !ok {
			t.Errorf("missing key %q", k)
		}
	}
	grid, _ := got["grid"].(map[string]any)
	for _, k := range []string{"x", "mean", "std", "lo", "hi"} {
		if v, _ := grid[k].([]any); len(v) != datasets.GridPoints {
			t.Errorf("grid.%s has %d points, want %d", k, len(v), datasets.GridPoints)
		}
	}
	if got["inbetween_ratio"] == nil {
		t.Errorf("gap has a gap, so inbetween_ratio must not be null")
	}
}

// runSummary runs `playground run ARGS --json` and decodes its summary.
func runSummary(t *testing.T, args ...string) map[string]any {
	t.Helper()
	code, out, errs := runCLI(t, append(append([]string{"run"}, args...), "--json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	return got
}

// livi's implicit q has no density: the summary carries its linearised ELBO
// estimate but no importance-weighted bound.
func TestRunLIVIHasELBOButNoIWBO(t *testing.T) {
	got := runSummary(t, "--data", "linreg", "--method", "livi", "--model", "linear", "--steps", "50", "--eval-reps", "3")
	if _, ok := got["elbo_mean"].(float64); !ok {
		t.Errorf("elbo_mean = %v, want a number", got["elbo_mean"])
	}
	if got["iwbo_mean"] != nil {
		t.Errorf("iwbo_mean = %v, want null", got["iwbo_mean"])
	}
}

func TestRunNullInbetweenWithoutGap(t *testing.T) {
	got := runSummary(t, "--data", "linreg", "--method", "mfvi", "--steps", "100", "--eval-reps", "2", "--iwbo-samples", "10")
	if v, ok := got["inbetween_ratio"]; !ok || v != nil {
		t.Errorf("inbetween_ratio = %v, want null for linreg", v)
	}
	if got["model"] != "linear" {
		t.Errorf("model = %v, want linreg's default, linear", got["model"])
	}
}

// Bad input exits 2 with one line that names the field and what is allowed.
func TestBadInputNamesTheField(t *testing.T) {
	dir := t.TempDir()
	badCSV := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(badCSV, []byte("x,y\n1,2\n3,abc\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	noY := filepath.Join(dir, "noy.csv")
	if err := os.WriteFile(noY, []byte("x,z\n1,2\n3,4\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want []string // substrings of the one line on stderr
	}{
		{[]string{"run", "--data", "gap", "--method", "nope"}, []string{"method", "mfvi"}},
		{[]string{"run", "--data", "nope", "--method", "mfvi"}, []string{"data", "gap", "linreg"}},
		{[]string{"run", "--data", "gap", "--method", "mfvi", "--prior_scale", "99"}, []string{"prior_scale", "[0.1, 10]"}},
		{[]string{"run", "--data", "gap", "--method", "mfvi", "--lr", "abc"}, []string{"lr", "not a number"}},
		{[]string{"run", "--data", "gap", "--method", "mfvi", "--bogus", "1"}, []string{"bogus", "--prior_scale"}},
		{[]string{"run", "--data", "gap", "--method", "mfvi", "--model", "cnn"}, []string{"model", "bnn", "linear"}},
		{[]string{"run", "--data", "gap", "--method", "mfvi", "--steps", "abc"}, []string{"steps"}},
		{[]string{"run", "--data", "gap", "--method", "mfvi", "--grid", "1:0:5"}, []string{"grid", "a < b"}},
		{[]string{"run", "--data", "gap", "--method", "mfvi", "--grid", "-1:1:5000"}, []string{"grid", "[2, 2001]"}},
		{[]string{"run", "--data", "gap", "--method", "mfvi", "--grid", "-1:1"}, []string{"grid", "a:b:n"}},
		{[]string{"run", "--method", "mfvi"}, []string{"data"}},
		{[]string{"run", "--data", "gap"}, []string{"method"}},
		{[]string{"run", "--data-file", badCSV, "--method", "mfvi"}, []string{"data-file", "row 3", "column y"}},
		{[]string{"run", "--data-file", noY, "--method", "mfvi"}, []string{"data-file", "y"}},
		{[]string{"sweep", "--data", "gap", "--method", "mfvi", "--param", "prior_scale", "--values", "logspace:0:1:3"}, []string{"values"}},
		{[]string{"sweep", "--data", "gap", "--method", "mfvi", "--param", "prior_scale", "--values", "0.01"}, []string{"prior_scale", "[0.1, 10]"}},
		{[]string{"frobnicate"}, []string{"command", "serve, run, sweep"}},
		{[]string{"help", "frobnicate"}, []string{"command", "serve, run, sweep"}},
		{[]string{"run", "--method", "nope", "--help"}, []string{"method", "mfvi"}},
		{[]string{"help", "run", "--method", "nope"}, []string{"method", "mfvi"}},
		{[]string{"run", "--method", "gip", "--model", "cnn", "--help"}, []string{"model", "bnn", "linear"}},
		{[]string{"run", "--data", "gap", "--method", "mfvi", "--preset", "huge"}, []string{"preset", "gip-notebook", "livi-paper-toy", "small"}},
		{[]string{"run", "--data", "linreg", "--method", "mfvi", "--preset", "small"}, []string{"preset", "unknown flag"}},
	} {
		code, out, errs := runCLI(t, tc.args...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", tc.args, code, errs)
		}
		if out != "" {
			t.Errorf("%v: stdout %q, want nothing", tc.args, out)
		}
		if n := strings.Count(strings.TrimSpace(errs), "\n"); n != 0 {
			t.Errorf("%v: stderr has %d lines, want one: %q", tc.args, n+1, errs)
		}
		for _, w := range tc.want {
			if !strings.Contains(errs, w) {
				t.Errorf("%v: stderr %q does not mention %q", tc.args, errs, w)
			}
		}
	}
}

func TestSweepJSON(t *testing.T) {
	code, out, errs := runCLI(t, "sweep", "--data", "gap", "--method", "mfvi", "--param", "prior_scale",
		"--values", "0.5,2", "--steps", "100", "--eval-reps", "2", "--iwbo-samples", "10", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got struct {
		DataSeed *uint64              `json:"data_seed"`
		Points   []map[string]float64 `json:"points"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.DataSeed == nil || *got.DataSeed != 1 { // no --data-seed: the training seed, 1 by default
		t.Errorf("data_seed = %v, want 1, the seed the data set was drawn with", got.DataSeed)
	}
	if len(got.Points) != 2 || got.Points[0]["value"] != 0.5 || got.Points[1]["value"] != 2 {
		t.Fatalf("points = %v, want values 0.5 and 2 in order", got.Points)
	}
	for _, p := range got.Points {
		for _, k := range []string{"elbo_mean", "elbo_se", "iwbo_mean", "iwbo_se"} {
			if _, ok := p[k]; !ok {
				t.Errorf("point %v lacks %s", p, k)
			}
		}
	}
}

// Every way of asking for help prints it on stdout, nothing on stderr, and
// exits 0.
func TestHelpForms(t *testing.T) {
	var methods, data []string
	specs, err := catalog.Specs()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range specs {
		methods = append(methods, s.Name, s.Label)
	}
	for _, d := range datasets.Infos() {
		data = append(data, d.Name, d.Label)
	}
	top := []string{"playground run", "playground sweep", "playground help", "--method NAME --help"}
	runHelp := append([]string{"playground run", "--steps N", "--data NAME", "--json"}, append(methods, data...)...)
	sweepHelp := append([]string{"playground sweep", "--param CONTROL", "--values LIST", "--seeds K"}, methods...)
	serveHelp := []string{"playground [serve]", "--addr ADDR", "--allow-origin URL"}
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"--help"}, top},
		{[]string{"-h"}, top},
		{[]string{"help"}, top},
		{[]string{"help", "--help"}, top},
		{[]string{"help", "run"}, runHelp},
		{[]string{"run", "--help"}, runHelp},
		{[]string{"run", "-h", "--data", "gap"}, runHelp},
		{[]string{"help", "sweep"}, sweepHelp},
		{[]string{"sweep", "--help"}, sweepHelp},
		{[]string{"help", "serve"}, serveHelp},
		{[]string{"serve", "--help"}, serveHelp},
	} {
		code, out, errs := runCLI(t, tc.args...)
		if code != 0 || errs != "" {
			t.Errorf("%v: exit %d, stderr %q; want 0 and nothing", tc.args, code, errs)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: stdout does not mention %q:\n%s", tc.args, w, out)
			}
		}
	}
}

// cells splits a row of a tabwriter table (padding 2, so at least two
// spaces between cells; no cell holds two spaces in a row).
var cells = regexp.MustCompile(`\s{2,}`)

// `run --method M --help` lists every control of M's spec, one row each with
// its range or options, default, type and whether it acts live, and M's
// models. The expected rows are built from the catalog's spec, so a control
// added there is checked here too.
func TestHelpListsMethodControls(t *testing.T) {
	specs, err := catalog.Specs()
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range specs {
		code, out, errs := runCLI(t, "run", "--method", spec.Name, "--help")
		if code != 0 || errs != "" {
			t.Fatalf("%s: exit %d, stderr %q", spec.Name, code, errs)
		}
		rows := map[string][]string{}
		for _, line := range strings.Split(out, "\n") {
			c := cells.Split(strings.TrimSpace(line), -1)
			if len(c) == 6 {
				rows[c[0]] = c
			}
		}
		for _, c := range spec.Controls {
			rng := fmt.Sprintf("[%g, %g]", c.Min, c.Max)
			if len(c.Options) > 0 {
				rng = "one of " + strings.Join(c.Options, "|")
			}
			if c.List > 0 {
				rng = fmt.Sprintf("≤ %d of [%g, %g], comma-separated", c.List, c.Min, c.Max)
			}
			acts := "on restart"
			if c.Live {
				acts = "live"
			}
			typ := map[[3]bool]string{ // choice, integer, log
				{true, false, false}: "choice", {false, false, false}: "real", {false, false, true}: "real, log",
				{false, true, false}: "integer", {false, true, true}: "integer, log",
			}[[3]bool{len(c.Options) > 0, c.Integer, c.Log}]
			if c.List > 0 {
				typ = "list"
			}
			want := []string{c.Name, c.Label, rng, c.Default.String(), typ, acts}
			if got := rows[c.Name]; strings.Join(got, "\t") != strings.Join(want, "\t") {
				t.Errorf("%s: row %q, want %q", spec.Name, got, want)
			}
		}
		if len(spec.Models) > 0 && !strings.Contains(out, "models: "+spec.Models[0]+" (default)") {
			t.Errorf("%s: the default model %s is not listed:\n%s", spec.Name, spec.Models[0], out)
		}
	}
}

// The gip listing, spelled out: the inducing-point count is an integer in
// [1, max], 100 by default, and acts live; `help run --method gip` prints
// the same.
func TestHelpGIP(t *testing.T) {
	code, out, errs := runCLI(t, "run", "--method", "gip", "--help")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	m, err := catalog.NewMethod("gip", "")
	if err != nil {
		t.Fatal(err)
	}
	c, ok := m.Spec().Control("inducing")
	if !ok || !c.Live || !c.Integer || c.Min != 1 || c.Default != sim.Num(100) {
		t.Fatalf("gip's inducing control is %+v; this test expects a live integer from 1, 100 by default", c)
	}
	row := regexp.MustCompile(fmt.Sprintf(`(?m)^  inducing +Inducing points +\[1, %g\] +100 +integer +live$`, c.Max))
	if !row.MatchString(out) {
		t.Errorf("no inducing row matching %s in:\n%s", row, out)
	}
	if !strings.Contains(out, "models: bnn (default), linear") {
		t.Errorf("gip's models are not listed:\n%s", out)
	}
	_, viaHelp, _ := runCLI(t, "help", "run", "--method", "gip")
	if viaHelp != out {
		t.Errorf("help run --method gip prints\n%s\nwhich differs from run --method gip --help", viaHelp)
	}
}

// A CSV in large units: gp-exact takes its noise in the file's units (300
// would be outside the model-unit range [0.001, 10]), reports model gp,
// file units and a log marginal, and writes f on the chosen grid.
func TestRunDrawsGridFileUnits(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("x,y\n")
	for i := range 30 {
		x := -15 + float64(i)
		fmt.Fprintf(&b, "%g,%g\n", x, 1000*float64(i%7)+5)
	}
	data, draws := filepath.Join(dir, "big.csv"), filepath.Join(dir, "draws.csv")
	if err := os.WriteFile(data, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	got := runSummary(t, "--data-file", data, "--method", "gp-exact", "--steps", "1", "--noise", "300", "--grid", "-20:20:5", "--draws", draws)
	if got["model"] != "gp" || got["units"] != "file" {
		t.Errorf("model, units = %v, %v; want gp, file", got["model"], got["units"])
	}
	if _, ok := got["log_marginal"].(float64); !ok {
		t.Errorf("log_marginal = %v, want a number", got["log_marginal"])
	}
	if c := got["controls"].(map[string]any); c["noise"] != 300.0 {
		t.Errorf("controls.noise = %v, want 300 as given", c["noise"])
	}
	raw, err := os.ReadFile(draws)
	if err != nil {
		t.Fatal(err)
	}
	head, _, _ := strings.Cut(string(raw), "\n")
	if head != ".chain,.iteration,.draw,f[-20],f[-10],f[0],f[10],f[20]" {
		t.Errorf("draws header %q", head)
	}
	if rows := strings.Count(string(raw), "\n"); rows != 501 {
		t.Errorf("draws file has %d lines, want a header and 500 draws", rows)
	}
}

// `sweep --shard K/N` for every K and then `sweep merge` print exactly what
// the whole sweep prints, as a table and as JSON: the batch-engine route
// web/deploy/README.md describes.
func TestSweepShardMergeIsByteForByte(t *testing.T) {
	dir := t.TempDir()
	sweepArgs := []string{"sweep", "--data", "gap", "--method", "mfvi", "--param", "prior_scale",
		"--values", "0.5,1,2", "--seeds", "2", "--steps", "40", "--eval-reps", "2", "--iwbo-samples", "8"}
	const n = 4
	var parts []string
	for k := 1; k <= n; k++ {
		name := filepath.Join(dir, fmt.Sprintf("part-%d.json", k))
		if code, _, errs := runCLI(t, append(sweepArgs, "--shard", fmt.Sprintf("%d/%d", k, n), "--out", name)...); code != 0 {
			t.Fatalf("shard %d/%d: exit %d: %s", k, n, code, errs)
		}
		parts = append(parts, name)
	}
	for _, asJSON := range [][]string{nil, {"--json"}} {
		code, whole, errs := runCLI(t, append(sweepArgs, asJSON...)...)
		if code != 0 {
			t.Fatalf("whole sweep: exit %d: %s", code, errs)
		}
		code, merged, errs := runCLI(t, append(append([]string{"sweep", "merge"}, asJSON...), parts...)...)
		if code != 0 {
			t.Fatalf("merge: exit %d: %s", code, errs)
		}
		if merged != whole {
			t.Errorf("merge %v printed\n%s\nthe whole sweep printed\n%s", asJSON, merged, whole)
		}
	}
	code, _, errs := runCLI(t, append([]string{"sweep", "merge"}, parts[:n-1]...)...)
	if code != exitUsage || !strings.Contains(errs, "missing shards: 4/4") {
		t.Errorf("merge without the last part: exit %d, stderr %q; want exit %d naming the missing shard", code, errs, exitUsage)
	}
	code, _, errs = runCLI(t, append(sweepArgs, "--shard", "5/4")...)
	if code != exitUsage || !strings.Contains(errs, "shard") {
		t.Errorf("--shard 5/4: exit %d, stderr %q; want exit %d naming shard", code, errs, exitUsage)
	}
}

// --preset sets the arch and activation controls to a named network; an
// explicit --arch or --activation wins, in either order.
func TestRunPreset(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		arch, fn string
	}{
		{[]string{"--preset", "livi-paper-toy"}, "7,10", "elu"},
		{[]string{"--preset", "LIVI paper toy"}, "7,10", "elu"},
		{[]string{"--preset", "small"}, "20", "relu"},
		{[]string{"--arch", "5", "--preset", "small"}, "5", "relu"},
		{[]string{"--preset", "gip-notebook", "--activation", "tanh"}, "50,50", "tanh"},
	} {
		args := append([]string{"--data", "gap", "--method", "mfvi", "--steps", "2", "--eval-reps", "1"}, tc.args...)
		got := runSummary(t, args...)
		c, _ := got["controls"].(map[string]any)
		if c["arch"] != tc.arch || c["activation"] != tc.fn {
			t.Errorf("%v: controls arch %v activation %v, want %s %s", tc.args, c["arch"], c["activation"], tc.arch, tc.fn)
		}
	}
}
