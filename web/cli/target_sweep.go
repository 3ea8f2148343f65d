package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/experiment"
	"github.com/posterior-playground/playground/sim/gallery"
	"github.com/posterior-playground/playground/sim/sweeps"
	"github.com/posterior-playground/playground/sim/target"
)

// MaxSweepMethods bounds a target sweep's --methods.
const MaxSweepMethods = 16

// sweepTarget is `playground sweep --target NAME --param CONTROL --values
// LIST --methods M[:NAME=VALUE...],...`: each method at each value of one of
// the target's controls, run to a budget of evaluations and measured
// against that value's exact answer.
func sweepTarget(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if hasFlag(args, "data") || hasFlag(args, "data-file") || hasFlag(args, "method") {
		return &sim.FieldError{Field: "target", Message: "a target sweep takes --target and --methods; --data, --data-file and --method make a data set's sweep"}
	}
	fs := newFlagSet("sweep")
	name := fs.String("target", "", "a built-in 2-D target `NAME`")
	param := fs.String("param", "", "the target's `CONTROL` to sweep")
	list := fs.String("values", "", "the `LIST` of values: \"1,2,5\", \"linspace:a:b:n\" or \"logspace:a:b:n\"")
	methods := fs.String("methods", "", "the `LIST` of methods run at each value, each with its controls: \"mfvi,fullrank,nuts\", \"mfvi,mfvi:divergence=forward_kl\"")
	budget := fs.Int64("budget", sweeps.DefaultBudget, fmt.Sprintf("`N` evaluations per run (density plus gradient), in [1, %d]", MaxBudget))
	seeds := fs.Int("seeds", 1, "`K` seeds per method and value")
	seed := fs.Uint64("seed", experiment.DefaultConfig().Seed, "the first `SEED`; the k-th seed is SEED+k")
	asJSON := fs.Bool("json", false, "print one JSON object")
	controls := sim.Controls{}
	var bad error
	if spec, ok := target.Lookup(flagValue(args, "target")); ok {
		addControls(fs, spec.Controls, controls, &bad)
	}
	if wantsHelp(args) {
		fmt.Fprint(stdout, targetSweepUsage)
		printFlags(stdout, fs)
		return nil
	}
	if err := parse(fs, args); err != nil {
		if bad != nil {
			return bad
		}
		return err
	}
	arms, err := parseArms(*methods)
	if err != nil {
		return err
	}
	cache, err := gallery.NewCache(gallery.CacheConfig{})
	if err != nil {
		return err
	}
	req := sweeps.Request{Target: *name, Param: *param, Values: *list, Arms: arms, Budget: *budget, Seeds: *seeds, Seed: *seed, Controls: controls}
	lim := sweeps.Limits{MaxRuns: experiment.MaxSweepRuns, MaxBudget: MaxBudget, MaxArms: MaxSweepMethods}
	bar := newProgress(stderr, "runs")
	points, err := sweeps.RunTarget(ctx, req, lim, cache, 0, func(done, total int, _ *sweeps.Point) { bar.update(done, total) })
	bar.finish()
	if err != nil {
		return err
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(map[string]any{"target": *name, "param": *param, "controls": controls,
			"budget": *budget, "seeds": *seeds, "seed": *seed, "methods": arms, "points": points})
	}
	printTargetSweep(stdout, *param, points)
	return nil
}

// parseArms reads --methods: comma-separated methods, each optionally
// followed by :NAME=VALUE pairs (a number, or a choice's name).
func parseArms(s string) ([]sweeps.Arm, error) {
	if strings.TrimSpace(s) == "" {
		return nil, &sim.FieldError{Field: "methods", Message: "give --methods, e.g. mfvi,fullrank,nuts"}
	}
	var arms []sweeps.Arm
	for _, item := range strings.Split(s, ",") {
		parts := strings.Split(strings.TrimSpace(item), ":")
		a := sweeps.Arm{Method: parts[0]}
		for _, kv := range parts[1:] {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" {
				return nil, &sim.FieldError{Field: "methods", Message: fmt.Sprintf("%q in %q is not NAME=VALUE", kv, item)}
			}
			if a.Controls == nil {
				a.Controls = sim.Controls{}
			}
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				a.Controls[k] = sim.Num(f)
			} else {
				a.Controls[k] = sim.Choice(v)
			}
		}
		arms = append(arms, a)
	}
	return arms, nil
}

// printTargetSweep prints a row per value and method: each coordinate's
// sd ratio, and KL on the grid or the energy distance.
func printTargetSweep(w io.Writer, param string, points []sweeps.Point) {
	f := func(p *gallery.Float) string {
		if p == nil {
			return "—"
		}
		return strconv.FormatFloat(float64(*p), 'f', 4, 64)
	}
	fmt.Fprintf(w, "%-10s %-28s %-22s %10s %10s\n", param, "method", "sd ÷ exact sd", "KL(q‖p)", "energy d")
	for _, p := range points {
		for _, a := range p.Arms {
			var ratios []string
			for _, pp := range a.Params {
				ratios = append(ratios, fmt.Sprintf("%s %.4f", pp.Name, float64(pp.SDRatio)))
			}
			label := a.Method
			for _, k := range slices.Sorted(maps.Keys(a.Controls)) {
				label += fmt.Sprintf(":%s=%s", k, a.Controls[k])
			}
			fmt.Fprintf(w, "%-10.4g %-28s %-22s %10s %10s\n", p.Value, label, strings.Join(ratios, ", "), f(a.KL), f(a.Distance))
		}
	}
}

const targetSweepUsage = `usage: playground sweep --target NAME --param CONTROL --values LIST --methods LIST [--budget N] [--seeds K] [--<target control> VALUE ...] [--json]
Runs each method at each value of one of a 2-D target's controls, to the same budget of evaluations,
and prints per value and method each coordinate's sd over the exact sd (from the grid), KL(q‖p) on the
grid for a variational fit and the energy distance to the exact answer's draws.
A method's controls follow it: --methods "mfvi,mfvi:divergence=forward_kl,nuts:max_depth=8".

flags:
`
