package engine_test

import (
	"context"
	"io"
	"log/slog"
	"math"
	"testing"
	"time"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/datasets"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/engine/enginetest"
	"github.com/posterior-playground/playground/sim/gp"
	"github.com/posterior-playground/playground/sim/mfvi"
)

// A band carries f's closed-form moments for a method that has them: the
// exact GP's band on the gap data holds its PredictMoments on the grid in
// user units (those of a second exact GP on the same data and controls,
// the closed form being deterministic: to rounding), and its sds agree
// with the band's own, read off its sampled functions, to their Monte
// Carlo error. Mean-field VI's band (a network's f: no closed form) holds
// none.
func TestBandCarriesClosedFormMoments(t *testing.T) {
	d, err := datasets.Load("gap", 1)
	if err != nil {
		t.Fatal(err)
	}
	m, err := gp.NewExact("")
	if err != nil {
		t.Fatal(err)
	}
	c, err := sim.SpecFor(m, d).Resolve(sim.Controls{"learn_noise": sim.Num(0)})
	if err != nil {
		t.Fatal(err)
	}
	const bandSamples = 400
	f := firstBand(t, m, d, c, bandSamples)
	ref, err := gp.NewExact("")
	if err != nil {
		t.Fatal(err)
	}
	if err := ref.Init(d, c, numeric.NewStream(1, sim.StreamRun)); err != nil {
		t.Fatal(err)
	}
	n := len(d.Grid)
	em, es := make([]float64, n), make([]float64, n)
	if !sim.ExtrasOf(ref).PredictMoments(d.Grid, em, es) {
		t.Fatal("no exact moments")
	}
	b := f.Predictive
	if len(b.FMean) != n || len(b.FSD) != n {
		t.Fatalf("the band has %d means and %d sds of f, want %d", len(b.FMean), len(b.FSD), n)
	}
	for i := range n {
		wantM, wantS := d.YScale.ToUser(em[i]), es[i]*math.Abs(d.YScale.Std)
		if math.Abs(b.FMean[i]-wantM) > 1e-9*(1+math.Abs(wantM)) || math.Abs(b.FSD[i]-wantS) > 1e-9*wantS {
			t.Fatalf("grid point %d: f_mean %g and f_sd %g, want %g and %g", i, b.FMean[i], b.FSD[i], wantM, wantS)
		}
	}
	// The band's sds from S sampled functions: a sample sd's relative
	// error is about 1/√(2(S−1)) (3.5% at S = 400); the largest over the
	// grid's 201 correlated points stays within 5 of those (a 5-sd
	// excursion has probability 6e-7 a point).
	tol := 5 / math.Sqrt(2*(bandSamples-1))
	for i := range n {
		if sd := (b.Hi[i] - b.Lo[i]) / 4; math.Abs(sd/b.FSD[i]-1) > tol {
			t.Fatalf("grid point %d: the sampled functions' sd %g, the closed form's %g: more than %.0f%% apart", i, sd, b.FSD[i], 100*tol)
		}
	}

	mf, err := mfvi.New("")
	if err != nil {
		t.Fatal(err)
	}
	mc, err := sim.SpecFor(mf, d).Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	if g := firstBand(t, mf, d, mc, 20).Predictive; g.FMean != nil || g.FSD != nil {
		t.Errorf("mean-field VI's band has closed-form moments: %d, %d", len(g.FMean), len(g.FSD))
	}
}

// firstBand starts a run of m, steps it once and returns its first frame
// with a band.
func firstBand(t *testing.T, m sim.Method, d *sim.Dataset, c sim.Controls, bandSamples int) *engine.Frame {
	t.Helper()
	r, err := engine.NewRun("band", m, d, c, 1, engine.RunOptions{BandSamples: bandSamples, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.Start(ctx)
	t.Cleanup(func() { cancel(); <-r.Done() })
	if err := r.Step(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	return enginetest.WaitFrame(t, r, 30*time.Second, func(f *engine.Frame) bool { return f.Step >= 1 && f.Predictive != nil })
}
