// Command playground trains approximate posteriors: `serve` (the default)
// runs the live dashboard, `run` trains one method headless and prints its
// summary, and `sweep` runs one control over a list of values.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/catalog"
	"github.com/posterior-playground/playground/sim/experiment"
	"github.com/posterior-playground/playground/web"
)

const usage = `usage:
  playground [serve] [--addr :8080] [--allow-origin URL ...]
  playground run   --data NAME|--data-file F --method NAME [--model M] [--steps N]
                   [--seed S] [--data-seed S] [--<control> VALUE ...] [--eval-reps R] [--iwbo-samples K] [--json]
  playground sweep --data NAME|--data-file F --method NAME --param CONTROL --values LIST
                   [--steps N] [--seed S] [--data-seed S] [--seeds K] [--eval-reps R] [--iwbo-samples K] [--json]
LIST is "1,2,5", "linspace:a:b:n" or "logspace:a:b:n".`

// exitUsage is the status for bad input: an unknown name or a value out of range.
const exitUsage = 2

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cmd := "serve"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	var err error
	switch cmd {
	case "serve":
		err = serve(ctx, args, stderr)
	case "run":
		err = runOnce(ctx, args, stdout, stderr)
	case "sweep":
		err = sweep(ctx, args, stdout, stderr)
	case "help":
		fmt.Fprintln(stdout, usage)
		return 0
	default:
		err = &sim.FieldError{Field: "command", Message: fmt.Sprintf("unknown command %q (allowed: serve, run, sweep, help)", cmd)}
	}
	if err == nil {
		return 0
	}
	fmt.Fprintln(stderr, "playground:", err)
	var fe *sim.FieldError
	if errors.As(err, &fe) || errors.Is(err, flag.ErrHelp) {
		return exitUsage
	}
	return 1
}

func serve(ctx context.Context, args []string, stderr io.Writer) error {
	fs := newFlagSet("serve")
	addr := fs.String("addr", ":8080", "listen address")
	var origins stringList
	fs.Var(&origins, "allow-origin", "an extra Origin allowed to open streams (repeatable)")
	if err := parse(fs, args); err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	cfg := web.DefaultConfig()
	cfg.Addr, cfg.AllowedOrigins = *addr, origins
	srv, err := web.New(cfg, log)
	if err != nil {
		return err
	}
	log.Info("serving", "addr", *addr)
	return srv.ListenAndServe(ctx)
}

// experimentFlags registers the flags run and sweep share.
func experimentFlags(fs *flag.FlagSet, cfg *experiment.Config) {
	fs.StringVar(&cfg.Data, "data", "", "built-in data set")
	fs.StringVar(&cfg.DataFile, "data-file", "", "CSV file with header x,y")
	fs.StringVar(&cfg.Method, "method", "", "method: "+strings.Join(catalog.MethodNames(), ", "))
	fs.StringVar(&cfg.Model, "model", "", "model (default: the data set's)")
	fs.IntVar(&cfg.Steps, "steps", cfg.Steps, "training steps")
	fs.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "training seed")
	fs.Int64Var(&cfg.DataSeed, "data-seed", cfg.DataSeed, "the data set's seed (default: --seed)")
	fs.IntVar(&cfg.EvalReps, "eval-reps", cfg.EvalReps, "ELBO evaluations and IWBO repetitions")
	fs.IntVar(&cfg.IWBOSamples, "iwbo-samples", cfg.IWBOSamples, "importance samples per IWBO")
}

