package gallery

import (
	"errors"
	"testing"

	"github.com/posterior-playground/playground/sim"
)

// EngineMethod's Step, the engine's hot loop, allocates nothing once the
// run's buffers are in place, for a sampler (NUTS, its tree recorded
// every step) and a family; a method it does not know, and chains out of
// range, are field errors naming them.
func TestEngineMethodStepAllocatesNothing(t *testing.T) {
	ex := newRun(t, gaussian("nuts", 1)).Exact()
	for _, method := range []string{"nuts", "metropolis", "fullrank"} {
		m := newEngineMethod(t, ex, method, 0)
		for range 2000 { // past warm-up and the history's first doublings
			m.Step()
		}
		if a := testing.AllocsPerRun(100, func() { m.Step() }); a > 0.05 { // a history's costly measure may fall in the 100
			t.Errorf("%s: %.2f allocations a step, want 0", method, a)
		}
	}
	for _, c := range []struct {
		method string
		chains int
		field  string
	}{{"gibbs", 0, "method"}, {"nuts", MaxChains + 1, "chains"}, {"mfvi", 2, "chains"}} {
		if _, err := NewEngineMethod(ex, c.method, c.chains); fieldOf(err) != c.field {
			t.Errorf("%s with %d chains: %v, want a field error naming %s", c.method, c.chains, err, c.field)
		}
	}
}

// fieldOf is the field a *sim.FieldError names, "" for any other error.
func fieldOf(err error) string {
	if fe, ok := errors.AsType[*sim.FieldError](err); ok {
		return fe.Field
	}
	return ""
}
