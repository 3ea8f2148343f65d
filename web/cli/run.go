package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/catalog"
	"github.com/posterior-playground/playground/sim/datasets"
	"github.com/posterior-playground/playground/sim/experiment"
	"github.com/posterior-playground/playground/sim/model"
)

// experimentFlags registers the flags run and sweep share.
func experimentFlags(fs *flag.FlagSet, cfg *experiment.Config) {
	fs.StringVar(&cfg.Data, "data", "", "built-in data set `NAME` (listed below)")
	fs.StringVar(&cfg.DataFile, "data-file", "", "CSV `FILE` with header x,y")
	fs.StringVar(&cfg.Method, "method", "", "`NAME` of the method (listed below)")
	fs.StringVar(&cfg.Model, "model", "", "`NAME` of the model (default: the data set's)")
	fs.IntVar(&cfg.Steps, "steps", cfg.Steps, "`N` training steps")
	fs.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "training `SEED`")
	fs.Int64Var(&cfg.DataSeed, "data-seed", cfg.DataSeed, "the data set's `SEED` (default: --seed)")
	fs.IntVar(&cfg.EvalReps, "eval-reps", cfg.EvalReps, "`R` ELBO evaluations and IWBO repetitions")
	fs.IntVar(&cfg.IWBOSamples, "iwbo-samples", cfg.IWBOSamples, "`K` importance samples per IWBO")
}

// controlFlags registers one flag per control of the method named in args,
// so that `--prior_scale 3` reaches the method and a typo is caught. A bad
// value's *sim.FieldError is kept in *bad, since the flag package flattens
// the errors it returns into text.
func controlFlags(fs *flag.FlagSet, args []string, cfg *experiment.Config, bad *error, preset **model.Preset) error {
	name := flagValue(args, "method")
	if name == "" {
		return &sim.FieldError{Field: "method", Message: fmt.Sprintf("give --method (allowed: %s)", strings.Join(catalog.MethodNames(), ", "))}
	}
	// The model's own controls too (the linear model's fixed_noise) when
	// --model names it.
	m, err := catalog.NewMethod(name, flagValue(args, "model"))
	if err != nil {
		return err
	}
	cfg.Controls = sim.Controls{}
	spec := flagSpec(m, args)
	if _, ok := spec.Control(model.ControlArch); ok {
		presetFlag(fs, preset, bad)
	}
	for _, c := range spec.Controls {
		fs.Func(c.Name, c.Label, func(s string) error {
			v := sim.Choice(s)
			if !c.Textual() {
				f, err := strconv.ParseFloat(s, 64)
				if err != nil {
					msg := fmt.Sprintf("%q is not a number in [%g, %g]", s, c.Min, c.Max)
					if c.Unit != "" { // the range depends on the data's units
						msg = fmt.Sprintf("%q is not a number", s)
					}
					*bad = &sim.FieldError{Field: c.Name, Message: msg}
					return *bad
				}
				v = sim.Num(f)
			}
			// experiment.Prepare checks the range, in the data's units for
			// a control measured in them (a GP's noise on a CSV).
			cfg.Controls[c.Name] = v
			return nil
		})
	}
	return nil
}

// presetFlag registers --preset NAME, which sets the arch and activation
// controls to a named network (model.Presets). It is applied after the
// other flags, so an explicit --arch or --activation wins over it.
func presetFlag(fs *flag.FlagSet, preset **model.Preset, bad *error) {
	var slugs []string
	for _, p := range model.Presets() {
		slugs = append(slugs, fmt.Sprintf("%s (%s %s)", p.Slug, p.Hidden, p.Act))
	}
	fs.Func("preset", "a named network `NAME`: "+strings.Join(slugs, ", ")+"; --arch and --activation override it", func(s string) error {
		p, err := model.PresetNamed(s)
		if err != nil {
			*bad = err
			return err
		}
		*preset = &p
		return nil
	})
}

