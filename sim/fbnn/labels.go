package fbnn

import "github.com/posterior-playground/playground/sim"

// traceInfo names the traces for people (sim.TraceInfo).
func traceInfo() map[string]sim.TraceInfo {
	return map[string]sim.TraceInfo{
		"noise_std":         {Label: "Noise std σ", Only: sim.RegressionOnly(), Unit: sim.UnitY},
		"kl_sur":            {Label: "Functional KL (surrogate)"},
		"exp_loglik":        {Label: "Expected log likelihood"},
		"ssge_j":            {Label: "Directions in the entropy-gradient estimate"},
		"prior_variance":    {Label: "Prior variance c²", Unit: sim.UnitY2},
		"prior_lengthscale": {Label: "Prior lengthscale ℓ", Unit: sim.UnitX},
		"prior_period":      {Label: "Prior period p", Only: map[string][]string{"kernel": {"periodic"}}, Unit: sim.UnitX},
	}
}
