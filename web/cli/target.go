package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/experiment"
	"github.com/posterior-playground/playground/sim/gallery"
	"github.com/posterior-playground/playground/sim/target"
	"github.com/posterior-playground/playground/sim/target/stan"
)

// MaxBudget bounds --budget-grads: a billion evaluations is minutes of
// NUTS on a built-in target, far past any gallery comparison.
const MaxBudget = 1_000_000_000

// targetRun is a `run --target` command line, parsed.
type targetRun struct {
	target   string // a built-in target's name or a density in Stan notation
	builtin  bool
	cfg      gallery.RunConfig
	steps    int
	budget   int64
	byBudget bool // --budget-grads given: step to it rather than --steps
	asJSON   bool
}

// targetFlags registers the flags of `run --target` on fs, filling tr.
func targetFlags(fs *flag.FlagSet, tr *targetRun) *flag.FlagSet {
	fs.StringVar(&tr.target, "target", "", "a built-in 2-D target `NAME` (listed below), or a log density over two parameters in Stan notation, e.g. 'v ~ normal(0, 3); x ~ normal(0, exp(v / 2));'")
	fs.StringVar(&tr.cfg.Method, "method", "", "`NAME` of the sampler or variational family (listed below)")
	fs.IntVar(&tr.steps, "steps", tr.steps, "`N` steps: rounds of one transition per chain, or optimiser steps")
	fs.Int64Var(&tr.budget, "budget-grads", 0, fmt.Sprintf("step until `N` evaluations are spent, in [1, %d]: gradient evaluations (density evaluations for metropolis and a forward-KL fit), instead of --steps", MaxBudget))
	fs.Uint64Var(&tr.cfg.Seed, "seed", tr.cfg.Seed, "`SEED` of every random stream")
	fs.IntVar(&tr.cfg.Chains, "chains", 0, fmt.Sprintf("a sampler's `K` chains, in [1, %d] (default %d); a family is one fit", gallery.MaxChains, gallery.DefaultChains))
	fs.BoolVar(&tr.asJSON, "json", false, "print one JSON object: the gallery's report")
	return fs
}

// newTargetRun returns the defaults: the 1-D run's steps and seed.
func newTargetRun() *targetRun {
	d := experiment.DefaultConfig()
	return &targetRun{steps: d.Steps, cfg: gallery.RunConfig{Seed: d.Seed}}
}

// runTarget is `playground run --target NAME|EXPR --method M ...`: one
// gallery method on a 2-D target, reported against the exact answer.
func runTarget(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if hasFlag(args, "data") || hasFlag(args, "data-file") {
		return &sim.FieldError{Field: "target", Message: "--target runs a 2-D target and --data or --data-file a 1-D data set: give one of them"}
	}
	if wantsHelp(args) {
		return targetHelp(stdout, args)
	}
	tr := newTargetRun()
	fs := targetFlags(newFlagSet("run"), tr)
	var bad error
	if err := tr.controlFlags(fs, args, &bad); err != nil {
		return err
	}
	if err := parse(fs, args); err != nil {
		if bad != nil {
			return bad
		}
		return err
	}
	if err := tr.check(fs); err != nil {
		return err
	}
	r, err := tr.newRun(ctx)
	if err != nil {
		return err
	}
	unit := "steps"
	if tr.byBudget {
		unit = "evaluations"
	}
	bar := newProgress(stderr, unit)
	err = tr.step(ctx, r, bar)
	bar.finish()
	if err != nil {
		return err
	}
	rep := r.Report()
	if tr.asJSON {
		return json.NewEncoder(stdout).Encode(rep)
	}
	printReport(stdout, rep, r.Spec(), r.Exact().Shown.Params)
	return nil
}

// controlFlags registers a flag per control of the built-in target and of
// the method that args name, each checked against its spec as it is read;
// a bad value's *sim.FieldError is kept in *bad, since the flag package
// flattens the errors it returns into text. The method must be named and
// known, so that its controls are flags before the rest is parsed.
func (tr *targetRun) controlFlags(fs *flag.FlagSet, args []string, bad *error) error {
	name := flagValue(args, "target")
	if name == "" {
		return &sim.FieldError{Field: "target", Message: fmt.Sprintf("give a built-in target (%s) or a log density in Stan notation", strings.Join(targetNames(), ", "))}
	}
	m, err := galleryMethod(flagValue(args, "method"))
	if err != nil {
		return err
	}
	tr.cfg.MethodControls = sim.Controls{}
	addControls(fs, m.Controls, tr.cfg.MethodControls, bad)
	if spec, ok := target.Lookup(name); ok {
		tr.builtin = true
		tr.cfg.TargetControls = sim.Controls{}
		addControls(fs, spec.Controls, tr.cfg.TargetControls, bad)
	}
	return nil
}

