package gip

import "github.com/posterior-playground/playground/sim"

// traceInfo names the traces for people (sim.TraceInfo).
func traceInfo() map[string]sim.TraceInfo {
	return map[string]sim.TraceInfo{
		"noise_std":     {Label: "Noise std σ", Only: sim.RegressionOnly(), Unit: sim.UnitY},
		"kl":            {Label: "KL(q ‖ prior)"},
		"mean_log_prec": {Label: "Mean log precision of the pseudo-outputs"},
		"u_spread":      {Label: "Spread (std) of the inducing inputs"},
	}
}
