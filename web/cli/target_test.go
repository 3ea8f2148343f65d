package cli

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/posterior-playground/playground/sim/gallery"
	"github.com/posterior-playground/playground/sim/target"
)

// targetReport runs `playground run ARGS --json` and decodes the report.
func targetReport(t *testing.T, args ...string) gallery.Report {
	t.Helper()
	code, out, errs := runCLI(t, append(append([]string{"run"}, args...), "--json")...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errs)
	}
	var rep gallery.Report
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rep); err != nil {
		t.Fatalf("%v: stdout is not a report: %v\n%s", args, err, out)
	}
	return rep
}

// shownParams is the names a built-in target's report is keyed by.
func shownParams(t *testing.T, name string) [2]string {
	t.Helper()
	tg, err := target.New(name, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := tg.(target.Displayed); ok {
		tg = d.Shown()
	}
	return tg.Params()
}

func finite(f gallery.Float) bool { x := float64(f); return !math.IsNaN(x) && !math.IsInf(x, 0) }

// Every built-in target runs under a sampler and a family, each method
// on at least one target, and the report has one entry per coordinate,
// keyed by the target's names, with the sampler's or the family's
// fields.
func TestTargetEveryBuiltin(t *testing.T) {
	var samplers, families []string
	for _, m := range gallery.Methods() {
		if m.Sampler {
			samplers = append(samplers, m.Name)
		} else {
			families = append(families, m.Name)
		}
	}
	ran := map[string]bool{}
	for i, spec := range target.Specs() {
		for _, method := range []string{samplers[i%len(samplers)], families[i%len(families)]} {
			ran[method] = true
			args := []string{"--target", spec.Name, "--method", method, "--steps", "60", "--seed", "3"}
			if method == "nuts" {
				args = append(args, "--warmup", "20")
			}
			rep := targetReport(t, args...)
			names := shownParams(t, spec.Name)
			if rep.Target != spec.Name || rep.Method != method || rep.Steps != 60 {
				t.Errorf("%v: target %q method %q steps %d", args, rep.Target, rep.Method, rep.Steps)
			}
			keys := slices.Sorted(maps.Keys(rep.Params))
			if want := slices.Sorted(slices.Values(names[:])); !slices.Equal(keys, want) {
				t.Errorf("%v: params keyed %v, want the target's names %v", args, keys, want)
			}
			for _, name := range names {
				p := rep.Params[name]
				if !finite(p.Mean) || !finite(p.SD) || !finite(p.ExactMean) || !(p.ExactSD > 0) {
					t.Errorf("%v: %s = %+v, want finite means and sds", args, name, p)
				}
				if m, _ := gallery.LookupMethod(method); m.Sampler != (p.RHat != nil && p.ESSBulk != nil) {
					t.Errorf("%v: %s has rhat %v, ess_bulk %v; want both exactly for a sampler", args, name, p.RHat, p.ESSBulk)
				}
			}
			m, _ := gallery.LookupMethod(method)
			switch {
			case m.Sampler && rep.Divergences == nil:
				t.Errorf("%v: a sampler's report has no divergences", args)
			case !m.Sampler && method != "svgd" && (rep.KLExact == nil || rep.ParetoK == nil):
				t.Errorf("%v: a family with a density reports kl_exact %v, pareto_k %v; want both", args, rep.KLExact, rep.ParetoK)
			case (m.Sampler || method == "svgd") && rep.EnergyDistance == nil:
				t.Errorf("%v: draws or particles without an energy distance to the exact draws", args)
			}
		}
	}
	for _, m := range gallery.Methods() {
		if !ran[m.Name] {
			t.Errorf("method %s ran on no target", m.Name)
		}
	}
}

// The grid's exact moments against closed forms. The box holds all but
// about 1e-6 of the mass and the midpoint rule's own error is far below
// that (target's package doc), so a moment is off by at most about
// 1e-6 × (the box's half-width)² relative: 1e-4 is loose by an order.
func TestTargetExactMomentsAreClosedForms(t *testing.T) {
	const tol = 1e-4
	for _, tc := range []struct {
		args     []string
		mean, sd [2]float64
	}{
		// Σ = [[1, ρs], [ρs, s²]]: sds 1 and s, means 0.
		{[]string{"--target", "gaussian", "--rho", "0.6", "--scale_ratio", "2"}, [2]float64{0, 0}, [2]float64{1, 2}},
		// Two unit Gaussians at ∓d/2 with weights w, 1 − w: E x = (1 − 2w)d/2,
		// Var x = 1 + d²/4 − (E x)²; y is N(0, 1).
		{[]string{"--target", "mixture", "--separation", "4", "--weight", "0.3"}, [2]float64{0.8, 0}, [2]float64{math.Sqrt(1 + 4 - 0.64), 1}},
		// The funnel's v is N(0, 3²); x is symmetric about 0 with sd e^{9/4}.
		{[]string{"--target", "funnel"}, [2]float64{0, 0}, [2]float64{3, math.Exp(9.0 / 4)}},
	} {
		rep := targetReport(t, append(tc.args, "--method", "mfvi", "--steps", "1")...)
		names := shownParams(t, rep.Target)
		for a, name := range names {
			p := rep.Params[name]
			if d := math.Abs(float64(p.ExactMean) - tc.mean[a]); d > tol*tc.sd[a] {
				t.Errorf("%v: exact_mean of %s = %g, want %g", tc.args, name, p.ExactMean, tc.mean[a])
			}
			if d := math.Abs(float64(p.ExactSD)/tc.sd[a] - 1); d > tol {
				t.Errorf("%v: exact_sd of %s = %g, want %g", tc.args, name, p.ExactSD, tc.sd[a])
			}
		}
	}
}

// The three typed examples of the README: each parses and runs, its report
// keyed by the names the text uses. Each is a built-in target, so their
// exact answers agree: the typed banana's and mixture's own box holds all
// but about e^−10 ≈ 5e-5 of the mass (stan's package doc), at most some 6
// sds out, which moves a mean or sd by at most about 5e-5 × 6² ≈ 2e-3 of
// an sd; the built-in's box loses far less. The typed funnel's box
// resolves neither its neck nor its tails, and its grid turns to
// sinh-mapped axes that reach past both (target.NewGrid): its log Z, with
// the sampling statements' constants, is 0 to the grid's 1e-9.
func TestTargetTypedExamples(t *testing.T) {
	const tol = 5e-3
	for _, tc := range []struct {
		expr    string
		names   [2]string
		builtin []string // the same density built in
	}{
		{"v ~ normal(0, 3); x ~ normal(0, exp(v / 2));", [2]string{"v", "x"}, []string{"--target", "funnel"}},
		{"x ~ normal(0, 1); y ~ normal(x^2 - 1, 1);", [2]string{"x", "y"}, []string{"--target", "banana", "--curvature", "1"}},
		{"target += log_sum_exp(normal_lpdf(x | -3, 1), normal_lpdf(x | 3, 1)) - log(2); y ~ normal(0, 1);",
			[2]string{"x", "y"}, []string{"--target", "mixture", "--separation", "6", "--weight", "0.5"}},
	} {
		rep := targetReport(t, "--target", tc.expr, "--method", "nuts", "--warmup", "50", "--steps", "100")
		if rep.Target != "typed" || len(rep.Params) != 2 {
			t.Fatalf("%q: target %q with %d params, want typed with 2", tc.expr, rep.Target, len(rep.Params))
		}
		for _, name := range tc.names {
			if p, ok := rep.Params[name]; !ok || !finite(p.Mean) || p.RHat == nil {
				t.Errorf("%q: params[%s] = %+v, %v; want a sampler's summary", tc.expr, name, p, ok)
			}
		}
		if tc.names[0] == "v" && math.Abs(float64(rep.LogZ)) > 1e-6 {
			t.Errorf("%q: log_z %g, want 0", tc.expr, rep.LogZ)
		}
		want := targetReport(t, append(tc.builtin, "--method", "mfvi", "--steps", "1")...)
		for _, name := range tc.names {
			got, w := rep.Params[name], want.Params[name]
			if math.Abs(float64(got.ExactMean-w.ExactMean)) > tol*float64(w.ExactSD) || math.Abs(float64(got.ExactSD/w.ExactSD)-1) > tol {
				t.Errorf("%q: exact %s mean %g sd %g; the built-in's are %g and %g", tc.expr, name, got.ExactMean, got.ExactSD, w.ExactMean, w.ExactSD)
			}
		}
	}
}

// A typed density that does not parse exits 2 with one line on stderr
// that begins with the position of the character it is about.
func TestTargetParseErrorPositionFirst(t *testing.T) {
	for _, tc := range []struct{ expr, want string }{
		{"target += 2 * nromal(x); y ~ normal(0, 1);", `playground: 1:15: unknown function "nromal"; did you mean "normal_lpdf"?`},
		{"x ~ normal(0, 1);\ny ~ nromal(x, 1);", `playground: 2:5: unknown distribution "nromal"; did you mean "normal"?`},
	} {
		for _, extra := range [][]string{nil, {"--help"}} {
			args := append([]string{"run", "--target", tc.expr, "--method", "nuts"}, extra...)
			code, out, errs := runCLI(t, args...)
			if code != exitUsage || out != "" || strings.TrimSpace(errs) != tc.want {
				t.Errorf("%q %v: exit %d, stdout %q, stderr %q; want exit %d and %q", tc.expr, extra, code, out, errs, exitUsage, tc.want)
			}
		}
	}
}

// Bad input exits 2 before anything runs (nothing on stdout, no progress
// on stderr), with one line naming the flag and what is allowed.
func TestTargetBadInputNamesTheFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"--target", "gaussian", "--method", "nuts", "--rho", "1.5"}, []string{"rho", "[-0.99, 0.99]"}},
		{[]string{"--target", "gaussian", "--method", "nuts", "--rho", "abc"}, []string{"rho", "not a number"}},
		{[]string{"--target", "funnel", "--method", "hmc", "--centred", "2"}, []string{"centred", "[0, 1]"}},
		{[]string{"--target", "funnel", "--method", "hmc", "--centred", "0.5"}, []string{"centred", "whole number"}},
		{[]string{"--target", "ring", "--method", "hmc", "--step", "0"}, []string{"step", "[0.001, 5]"}},
		{[]string{"--target", "ring", "--method", "mfvi", "--divergence", "hellinger"}, []string{"divergence", "reverse_kl"}},
		{[]string{"--target", "banana", "--method", "nuts", "--rho", "0.5"}, []string{"rho", "unknown flag", "--curvature"}},
		{[]string{"--target", "banana", "--method", "nuts", "--leapfrogs", "5"}, []string{"leapfrogs", "unknown flag", "--max_depth"}},
		{[]string{"--target", "x ~ normal(0, 1); y ~ normal(0, 1);", "--method", "nuts", "--rho", "0.5"}, []string{"rho", "unknown flag"}},
		{[]string{"--target", "banana", "--method", "gip"}, []string{"method", "nuts", "svgd"}},
		{[]string{"--target", "banana"}, []string{"method", "metropolis", "flow"}},
		{[]string{"--target", "bananna", "--method", "nuts"}, []string{"target", "banana", "squiggle"}},
		{[]string{"--target", "", "--method", "nuts"}, []string{"target", "gaussian"}},
		{[]string{"--target", "banana", "--data", "gap", "--method", "nuts"}, []string{"target", "--data"}},
		{[]string{"--data-file", "x.csv", "--target", "banana", "--method", "nuts"}, []string{"target", "--data"}},
		{[]string{"--target", "banana", "--method", "nuts", "--budget-grads", "0"}, []string{"budget-grads", "[1, 1000000000]"}},
		{[]string{"--target", "banana", "--method", "nuts", "--budget-grads", "100", "--steps", "5"}, []string{"budget-grads", "--steps"}},
		{[]string{"--target", "banana", "--method", "nuts", "--steps", "-1"}, []string{"steps", "[0, 10000000]"}},
		{[]string{"--target", "banana", "--method", "nuts", "--chains", "9"}, []string{"chains", "[1, 8]"}},
		{[]string{"--target", "banana", "--method", "fullrank", "--chains", "2"}, []string{"chains", "one fit"}},
		{[]string{"--target", "banana", "--method", "nuts", "--eval-reps", "3"}, []string{"eval-reps", "unknown flag"}},
		{[]string{"--target", "x ~ normal(0, -1); y ~ normal(0, 1);", "--method", "nuts"}, []string{"1:"}},
	} {
		args := append([]string{"run"}, tc.args...)
		code, out, errs := runCLI(t, args...)
		if code != exitUsage {
			t.Errorf("%v: exit %d, want %d (stderr %q)", tc.args, code, exitUsage, errs)
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

// --budget-grads N stops every method at the first step that brings its
// evaluations to N: at least N, and less than N plus one step's worth.
// One step is a round of one transition per chain: HMC's L gradients a
// chain (and one more at a chain's start), Metropolis's one density
// evaluation a chain; a family's step spends its K draws per step (32 by
// default, the samples control).
func TestTargetBudgetGrads(t *testing.T) {
	const n = 2000
	for _, tc := range []struct {
		args []string
		step int64 // an upper bound on one step's evaluations
		grad bool  // the budget is counted in gradient evaluations
	}{
		{[]string{"--method", "hmc", "--leapfrogs", "7", "--chains", "3"}, 3 * (7 + 1), true},
		{[]string{"--method", "metropolis", "--chains", "4"}, 4 + 4, false},
		{[]string{"--method", "mfvi", "--samples", "16"}, 16, true},
		{[]string{"--method", "svgd", "--particles", "50"}, 50, true},
	} {
		rep := targetReport(t, append([]string{"--target", "banana", "--budget-grads", fmt.Sprint(n)}, tc.args...)...)
		spent, counted := rep.GradientEvals+rep.DensityEvals, rep.DensityEvals
		if tc.grad {
			counted = rep.GradientEvals
		}
		if spent < n || counted > n+tc.step || spent >= n+tc.step {
			t.Errorf("%v: spent %d gradient and %d density evaluations in %d steps; want the budget %d reached within one step (%d)",
				tc.args, rep.GradientEvals, rep.DensityEvals, rep.Steps, n, tc.step)
		}
	}
}

// The default output is a table: each coordinate in the target's order
// with its mean and sd beside the exact ones (R̂ and ESS for a sampler),
// then the measures of the method's kind.
func TestTargetTable(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"--target", "funnel", "--method", "hmc", "--steps", "50"},
			[]string{"hmc on funnel (centred=1), 4 chains, seed 1: 50 steps", "parameter  mean", "exact mean", "exact sd", "R̂", "ESS", "divergences", "acceptance", "energy distance"}},
		{[]string{"--target", "gaussian", "--rho", "0.9", "--method", "fullrank", "--steps", "50"},
			[]string{"fullrank on gaussian (rho=0.9, scale_ratio=1), one fit", "exact sd", "KL(q‖p) on the grid", "ELBO", "exact log Z", "Pareto k̂", "reliable ≤ 0.7", "error in covariance"}},
	} {
		code, out, errs := runCLI(t, append([]string{"run"}, tc.args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, errs)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: output does not mention %q:\n%s", tc.args, w, out)
			}
		}
		rows := regexp.MustCompile(`(?m)^  (v|x|y)  `).FindAllStringSubmatch(out, -1)
		var got []string
		for _, r := range rows {
			got = append(got, r[1])
		}
		want := shownParams(t, tc.args[1])
		if !slices.Equal(got, want[:]) {
			t.Errorf("%v: parameter rows %v, want %v in the target's order:\n%s", tc.args, got, want, out)
		}
	}
}

