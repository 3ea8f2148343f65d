package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestSweepTargetJSON: a ρ sweep from the command line prints a point per
// value with each method, its controls and its sd ratio per coordinate
// (the ratios' accuracy is sim/sweeps's test); the table names them too.
func TestSweepTargetJSON(t *testing.T) {
	args := []string{"sweep", "--target", "gaussian", "--param", "rho", "--values", "0,0.9", "--scale_ratio", "2",
		"--methods", "mfvi,fullrank:lr=0.05", "--budget", "4000"}
	code, out, errs := runCLI(t, append(args, "--json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got struct {
		Target   string
		Controls map[string]float64
		Points   []struct {
			Value   float64
			Methods []struct {
				Method   string
				Controls map[string]float64
				Params   []struct {
					Name    string
					SDRatio *float64 `json:"sd_ratio"`
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got.Target != "gaussian" || got.Controls["scale_ratio"] != 2 || len(got.Points) != 2 || got.Points[1].Value != 0.9 {
		t.Fatalf("printed %s", out)
	}
	for _, p := range got.Points {
		if len(p.Methods) != 2 || p.Methods[0].Method != "mfvi" || p.Methods[1].Controls["lr"] != 0.05 {
			t.Fatalf("point at %g: %+v", p.Value, p.Methods)
		}
		for _, m := range p.Methods {
			if len(m.Params) != 2 || m.Params[0].Name != "x" || m.Params[0].SDRatio == nil {
				t.Errorf("point at %g, %s: params %+v", p.Value, m.Method, m.Params)
			}
		}
	}
	code, out, errs = runCLI(t, args...)
	if code != 0 || !strings.Contains(out, "fullrank:lr=0.05") || strings.Count(out, "\n") != 5 {
		t.Errorf("the table (exit %d, %s):\n%s", code, errs, out)
	}
}

// TestSweepTargetErrors: bad input exits 2 naming the field and what is
// allowed.
func TestSweepTargetErrors(t *testing.T) {
	base := []string{"sweep", "--target", "gaussian", "--param", "rho", "--values", "0,0.5"}
	for _, tc := range []struct {
		args []string
		say  []string
	}{
		{append(base, "--methods", "mfvi", "--budget", "0"), []string{"budget", "[1, 1000000000]"}},
		{append(base, "--methods", "mfvi:lr=7"), []string{"methods[0].controls.lr", "[0, 1]"}},
		{append(base, "--methods", "gibbs"), []string{"methods[0].method", "nuts"}},
		{append(base, "--methods", "mfvi:lr"), []string{"methods", "NAME=VALUE"}},
		{base, []string{"methods", "mfvi,fullrank,nuts"}},
		{append(base, "--methods", "mfvi", "--rho", "3"), []string{"rho", "[-0.99, 0.99]"}},
		{[]string{"sweep", "--target", "gaussian", "--param", "curvature", "--values", "1", "--methods", "mfvi"}, []string{"param", "rho, scale_ratio"}},
		{[]string{"sweep", "--target", "gaussian", "--method", "mfvi"}, []string{"target", "--methods"}},
	} {
		code, _, errs := runCLI(t, tc.args...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", tc.args, code, errs)
		}
		for _, s := range tc.say {
			if !strings.Contains(errs, s) {
				t.Errorf("%v: stderr %q does not say %q", tc.args, errs, s)
			}
		}
	}
}
