package cli

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/gallery"
	"github.com/posterior-playground/playground/sim/target"
	"github.com/posterior-playground/playground/sim/target/stan"
)

const targetSynopsis = "usage: playground run --target NAME|'EXPR' --method NAME [--steps N | --budget-grads N] [flags] [--<control> VALUE ...]\n" +
	"Runs one sampler or variational family on a 2-D target and prints its summary against the exact answer,\n" +
	"the density normalised on a grid. EXPR is a log density over two parameters in Stan notation:\n" +
	"  'v ~ normal(0, 3); x ~ normal(0, exp(v / 2));'\n"

// targetHelp prints the help of `run --target`: the flags, the target's
// controls (every target's without a name) and the methods' (the one
// --method names). Everything listed comes from the registries,
// target.Specs and gallery.Methods.
func targetHelp(w io.Writer, args []string) error {
	methods := gallery.Methods()
	if name := flagValue(args, "method"); name != "" {
		m, err := galleryMethod(name)
		if err != nil {
			return err
		}
		methods = []gallery.MethodSpec{m}
	}
	name := flagValue(args, "target")
	spec, builtin := target.Lookup(name)
	var typed *stan.Density
	if !builtin && name != "" {
		d, err := stan.Parse(name)
		if err != nil {
			return err
		}
		typed = d
	}
	fmt.Fprint(w, targetSynopsis)
	fmt.Fprintln(w, "\nflags:")
	printFlags(w, targetFlags(newFlagSet("run"), newTargetRun()))
	switch {
	case builtin:
		fmt.Fprintf(w, "\ntarget %s: %s, %s\n", spec.Name, spec.Label, spec.Help)
		printControls(w, spec.Controls)
	case typed != nil:
		p, b := typed.Params(), typed.Box()
		fmt.Fprintf(w, "\na typed density over %s and %s, on the box %s ∈ [%g, %g], %s ∈ [%g, %g]; no controls\n",
			p[0], p[1], p[0], b.XMin, b.XMax, p[1], b.YMin, b.YMax)
	default:
		printTargets(w)
	}
	fmt.Fprintln(w, "\nmethods (--method NAME), each control given as --NAME VALUE:")
	for _, m := range methods {
		fmt.Fprintf(w, "\n%s: %s, %s (%s)\n", m.Name, m.Label, m.Help, methodKind(m))
		printControls(w, m.Controls)
	}
	return nil
}

// printControls lists controls as a table and then their help.
func printControls(w io.Writer, controls []sim.ControlSpec) {
	if len(controls) == 0 {
		fmt.Fprintln(w, "no controls")
		return
	}
	controlTable(w, controls)
	controlHelp(w, controls)
}

// methodKind says whether m is a sampler or a family and what its budget
// counts.
func methodKind(m gallery.MethodSpec) string {
	kind := "a variational family"
	if m.Sampler {
		kind = "a sampler"
	}
	if m.Gradient {
		return kind + "; its budget is gradient evaluations"
	}
	return kind + "; its budget is density evaluations"
}

// printTargets lists the built-in targets, a control a line.
func printTargets(w io.Writer) {
	var rows []listed
	for _, s := range target.Specs() {
		rows = append(rows, listed{s.Name, s.Label, s.Controls})
	}
	printListed(w, "2-D targets (--target NAME, or a log density in Stan notation; playground help run --target NAME for one):", rows)
}

// printTargetMethods lists the methods on a 2-D target, a control a line.
func printTargetMethods(w io.Writer) {
	var rows []listed
	for _, m := range gallery.Methods() {
		rows = append(rows, listed{m.Name, m.Label, m.Controls})
	}
	printListed(w, "methods on a 2-D target (--target NAME --method NAME):", rows)
}

// listed is a row of printListed: a target or a method.
type listed struct {
	name, label string
	controls    []sim.ControlSpec
}

// printListed writes a heading and a table of rows, each with its
// controls a line.
func printListed(w io.Writer, heading string, rows []listed) {
	fmt.Fprintln(w, "\n"+heading)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  NAME\tLABEL\tCONTROLS")
	for _, r := range rows {
		controlRows(tw, r.name, r.label, r.controls)
	}
	tw.Flush()
}

// controlRows writes name and label with the first control, and each
// further control on a line of its own.
func controlRows(tw io.Writer, name, label string, controls []sim.ControlSpec) {
	if len(controls) == 0 {
		fmt.Fprintf(tw, "  %s\t%s\tnone\n", name, label)
		return
	}
	for i, c := range controls {
		if i > 0 {
			name, label = "", ""
		}
		rng := controlRange(c)
		if c.Toggle {
			rng = "1|0"
		}
		fmt.Fprintf(tw, "  %s\t%s\t--%s %s (default %s)\n", name, label, c.Name, rng, c.Default)
	}
}
