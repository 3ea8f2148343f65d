package handlers

import (
	"strings"

	"github.com/posterior-playground/playground/sim"
)

// A sampler's spec names a trace per chain slot, "b0.c1" … "b0.c8", so that
// a run keeps its series' names when its chain count changes (a new value
// of chains starts the run again). What a run lists and sends is its own:
// with chains = 2, the .c1 and .c2 series and no others.

// runTraces returns the names, in order, that a run with controls c has:
// those of chain slots beyond c's chains left out.
func runTraces(names []string, c sim.Controls) []string {
	n, ok := chainCount(c)
	if !ok {
		return names
	}
	out := make([]string, 0, len(names))
	for _, name := range names {
		if k, ok := chainSlot(name); !ok || k <= n {
			out = append(out, name)
		}
	}
	return out
}

// chainCount is c's chains control, when it has one.
func chainCount(c sim.Controls) (int, bool) {
	v, ok := c["chains"]
	if !ok || v.IsChoice() {
		return 0, false
	}
	return int(v.Num), true
}

// chainSlot is K of a trace named "param.cK" (K a whole number from 1).
// It allocates nothing: the stream calls it for every trace of every frame.
func chainSlot(name string) (int, bool) {
	i := strings.LastIndex(name, ".c")
	if i < 0 || i+2 == len(name) || len(name)-i > 6 {
		return 0, false
	}
	k := 0
	for _, d := range []byte(name[i+2:]) {
		if d < '0' || d > '9' {
			return 0, false
		}
		k = 10*k + int(d-'0')
	}
	return k, k >= 1
}
