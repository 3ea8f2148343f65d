package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/catalog"
	"github.com/posterior-playground/playground/sim/datasets"
	"github.com/posterior-playground/playground/sim/gallery"
	"github.com/posterior-playground/playground/sim/model"
)

const usage = `usage:
  playground [serve] [--addr :8080] [--allow-origin URL ...] [--allow-frame-ancestor URL ...]
                   [--instance NAME] [--trust-proxy CIDR ...] [--free-unwatched 1m]
  playground run   --data NAME|--data-file F --method NAME [--model M] [--steps N | --budget-grads N]
                   [--seed S] [--data-seed S] [--<control> VALUE ...] [--eval-reps R] [--iwbo-samples K] [--json]
  playground sweep --data NAME|--data-file F --method NAME --param CONTROL --values LIST
                   [--steps N] [--seed S] [--data-seed S] [--seeds K] [--eval-reps R] [--iwbo-samples K] [--json]
                   [--shard K/N [--out FILE]]   one part of the sweep, for a batch engine
  playground sweep merge [--json] PART...      the parts' output, as the whole sweep prints it
  playground sweep --target NAME --param CONTROL --values LIST --methods M[:NAME=VALUE...],...
                   [--budget N] [--seeds K] [--seed S] [--<target control> VALUE ...] [--json]
                   each method at each value of a 2-D target's control, against the exact answer
  playground run   --target NAME|'EXPR' --method NAME [--steps N | --budget-grads N] [--chains K]
                   [--seed S] [--<control> VALUE ...] [--json]   a 2-D target against its exact answer
  playground help [serve|run|sweep]     a command's flags, methods and data sets
  playground run --method NAME --help   the method's controls: ranges, defaults, live or not
  playground help run --target NAME     a 2-D target's controls and the methods' on it
LIST is "1,2,5", "linspace:a:b:n" or "logspace:a:b:n".
EXPR is a log density over two parameters in Stan notation: 'v ~ normal(0, 3); x ~ normal(0, exp(v / 2));'.
`

// synopses are the first lines of each command's help.
var synopses = map[string]string{
	"serve": "usage: playground [serve] [--addr :8080] [--allow-origin URL ...] [--allow-frame-ancestor URL ...]\n" +
		"Serves the live dashboard until interrupted.\n",
	"run": "usage: playground run --data NAME|--data-file F --method NAME [--steps N | --budget-grads N] [flags] [--<control> VALUE ...]\n" +
		"       playground run --target NAME|'EXPR' --method NAME [--steps N | --budget-grads N] [--<control> VALUE ...]\n" +
		"Trains one method headless and prints its summary; on a 2-D target (listed below, with the flags\n" +
		"playground help run --target NAME lists), against the exact answer.\n",
	"sweep": "usage: playground sweep --data NAME|--data-file F --method NAME --param CONTROL --values LIST [flags]\n" +
		"Runs one method for each value of one numeric control and prints both bounds per value.\n" +
		`LIST is "1,2,5", "linspace:a:b:n" or "logspace:a:b:n".` + "\n" +
		"With --shard K/N it runs only every N-th (value, seed) pair from the K-th and prints that part as JSON;\n" +
		"\"playground sweep merge PART...\" combines the N parts into exactly the whole sweep's output.\n" +
		"playground sweep --target NAME --help: a sweep over a 2-D target's control.\n",
}

// wantsHelp reports whether args ask for help as the flag package
// understands it (-h, --help, -help=x, ... before any "--"), which run and
// sweep must know before they look for --method.
func wantsHelp(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		if strings.HasPrefix(a, "-") && (name == "h" || name == "help") {
			return true
		}
	}
	return false
}

