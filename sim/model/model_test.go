package model

import (
	"math"
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
)

func TestArchForAndResolve(t *testing.T) {
	for _, c := range []struct {
		name, def, want string
		widths          int
	}{
		{"", "", BNN, 4}, {"", Linear, Linear, 2}, {BNN, Linear, BNN, 4}, {Linear, BNN, Linear, 2},
	} {
		got := Resolve(c.name, &sim.Dataset{DefaultModel: c.def})
		a, ok := ArchFor(got)
		if got != c.want || !ok || len(a.Widths) != c.widths {
			t.Errorf("Resolve(%q, default %q) = %q, arch %v %v", c.name, c.def, got, a.Widths, ok)
		}
	}
	if _, ok := ArchFor("gp"); ok {
		t.Error("ArchFor(gp) succeeded")
	}
}

// Layout packs the layers back to back and covers exactly NumWeights.
func TestLayout(t *testing.T) {
	for _, a := range []Arch{DefaultArch(), {Widths: []int{1, 1}}, {Widths: []int{1, 3, 2, 4}}} {
		layers, p := Layout(a)
		off := 0
		for l, ly := range layers {
			if ly.Off != off || ly.Rows != a.InDim(l) || ly.Cols != a.OutDim(l) {
				t.Errorf("%v layer %d: %+v, want offset %d", a.Widths, l, ly, off)
			}
			off += ly.Rows * ly.Cols
		}
		if p != off || p != a.NumWeights() {
			t.Errorf("%v: %d weights, want %d = NumWeights %d", a.Widths, p, off, a.NumWeights())
		}
	}
}

// He init draws N(0, 2/rows) per layer. The sample variance of n normal
// draws has relative s.e. √(2/n) (≤ 2.8% for n = 2550); allow 4 s.e.
func TestHeInitScale(t *testing.T) {
	layers, p := Layout(DefaultArch())
	w := make([]float64, p)
	HeInit(layers, w, numeric.NewRand(3))
	for l, ly := range layers {
		n := ly.Rows * ly.Cols
		var ss float64
		for _, x := range w[ly.Off : ly.Off+n] {
			ss += x * x
		}
		rel := ss / float64(n) / (2 / float64(ly.Rows))
		if math.Abs(rel-1) > 4*math.Sqrt(2/float64(n)) {
			t.Errorf("layer %d: variance / (2/rows) = %.3f", l, rel)
		}
	}
}

// LogLikAt is the sum of the scalar log densities, and its gradients agree
// with central differences (h = 1e−5: truncation O(h²) and rounding
// ≈ 1e−16·|ll|/h, both below 1e−8 here).
func TestLogLikAt(t *testing.T) {
	f := []float64{-1.2, 0.3, 2.5, 0.0}
	for _, task := range []sim.Task{sim.Regression, sim.Classification} {
		y := []float64{-0.7, 0.1, 3.0, -0.4}
		if task == sim.Classification {
			y = []float64{0, 1, 1, 0}
		}
		const logNoise, scale = -0.4, 0.3
		var want float64
		for i := range f {
			if task == sim.Classification {
				want += numeric.BernoulliLogitLogPMF(y[i], f[i])
			} else {
				want += numeric.NormalLogPDF(y[i], f[i], math.Exp(logNoise))
			}
		}
		g := make([]float64, len(f))
		ll, dNoise := LogLikAt(f, g, task, y, logNoise, scale)
		if math.Abs(ll-want) > 1e-12*math.Abs(want) {
			t.Errorf("%s: log lik %.15g, want %.15g", task, ll, want)
		}
		loss := func(f []float64, ln float64) float64 {
			ll, _ := LogLikAt(f, nil, task, y, ln, scale)
			return -scale * ll
		}
		const h = 1e-5
		for i := range f {
			fp, fm := append([]float64(nil), f...), append([]float64(nil), f...)
			fp[i] += h
			fm[i] -= h
			if fd := (loss(fp, logNoise) - loss(fm, logNoise)) / (2 * h); math.Abs(fd-g[i]) > 1e-8 {
				t.Errorf("%s: d/df[%d] %.10g, finite difference %.10g", task, i, g[i], fd)
			}
		}
		fd := (loss(f, logNoise+h) - loss(f, logNoise-h)) / (2 * h)
		if task == sim.Classification {
			fd = 0 // no noise parameter; dNoise must be exactly 0
		}
		if math.Abs(fd-dNoise) > 1e-8 {
			t.Errorf("%s: d/d log σ %.10g, finite difference %.10g", task, dNoise, fd)
		}
	}
}

func TestCheckData(t *testing.T) {
	good := &sim.Dataset{Name: "d", X: []float64{0, 1}, Y: []float64{1, 0}, Task: sim.Classification}
	if err := CheckData("m", good); err != nil {
		t.Fatal(err)
	}
	for name, d := range map[string]*sim.Dataset{
		"empty":      {Name: "d"},
		"lengths":    {Name: "d", X: []float64{0, 1}, Y: []float64{1}},
		"nan":        {Name: "d", X: []float64{0, math.NaN()}, Y: []float64{1, 0}},
		"inf":        {Name: "d", X: []float64{0, 1}, Y: []float64{math.Inf(1), 0}},
		"not binary": {Name: "d", X: []float64{0, 1}, Y: []float64{0.5, 0}, Task: sim.Classification},
	} {
		if err := CheckData("m", d); err == nil || err.Error()[:3] != "m: " {
			t.Errorf("%s: CheckData = %v, want an error starting with \"m: \"", name, err)
		}
	}
}

// LogPrior is the sum of the entries' normal log-densities (to rounding),
// and the gradient it adds is scale·w/σ_l², checked entry by entry on top
// of a nonzero dw it must add to rather than overwrite.
func TestLogPrior(t *testing.T) {
	layers, n := Layout(DefaultArch())
	for l := range layers {
		layers[l].PriorStd = DefaultArch().PriorStd(l, 2)
	}
	r := numeric.NewRand(5)
	w := make([]float64, n)
	numeric.FillNormal(w, r)
	var want float64
	for _, ly := range layers {
		for i := ly.Off; i < ly.Off+ly.Rows*ly.Cols; i++ {
			want += numeric.NormalLogPDF(w[i], 0, ly.PriorStd)
		}
	}
	dw := make([]float64, n)
	for i := range dw {
		dw[i] = 1
	}
	const scale = 0.3
	got := LogPrior(layers, w, dw, scale)
	if math.Abs(got-want) > 1e-10*math.Abs(want) {
		t.Errorf("LogPrior = %v, sum of normal log-densities %v", got, want)
	}
	for _, ly := range layers {
		for i := ly.Off; i < ly.Off+ly.Rows*ly.Cols; i++ {
			// One product and one addition to 1: a few ulps of the larger term.
			term := scale * w[i] / (ly.PriorStd * ly.PriorStd)
			if g := 1 + term; math.Abs(dw[i]-g) > 1e-15*(1+math.Abs(term)) {
				t.Fatalf("dw[%d] = %v, want %v", i, dw[i], g)
			}
		}
	}
	if LogPrior(layers, w, nil, scale) != got {
		t.Error("LogPrior without a gradient gives a different value")
	}
}
