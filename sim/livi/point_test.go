package livi

import (
	"errors"
	"math"
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
)

// MAP's gradient of −(log p(y|θ) + log p(θ))/N against central differences
// (h = 1e-6, loss O(30): rounding ≈ 3e-9) at 40 random weights and log σ.
func TestMAPGradientFiniteDifferences(t *testing.T) {
	for _, data := range []string{"gap", "gp-classification"} {
		t.Run(data, func(t *testing.T) {
			p := newPoint(t, loadData(t, data), false, "bnn", nil, 2)
			for range 200 {
				p.Step()
			}
			mb := p.members[0]
			n := float64(len(p.bm.x))
			p.memberGrad(mb)
			dw := append([]float64(nil), mb.dw...)
			dn := mb.gnoise[0]
			loss := func() float64 { return -p.memberGrad(mb) / n }
			r := numeric.NewRand(9)
			check := func(name string, x []float64, i int, analytic float64) {
				const h = 1e-6
				old := x[i]
				x[i] = old + h
				up := loss()
				x[i] = old - h
				down := loss()
				x[i] = old
				fd := (up - down) / (2 * h)
				if math.Abs(fd-analytic) > 1e-6+1e-4*math.Abs(fd) {
					t.Errorf("%s[%d]: analytic %.10g, finite difference %.10g", name, i, analytic, fd)
				}
			}
			for range 40 {
				i := r.IntN(len(mb.w))
				check("w", mb.w, i, dw[i])
			}
			check("log σ", mb.logNoise, 0, dn)
		})
	}
}

// MAP on the linear model with learned noise converges to a stationary
// point of log p(y|w, σ) + log p(w): there, w is the ridge solution
// (X̃ᵀX̃/σ² + I/sp²)⁻¹X̃ᵀy/σ² for the learned σ (the exact posterior mean of
// the Gaussian linear model at that σ) and σ² = RSS(w)/N. 20000 Adam steps at lr 0.01, then
// 5000 at 1e-3; the tolerances (1e-5) are far above what the last steps
// move and far below the distance from any other point.
func TestMAPConvergesToStationaryPoint(t *testing.T) {
	d := loadData(t, "linreg")
	p := newPoint(t, d, false, "linear", nil, 1)
	for range 20000 {
		p.Step()
	}
	if err := sim.Set(p, nil, "lr", sim.Num(1e-3)); err != nil {
		t.Fatal(err)
	}
	for range 5000 {
		p.Step()
	}
	mb := p.members[0]
	sigma := math.Exp(mb.logNoise[0])
	post := newLinearPosterior(d, sigma, p.bm.layers[0].PriorStd)
	var rss float64
	for i, x := range d.X {
		r := d.Y[i] - mb.w[0]*x - mb.w[1]
		rss += r * r
	}
	t.Logf("MAP w = %v, ridge %v; σ² = %.6f, RSS/N = %.6f", mb.w, post.mean, sigma*sigma, rss/float64(len(d.X)))
	for i := range 2 {
		if math.Abs(mb.w[i]-post.mean[i]) > 1e-5 {
			t.Errorf("w[%d] = %.8f, ridge solution %.8f", i, mb.w[i], post.mean[i])
		}
	}
	if math.Abs(sigma*sigma-rss/float64(len(d.X))) > 1e-5 {
		t.Errorf("σ² = %v, RSS/N = %v", sigma*sigma, rss/float64(len(d.X)))
	}
	p.memberGrad(mb)
	// Adam at a fixed lr hovers within about lr·1e-3 of the optimum; with
	// curvature O(1) of the loss/N that leaves gradients of a few 1e-6,
	// against O(1) at the start.
	if g := math.Hypot(math.Hypot(mb.dw[0], mb.dw[1]), mb.gnoise[0]); g > 1e-4 {
		t.Errorf("gradient norm %v at the end", g)
	}
}

