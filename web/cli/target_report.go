package cli

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/gallery"
)

// printReport prints a target run's report: a line of what ran and what
// it cost, a table of each coordinate (in the order of names) with its
// mean and sd beside the exact ones and a sampler's R̂ and bulk ESS, then
// the measures against the exact answer.
func printReport(w io.Writer, rep gallery.Report, spec gallery.MethodSpec, names [2]string) {
	what := fmt.Sprintf("%d chains", rep.Chains)
	if !spec.Sampler {
		what = "one fit"
	}
	fmt.Fprintf(w, "%s on %s%s, %s, seed %d: %d steps, %d gradient and %d density evaluations\n",
		rep.Method, rep.Target, controlList(rep.TargetControls), what, rep.Seed, rep.Steps, rep.GradientEvals, rep.DensityEvals)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := []string{"parameter", "mean", "sd", "exact mean", "exact sd"}
	if spec.Sampler {
		head = append(head, "R̂", "ESS")
	}
	fmt.Fprintln(tw, "  "+strings.Join(head, "\t"))
	for _, name := range names {
		p := rep.Params[name]
		row := []string{name, fmtNum(p.Mean), fmtNum(p.SD), fmtNum(p.ExactMean), fmtNum(p.ExactSD)}
		if spec.Sampler {
			row = append(row, fmtNumP(p.RHat), fmtNumP(p.ESSBulk))
		}
		fmt.Fprintln(tw, "  "+strings.Join(row, "\t"))
	}
	tw.Flush()
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	line := func(label, value string) { fmt.Fprintf(tw, "  %s\t%s\n", label, value) }
	if rep.Divergences != nil {
		line("divergences", strconv.FormatInt(*rep.Divergences, 10))
	}
	if rep.Acceptance != nil {
		line("acceptance", fmtNum(*rep.Acceptance))
	}
	if rep.KLExact != nil {
		line("KL(q‖p) on the grid", fmtNum(*rep.KLExact))
	}
	if rep.ELBO != nil {
		line("ELBO", fmt.Sprintf("%s (exact log Z %s)", fmtNum(*rep.ELBO), fmtNum(rep.LogZ)))
	}
	if rep.ParetoK != nil {
		line("Pareto k̂", fmt.Sprintf("%s (reliable ≤ %s)", fmtNum(*rep.ParetoK), fmtNumP(rep.ParetoKThreshold)))
	}
	if rep.EnergyDistance != nil {
		line("energy distance", fmtNum(*rep.EnergyDistance)+" (to exact draws)")
	}
	line("error in mean", fmtNum(rep.MeanError)+" (exact sds)")
	line("error in covariance", fmtNum(rep.CovError)+" (relative)")
	tw.Flush()
}

// controlList writes controls as " (a=1, b=2)", sorted; "" for none.
func controlList(c sim.Controls) string {
	if len(c) == 0 {
		return ""
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(c)) {
		parts = append(parts, k+"="+c[k].String())
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// num formats a report's number to four significant digits; a dash for
// one that is not finite.
func fmtNum(f gallery.Float) string {
	x := float64(f)
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "—"
	}
	return strconv.FormatFloat(x, 'g', 4, 64)
}

func fmtNumP(f *gallery.Float) string {
	if f == nil {
		return "—"
	}
	return fmtNum(*f)
}