// addControls registers one flag per control, which checks the value
// against the control's spec and stores it in into.
func addControls(fs *flag.FlagSet, specs []sim.ControlSpec, into sim.Controls, bad *error) {
	for _, c := range specs {
		if fs.Lookup(c.Name) != nil {
			continue // a name taken twice; TestControlNamesAreDistinct keeps the registries apart
		}
		fs.Func(c.Name, c.Label, func(s string) error {
			v := sim.Choice(s)
			if !c.Textual() {
				f, err := strconv.ParseFloat(s, 64)
				if err != nil {
					*bad = &sim.FieldError{Field: c.Name, Message: fmt.Sprintf("%q is not a number in [%g, %g]", s, c.Min, c.Max)}
					return *bad
				}
				v = sim.Num(f)
			}
			if err := c.Validate(v); err != nil {
				*bad = err
				return err
			}
			into[c.Name] = v
			return nil
		})
	}
}

// galleryMethod returns the named gallery method's spec, or a field error
// listing them.
func galleryMethod(name string) (gallery.MethodSpec, error) {
	m, ok := gallery.LookupMethod(name)
	if ok {
		return m, nil
	}
	var names []string
	for _, m := range gallery.Methods() {
		names = append(names, m.Name)
	}
	msg := fmt.Sprintf("give --method (allowed on a target: %s)", strings.Join(names, ", "))
	if name != "" {
		msg = fmt.Sprintf("%q is not a method for a target (allowed: %s)", name, strings.Join(names, ", "))
	}
	return m, &sim.FieldError{Field: "method", Message: msg}
}

func targetNames() []string {
	var names []string
	for _, s := range target.Specs() {
		names = append(names, s.Name)
	}
	return names
}

// check checks the flags that no registry checks: the steps, the budget,
// and that not both were given.
func (tr *targetRun) check(fs *flag.FlagSet) error {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	tr.byBudget = set["budget-grads"]
	switch {
	case tr.byBudget && set["steps"]:
		return &sim.FieldError{Field: "budget-grads", Message: "give --steps or --budget-grads, not both"}
	case tr.byBudget && (tr.budget < 1 || tr.budget > MaxBudget):
		return &sim.FieldError{Field: "budget-grads", Message: fmt.Sprintf("%d is outside [1, %d]", tr.budget, MaxBudget)}
	case tr.steps < 0 || tr.steps > experiment.MaxSteps:
		return &sim.FieldError{Field: "steps", Message: fmt.Sprintf("%d is outside [0, %d]", tr.steps, experiment.MaxSteps)}
	}
	return nil
}

// newRun builds the run on the built-in target, or on the density the
// --target text is compiled to.
func (tr *targetRun) newRun(ctx context.Context) (*gallery.Run, error) {
	cache, err := gallery.NewCache(gallery.CacheConfig{})
	if err != nil {
		return nil, err
	}
	if tr.builtin {
		tr.cfg.Target = tr.target
		return gallery.NewRun(ctx, cache, tr.cfg)
	}
	if isName(tr.target) {
		// A lone name is a mistyped built-in, not a density: say so
		// rather than what the parser makes of it.
		return nil, &sim.FieldError{Field: "target", Message: fmt.Sprintf("%q is not a built-in target (%s), nor a log density in Stan notation", tr.target, strings.Join(targetNames(), ", "))}
	}
	d, err := stan.Parse(tr.target)
	if err != nil {
		return nil, err // an *stan.Error, "line:col: msg": Main exits 2
	}
	ex, err := cache.ExactFor(ctx, tr.target, d)
	if err != nil {
		return nil, err
	}
	return gallery.NewRunOn(ex, tr.cfg)
}

// isName reports whether s is one identifier.
func isName(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// step runs r for the steps or to the budget, in about a hundred parts
// for the progress bar.
func (tr *targetRun) step(ctx context.Context, r *gallery.Run, bar *progress) error {
	if tr.byBudget {
		part := max(1, tr.budget/100)
		for b := part; ; b += part {
			b = min(b, tr.budget)
			if err := r.StepToBudget(ctx, b); err != nil {
				return err
			}
			bar.update(int(min(r.Evals(), tr.budget)), int(tr.budget))
			if b == tr.budget {
				return nil
			}
		}
	}
	part := max(1, tr.steps/100)
	for done := 0; done < tr.steps; {
		n := min(part, tr.steps-done)
		if err := r.Step(ctx, n); err != nil {
			return err
		}
		done += n
		bar.update(done, tr.steps)
	}
	return nil
}

// hasFlag reports whether args set the flag name (--name, -name, --name=V),
// before any "--".
func hasFlag(args []string, name string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if !strings.HasPrefix(a, "-") {
			continue
		}
		n, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		if n == name {
			return true
		}
	}
	return false
}

// isStanError reports whether err is a typed density's parse or domain
// error: bad input, as a field error is.
func isStanError(err error) bool {
	var se *stan.Error
	return errors.As(err, &se)
}
