package experiment

import (
	"context"
	"testing"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/catalog"
)

// TestBudgetStopsAtTheFirstStepReachingIt runs every method to the same
// budget of evaluations and checks, by replaying the run one step short
// (the methods step alike bit for bit from one seed), that it stopped at
// the first step whose evaluations reached the budget: so any two methods
// given the same budget have spent it to within one step's cost. A method
// with nothing to iterate (the exact GP with its kernel held) spends
// nothing and stops after one step.
func TestBudgetStopsAtTheFirstStepReachingIt(t *testing.T) {
	const budget = 16
	type run struct {
		name     string
		controls sim.Controls
	}
	var runs []run
	for _, name := range catalog.MethodNames() {
		runs = append(runs, run{name: name})
	}
	runs = append(runs, run{"gp-exact", sim.Controls{"learn_kernel": sim.Num(1)}}) // a step of type-II ML
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			cfg := Config{Data: "periodic", Method: r.name, Controls: r.controls, Seed: 1, DataSeed: 3, BudgetEvals: budget, EvalReps: 1, IWBOSamples: 1, NoDiagnostics: true}
			s, err := Run(context.Background(), cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			if s.Evals == 0 {
				if s.Steps != 1 {
					t.Fatalf("a step that spent nothing should end the run: %d steps", s.Steps)
				}
				return
			}
			if s.Evals < budget {
				t.Fatalf("spent %d of a budget of %d in %d steps", s.Evals, budget, s.Steps)
			}
			short := cfg
			short.BudgetEvals, short.Steps = 0, s.Steps-1
			p, err := Run(context.Background(), short, nil)
			if err != nil {
				t.Fatal(err)
			}
			if p.Evals >= budget {
				t.Fatalf("%d steps spent %d, already the budget of %d: the run took a step too many", short.Steps, p.Evals, budget)
			}
			t.Logf("%d steps, %d evaluations (the last step %d)", s.Steps, s.Evals, s.Evals-p.Evals)
		})
	}
}
