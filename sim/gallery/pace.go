package gallery

import (
	"context"
	"fmt"

	"github.com/posterior-playground/playground/sim"
)

// Pace steps runs together until each has spent budget evaluations,
// always stepping the one that has spent least. So at every moment, not
// only at the end, any two runs' budgets differ by at most one step's
// cost: the equal-budget race, in which every panel has spent the same.
// The runs are stepped one at a time on the calling goroutine; ctx is
// checked before every step.
func Pace(ctx context.Context, runs []*Run, budget int64) error {
	if budget < 0 {
		return &sim.FieldError{Field: "budget", Message: fmt.Sprintf("%d is negative, want a count of evaluations", budget)}
	}
	for {
		var next *Run
		for _, r := range runs {
			if e := r.Evals(); e < budget && (next == nil || e < next.Evals()) {
				next = r
			}
		}
		if next == nil {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		next.step(true)
	}
}
