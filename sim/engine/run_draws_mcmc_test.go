package engine_test

import (
	"github.com/posterior-playground/playground/sim/wire"

	"context"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/datasets"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/mcmc"
)

// TestHMCDrawSetOnLinreg runs the real HMC on linreg through a Run and
// checks the frames' draw sets: the three linear parameters, four chains,
// and live statistics that agree with a converged sampler (R-hat < 1.05 on
// 4×2000 recent draws; bulk ESS above 100).
func TestHMCDrawSetOnLinreg(t *testing.T) {
	d, err := datasets.Load("linreg", 1)
	if err != nil {
		t.Fatal(err)
	}
	m, err := mcmc.NewHMC("linear")
	if err != nil {
		t.Fatal(err)
	}
	c, err := m.Spec().Resolve(sim.Controls{"warmup": sim.Num(300)})
	if err != nil {
		t.Fatal(err)
	}
	r, err := engine.NewRun("hmc", m, d, c, 1, engine.RunOptions{MaxSteps: 3000})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer func() { cancel(); <-r.Done() }()
	r.Start(ctx)
	if err := r.Play(ctx); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(20 * time.Second)
	var cur engine.Cursor
	f, changed := r.Read(&cur)
	for !(f.Status == engine.StatusDone && drawsOf(f) != nil && drawsOf(f).Retained == 2700) {
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("no final frame after 20s: status %s step %d", f.Status, f.Step)
		}
		f, changed = r.Read(&cur)
	}
	ds := drawsOf(f)
	if ds == nil || ds.Retained != 2700 {
		t.Fatalf("status %s, draws %+v", f.Status, ds)
	}
	if ds.Chains != 4 || len(ds.Params) != 3 || ds.Params[0] != "b0" || len(ds.Values["b"][3]) != engine.DrawWindow {
		t.Fatalf("chains %d params %v", ds.Chains, ds.Params)
	}
	for _, p := range ds.Params {
		s := ds.Stats[p]
		if !(s.RHat < 1.05) || !(s.ESSBulk > 100) || math.IsNaN(s.ESSTail) {
			t.Errorf("%s: %+v", p, s.ParamSummary)
		}
	}
	t.Logf("b0 %+v", ds.Stats["b0"].ParamSummary)
}

// TestHMCTraceAllocs: the run calls Trace after every retained step to
// record the draws, which must stay free of allocations for the real
// sampler too.
func TestHMCTraceAllocs(t *testing.T) {
	d, _ := datasets.Load("linreg", 1)
	m, _ := mcmc.NewHMC("linear")
	c, _ := m.Spec().Resolve(nil)
	if err := m.Init(d, c, rand.New(rand.NewPCG(1, 2))); err != nil {
		t.Fatal(err)
	}
	defer m.(interface{ Close() error }).Close()
	m.Step()
	if a := testing.AllocsPerRun(100, func() { m.Trace() }); a != 0 {
		t.Errorf("Trace allocates %v times", a)
	}
}

// drawsOf returns f's draw set, or nil.
func drawsOf(f *engine.Frame) *wire.DrawSet {
	if x := f.Extra("draws"); x != nil {
		return x.Value.(*wire.DrawSet)
	}
	return nil
}
