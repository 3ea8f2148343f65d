package mcmc

import (
	"fmt"
	"strings"

	"github.com/posterior-playground/playground/sim"
)

// paramLabels names the traced parameters for people.
var paramLabels = [...]struct{ name, label string }{
	{"b0", "Intercept b₀"},
	{"b", "Slope b"},
	{"sigma", "Noise std σ"},
	{"noise", "Noise std σ"},
	{"f_mid", "f at the gap centre"},
	{"w1[0,0]", "First weight of layer 1"},
	{"w2[0,0]", "First weight of layer 2"},
	{"w3[0,0]", "First weight of layer 3"},
}

// paramLabel returns the label of a traced parameter.
func paramLabel(p string) string {
	for _, l := range paramLabels {
		if l.name == p {
			return l.label
		}
	}
	return p
}

// traceInfo names every trace of traceNames(params) for people: a chain's
// trace is "<parameter> · chain k" (the view groups them by the part before
// " · "). The BNN's noise means nothing on classification data.
func traceInfo(params []string) map[string]sim.TraceInfo {
	out := map[string]sim.TraceInfo{
		"accept_rate": {Label: "Acceptance rate"},
		"step_size":   {Label: "Step size ε"},
		"divergences": {Label: "Divergent transitions (cumulative)"},
	}
	for _, name := range traceNames(params) {
		p, chain, ok := strings.Cut(name, ".c")
		if !ok {
			continue
		}
		ti := sim.TraceInfo{Label: fmt.Sprintf("%s · chain %s", paramLabel(p), chain)}
		if p == "noise" {
			ti.Only = sim.RegressionOnly()
		}
		out[name] = ti
	}
	return out
}