// commandHelp prints cmd's help: with --method in args, that method's
// controls; otherwise the flags of fs, the methods and the data sets. An
// unknown method or model gives the same field error a run would.
func commandHelp(w io.Writer, cmd string, fs *flag.FlagSet, args []string) error {
	if name := flagValue(args, "method"); name != "" && cmd != "serve" {
		m, err := catalog.NewMethod(name, flagValue(args, "model"))
		if _, ok := gallery.LookupMethod(name); err != nil && ok && cmd == "run" {
			return targetHelp(w, args) // a method of the 2-D targets only (flow, svgd)
		}
		if err != nil {
			if _, ok := errors.AsType[*sim.FieldError](err); !ok {
				err = &sim.FieldError{Field: "model", Message: err.Error()}
			}
			return err
		}
		printMethod(w, cmd, flagSpec(m, args)) // the data's default model's controls too
		return nil
	}
	fmt.Fprint(w, synopses[cmd])
	fmt.Fprintln(w, "\nflags:")
	printFlags(w, fs)
	if cmd == "serve" {
		return nil
	}
	specs, err := catalog.Specs()
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nmethods (playground %s --method NAME --help lists a method's controls):\n", cmd)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  NAME\tLABEL\tFAMILY\tMODELS")
	for _, s := range specs {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", s.Name, s.Label, s.Family, models(s))
	}
	tw.Flush()
	fmt.Fprintln(w, "\nbuilt-in data sets (--data NAME):")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  NAME\tLABEL\tPOINTS\tTASK\tMODEL")
	for _, d := range datasets.Infos() {
		fmt.Fprintf(tw, "  %s\t%s\t%d\t%s\t%s\n", d.Name, d.Label, d.N, d.Task, d.DefaultModel)
	}
	if err := tw.Flush(); err != nil || cmd != "run" {
		return err
	}
	printTargets(w)
	printTargetMethods(w)
	return nil
}

// printFlags lists fs's flags, one a line, in the --name VALUE form the
// usage uses (the flag package's own listing writes -name).
func printFlags(w io.Writer, fs *flag.FlagSet) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fs.VisitAll(func(f *flag.Flag) {
		arg, text := flag.UnquoteUsage(f)
		name := "--" + f.Name
		if arg != "" {
			name += " " + arg
		}
		if d := f.DefValue; d != "" && d != "0" && d != "false" && !strings.Contains(text, "(default") {
			text += " (default " + d + ")"
		}
		fmt.Fprintf(tw, "  %s\t%s\n", name, text)
	})
	tw.Flush()
}

// printMethod lists a method's models and controls from its spec.
func printMethod(w io.Writer, cmd string, s sim.MethodSpec) {
	fmt.Fprintf(w, "%s: %s (family %s)\n", s.Name, s.Label, s.Family)
	fmt.Fprintf(w, "models: %s\n", models(s))
	if len(s.Controls) == 0 {
		fmt.Fprintln(w, "no controls")
		return
	}
	fmt.Fprintf(w, "\ncontrols, each given as --NAME VALUE to playground %s:\n", cmd)
	controlTable(w, s.Controls)
	fmt.Fprint(w, "ACTS: live, the dashboard applies a change to the running optimiser or chain;\n"+
		"on restart, a change in the dashboard starts the run again.\n\n")
	controlHelp(w, s.Controls)
	if _, ok := s.Control(model.ControlArch); ok {
		fmt.Fprintln(w, "\n--preset NAME sets arch and activation to a named network (an explicit --arch or --activation wins):")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, p := range model.Presets() {
			fmt.Fprintf(tw, "  %s\t%s\t%s %s\n", p.Slug, p.Name, p.Hidden, p.Act)
		}
		tw.Flush()
	}
}

// controlTable lists controls, one row each: name, label, range or
// options, default, type and whether a change acts live.
func controlTable(w io.Writer, controls []sim.ControlSpec) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  NAME\tLABEL\tRANGE\tDEFAULT\tTYPE\tACTS")
	for _, c := range controls {
		acts := "on restart"
		if c.Live {
			acts = "live"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\n", c.Name, c.Label, controlRange(c), c.Default, kind(c), acts)
	}
	tw.Flush()
}

// controlHelp lists each control's help, a line each.
func controlHelp(w io.Writer, controls []sim.ControlSpec) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, c := range controls {
		fmt.Fprintf(tw, "  %s\t%s\n", c.Name, c.Help)
	}
	tw.Flush()
}

// controlRange is a control's range, or its options.
func controlRange(c sim.ControlSpec) string {
	switch {
	case c.List > 0:
		return fmt.Sprintf("≤ %d of [%g, %g], comma-separated", c.List, c.Min, c.Max)
	case len(c.Options) > 0:
		return "one of " + strings.Join(c.Options, "|")
	}
	return fmt.Sprintf("[%g, %g]", c.Min, c.Max)
}

// kind names a control's type as the TYPE column shows it.
func kind(c sim.ControlSpec) string {
	if c.List > 0 {
		return "list"
	}
	if len(c.Options) > 0 {
		return "choice"
	}
	k := "real"
	if c.Integer {
		k = "integer"
	}
	if c.Log {
		k += ", log"
	}
	return k
}

// models lists the models a method supports, marking the default (the
// first).
func models(s sim.MethodSpec) string {
	if len(s.Models) == 0 {
		return "none: a GP in function space (--model does not apply)"
	}
	out := slices.Clone(s.Models)
	out[0] += " (default)"
	return strings.Join(out, ", ")
}
