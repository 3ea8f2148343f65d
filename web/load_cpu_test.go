//go:build unix

package web

import (
	"bytes"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

// cpuProfileHz is the CPU profiler's rate asked for while the lecture
// measures. Linux checks a thread's CPU timer at its scheduler tick
// (CONFIG_HZ: 250 here, 100 to 1000 elsewhere), so a thread is sampled at
// most that often whatever the rate asked, and the profile's own period
// (1/cpuProfileHz per sample) undercounts: the split reads shares of the
// samples, not their times, and scales them to the CPU time the process
// received (getrusage). A sample goes to the goroutine running at the
// tick, so a run's share errs by at most one sample at each end of each
// stretch it held a thread (a batch of steps, most of them 10 ms, longer
// than a tick): the count's error grows with the square root of the
// stretches, not of the samples.
const cpuProfileHz = 1000

// Functions the split charges a run's publishing to: publish builds a
// frame (drawing the band when one is due, bandRec.draw).
const (
	publishFunc = "sim/engine.(*Run).publish"
	bandFunc    = "sim/engine.(*bandRec).draw"
)

// cpuSplit is where a window's CPU went, as profile samples counted by
// the profiler labels the engine gives each run's goroutines (run=ID,
// inherited by a sampler's chains): each run's, and within it publishing
// (band included) and the band alone; and the rest of the process's (the
// viewers' hubs and writers, the GC's workers, the test's own goroutines).
type cpuSplit struct {
	run, publish, band map[string]int64
	other, all         int64
}

// share is the fraction of the window's samples n is.
func (s cpuSplit) share(n int64) float64 { return float64(n) / float64(s.all) }

// profileCPU profiles the process from now until stop, at cpuProfileHz,
// and returns the split. With PLAYGROUND_CLASSROOM_CPUPROFILE set it also
// writes the profile to that path with "."+name added (go tool pprof
// -tagfocus run=ID reads one run's part).
func profileCPU(t *testing.T, name string) (stop func() cpuSplit) {
	t.Helper()
	// StartCPUProfile sets the rate to 100 Hz unless a rate is already
	// set, and then prints "cannot set cpu profile rate": the line in the
	// test's output is this, not an error. The profile records the rate
	// in effect.
	runtime.SetCPUProfileRate(cpuProfileHz)
	var buf bytes.Buffer
	if err := pprof.StartCPUProfile(&buf); err != nil {
		runtime.SetCPUProfileRate(0)
		t.Fatalf("the lecture splits its CPU by a profile of each window (run it without -cpuprofile; PLAYGROUND_CLASSROOM_CPUPROFILE writes them): %v", err)
	}
	return func() cpuSplit {
		t.Helper()
		pprof.StopCPUProfile()
		if path := os.Getenv("PLAYGROUND_CLASSROOM_CPUPROFILE"); path != "" {
			if err := os.WriteFile(path+"."+name, buf.Bytes(), 0o644); err != nil {
				t.Error(err)
			}
		}
		p, err := profile.Parse(&buf)
		if err != nil {
			t.Fatalf("the %s window's CPU profile: %v", name, err)
		}
		return splitCPU(p)
	}
}

// splitCPU counts p's samples by run.
func splitCPU(p *profile.Profile) cpuSplit {
	s := cpuSplit{run: map[string]int64{}, publish: map[string]int64{}, band: map[string]int64{}}
	for _, smp := range p.Sample {
		n := smp.Value[0] // samples/count, a CPU profile's first value
		s.all += n
		ids := smp.Label["run"]
		if len(ids) == 0 {
			s.other += n
			continue
		}
		id := ids[0]
		s.run[id] += n
		if inStack(smp, publishFunc) {
			s.publish[id] += n
		}
		if inStack(smp, bandFunc) {
			s.band[id] += n
		}
	}
	return s
}

// inStack reports whether a function whose name ends in fn is on smp's
// stack.
func inStack(smp *profile.Sample, fn string) bool {
	for _, loc := range smp.Location {
		for _, l := range loc.Line {
			if l.Function != nil && strings.HasSuffix(l.Function.Name, fn) {
				return true
			}
		}
	}
	return false
}