// Ensemble members start from different initialisations and end at
// different networks: their functions differ in the gap by far more than
// rounding; MAP's predictive samples are all the same function.
func TestEnsembleMembersDiffer(t *testing.T) {
	d := loadData(t, "gap")
	e := newPoint(t, d, true, "", nil, 1)
	for range 500 {
		e.Step()
	}
	if len(e.members) != 5 {
		t.Fatalf("%d members", len(e.members))
	}
	xs := []float64{d.GapCentre}
	pred := e.Predict(xs, 10)
	seen := map[float64]int{}
	for _, f := range pred.Samples {
		seen[f[0]]++
	}
	if len(seen) != 5 {
		t.Fatalf("10 samples show %d distinct functions, want the 5 members twice each: %v", len(seen), seen)
	}
	for v, c := range seen {
		if c != 2 {
			t.Fatalf("member value %v appears %d times in 10 samples", v, c)
		}
	}
	if sd := predStd(e.Predict(xs, 100))[0]; !(sd > 1e-3) {
		t.Fatalf("members agree in the gap to %v", sd)
	}
	if e.Trace()[1] <= 0 {
		t.Fatalf("disagreement %v", e.Trace()[1])
	}
	m := newPoint(t, d, false, "", nil, 1)
	for range 50 {
		m.Step()
	}
	for _, f := range m.Predict(d.Grid, 4).Samples[1:] {
		for i, v := range f {
			if v != m.Predict(d.Grid, 1).Samples[0][i] {
				t.Fatal("MAP samples differ")
			}
		}
	}
}

func TestPointStepAllocatesNothing(t *testing.T) {
	for _, ens := range []bool{false, true} {
		p := newPoint(t, loadData(t, "gap"), ens, "bnn", nil, 1)
		p.Step()
		if a := testing.AllocsPerRun(20, func() { p.Step() }); a != 0 {
			t.Errorf("ensemble %v: %v allocations per Step", ens, a)
		}
	}
}

func TestPointSetAndSpec(t *testing.T) {
	d := loadData(t, "gap")
	e := newPoint(t, d, true, "bnn", nil, 1)
	for _, bad := range []struct {
		name string
		v    sim.Value
	}{{"members", sim.Num(1)}, {"members", sim.Num(11)}, {"members", sim.Num(2.5)}, {"lr", sim.Num(0)}, {"prior_scale", sim.Choice("x")}, {"noise_dim", sim.Num(3)}} {
		var fe *sim.FieldError
		if err := sim.Set(e, nil, bad.name, bad.v); !errors.As(err, &fe) || fe.Field != bad.name {
			t.Errorf("Set(%s, %v) = %v", bad.name, bad.v, err)
		}
	}
	first := e.members[0]
	for _, k := range []float64{3, 7} {
		if err := sim.Set(e, nil, "members", sim.Num(k)); err != nil {
			t.Fatal(err)
		}
		if len(e.members) != int(k) || math.IsNaN(e.Step().Objective) {
			t.Fatalf("members %v: have %d", k, len(e.members))
		}
	}
	if e.members[0] != first {
		t.Fatal("resizing replaced the first member")
	}
	if err := sim.Set(e, nil, "prior_scale", sim.Num(1)); err != nil || e.bm.layers[1].PriorStd != 1/math.Sqrt(51) {
		t.Fatalf("prior_scale: %v", err)
	}
	if err := sim.Set(e, nil, "lr", sim.Num(0.003)); err != nil || e.members[6].adam.Config().LR != 0.003 {
		t.Fatalf("lr: %v", err)
	}
	ms, _ := NewMAP("")
	es, _ := NewEnsemble("")
	if s := ms.Spec(); s.Name != "map" || s.Family != FamilyPoint || len(s.Controls) != 2 {
		t.Errorf("map spec %+v", s)
	}
	if s := es.Spec(); s.Name != "ensemble" || len(s.Controls) != 3 || len(s.Traces) != 2 {
		t.Errorf("ensemble spec %+v", s)
	}
	if c, _ := es.Spec().Control("members"); c.Min != 2 || c.Max != 10 || c.Default.Num != 5 || !c.Live {
		t.Errorf("members control %+v", c)
	}
	if _, err := NewMAP("gp"); err == nil {
		t.Error("NewMAP(gp) accepted")
	}
	if _, err := sim.Init(ms, &sim.Dataset{}, nil, numeric.NewRand(1)); err == nil {
		t.Error("Init accepted an empty data set")
	}
}
