package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRunDataBudget runs two methods whose steps cost different numbers of
// gradient evaluations (mfvi one per weight sample, hmc its leapfrog
// steps) to one --budget-grads: each reports the steps it took and the
// evaluations it spent, at least the budget. That each stopped at the
// first step reaching it is sim/experiment's test.
func TestRunDataBudget(t *testing.T) {
	const budget = 300
	for _, method := range []string{"mfvi", "hmc"} {
		code, out, errs := runCLI(t, "run", "--data", "periodic", "--method", method, "--budget-grads", "300",
			"--eval-reps", "1", "--iwbo-samples", "2", "--json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", method, code, errs)
		}
		var s struct {
			Steps int   `json:"steps"`
			Evals int64 `json:"evals"`
		}
		if err := json.NewDecoder(strings.NewReader(out)).Decode(&s); err != nil {
			t.Fatalf("%s: %v\n%s", method, err, out)
		}
		if s.Evals < budget || s.Steps < 1 {
			t.Errorf("%s: %d steps spent %d evaluations, want at least the budget %d", method, s.Steps, s.Evals, budget)
		}
	}
}

func TestRunDataBudgetBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"--budget-grads", "0"}, []string{"budget-grads", "[1, 1000000000]"}},
		{[]string{"--budget-grads", "100", "--steps", "5"}, []string{"budget-grads", "--steps"}},
	} {
		args := append([]string{"run", "--data", "periodic", "--method", "mfvi"}, tc.args...)
		code, _, errs := runCLI(t, args...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", tc.args, code, errs)
		}
		for _, w := range tc.want {
			if !strings.Contains(errs, w) {
				t.Errorf("%v: error %q does not mention %q", tc.args, errs, w)
			}
		}
	}
}
