//go:build unix

package web

import (
	"math"
	"testing"
	"time"

	"github.com/google/pprof/profile"
)

// splitCPU counts each run's samples by its label, and within them those
// with publish and the band's draw on the stack; unlabelled samples are
// the rest of the process.
func TestSplitCPU(t *testing.T) {
	fn := func(name string) *profile.Location {
		return &profile.Location{Line: []profile.Line{{Function: &profile.Function{Name: name}}}}
	}
	step, publish, draw := fn("example.com/sim.(*M).Step"), fn("github.com/x/sim/engine.(*Run).publish"), fn("github.com/x/sim/engine.(*bandRec).draw")
	write := fn("net.(*conn).Write")
	sample := func(n int64, run string, stack ...*profile.Location) *profile.Sample {
		s := &profile.Sample{Location: stack, Value: []int64{n, n * 4e6}}
		if run != "" {
			s.Label = map[string][]string{"run": {run}, "method": {"m"}}
		}
		return s
	}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		Sample: []*profile.Sample{
			sample(70, "a", step), sample(20, "a", draw, publish), sample(5, "a", publish),
			sample(40, "b", step), sample(60, "", write),
		},
	}
	s := splitCPU(p)
	if s.all != 195 || s.other != 60 || s.run["a"] != 95 || s.run["b"] != 40 || s.publish["a"] != 25 || s.band["a"] != 20 || s.publish["b"] != 0 {
		t.Errorf("split %+v: want all 195, other 60, run a 95 (publish 25, band 20), run b 40 (publish 0)", s)
	}
	if got, want := s.share(s.run["b"]), 40.0/195; got != want {
		t.Errorf("share of run b %v, want %v", got, want)
	}
}

// lectureCosts on windows built to give exact answers: run a takes 100
// and 120 steps per CPU-second of its own unwatched and 99 watched, so
// 0.9 of the neighbours' mean, with a drift of 1.2; the rest of the
// process takes 0.1 cores unwatched and 0.2 watched, so serving is 0.1
// cores: 1 CPU-second over 10,000 frames and 10 MB.
func TestLectureCosts(t *testing.T) {
	win := func(steps, run, other, frames int64, bps float64) window {
		return window{secs: 10, cores: 1, steps: []int64{steps}, frames: frames, bps: bps,
			cpu: cpuSplit{run: map[string]int64{"a": run}, band: map[string]int64{"a": run / 10}, other: other, all: run + other}}
	}
	alone := []window{win(900, 900, 100, 0, 0), win(1080, 900, 100, 0, 0)}
	watched := []window{win(792, 800, 200, 10_000, 1e6)}
	c := lectureCosts([]string{"a"}, alone, watched)
	near := func(got, want float64) bool { return math.Abs(got-want) < 1e-12 }
	if !near(c.own[0], 0.9) || !near(c.drift[0], 1.2) {
		t.Errorf("own %v, drift %v: want 0.9 and 1.2", c.own, c.drift)
	}
	if !near(c.serve, 0.1) || c.perFrame != 100*time.Microsecond || c.perMB != 100*time.Millisecond || c.frameSec != 1000 || c.mbps != 1 {
		t.Errorf("serve %v cores, %v per frame, %v per MB, %v frames/s, %v MB/s: want 0.1, 100µs, 100ms, 1000, 1", c.serve, c.perFrame, c.perMB, c.frameSec, c.mbps)
	}
	if c.minSamples != 800 || !near(c.band[0], 0.1) || !near(c.band[1], 0.1) {
		t.Errorf("fewest samples %d, band shares %v: want 800 and 0.1 each", c.minSamples, c.band)
	}
}
