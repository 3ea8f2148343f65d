package gp_test

import (
	"context"
	"math"
	"testing"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/experiment"
)

// Both methods run headless through the catalogue on the GP data sets with
// the data sets' default model name (which GP methods ignore), and their
// summaries carry finite bounds, noise and truth errors.
func TestHeadlessRuns(t *testing.T) {
	for _, c := range []struct {
		method, data string
		controls     sim.Controls
		bounds       bool
	}{
		{"gpvi", "gp-cauchy", sim.Controls{"likelihood": sim.Choice("cauchy"), "lr": sim.Num(0.05)}, true},
		{"gpvi", "gp-classification", sim.Controls{"variance": sim.Num(math.E * math.E), "lr": sim.Num(0.05)}, true},
		{"gp-exact", "gp-cauchy", nil, false},
	} {
		cfg := experiment.DefaultConfig()
		cfg.Method, cfg.Data, cfg.Controls = c.method, c.data, c.controls
		cfg.Steps, cfg.EvalReps, cfg.IWBOSamples = 300, 2, 50
		s, err := experiment.Run(context.Background(), cfg, nil)
		if err != nil {
			t.Fatalf("%s on %s: %v", c.method, c.data, err)
		}
		if s.RMSETruth == nil || math.IsNaN(*s.RMSETruth) {
			t.Errorf("%s on %s: rmse_truth %v", c.method, c.data, s.RMSETruth)
		}
		if c.bounds && (s.ELBOMean == nil || s.IWBOMean == nil || math.IsNaN(*s.ELBOMean) || math.IsNaN(*s.IWBOMean)) {
			t.Errorf("%s on %s: bounds %v %v", c.method, c.data, s.ELBOMean, s.IWBOMean)
		}
		if c.bounds && *s.IWBOMean < *s.ELBOMean-1 {
			t.Errorf("%s on %s: IWBO %.3f well below ELBO %.3f", c.method, c.data, *s.IWBOMean, *s.ELBOMean)
		}
		t.Logf("%s on %s: rmse_truth %.4f, elbo %v, iwbo %v, steps/s %.0f", c.method, c.data, *s.RMSETruth, deref(s.ELBOMean), deref(s.IWBOMean), s.StepsPerSec)
	}
}

func deref(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}