// controlFlags registers one flag per control of the method named in args,
// so that `--prior_scale 3` reaches the method and a typo is caught. A bad
// value's *sim.FieldError is kept in *bad, since the flag package flattens
// the errors it returns into text.
func controlFlags(fs *flag.FlagSet, args []string, cfg *experiment.Config, bad *error) error {
	name := flagValue(args, "method")
	if name == "" {
		return &sim.FieldError{Field: "method", Message: fmt.Sprintf("give --method (allowed: %s)", strings.Join(catalog.MethodNames(), ", "))}
	}
	m, err := catalog.NewMethod(name, "")
	if err != nil {
		return err
	}
	cfg.Controls = sim.Controls{}
	for _, c := range m.Spec().Controls {
		fs.Func(c.Name, c.Label, func(s string) error {
			v := sim.Choice(s)
			if len(c.Options) == 0 {
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
			cfg.Controls[c.Name] = v
			return nil
		})
	}
	return nil
}

func runOnce(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg := experiment.DefaultConfig()
	fs := newFlagSet("run")
	experimentFlags(fs, &cfg)
	asJSON := fs.Bool("json", false, "print one JSON object")
	var bad error
	if err := controlFlags(fs, args, &cfg, &bad); err != nil {
		return err
	}
	if err := parse(fs, args); err != nil {
		if bad != nil {
			return bad
		}
		return err
	}
	bar := newProgress(stderr, "steps")
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
	cfg := experiment.DefaultConfig()
	fs := newFlagSet("sweep")
	experimentFlags(fs, &cfg)
	param := fs.String("param", "", "the control to sweep")
	list := fs.String("values", "", `values: "1,2,5", "linspace:a:b:n" or "logspace:a:b:n"`)
	seeds := fs.Int("seeds", 1, "training seeds per value")
	asJSON := fs.Bool("json", false, "print one JSON object")
	var bad error
	if err := controlFlags(fs, args, &cfg, &bad); err != nil {
		return err
	}
	if err := parse(fs, args); err != nil {
		if bad != nil {
			return bad
		}
		return err
	}
	if *param == "" {
		return &sim.FieldError{Field: "param", Message: "give --param, the control to sweep"}
	}
	values, err := experiment.ParseValues(*list)
	if err != nil {
		return err
	}
	bar := newProgress(stderr, "runs")
	points, err := experiment.Sweep(ctx, cfg, *param, values, *seeds, 0, func(done, total int, _ *experiment.SweepPoint) {
		bar.update(done, total)
	})
	bar.finish()
	if err != nil {
		return err
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(map[string]any{
			"method": cfg.Method, "data": cfg.Data + cfg.DataFile, "param": *param,
			"steps": cfg.Steps, "seed": cfg.Seed, "data_seed": cfg.DataSeedUsed(), "seeds": *seeds, "points": points,
		})
	}
	fmt.Fprintf(stdout, "%-12s %20s %20s\n", *param, "ELBO ± 2se", "IWBO ± 2se")
	for _, p := range points {
		fmt.Fprintf(stdout, "%-12.4g %11.3f ± %6.3f %11.3f ± %6.3f\n", p.Value, p.ELBOMean, 2*p.ELBOSE, p.IWBOMean, 2*p.IWBOSE)
	}
	return nil
}

func printSummary(w io.Writer, s *experiment.Summary) {
	num := func(p *float64) string {
		if p == nil {
			return "—"
		}
		return strconv.FormatFloat(*p, 'f', 3, 64)
	}
	fmt.Fprintf(w, "%s (%s) on %s, seed %d, %d steps at %.0f steps/s\n", s.Method, s.Model, s.Data, s.Seed, s.Steps, s.StepsPerSec)
	pm := func(m, se *float64) string {
		if m == nil {
			return "—"
		}
		return num(m) + " ± " + strconv.FormatFloat(2**se, 'f', 3, 64)
	}
	fmt.Fprintf(w, "  ELBO             %s\n  IWBO             %s\n", pm(s.ELBOMean, s.ELBOSE), pm(s.IWBOMean, s.IWBOSE))
	fmt.Fprintf(w, "  noise std        %s\n  RMSE to truth    %s\n  in-between ratio %s\n", num(s.NoiseStd), num(s.RMSETruth), num(s.InbetweenRatio))
}

func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // parse reports errors itself, in one line
	return fs
}

// parse parses args and turns the flag package's errors into one-line field
// errors.
func parse(fs *flag.FlagSet, args []string) error {
	err := fs.Parse(args)
	if err == nil {
		if fs.NArg() > 0 {
			return &sim.FieldError{Field: "arguments", Message: fmt.Sprintf("unexpected %q", fs.Arg(0))}
		}
		return nil
	}
	if errors.Is(err, flag.ErrHelp) {
		return err
	}
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		var known []string
		fs.VisitAll(func(f *flag.Flag) { known = append(known, "--"+f.Name) })
		return &sim.FieldError{Field: name, Message: fmt.Sprintf("unknown flag (allowed: %s)", strings.Join(known, ", "))}
	}
	// "invalid value "abc" for flag -steps: parse error"
	if rest, ok := strings.CutPrefix(msg, "invalid value "); ok {
		if value, flagPart, ok := strings.Cut(rest, " for flag -"); ok {
			name, why, _ := strings.Cut(flagPart, ": ")
			return &sim.FieldError{Field: name, Message: fmt.Sprintf("%s is not valid (%s)", value, why)}
		}
	}
	return &sim.FieldError{Field: "flags", Message: msg}
}

// flagValue finds --name V or --name=V in args before parsing.
func flagValue(args []string, name string) string {
	for i, a := range args {
		a = strings.TrimLeft(a, "-")
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v
		}
		if a == name && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// progress draws a bar on a terminal, and a line per tenth otherwise.
type progress struct {
	w        io.Writer
	unit     string
	terminal bool
	start    time.Time
	last     int
}

func newProgress(w io.Writer, unit string) *progress {
	p := &progress{w: w, unit: unit, start: time.Now(), last: -1}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil {
			p.terminal = st.Mode()&os.ModeCharDevice != 0
		}
	}
	return p
}

func (p *progress) update(done, total int) {
	if total <= 0 {
		return
	}
	pct := 100 * done / total
	if p.terminal {
		const width = 30
		fill := width * done / total
		fmt.Fprintf(p.w, "\r[%s%s] %3d%% %d/%d %s %s", strings.Repeat("#", fill), strings.Repeat(" ", width-fill),
			pct, done, total, p.unit, time.Since(p.start).Round(100*time.Millisecond))
		return
	}
	if pct/10 != p.last/10 {
		fmt.Fprintf(p.w, "progress: %d%% (%d/%d %s)\n", pct, done, total, p.unit)
	}
	p.last = pct
}

func (p *progress) finish() {
	if p.terminal {
		fmt.Fprintln(p.w)
	}
}
