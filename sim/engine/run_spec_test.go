package engine_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/datasets"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/engine/enginetest"
	"github.com/posterior-playground/playground/sim/gip"
)

// A run has one spec, refitted when its data change: after an edit from
// 100 to 200 points GIP takes up to 200 inducing points, the run's Spec
// says so (the page offers what it says), and a set of 150 is applied.
func TestSpecFollowsEditedData(t *testing.T) {
	d, err := datasets.Load("gap", 1)
	if err != nil {
		t.Fatal(err)
	}
	m, err := gip.New("")
	if err != nil {
		t.Fatal(err)
	}
	c, err := sim.SpecFor(m, d).Resolve(sim.Controls{"arch": sim.Choice("8")})
	if err != nil {
		t.Fatal(err)
	}
	r, err := engine.NewRun("gip", m, d, c, 1, engine.RunOptions{Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.Start(ctx)
	defer func() { cancel(); <-r.Done() }()
	bg := context.Background()
	n := d.N()
	xu, yu := make([]float64, 0, 2*n), make([]float64, 0, 2*n)
	for k := range 2 { // every point twice, the copy shifted a little
		for i := range n {
			xu = append(xu, d.XScale.ToUser(d.X[i])+0.01*float64(k))
			yu = append(yu, d.YScale.ToUser(d.Y[i]))
		}
	}
	e, err := datasets.Edit(d, xu, yu)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.SetData(bg, e); err != nil {
		t.Fatal(err)
	}
	if cs, _ := r.Spec().Control("inducing"); cs.Max != float64(2*n) {
		t.Errorf("after the edit to %d points the spec allows up to %g inducing points, want %d", 2*n, cs.Max, 2*n)
	}
	if err := r.Set(bg, "inducing", sim.Num(150)); err != nil {
		t.Fatalf("set inducing 150 on %d points: %v", 2*n, err)
	}
	enginetest.WaitFrame(t, r, 10*time.Second, func(f *engine.Frame) bool { return f.Controls["inducing"] == sim.Num(150) })
}