// run --help lists every target with each of its controls and every
// method with each of its; help run --target NAME (and run --target NAME
// --help) gives the target's control table and every method's, all from
// the registries.
func TestTargetHelpListsRegistries(t *testing.T) {
	var all []string
	for _, s := range target.Specs() {
		all = append(all, s.Name, s.Label)
		for _, c := range s.Controls {
			all = append(all, "--"+c.Name)
		}
	}
	for _, m := range gallery.Methods() {
		all = append(all, m.Name, m.Label)
		for _, c := range m.Controls {
			all = append(all, "--"+c.Name)
		}
	}
	code, out, errs := runCLI(t, "run", "--help")
	if code != 0 || errs != "" {
		t.Fatalf("run --help: exit %d, stderr %q", code, errs)
	}
	for _, w := range append(all, "--target NAME|'EXPR'") {
		if !strings.Contains(out, w) {
			t.Errorf("run --help does not mention %q", w)
		}
	}
	code, out, errs = runCLI(t, "help", "run", "--target", "banana")
	if code != 0 || errs != "" {
		t.Fatalf("help run --target banana: exit %d, stderr %q", code, errs)
	}
	_, again, _ := runCLI(t, "run", "--target", "banana", "--help")
	if again != out {
		t.Errorf("run --target banana --help differs from help run --target banana")
	}
	spec, _ := target.Lookup("banana")
	row := func(name, label string) *regexp.Regexp {
		return regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(name) + ` +` + regexp.QuoteMeta(label) + ` +\S`)
	}
	for _, c := range spec.Controls {
		if !row(c.Name, c.Label).MatchString(out) {
			t.Errorf("help run --target banana has no row for %s:\n%s", c.Name, out)
		}
	}
	for _, m := range gallery.Methods() {
		if !strings.Contains(out, "\n"+m.Name+": "+m.Label) {
			t.Errorf("help run --target banana does not list %s", m.Name)
		}
		for _, c := range m.Controls {
			if !row(c.Name, c.Label).MatchString(out) {
				t.Errorf("help run --target banana has no row for %s's %s", m.Name, c.Name)
			}
		}
	}
	// A method of the 2-D targets alone has its help without --target.
	if code, svgd, _ := runCLI(t, "run", "--method", "svgd", "--help"); code != 0 || !strings.Contains(svgd, "\nsvgd: ") {
		t.Errorf("run --method svgd --help: exit %d, does not list svgd:\n%s", code, svgd)
	}
	_, one, _ := runCLI(t, "help", "run", "--target", "banana", "--method", "mala")
	if !strings.Contains(one, "\nmala: ") || strings.Contains(one, "\nnuts: ") {
		t.Errorf("help run --target banana --method mala lists other methods, or not mala:\n%s", one)
	}
}

// A target's controls, a method's and the command's own flags are one
// flag set, so no name may be two of them.
func TestControlNamesAreDistinct(t *testing.T) {
	fs := targetFlags(newFlagSet("run"), newTargetRun())
	owner := map[string]string{}
	for _, s := range target.Specs() {
		for _, c := range s.Controls {
			owner[c.Name] = "target " + s.Name
		}
	}
	for _, m := range gallery.Methods() {
		for _, c := range m.Controls {
			if fs.Lookup(c.Name) != nil {
				t.Errorf("%s's control %s is also a flag of run", m.Name, c.Name)
			}
			if o, ok := owner[c.Name]; ok {
				t.Errorf("%s's control %s is also a control of %s", m.Name, c.Name, o)
			}
		}
	}
	for name, o := range owner {
		if fs.Lookup(name) != nil {
			t.Errorf("%s's control %s is also a flag of run", o, name)
		}
	}
}
