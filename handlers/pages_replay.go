package handlers

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/wire"
)

// A link to a run's state carries, per panel, METHOD.replay=STEP followed
// by the live changes since its last reset, each ",STEP:NAME:VALUE": the
// panel's run is replayed there (engine's Replay) instead of starting at
// step 0. The changes are checked here against the panel's spec and the
// engine's limits, so a bad link is a page error naming the parameter.

// parseReplay reads raw, the value of key, and checks it as a run's
// replay would be (engine.CheckReplay), naming key.
func parseReplay(key, raw string, spec sim.MethodSpec) (*wire.Replay, error) {
	bad := func(format string, a ...any) error {
		return &sim.FieldError{Field: key, Message: fmt.Sprintf(format, a...) +
			fmt.Sprintf(" (want STEP then ,STEP:NAME:VALUE for each change; at most %d steps and %d changes)", engine.MaxReplaySteps, engine.MaxReplayChanges)}
	}
	parts := strings.Split(raw, ",")
	if len(parts) > engine.MaxReplayChanges+1 {
		return nil, bad("%d changes", len(parts)-1)
	}
	step, err := strconv.ParseInt(parts[0], 10, 64)
	if err != nil || step < 0 || step > engine.MaxReplaySteps {
		return nil, bad("%q is not a step in [0, %d]", parts[0], engine.MaxReplaySteps)
	}
	p := &wire.Replay{Step: step}
	for _, part := range parts[1:] {
		s, rest, ok1 := strings.Cut(part, ":")
		name, val, ok2 := strings.Cut(rest, ":")
		at, err := strconv.ParseInt(s, 10, 64)
		if !ok1 || !ok2 || err != nil {
			return nil, bad("change %q is not STEP:NAME:VALUE", part)
		}
		v := sim.Choice(val)
		if c, ok := spec.Control(name); ok && !c.Textual() {
			x, err := strconv.ParseFloat(val, 64)
			if err != nil {
				return nil, bad("change %q: %q is not a number", part, val)
			}
			v = sim.Num(x)
		}
		p.Changes = append(p.Changes, wire.Mark{Step: at, Name: name, Value: v})
	}
	if err := engine.CheckReplay(p, spec); err != nil { // the rules a run's replay keeps
		return nil, bad("%v", err)
	}
	return p, nil
}

// formatReplay is parseReplay's inverse, for canonical links.
func formatReplay(p *wire.Replay) string {
	var b strings.Builder
	b.WriteString(strconv.FormatInt(p.Step, 10))
	for _, c := range p.Changes {
		fmt.Fprintf(&b, ",%d:%s:%s", c.Step, c.Name, c.Value.String())
	}
	return b.String()
}