func runOnce(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if hasFlag(args, "target") {
		return runTarget(ctx, args, stdout, stderr)
	}
	cfg := experiment.DefaultConfig()
	fs := newFlagSet("run")
	experimentFlags(fs, &cfg)
	asJSON := fs.Bool("json", false, "print one JSON object")
	fs.StringVar(&cfg.DrawsFile, "draws", "", "write the draws to CSV `FILE` (.chain, .iteration, .draw, then the parameters, or f[x] on the grid)")
	fs.Func("grid", "prediction points `a:b:n`: n evenly spaced from a to b, in the reported units", func(s string) error {
		lo, hi, n, err := parseGrid(s)
		if err != nil {
			return err
		}
		cfg.GridLo, cfg.GridHi, cfg.GridN = lo, hi, n
		return nil
	})
	fs.Int64Var(&cfg.BudgetEvals, "budget-grads", 0, fmt.Sprintf("step until `N` gradient evaluations are spent (density evaluations for metropolis), in [1, %d], instead of --steps: every method given the same N stops within one step of it", experiment.MaxBudget))
	if done, err := parseCommand("run", fs, args, &cfg, stdout); done || err != nil {
		return err
	}
	if err := checkBudget(fs, cfg.BudgetEvals); err != nil {
		return err
	}
	cfg.NoDiagnostics = !*asJSON // the text report prints no sampler diagnostics
	unit := "steps"
	if cfg.BudgetEvals > 0 {
		unit = "evaluations"
	}
	bar := newProgress(stderr, unit)
	s, err := experiment.Run(ctx, cfg, bar.update)
	bar.finish()
	if err != nil {
		return err
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(s)
	}
	printSummary(stdout, s)
	return nil
}

func sweep(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "merge" {
		return sweepMerge(args[1:], stdout)
	}
	if hasFlag(args, "target") {
		return sweepTarget(ctx, args, stdout, stderr) // target_sweep.go
	}
	cfg := experiment.DefaultConfig()
	fs := newFlagSet("sweep")
	experimentFlags(fs, &cfg)
	param := fs.String("param", "", "the numeric `CONTROL` to sweep")
	list := fs.String("values", "", "the `LIST` of values: \"1,2,5\", \"linspace:a:b:n\" or \"logspace:a:b:n\"")
	seeds := fs.Int("seeds", 1, "`K` training seeds per value")
	asJSON := fs.Bool("json", false, "print one JSON object")
	shard := fs.String("shard", "", "run only part `K/N` of the (value, seed) pairs and print that part as JSON, for `sweep merge`")
	out := fs.String("out", "", "write the part to `FILE` instead of stdout (with --shard)")
	if done, err := parseCommand("sweep", fs, args, &cfg, stdout); done || err != nil {
		return err
	}
	if *param == "" {
		return &sim.FieldError{Field: "param", Message: "give --param, the control to sweep"}
	}
	if *out != "" && *shard == "" {
		return &sim.FieldError{Field: "out", Message: "--out writes a part: give --shard K/N too"}
	}
	values, err := experiment.ParseValues(*list)
	if err != nil {
		return err
	}
	bar := newProgress(stderr, "runs")
	progress := func(done, total int, _ *experiment.SweepPoint) { bar.update(done, total) }
	if *shard != "" {
		k, n, err := experiment.ParseShard(*shard)
		if err != nil {
			return err
		}
		part, err := experiment.SweepShard(ctx, cfg, *param, values, *seeds, k, n, 0, progress)
		bar.finish()
		if err != nil {
			return err
		}
		return writeJSON(*out, stdout, part)
	}
	points, err := experiment.Sweep(ctx, cfg, *param, values, *seeds, 0, progress)
	bar.finish()
	if err != nil {
		return err
	}
	return printSweep(stdout, experiment.NewSweepHeader(cfg, *param, values, *seeds), points, *asJSON)
}

// sweepMerge is `playground sweep merge [--json] PARTS…`: it prints what the
// whole sweep would have printed.
func sweepMerge(args []string, stdout io.Writer) error {
	fs := newFlagSet("sweep merge")
	asJSON := fs.Bool("json", false, "print one JSON object")
	if wantsHelp(args) {
		fmt.Fprint(stdout, sweepMergeUsage)
		return nil
	}
	if err := parseArgs(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return &sim.FieldError{Field: "parts", Message: "give the part files to merge (written by sweep --shard K/N)"}
	}
	parts := make([]*experiment.SweepPart, 0, fs.NArg())
	for _, name := range fs.Args() {
		f, err := os.Open(name)
		if err != nil {
			return &sim.FieldError{Field: "parts", Message: err.Error()}
		}
		p, err := experiment.ReadSweepPart(f, name)
		f.Close()
		if err != nil {
			return err
		}
		parts = append(parts, p)
	}
	h, points, err := experiment.MergeSweep(parts)
	if err != nil {
		return err
	}
	return printSweep(stdout, h, points, *asJSON)
}

const sweepMergeUsage = `usage: playground sweep merge [--json] PART…

Combines the parts written by "playground sweep … --shard K/N" (one per K)
into exactly the output the whole sweep prints. Parts of different sweeps,
a missing or repeated shard are refused.
`

