package engine

import (
	"fmt"
	"maps"
	"strings"
	"sync"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/cost"
)

// Budget bounds what runs may cost, by package cost's estimates. A run is
// admitted before it is built, and every change that could make it dearer
// (a control set, a data edit) is admitted the same way before the run
// takes it, so a live edit cannot go round the budget. Zero values take
// the defaults, sized for a 2-core machine with 24 GB.
type Budget struct {
	// RunBytes is the memory one run may hold, default 1 GiB: NUTS on
	// 10,000 points with the default network and 8 chains needs about
	// 0.2 GB; arch 256×4 with 8 chains needs 2.3 GB on 100 points (its
	// draws and tree levels) and 3.5 GB on 10,000.
	RunBytes int64
	// TotalBytes is the memory all runs may hold together, default 8 GiB:
	// Go's heap grows to about twice its live bytes between collections,
	// so 8 GiB of estimate is up to 16 GiB of heap, leaving the rest of
	// 24 GB to the system and the streams.
	TotalBytes int64
	// StepFLOPs bounds one step's arithmetic, default 10¹²: about a
	// minute and a half of one core at 10¹⁰ a second, what NUTS with
	// every default control takes at most (a full tree) on 10,000 points.
	StepFLOPs float64
	// PollFLOPs bounds the arithmetic between two polls of a step's
	// interrupt, default 10⁹: about 0.1 s of one core, so that a delete,
	// an expiry or a reset stops the step in flight within that. Methods
	// that poll count what they do between two polls (the samplers on a
	// network a row block of 512 points, an ensemble a member); the
	// others a whole step.
	PollFLOPs float64
}

func (b Budget) withDefaults() Budget {
	if b.RunBytes <= 0 {
		b.RunBytes = 1 << 30
	}
	if b.TotalBytes <= 0 {
		b.TotalBytes = 8 << 30
	}
	if !(b.StepFLOPs > 0) {
		b.StepFLOPs = 1e12
	}
	if !(b.PollFLOPs > 0) {
		b.PollFLOPs = 1e9
	}
	return b
}

// CostError refuses a run, or a change to one, whose estimated cost the
// budget does not allow. Field names what to lower first; as an error it
// is also a *sim.FieldError naming it.
type CostError struct {
	Field   string
	Message string
	// Total: the runs together hold the budget of all runs; the run would
	// fit when others end (a 429 rather than a refusal of the run itself).
	Total bool
}

func (e *CostError) Error() string { return e.Field + ": " + e.Message }

// Unwrap makes a CostError a *sim.FieldError for errors.As: a viewer's
// command refused by the budget reads as any refused command.
func (e *CostError) Unwrap() error { return &sim.FieldError{Field: e.Field, Message: e.Message} }

// workload is what the run is now, for the budget.
func (r *Run) workload() cost.Workload {
	w := cost.Workload{Method: r.cfg.Method, Model: r.cfg.Model, Controls: cloneControls(r.ctl.now), Target: r.prob.target != nil}
	if r.prob.d != nil {
		w.Rows = r.prob.d.N()
	}
	return w
}

// admission is a run's standing with its registry's budget: admit checks
// a workload against it (nil outside a registry), last is the workload
// last admitted, changed under mu.
type admission struct {
	admit func(cost.Workload) error
	mu    sync.Mutex
	last  cost.Workload
}

// admitChange admits the run's workload changed by change, through the
// registry's budget; the run then counts at the dearer of what it was
// and what it becomes until the change is taken. A run outside a
// registry admits everything.
func (r *Run) admitChange(change func(w *cost.Workload)) error {
	a := &r.cost
	if a.admit == nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	w := a.last
	w.Controls = maps.Clone(w.Controls)
	change(&w)
	if err := a.admit(w); err != nil {
		return err
	}
	a.last = w
	return nil
}

// checkCost holds one run's estimate to the budget's bounds of a run.
func (b Budget) checkCost(w cost.Workload, c cost.Cost) error {
	switch {
	case c.Bytes > b.RunBytes:
		return costError(w, c.MemoryDrivers, fmt.Sprintf("needs ~%s; the server allows %s per run", bytesString(c.Bytes), bytesString(b.RunBytes)))
	case c.StepFLOPs > b.StepFLOPs:
		return costError(w, c.StepDrivers, fmt.Sprintf("takes up to %.2g floating-point operations a step; the server allows %.2g", c.StepFLOPs, b.StepFLOPs))
	case c.PollFLOPs > b.PollFLOPs:
		return costError(w, c.StepDrivers, fmt.Sprintf("does %.2g floating-point operations between two checks for a stop; the server allows %.2g, so that a delete stops it within a tenth of a second", c.PollFLOPs, b.PollFLOPs))
	}
	return nil
}

// costError says what w is, what it needs against what is allowed, and
// what to lower: "nuts with arch 256,256,256,256 and chains 8 on 10,000
// points needs ~2.7 GB; the server allows 1 GB per run: lower chains,
// arch or data points".
func costError(w cost.Workload, drivers []string, needs string) *CostError {
	var with []string
	for _, d := range drivers {
		if v, ok := w.Controls[d]; ok {
			with = append(with, d+" "+v.String())
		}
	}
	what := w.Method
	if len(with) > 0 {
		what += " with " + strings.Join(with, " and ")
	}
	if w.Rows > 0 {
		what += " on " + thousands(w.Rows) + " points"
	}
	field := "method"
	lower := ""
	if len(drivers) > 0 {
		field = drivers[0]
		if field == cost.DataPoints {
			field = "data"
		}
		lower = ": lower " + orList(drivers)
	}
	return &CostError{Field: field, Message: what + " " + needs + lower}
}

// totalError refuses a run that fits its own bound but not what the other
// runs leave of the budget of all runs.
func totalError(w cost.Workload, c cost.Cost, spent, total int64) *CostError {
	held := "the server allows " + bytesString(total) + " for all runs together"
	if spent > 0 {
		held = fmt.Sprintf("the runs on the server hold ~%s of the %s they may hold together", bytesString(spent), bytesString(total))
	}
	e := costError(w, c.MemoryDrivers, "needs ~"+bytesString(c.Bytes)+"; "+held)
	e.Message += ", or try again when other runs have ended (a run nobody watches is freed within minutes)"
	e.Total = true
	return e
}

func orList(xs []string) string {
	switch len(xs) {
	case 1:
		return xs[0]
	default:
		return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
	}
}

// bytesString says n in GB or MB, to at most three significant figures:
// "1.3 GB", "512 MB", "0.5 MB".
func bytesString(n int64) string {
	switch mb := float64(n) / (1 << 20); {
	case n >= 1<<30:
		return fmt.Sprintf("%.3g GB", float64(n)/(1<<30))
	case mb >= 10:
		return fmt.Sprintf("%.0f MB", mb)
	default:
		return fmt.Sprintf("%.2g MB", mb)
	}
}

// thousands writes n with thousands separators: 10,000.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
