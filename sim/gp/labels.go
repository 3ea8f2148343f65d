package gp

import "github.com/posterior-playground/playground/sim"

// traceInfo names the traces of both GP methods for people (sim.TraceInfo).
// The noise means nothing on classification data, nor under the VI's
// Bernoulli likelihood.
func traceInfo(vi bool) map[string]sim.TraceInfo {
	noise := sim.RegressionOnly()
	if vi {
		noise["likelihood"] = []string{Auto, Gaussian, Cauchy}
	}
	return map[string]sim.TraceInfo{
		"lengthscale":  {Label: "Lengthscale ℓ", Unit: sim.UnitX},
		"variance":     {Label: "Kernel variance c²", Unit: sim.UnitY2},
		"period":       {Label: "Period p", Only: map[string][]string{"kernel": {Periodic}}, Unit: sim.UnitX},
		"noise":        {Label: "Noise scale σ", Only: noise, Unit: sim.UnitY},
		"kl":           {Label: "KL(q ‖ prior)"},
		"exp_loglik":   {Label: "Expected log likelihood"},
		"log_marginal": {Label: "Log marginal likelihood"},
	}
}
