package livi

import "github.com/posterior-playground/playground/sim"

// traceInfo names the traces of LIVI, MAP and the ensemble for people
// (sim.TraceInfo).
func traceInfo() map[string]sim.TraceInfo {
	return map[string]sim.TraceInfo{
		"noise_std":    {Label: "Noise std σ", Only: sim.RegressionOnly(), Unit: sim.UnitY},
		"logdet":       {Label: "Entropy term ½ log det(JᵀJ + σ²I)"},
		"smin":         {Label: "Smallest singular value of the generator's Jacobian"},
		"layer1_share": {Label: "First layer's share of the spread"},
		"weight_rms":   {Label: "Root mean square weight"},
		"disagreement": {Label: "Disagreement between members (std of f)"},
	}
}
