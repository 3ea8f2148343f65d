package engine

import (
	"github.com/posterior-playground/playground/sim/wire"

	"github.com/posterior-playground/playground/sim"

	"fmt"
	"math"
	"math/rand/v2"
	"sync/atomic"
	"time"
)

// fakeMethod is a deterministic stand-in for a method: x relaxes towards
// prior_scale with a little noise from the run's stream, and the objective
// is −(x − k)² − log k, so a change of k shows at once.
type fakeMethod struct {
	k, lr, width float64
	kernel       string
	x            float64
	r            *rand.Rand
	steps        int64

	nanAt, panicAt int64 // step at which Step returns NaN or panics; 0 never
	panicPredict   bool
	stepDelay      time.Duration // a step's cost: inside a synctest bubble it is what moves the fake clock while the run steps
	predictDelay   time.Duration // a band's cost
	predicts       int
	traceBuf       []float64 // when set, Trace fills it instead of allocating
	initErr        func(sim.Controls) error
	maxPoints      int // the spec's MaxPoints; 0 unbounded

	// Gates for long calls: when set, Init waits for initGate to close, and
	// every Step signals stepEntered (when set, without blocking) and then
	// waits for a value from stepGate or its close. inits and sets count
	// the calls that got through.
	initGate    chan struct{}
	stepGate    chan struct{}
	stepEntered chan struct{}
	inits, sets atomic.Int64
}

func (f *fakeMethod) Spec() sim.MethodSpec {
	return sim.MethodSpec{
		Name: "fake", Label: "Fake", Family: sim.FamilyVI,
		Controls: []sim.ControlSpec{
			{Name: "prior_scale", Min: 0.1, Max: 10, Step: 0.1, Default: sim.Num(1), Live: true},
			{Name: "lr", Min: 0, Max: 1, Step: 0.01, Default: sim.Num(0.1), Live: true},
			{Name: "width", Min: 1, Max: 100, Step: 1, Default: sim.Num(10), Integer: true},
			{Name: "kernel", Default: sim.Choice("eq"), Options: []string{"eq", "periodic"}, Live: true},
			{Name: "boom", Min: 0, Max: 1, Default: sim.Num(0), Live: true}, // Set panics
		},
		Traces:    []string{"x", "k"},
		MaxPoints: f.maxPoints, MaxPointsWhy: "a fake bound",
	}
}

func (f *fakeMethod) Init(d *sim.Dataset, c sim.Controls, r *rand.Rand) error {
	if f.initGate != nil {
		<-f.initGate
	}
	f.inits.Add(1)
	if f.initErr != nil {
		if err := f.initErr(c); err != nil {
			return err
		}
	}
	f.k, f.lr, f.width, f.kernel = c["prior_scale"].Num, c["lr"].Num, c["width"].Num, c["kernel"].Choice
	f.r, f.steps = r, 0
	f.x = 0.01 * r.NormFloat64()
	return nil
}

func (f *fakeMethod) Step() sim.StepStats {
	if f.stepGate != nil {
		select {
		case f.stepEntered <- struct{}{}:
		default:
		}
		<-f.stepGate
	}
	f.steps++
	if f.stepDelay > 0 {
		time.Sleep(f.stepDelay) // stands for work; in a bubble the fake clock advances by exactly this
	}
	if f.steps == f.panicAt {
		panic("fake step exploded")
	}
	if f.steps == f.nanAt {
		return sim.StepStats{Objective: math.NaN()}
	}
	f.x += f.lr*(f.k-f.x) + 0.01*f.r.NormFloat64()
	return sim.StepStats{Objective: -(f.x-f.k)*(f.x-f.k) - math.Log(f.k)}
}

func (f *fakeMethod) Set(name string, v sim.Value) error {
	c, ok := f.Spec().Control(name)
	if !ok {
		return fmt.Errorf("unknown control %s", name)
	}
	if err := c.Validate(v); err != nil {
		return err
	}
	f.sets.Add(1)
	switch name {
	case "prior_scale":
		f.k = v.Num
	case "lr":
		f.lr = v.Num
	case "kernel":
		f.kernel = v.Choice
	case "boom":
		panic("fake set exploded")
	}
	return nil
}

// Predict returns f_s(x) = x_state·x + 0.1·(s − (S−1)/2): mean x_state·x and
// sample standard deviation 0.1·sqrt(S(S+1)/12).
func (f *fakeMethod) Predict(xs []float64, samples int) sim.Predictive {
	if f.panicPredict {
		panic("fake predict exploded")
	}
	f.predicts++
	if f.predictDelay > 0 {
		time.Sleep(f.predictDelay) // stands for work, as stepDelay
	}
	p := sim.Predictive{X: xs, Samples: make([][]float64, samples)}
	for s := range p.Samples {
		p.Samples[s] = make([]float64, len(xs))
		for i, x := range xs {
			p.Samples[s][i] = f.x*x + 0.1*(float64(s)-float64(samples-1)/2)
		}
	}
	return p
}

func (f *fakeMethod) Trace() []float64 {
	if f.traceBuf != nil {
		f.traceBuf[0], f.traceBuf[1] = f.x, f.k
		return f.traceBuf
	}
	return []float64{f.x, f.k}
}

func (f *fakeMethod) NoiseStd() float64 { return 0.5 }

func (f *fakeMethod) Extras() sim.Extras { return sim.Extras{NoiseStd: f.NoiseStd} }

func fakeDataset() *sim.Dataset {
	return &sim.Dataset{
		Name: "fake", Task: sim.Regression,
		X: []float64{-1, 0, 1}, Y: []float64{0.5, 0, -0.5},
		Grid:   []float64{-2, -1, 0, 1, 2},
		Truth:  func(x float64) float64 { return -x / 2 },
		XScale: sim.Affine{Mean: 10, Std: 2}, YScale: sim.Affine{Mean: -3, Std: 4},
	}
}

func fakeControls() sim.Controls {
	c, err := (&fakeMethod{}).Spec().Resolve(nil)
	if err != nil {
		panic(err)
	}
	return c
}

// weightsOf returns f's weight marginal, or nil.
func weightsOf(f *Frame) *wire.WeightSet {
	if x := f.Extra("weights"); x != nil {
		return x.Value.(*wire.WeightSet)
	}
	return nil
}
