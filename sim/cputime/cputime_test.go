package cputime

import (
	"runtime"
	"testing"
	"time"
)

// Burning CPU in a loop advances Process. getrusage's resolution is a clock
// tick (≤ 10 ms typically) and on a shared machine the loop may get only a
// small share of a core, so it spins until CPU time has risen by 20 ms or 5 s
// of wall time have passed, and fails only in the second case. Off unix
// Process is 0 throughout.
func TestProcessIncreases(t *testing.T) {
	c0 := Process()
	start := time.Now()
	x := 1.0
	for Process()-c0 < 20*time.Millisecond && time.Since(start) < 5*time.Second {
		for range 100_000 {
			x = x*1.0000001 + 1e-9
		}
		if !measured {
			break
		}
	}
	runtime.KeepAlive(x)
	c1 := Process()
	if !measured {
		if c0 != 0 || c1 != 0 {
			t.Errorf("Process = %v then %v off unix, want 0", c0, c1)
		}
		return
	}
	if c0 <= 0 {
		t.Errorf("Process() = %v at start, want > 0 (the test binary has already run)", c0)
	}
	if d := c1 - c0; d < 20*time.Millisecond {
		t.Errorf("CPU time rose by %v over %v of busy loop, want ≥ 20ms", d, time.Since(start))
	}
}

// A busy loop on a locked thread advances Thread by about the CPU it used:
// at least 20 ms of thread CPU time, and no more than the process's.
func TestThreadIncreases(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0, ok := Thread()
	if !ok {
		t.Skip("no thread CPU clock on this platform")
	}
	p0, start := Process(), time.Now()
	x := 1.0
	for {
		if t1, _ := Thread(); t1-t0 >= 20*time.Millisecond || time.Since(start) > 5*time.Second {
			break
		}
		for range 100_000 {
			x = x*1.0000001 + 1e-9
		}
	}
	runtime.KeepAlive(x)
	t1, _ := Thread()
	p1 := Process()
	if d := t1 - t0; d < 20*time.Millisecond {
		t.Errorf("thread CPU time rose by %v over %v of busy loop, want ≥ 20ms", d, time.Since(start))
	}
	// getrusage counts in clock ticks: allow one tick (10 ms) of slack.
	if d, p := t1-t0, p1-p0; d > p+10*time.Millisecond {
		t.Errorf("the thread used %v, more than the process's %v", d, p)
	}
}
