package engine_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/cost"
	"github.com/posterior-playground/playground/sim/datasets"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/mfvi"
	"github.com/posterior-playground/playground/sim/wire"
)

// uploaded is n points as a user's file gives them, on x in [−4, 4].
func uploaded(t *testing.T, n int) *sim.Dataset {
	t.Helper()
	var b strings.Builder
	b.WriteString("x,y\n")
	r := rand.New(rand.NewPCG(5, 6))
	for range n {
		x := 8*r.Float64() - 4
		fmt.Fprintf(&b, "%g,%g\n", x, x+r.NormFloat64())
	}
	d, err := datasets.LoadCSV(strings.NewReader(b.String()), "upload")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// mfviRegistry builds mfvi runs on d within budget.
func mfviRegistry(t *testing.T, d *sim.Dataset, budget engine.Budget) *engine.Registry {
	t.Helper()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	g := engine.NewRegistry(engine.RegistryConfig{Budget: budget}, func(cfg engine.RunConfig) (sim.Method, *sim.Dataset, sim.Controls, error) {
		m, err := mfvi.New("bnn")
		if err != nil {
			return nil, nil, nil, err
		}
		c, err := sim.Resolve(m, d, cfg.Controls)
		return m, d, c, err
	}, quiet)
	t.Cleanup(g.Close)
	return g
}

// estimate is the budget's estimate of mfvi with arch on d.
func estimate(t *testing.T, d *sim.Dataset, arch string) int64 {
	m, err := mfvi.New("bnn")
	if err != nil {
		t.Fatal(err)
	}
	c, err := sim.Resolve(m, d, sim.Controls{"arch": sim.Choice(arch)})
	if err != nil {
		t.Fatal(err)
	}
	return cost.Estimate(cost.Workload{Method: "mfvi", Model: "bnn", Controls: c, Rows: d.N()}).Bytes
}

func mfviWith(arch string) engine.RunConfig {
	return engine.RunConfig{Data: "upload", Method: "mfvi", Controls: sim.Controls{"arch": sim.Choice(arch)}}
}

// TestBudgetRefusesARunBeforeItIsBuilt: a run dearer than a run may be is
// refused naming what to lower, and leaves nothing counted.
func TestBudgetRefusesARunBeforeItIsBuilt(t *testing.T) {
	d := uploaded(t, 2000)
	small := estimate(t, d, "50,50")
	g := mfviRegistry(t, d, engine.Budget{RunBytes: 2 * small})
	_, err := g.Create(mfviWith("256,256"), "a")
	ce, ok := errors.AsType[*engine.CostError](err)
	if !ok || ce.Total || ce.Field != "arch" || !strings.Contains(ce.Message, "mfvi with arch 256,256 on 2,000 points needs ~") ||
		!strings.Contains(ce.Message, "per run: lower arch or data points") {
		t.Fatalf("got %v, want a CostError on arch saying what the run needs and what to lower", err)
	}
	if _, ok := errors.AsType[*sim.FieldError](err); !ok {
		t.Errorf("%v is not also a FieldError", err)
	}
	if g.Len() != 0 || g.Spent() != 0 {
		t.Errorf("refused: %d runs, %d bytes counted; want none", g.Len(), g.Spent())
	}
	if _, err := g.Create(mfviWith("50,50"), "a"); err != nil {
		t.Fatal(err)
	}
}

// TestBudgetOfAllRuns: runs are admitted while their estimates fit the
// budget of all runs; a refusal says so (Total), and a deleted run's
// estimate is given back.
func TestBudgetOfAllRuns(t *testing.T) {
	d := uploaded(t, 2000)
	one := estimate(t, d, "100")
	g := mfviRegistry(t, d, engine.Budget{TotalBytes: 2*one + one/2})
	a, err := g.Create(mfviWith("100"), "a")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Create(mfviWith("100"), "b"); err != nil {
		t.Fatal(err)
	}
	if g.Spent() != 2*one {
		t.Errorf("two runs count %d bytes, want %d", g.Spent(), 2*one)
	}
	_, err = g.Create(mfviWith("100"), "c")
	if ce, ok := errors.AsType[*engine.CostError](err); !ok || !ce.Total || !strings.Contains(ce.Message, "try again when other runs have ended") {
		t.Fatalf("third run: %v, want a CostError on the budget of all runs", err)
	}
	if err := g.Delete(a.ID()); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Create(mfviWith("100"), "c"); err != nil {
		t.Fatalf("after a delete: %v", err)
	}
}

// TestBudgetHoldsLiveChanges: a control set or a data edit that would
// make a run dearer than the budget allows is refused like a create, and
// the run keeps what it had; one that fits is taken.
func TestBudgetHoldsLiveChanges(t *testing.T) {
	d := uploaded(t, 1000)
	g := mfviRegistry(t, d, engine.Budget{RunBytes: 2 * estimate(t, d, "50,50")})
	r, err := g.Create(mfviWith("50,50"), "a")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	spent := g.Spent()
	err = r.Set(ctx, "arch", sim.Choice("256,256,256,256"))
	if ce, ok := errors.AsType[*engine.CostError](err); !ok || ce.Field != "arch" {
		t.Fatalf("set arch 256×4: %v, want a CostError on arch", err)
	}
	if got := r.Latest().Controls["arch"]; got != sim.Choice("50,50") || g.Spent() != spent {
		t.Errorf("after the refusal: arch %v, %d bytes counted; want 50,50 and %d", got, g.Spent(), spent)
	}
	if err := r.Set(ctx, "arch", sim.Choice("40,40")); err != nil {
		t.Fatalf("set arch 40,40: %v", err)
	}

	// Eight times the points: the network on every point holds eight times
	// as much, past twice the run's first estimate.
	xs, ys := make([]float64, 8*d.N()), make([]float64, 8*d.N())
	for i := range xs {
		xs[i] = 8*float64(i)/float64(len(xs)) - 4
		ys[i] = xs[i]
	}
	err = r.Do(ctx, wire.Op{Op: engine.OpData, X: xs, Y: ys}, nil)
	if ce, ok := errors.AsType[*engine.CostError](err); !ok || ce.Field != "arch" || !strings.Contains(ce.Message, "on 8,000 points") {
		t.Fatalf("data edit to 8,000 points: %v, want a CostError", err)
	}
	smaller, err := datasets.Edit(d, xs[:200], ys[:200])
	if err != nil {
		t.Fatal(err)
	}
	if err := r.SetData(ctx, smaller); err != nil {
		t.Fatalf("data edit to 200 points: %v", err)
	}
}
