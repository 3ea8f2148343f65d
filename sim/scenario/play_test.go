package scenario

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/cputime"
	"github.com/posterior-playground/playground/sim/datasets"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/experiment"
	"github.com/posterior-playground/playground/sim/wire"
)

// scenarioRuns are a scenario's panels as engine runs for one seed, made
// the way the API makes them (startRun) with the scenario's controls.
type scenarioRuns struct {
	runs    []*engine.Run
	settled []bool // the method has nothing to iterate (sim.Extras.Settled): it records one step and stays there
	cancel  context.CancelFunc
}

// startScenario creates and starts one run per method of s, paused at step
// 0, with seed for data and runs alike (the page's seed).
func startScenario(tb testing.TB, s Scenario, seed uint64) *scenarioRuns {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	sr := &scenarioRuns{cancel: cancel}
	for _, method := range s.Methods {
		r, settled, err := startRun(ctx, s.Data, method, scenarioControls(tb, s, method), seed)
		if err != nil {
			sr.close()
			tb.Fatalf("%s: %s: %v", s.Slug, method, err)
		}
		sr.runs = append(sr.runs, r)
		sr.settled = append(sr.settled, settled)
	}
	return sr
}

// startRun makes a run as the API does for a built-in data set (the data
// set generated for seed, the method from the catalog, the controls
// resolved against it) and starts it, paused at step 0; settled reports a
// method with nothing to iterate.
func startRun(ctx context.Context, data, method string, c sim.Controls, seed uint64) (r *engine.Run, settled bool, err error) {
	d, err := datasets.Load(data, seed)
	if err != nil {
		return nil, false, err
	}
	m, d, _, controls, err := experiment.NewMethod(d, method, "", c, false)
	if err != nil {
		return nil, false, err
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	r, err = engine.NewRun(fmt.Sprintf("%s-%s-%d", data, method, seed), m, d, controls, seed, engine.RunOptions{Log: log})
	if err != nil {
		return nil, false, err
	}
	if st := sim.ExtrasOf(m); st.Settled != nil {
		_, settled = st.Settled() // before Start: the run's goroutine owns m from then on
	}
	r.Start(ctx)
	return r, settled, nil
}

func (sr *scenarioRuns) close() {
	sr.cancel()
	for _, r := range sr.runs {
		<-r.Done()
	}
}

// scenarioControls are the controls the scenario's page sends for
// method's run (Scenario.RunControls).
func scenarioControls(tb testing.TB, s Scenario, method string) sim.Controls {
	tb.Helper()
	c, err := s.RunControls(method)
	if err != nil {
		tb.Fatalf("%s: %v", s.Slug, err)
	}
	return c
}

// settledTarget is the step a run is stepped to for target: a settled
// method records one step and then shows that state at every later step.
func settledTarget(target int64, settled bool) int64 {
	if settled {
		return min(target, 1)
	}
	return target
}

// stepTo sends step commands until r is paused at target with nothing
// pending and a band drawn there.
func stepTo(ctx context.Context, r *engine.Run, target int64) (*engine.Frame, error) {
	var cur engine.Cursor
	sent := int64(-1) // the step a command was sent at, until a frame shows it taken
	for {
		f, changed := r.Read(&cur)
		if sent >= 0 && (f.Step > sent || f.Pending > 0) {
			sent = -1
		}
		switch {
		case f.Step > target:
			return nil, fmt.Errorf("%s stepped past %d to %d", r.ID(), target, f.Step)
		case f.Status == engine.StatusDiverged || f.Status == engine.StatusDone:
			return nil, fmt.Errorf("%s stopped at step %d: %s", r.ID(), f.Step, f.Message)
		case sent >= 0:
		case f.Status == engine.StatusPaused && f.Pending == 0 && f.Step == target:
			return f, nil
		case f.Status == engine.StatusPaused && f.Pending == 0:
			if err := r.Step(ctx, min(target-f.Step, engine.MaxStepCommand)); err != nil {
				return nil, err
			}
			sent = f.Step
			continue
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, fmt.Errorf("%s at step %d of %d: %w", r.ID(), f.Step, target, ctx.Err())
		}
	}
}

// BenchmarkScenarioSecondsToClaim plays each scenario's panels together,
// as its page does after Play (no speed cap, the page's default; one run
// per panel, each in its own goroutine), from step 0 until every panel has
// passed the claim step, and reports the wall time as s-to-claim and each
// panel's steps per second over that time, all panels running throughout,
// as steps/s-METHOD (the best pass; a settled method, which records one
// step, reports none), and the process's CPU time over the pass as cpu-s
// (on a loaded machine the wall time is the machine's; the CPU time, all
// panels' work including what the fast ones do past the claim step, less
// so). Bands are drawn as for a viewer. Run with
// -benchtime 1x: one pass is seconds long. What it leaves out: the page's
// websocket encoding and the browser's drawing, which share the machine
// with the runs.
func BenchmarkScenarioSecondsToClaim(b *testing.B) {
	for _, s := range All() {
		if s.Claim == nil {
			continue
		}
		b.Run(s.Slug, func(b *testing.B) {
			var total, cpu time.Duration
			rates := make([]float64, len(s.Methods))
			for range b.N {
				sr := startScenario(b, s, s.Seed)
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
				start, cpu0 := time.Now(), cputime.Process()
				for _, r := range sr.runs {
					if err := r.Play(ctx); err != nil {
						b.Fatal(err)
					}
				}
				for i, r := range sr.runs {
					target := settledTarget(s.Claim.Step, sr.settled[i])
					var cur engine.Cursor
					for {
						f, changed := r.Read(&cur)
						if f.Step >= target {
							break
						}
						select {
						case <-changed:
						case <-ctx.Done():
							b.Fatalf("%s: %s at step %d of %d after %v", s.Slug, s.Methods[i], f.Step, target, time.Since(start))
						}
					}
				}
				elapsed := time.Since(start)
				total += elapsed
				cpu += cputime.Process() - cpu0
				// Every panel ran from start to now: its rate is its latest
				// frame's step over the time that frame was published at.
				for i, r := range sr.runs {
					var cur engine.Cursor
					f, _ := r.Read(&cur)
					if t := f.Time.Sub(start).Seconds(); t > 0 && !sr.settled[i] {
						rates[i] = max(rates[i], float64(f.Step)/t)
					}
				}
				cancel()
				sr.close()
			}
			b.ReportMetric(total.Seconds()/float64(b.N), "s-to-claim")
			if cpu > 0 {
				b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s")
			}
			for i, m := range s.Methods {
				if rates[i] > 0 { // none for a settled method
					b.ReportMetric(rates[i], "steps/s-"+m)
				}
			}
		})
	}
}

// BenchmarkScenarioSecondsToRHat plays each scenario whose text promises
// that its sampler's R-hat for f_mid (f at the gap's centre) falls below
// 1.01 while one watches as
// BenchmarkScenarioSecondsToClaim does, all panels together, and reports
// when that panel's draw set, as the dashboard shows it (rank-normalised
// split R-hat over the last engine.StatsWindow retained draws per chain),
// first has R-hat < 1.01: the wall time as s-to-rhat and the step its
// statistics were taken at as rhat-step. It fails if that takes more than
// two minutes. Run with -benchtime 1x.
func BenchmarkScenarioSecondsToRHat(b *testing.B) {
	const limit = 2 * time.Minute
	for _, slug := range []string{"nn-vi-vs-mcmc"} {
		s, ok := BySlug(slug)
		if !ok {
			b.Fatalf("no scenario %s", slug)
		}
		sampler := slices.Index(s.Methods, "nuts")
		if sampler < 0 {
			b.Fatalf("%s has no nuts panel", slug)
		}
		b.Run(s.Slug, func(b *testing.B) {
			var total time.Duration
			var steps int64
			for range b.N {
				sr := startScenario(b, s, s.Seed)
				ctx, cancel := context.WithTimeout(context.Background(), limit)
				start := time.Now()
				for _, r := range sr.runs {
					if err := r.Play(ctx); err != nil {
						b.Fatal(err)
					}
				}
				var cur engine.Cursor
				for {
					f, changed := sr.runs[sampler].Read(&cur)
					if rhat, step, ok := fMidRHat(f); ok && rhat < 1.01 {
						total += f.Time.Sub(start)
						steps += step
						break
					}
					select {
					case <-changed:
					case <-ctx.Done():
						b.Fatalf("%s: %s's R-hat for f_mid not below 1.01 after %v (step %d)", s.Slug, s.Methods[sampler], limit, f.Step)
					}
				}
				cancel()
				sr.close()
			}
			b.ReportMetric(total.Seconds()/float64(b.N), "s-to-rhat")
			b.ReportMetric(float64(steps)/float64(b.N), "rhat-step")
		})
	}
}

// fMidRHat is f_mid's R-hat in f's draw set and the step the set's
// statistics were computed at; ok is false before there are any.
func fMidRHat(f *engine.Frame) (rhat float64, step int64, ok bool) {
	x := f.Extra("draws")
	if x == nil {
		return 0, 0, false
	}
	ds, _ := x.Value.(*wire.DrawSet)
	if ds == nil {
		return 0, 0, false
	}
	p, ok := ds.Stats["f_mid"]
	if !ok || math.IsNaN(p.RHat) {
		return 0, 0, false
	}
	return p.RHat, ds.StatsStep, true
}
