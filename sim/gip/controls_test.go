package gip

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
	"gonum.org/v1/gonum/mat"
)

type snapshot struct {
	u0, lsig []float64
	v, ll    [][]float64
}

func snap(m *Method) snapshot {
	s := snapshot{u0: slices.Clone(m.u0.RawMatrix().Data), lsig: slices.Clone(m.logSig.RawMatrix().Data)}
	for l := range m.v {
		s.v = append(s.v, slices.Clone(m.v[l].RawMatrix().Data))
		s.ll = append(s.ll, slices.Clone(m.logLam[l].RawMatrix().Data))
	}
	return s
}

func wantFieldError(t *testing.T, err error, field, contains string) {
	t.Helper()
	var fe *sim.FieldError
	if !errors.As(err, &fe) || fe.Field != field || !strings.Contains(fe.Message, contains) {
		t.Errorf("got %v, want a FieldError on %q mentioning %q", err, field, contains)
	}
}

func TestInducingLiveResize(t *testing.T) {
	d := gapData(8, 20)
	arch := model.Arch{Widths: []int{1, 5, 4, 1}}
	m := newTest(t, arch, d, sim.Controls{ctlInducing: sim.Num(10)}, 8)
	for range 30 {
		m.Step()
	}
	before := snap(m)

	// Out of range or not whole: FieldError naming [1, N], nothing changes.
	for _, v := range []sim.Value{sim.Num(21), sim.Num(0), sim.Num(2.5), sim.Num(math.NaN())} {
		err := sim.Set(m, d, ctlInducing, v)
		if v.Num == 21 {
			wantFieldError(t, err, ctlInducing, "[1, 20]")
		} else if err == nil {
			t.Errorf("Set(inducing, %v) accepted", v)
		}
	}
	if after := snap(m); !equalSnap(before, after) || m.m != 10 || m.ctl[ctlInducing].Num != 10 {
		t.Fatal("a rejected Set changed the method")
	}

	// Grow: old rows kept, new rows are distinct training inputs with V = 0, log λ = 0.
	if err := sim.Set(m, d, ctlInducing, sim.Num(15)); err != nil {
		t.Fatal(err)
	}
	checkShapes(t, m, arch, 15)
	g := snap(m)
	if !slices.Equal(g.u0[:10], before.u0) {
		t.Error("growing changed existing inducing inputs")
	}
	for l := range g.v {
		dl := arch.OutDim(l)
		if !slices.Equal(g.v[l][:10*dl], before.v[l]) || !slices.Equal(g.ll[l][:10], before.ll[l]) {
			t.Errorf("layer %d: growing changed existing pseudo-data", l)
		}
		for _, x := range g.v[l][10*dl:] {
			if x != 0 {
				t.Errorf("layer %d: new V row entry %g, want 0", l, x)
			}
		}
		for _, x := range g.ll[l][10:] {
			if x != 0 {
				t.Errorf("layer %d: new log λ %g, want 0", l, x)
			}
		}
	}
	added := slices.Clone(g.u0[10:])
	for _, x := range added {
		if !slices.Contains(d.X, x) {
			t.Errorf("new inducing input %g is not a training input", x)
		}
	}
	slices.Sort(added)
	if len(slices.Compact(added)) != 5 {
		t.Error("new inducing inputs repeat a training input")
	}
	if s := m.Step(); math.IsNaN(s.Objective) {
		t.Error("step after growing gave NaN")
	}

	// Shrink: the first rows are kept.
	g = snap(m)
	if err := sim.Set(m, d, ctlInducing, sim.Num(6)); err != nil {
		t.Fatal(err)
	}
	checkShapes(t, m, arch, 6)
	s := snap(m)
	if !slices.Equal(s.u0, g.u0[:6]) {
		t.Error("shrinking did not keep the first inducing inputs")
	}
	for l := range s.v {
		if !slices.Equal(s.v[l], g.v[l][:6*arch.OutDim(l)]) || !slices.Equal(s.ll[l], g.ll[l][:6]) {
			t.Errorf("layer %d: shrinking did not keep the first rows", l)
		}
	}
	if a := testing.AllocsPerRun(5, func() { m.Step() }); a != 0 {
		t.Errorf("Step allocates %g times after a resize and warm-up", a)
	}
}

func equalSnap(a, b snapshot) bool {
	if !slices.Equal(a.u0, b.u0) || !slices.Equal(a.lsig, b.lsig) {
		return false
	}
	for l := range a.v {
		if !slices.Equal(a.v[l], b.v[l]) || !slices.Equal(a.ll[l], b.ll[l]) {
			return false
		}
	}
	return true
}

func checkShapes(t *testing.T, m *Method, arch model.Arch, k int) {
	t.Helper()
	if r, c := m.u0.Dims(); r != k || c != 1 || m.m != k || m.ctl[ctlInducing].Num != float64(k) {
		t.Fatalf("U₀ is %d×%d (m=%d), want %d×1", r, c, m.m, k)
	}
	for l := range m.v {
		if r, c := m.v[l].Dims(); r != k || c != arch.OutDim(l) {
			t.Errorf("V_%d is %d×%d, want %d×%d", l+1, r, c, k, arch.OutDim(l))
		}
		if r, c := m.logLam[l].Dims(); r != k || c != 1 {
			t.Errorf("log λ_%d is %d×%d, want %d×1", l+1, r, c, k)
		}
	}
}

