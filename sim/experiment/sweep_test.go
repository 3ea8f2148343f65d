package experiment

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/datasets"
)

// A sweep loads its data set once: every run holds the same *sim.Dataset,
// the one for base's data seed (the first training seed when DataSeed < 0),
// not one per training seed.
func TestSweepLoadsDataOnce(t *testing.T) {
	base := DefaultConfig()
	base.Data, base.Method, base.Seed, base.Steps = "gap", "mfvi", 5, 1
	prepared, err := prepareSweep(base, "lr", []float64{0.01, 0.02}, 3)
	if err != nil {
		t.Fatal(err)
	}
	d := prepared[0][0].Dataset
	for i, row := range prepared {
		for s, p := range row {
			if p.Dataset != d {
				t.Errorf("run (%d, %d) has its own data set; want the sweep's shared one", i, s)
			}
			if p.Seed != 5+uint64(s) || p.DataSeedUsed() != 5 {
				t.Errorf("run (%d, %d): seed %d, data seed %d; want %d and 5", i, s, p.Seed, p.DataSeedUsed(), 5+s)
			}
		}
	}
	want, err := datasets.Load("gap", 5)
	if err != nil {
		t.Fatal(err)
	}
	if !sameData(d, want) {
		t.Error("the shared data set differs from gap for data seed 5")
	}
	other, _ := datasets.Load("gap", 6)
	if sameData(d, other) {
		t.Error("data seed 6 gives the same data as 5: the check above cannot tell seeds apart")
	}
}

// The parallel runs of a sweep only read the shared data set: after the
// sweep it is as loaded. Under -race, a write by any run (Init, Step,
// evaluation) concurrent with another run's read is reported. The methods
// are those with evidence bounds, the ones a sweep accepts.
func TestSweepRunsLeaveSharedDataIntact(t *testing.T) {
	for _, method := range []string{"mfvi", "gip", "gpvi"} {
		t.Run(method, func(t *testing.T) {
			base := Config{Data: "periodic", Method: method, Seed: 1, DataSeed: 3, Steps: 20, EvalReps: 2, IWBOSamples: 8}
			values := []float64{0.001, 0.01}
			prepared, err := prepareSweep(base, "lr", values, 2)
			if err != nil {
				t.Fatal(err)
			}
			d := prepared[0][0].Dataset
			before := *d
			before.X, before.Y, before.Grid = slices.Clone(d.X), slices.Clone(d.Y), slices.Clone(d.Grid)
			runs, err := runSweep(context.Background(), prepared, values, 4, allRuns, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range runs {
				if p := aggregate(i, values[i], r); p.Seeds != 2 || math.IsNaN(p.ELBOMean) || math.IsNaN(p.IWBOMean) {
					t.Errorf("point %+v: want 2 seeds and finite bounds", p)
				}
			}
			if !sameData(d, &before) {
				t.Error("a run changed the shared data set")
			}
		})
	}
}

// sameData compares everything but Truth (a func) and reports equality.
func sameData(a, b *sim.Dataset) bool {
	return a.Name == b.Name && a.Task == b.Task && slices.Equal(a.X, b.X) && slices.Equal(a.Y, b.Y) &&
		slices.Equal(a.Grid, b.Grid) && a.HasGap == b.HasGap && a.GapCentre == b.GapCentre &&
		a.XScale == b.XScale && a.YScale == b.YScale && a.DefaultModel == b.DefaultModel && a.FromFile == b.FromFile
}
