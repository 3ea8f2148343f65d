package wire_test

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/wire"
)

// benchFrame is a viewer's frame of a run on a 200-point grid with a sealed
// band of full-precision numbers (the size a real method's band has on the
// wire) and 50 new objective points.
func benchFrame(tb testing.TB) wire.Frame {
	const n = 200
	b := &wire.Band{X: make([]float64, n), Mean: make([]float64, n), Lo: make([]float64, n), Hi: make([]float64, n)}
	for i := range n {
		x := -3 + 6*float64(i)/(n-1)
		b.X[i], b.Mean[i] = x, math.Sin(x)
		b.Lo[i], b.Hi[i] = b.Mean[i]-0.2*math.Cos(x)-0.3, b.Mean[i]+0.2*math.Cos(x)+0.3
	}
	for s := range 5 {
		row := make([]float64, n)
		for i, x := range b.X {
			row[i] = math.Sin(x + 0.1*float64(s))
		}
		b.Samples = append(b.Samples, row)
	}
	b.Seal()
	obj := make([]numeric.Point, 50)
	for i := range obj {
		obj[i] = numeric.Point{Step: int64(i + 1), Value: -1.0 / float64(i+1)}
	}
	return wire.Frame{Type: "frame", Epoch: 0, Step: 50, Status: "paused", Controls: sim.Controls{"lr": sim.Num(0.01)},
		Objective: obj, Trace: map[string]wire.Series{"x": obj}, Predictive: b, Marks: []wire.Mark{},
		Diagnostics: map[string]float64{"noise_std": 0.1}}
}

// The spliced encoding is the frame encoding/json would make with the
// shared parts as ordinary fields: the same object, key for key.
func TestFrameJSONSplicesSharedParts(t *testing.T) {
	w := benchFrame(t)
	draws := &wire.DrawSet{Step: 7, Retained: 3, Chains: 2, Params: []string{"b"},
		Values: map[string][][]float64{"b": {{1, 2, 3}, {0.5, -1, 2.25}}}, Divergent: [][]int{{}, {1}}}
	draws.Seal()
	weights := &wire.WeightSet{Step: 7, Index: 3, NumWeights: 10, Kind: "gaussian", Mean: 0.25, Std: 1.5}
	if err := weights.Seal(); err != nil {
		t.Fatal(err)
	}
	for _, part := range []struct {
		key string
		v   any
	}{{"draws", draws}, {"weights", weights}} {
		x, err := wire.NewExtra(part.key, part.v)
		if err != nil {
			t.Fatal(err)
		}
		w.Extras = append(w.Extras, x)
	}
	for _, shared := range []string{"all", "none"} {
		v := w
		if shared == "none" {
			v.Predictive, v.Extras = nil, nil
		}
		var e wire.FrameEncoder
		got, err := e.Encode(&v)
		if err != nil {
			t.Fatal(err)
		}
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
		parts := map[string]any{}
		if v.Predictive != nil {
			parts["predictive"] = v.Predictive
		}
		for _, x := range v.Extras {
			parts[x.Key] = x.Value
		}
		for key, part := range parts {
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

// An extra cannot take a key the frame writes itself, nor one that would
// need escaping.
func TestNewExtraRefusesFrameKeys(t *testing.T) {
	for _, key := range []string{"", "step", "predictive", "trace", "budget", `a"b`, "Draws", "x y"} {
		if _, err := wire.NewExtra(key, 1); err == nil {
			t.Errorf("NewExtra(%q) accepted", key)
		}
	}
	if _, err := wire.NewExtra("inducing", []float64{1, math.NaN()}); err == nil {
		t.Error("NewExtra encoded NaN")
	}
	if x, err := wire.NewExtra("inducing_x", []float64{1, 2}); err != nil || x.Key != "inducing_x" {
		t.Errorf("NewExtra(inducing_x) = %v, %v", x, err)
	}
}

// BenchmarkFrameJSON encodes one viewer's frame with a fresh 200-point
// band, the writer's work per frame per viewer.
func BenchmarkFrameJSON(b *testing.B) {
	w := benchFrame(b)
	var e wire.FrameEncoder
	b.ReportAllocs()
	for b.Loop() {
		out, err := e.Encode(&w)
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(out)))
	}
}
