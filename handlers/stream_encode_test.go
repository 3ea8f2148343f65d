package handlers

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/engine"
)

// wavyFake is streamFake with a band of full-precision numbers, the size a
// real method's band has on the wire.
type wavyFake struct{ streamFake }

func (f *wavyFake) Predict(xs []float64, n int) sim.Predictive {
	p := sim.Predictive{X: xs, Samples: make([][]float64, n)}
	for s := range p.Samples {
		p.Samples[s] = make([]float64, len(xs))
		for i, x := range xs {
			p.Samples[s][i] = math.Sin(x + 0.1*float64(s))
		}
	}
	return p
}

// benchFrame is a viewer's frame of a run on a 200-point grid with 50 new
// objective points.
func benchFrame(tb testing.TB) wireFrame {
	grid := make([]float64, 200)
	for i := range grid {
		grid[i] = -3 + 6*float64(i)/199
	}
	d := &sim.Dataset{Name: "d", Task: sim.Regression, X: []float64{0, 1}, Y: []float64{0, 1},
		Grid: grid, XScale: sim.Identity, YScale: sim.Identity}
	c, err := streamFakeSpec().Resolve(nil)
	if err != nil {
		tb.Fatal(err)
	}
	run, err := engine.NewRun("r", &wavyFake{}, d, c, 1, engine.RunOptions{Log: quietLog})
	if err != nil {
		tb.Fatal(err)
	}
	f := run.Latest()
	if f.Predictive == nil {
		tb.Fatal("no band")
	}
	obj := make([]numeric.Point, 50)
	for i := range obj {
		obj[i] = numeric.Point{Step: int64(i + 1), Value: -1.0 / float64(i+1)}
	}
	return wireFrame{Type: "frame", Epoch: f.Epoch, Step: 50, Status: f.Status, Controls: f.Controls, Objective: obj,
		Trace: map[string][]numeric.Point{"x": obj}, Predictive: f.Predictive, Marks: f.Marks, Diagnostics: f.Diagnostics}
}

// The spliced encoding is the frame encoding/json would make with the
// shared parts as ordinary fields: the same object, key for key.
func TestFrameJSONSplicesSharedParts(t *testing.T) {
	w := benchFrame(t)
	w.Draws = &engine.DrawSet{Step: 7, Retained: 3, Chains: 2, Params: []string{"b"},
		Values: map[string][][]float64{"b": {{1, 2, 3}, {0.5, -1, 2.25}}}, Divergent: [][]int{{}, {1}}}
	w.Weights = &engine.WeightSet{Step: 7, Index: 3, NumWeights: 10, Kind: "gaussian", Mean: 0.25, Std: 1.5}
	for _, shared := range []string{"all", "none"} {
		v := w
		if shared == "none" {
			v.Predictive, v.Draws, v.Weights = nil, nil, nil
		}
		var o frameWriter
		if err := o.appendJSON(&v); err != nil {
			t.Fatal(err)
		}
		got := o.buf.Bytes()
		if !json.Valid(got) || !bytes.HasPrefix(got, []byte(`{"type":"frame",`)) {
			t.Fatalf("%s: not a frame object: %.80s…", shared, got)
		}
		// The reference: every field through encoding/json.
		ref := map[string]any{}
		plain, err := json.Marshal(&v)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(plain, &ref); err != nil {
			t.Fatal(err)
		}
		for key, part := range map[string]any{"predictive": v.Predictive, "draws": v.Draws, "weights": v.Weights} {
			if reflect.ValueOf(part).IsNil() {
				continue
			}
			b, err := json.Marshal(part)
			if err != nil {
				t.Fatal(err)
			}
			var x any
			if err := json.Unmarshal(b, &x); err != nil {
				t.Fatal(err)
			}
			ref[key] = x
		}
		var dec map[string]any
		if err := json.Unmarshal(got, &dec); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(dec, ref) {
			t.Errorf("%s: spliced frame differs from encoding/json's:\n got %.300s\nwant %.300s", shared, got, plain)
		}
		if _, ok := dec["predictive"]; ok != (shared == "all") {
			t.Errorf("%s: predictive present = %v", shared, ok)
		}
	}
}

// BenchmarkFrameJSON encodes one viewer's frame with a fresh 200-point
// band, the writer's work per frame per viewer.
func BenchmarkFrameJSON(b *testing.B) {
	w := benchFrame(b)
	var o frameWriter
	b.ReportAllocs()
	for b.Loop() {
		if err := o.appendJSON(&w); err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(o.buf.Len()))
	}
}
