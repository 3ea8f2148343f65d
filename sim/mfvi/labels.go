package mfvi

import "github.com/posterior-playground/playground/sim"

// traceInfo names the traces for people (sim.TraceInfo), for both models.
func traceInfo() map[string]sim.TraceInfo {
	return map[string]sim.TraceInfo{
		"noise_std": {Label: "Noise std σ", Only: sim.RegressionOnly(), Unit: sim.UnitY},
		"kl":        {Label: "KL(q ‖ prior)"},
		"mean_std":  {Label: "Mean posterior std of a weight"},
		"w0":        {Label: "Mean of the first weight"},
		"b0":        {Label: "Intercept b₀ (posterior mean)"},
		"b":         {Label: "Slope b (posterior mean)"},
	}
}