// printSweep prints a sweep's points as a table, or as the JSON object the
// API's clients read.
func printSweep(w io.Writer, h experiment.SweepHeader, points []experiment.SweepPoint, asJSON bool) error {
	if asJSON {
		return json.NewEncoder(w).Encode(map[string]any{
			"method": h.Method, "data": h.Data, "param": h.Param,
			"steps": h.Steps, "seed": h.Seed, "data_seed": h.DataSeed, "seeds": h.Seeds, "points": points,
		})
	}
	fmt.Fprintf(w, "%-12s %20s %20s\n", h.Param, "ELBO ± 2se", "IWBO ± 2se")
	for _, p := range points {
		fmt.Fprintf(w, "%-12.4g %11.3f ± %6.3f %11.3f ± %6.3f\n", p.Value, p.ELBOMean, 2*p.ELBOSE, p.IWBOMean, 2*p.IWBOSE)
	}
	return nil
}

// writeJSON writes v as one JSON line to the file name, or to stdout when
// name is empty.
func writeJSON(name string, stdout io.Writer, v any) error {
	if name == "" {
		return json.NewEncoder(stdout).Encode(v)
	}
	f, err := os.Create(name)
	if err != nil {
		return &sim.FieldError{Field: "out", Message: err.Error()}
	}
	if err := json.NewEncoder(f).Encode(v); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func printSummary(w io.Writer, s *experiment.Summary) {
	num := func(p *float64) string {
		if p == nil {
			return "—"
		}
		return strconv.FormatFloat(*p, 'f', 3, 64)
	}
	fmt.Fprintf(w, "%s (%s) on %s, seed %d, %d steps at %.0f steps/s, %d evaluations\n", s.Method, s.Model, s.Data, s.Seed, s.Steps, s.StepsPerSec, s.Evals)
	pm := func(m, se *float64) string {
		if m == nil {
			return "—"
		}
		return num(m) + " ± " + strconv.FormatFloat(2**se, 'f', 3, 64)
	}
	fmt.Fprintf(w, "  ELBO             %s\n  IWBO             %s\n", pm(s.ELBOMean, s.ELBOSE), pm(s.IWBOMean, s.IWBOSE))
	fmt.Fprintf(w, "  noise std        %s\n  RMSE to truth    %s\n  in-between ratio %s\n", num(s.NoiseStd), num(s.RMSETruth), num(s.InbetweenRatio))
}

// parseCommand parses a run or sweep command line: help if asked (done),
// else the method's control flags and then the rest, a bad control's error
// first.
func parseCommand(name string, fs *flag.FlagSet, args []string, cfg *experiment.Config, stdout io.Writer) (done bool, err error) {
	if wantsHelp(args) {
		return true, commandHelp(stdout, name, fs, args)
	}
	var bad error
	var preset *model.Preset
	if err := controlFlags(fs, args, cfg, &bad, &preset); err != nil {
		return false, err
	}
	if err := parse(fs, args); err != nil {
		if bad != nil {
			return false, bad
		}
		return false, err
	}
	if preset != nil {
		if _, ok := cfg.Controls[model.ControlArch]; !ok {
			cfg.Controls[model.ControlArch] = sim.Choice(preset.Hidden)
		}
		if _, ok := cfg.Controls[model.ControlActivation]; !ok {
			cfg.Controls[model.ControlActivation] = sim.Choice(preset.Act.String())
		}
	}
	return false, nil
}

// checkBudget checks --budget-grads on the data command line: in range,
// and not with --steps.
func checkBudget(fs *flag.FlagSet, budget int64) error {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case !set["budget-grads"]:
		return nil
	case set["steps"]:
		return &sim.FieldError{Field: "budget-grads", Message: "give --steps or --budget-grads, not both"}
	case budget < 1 || budget > experiment.MaxBudget:
		return &sim.FieldError{Field: "budget-grads", Message: fmt.Sprintf("%d is outside [1, %d]", budget, experiment.MaxBudget)}
	}
	return nil
}

// flagSpec is m's spec for the data set --data names when --model does not
// name a model, so that the data's default model brings its own controls
// (the network's arch and activation); a data file's default is the bnn.
func flagSpec(m sim.Method, args []string) sim.MethodSpec {
	if flagValue(args, "model") != "" {
		return m.Spec()
	}
	d := &sim.Dataset{DefaultModel: "bnn"}
	if name := flagValue(args, "data"); name != "" {
		ld, err := datasets.Load(name, 1)
		if err != nil {
			return m.Spec() // the unknown name is reported where --data is read
		}
		d = ld
	}
	return sim.SpecFor(m, d)
}