func TestInitControls(t *testing.T) {
	d := gapData(9, 20)
	m, _ := New("")
	// The default 100 is clamped to N; an explicit value above N is rejected.
	if _, err := sim.Init(m, d, nil, rand.New(rand.NewPCG(1, 1))); err != nil {
		t.Fatal(err)
	}
	if g := m.(*Method); g.m != 20 || len(g.arch.Widths) != 4 {
		t.Errorf("default init: M = %d, arch %v; want 20 and the default BNN", g.m, g.arch.Widths)
	}
	m, _ = New("")
	_, err := sim.Init(m, d, sim.Controls{ctlInducing: sim.Num(50)}, rand.New(rand.NewPCG(1, 1)))
	wantFieldError(t, err, ctlInducing, "[1, 20]")
	m, _ = New("")
	_, err = sim.Init(m, d, sim.Controls{ctlPriorScale: sim.Num(20)}, rand.New(rand.NewPCG(1, 1)))
	wantFieldError(t, err, ctlPriorScale, "[0.1, 10]")
	if _, err := New("gp"); err == nil {
		t.Error("New accepted an unknown model")
	}
	lin, _ := New(model.Linear)
	if _, err := sim.Init(lin, d, nil, rand.New(rand.NewPCG(1, 1))); err != nil || len(lin.(*Method).arch.Widths) != 2 {
		t.Errorf("linear model: err %v", err)
	}

	// Set validates and changes nothing on error; valid values take effect.
	g := newTest(t, model.Arch{Widths: []int{1, 4, 1}}, d, nil, 2)
	for _, c := range []struct {
		name string
		v    sim.Value
	}{{ctlPriorScale, sim.Num(0.01)}, {ctlLR, sim.Num(1)}, {ctlMC, sim.Num(33)}, {ctlMC, sim.Num(1.5)}, {"nope", sim.Num(1)}} {
		before := g.ctl[c.name]
		if err := sim.Set(g, d, c.name, c.v); err == nil {
			t.Errorf("Set(%s, %v) accepted", c.name, c.v)
		}
		if g.ctl[c.name] != before {
			t.Errorf("rejected Set(%s) changed the control", c.name)
		}
	}
	if g.scale != 2 || g.mc != 1 || g.adam.Config().LR != 0.01 {
		t.Error("rejected Sets changed the method")
	}
	for _, err := range []error{sim.Set(g, d, ctlPriorScale, sim.Num(0.5)), sim.Set(g, d, ctlLR, sim.Num(0.001)), sim.Set(g, d, ctlMC, sim.Num(4))} {
		if err != nil {
			t.Fatal(err)
		}
	}
	if g.scale != 0.5 || g.mc != 4 || g.adam.Config().LR != 0.001 {
		t.Error("valid Sets did not take effect")
	}
	if s := g.Step(); math.IsNaN(s.Objective) || len(g.tr.eps) != 4 {
		t.Errorf("step with 4 samples: objective %g, %d noise sets", s.Objective, len(g.tr.eps))
	}
	if got := len(g.Trace()); got != len(g.Spec().Traces) {
		t.Errorf("Trace has %d values for %d names", got, len(g.Spec().Traces))
	}
}

// The same seed gives bit-identical runs, and evaluation calls (Predict,
// ELBO) do not perturb the training stream.
func TestDeterminism(t *testing.T) {
	d := gapData(10, 30)
	arch := model.Arch{Widths: []int{1, 6, 6, 1}}
	run := func(evaluate bool) ([]float64, snapshot, *Method) {
		m := newTest(t, arch, d, sim.Controls{ctlInducing: sim.Num(12)}, 4)
		var obj []float64
		for i := range 40 {
			obj = append(obj, m.Step().Objective)
			if evaluate && i%10 == 0 {
				m.Predict([]float64{-1, 0, 1}, 3)
				m.ELBO()
			}
		}
		return obj, snap(m), m
	}
	o1, s1, m1 := run(false)
	o2, s2, m2 := run(false)
	o3, s3, _ := run(true)
	if !slices.Equal(o1, o2) || !equalSnap(s1, s2) {
		t.Error("two runs with the same seed differ")
	}
	if !slices.Equal(o1, o3) || !equalSnap(s1, s3) {
		t.Error("evaluation calls changed the training trajectory")
	}
	p1, p2 := m1.Predict(d.Grid, 4), m2.Predict(d.Grid, 4)
	for s := range p1.Samples {
		if !slices.Equal(p1.Samples[s], p2.Samples[s]) {
			t.Error("predictions differ for the same seed")
		}
	}
	other := newTest(t, arch, d, sim.Controls{ctlInducing: sim.Num(12)}, 5)
	if other.Step().Objective == o1[0] {
		t.Error("a different seed gave the same first step")
	}
}

// Predict pushes the grid through the same weights as the inducing inputs:
// predicting at the training inputs reproduces, with the same noise, the
// outputs the ELBO path computes.
func TestPredictMatchesDataPass(t *testing.T) {
	m := smallMethod(t, 13)
	xs := slices.Clone(m.d.X)
	m.erng = rand.New(rand.NewPCG(1, 2))
	p := m.Predict(xs, 1)
	m.erng = rand.New(rand.NewPCG(1, 2))
	ev := m.dataEvaluator()
	m.pass(ev, m.d.X, nil, false)
	for i := range xs {
		if p.Samples[0][i] != ev.out[i] {
			t.Fatalf("Predict at x=%g gave %g, data pass %g", xs[i], p.Samples[0][i], ev.out[i])
		}
	}
	if len(p.X) != len(xs) || mat.Norm(mat.NewVecDense(len(xs), p.Samples[0]), 2) == 0 {
		t.Error("Predict returned an empty or zero sample")
	}
}
