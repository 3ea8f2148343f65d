package metrics

import (
	"testing"

	"github.com/posterior-playground/playground/sim/engine"
)

// The stream writer calls FrameSent per frame: it must not allocate.
func TestFrameSentAllocatesNothing(t *testing.T) {
	reg := engine.NewRegistry(engine.RegistryConfig{}, nil, nil)
	defer reg.Close()
	m := New(reg)
	if n := testing.AllocsPerRun(1000, func() { m.FrameSent(4096); m.Command(true) }); n != 0 {
		t.Fatalf("%v allocations per frame", n)
	}
}
