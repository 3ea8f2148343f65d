package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/posterior-playground/playground/sim"
)

// shardBase is a sweep small enough to run whole and in parts in a test:
// 3 values × 2 seeds of 30 mean-field steps with cheap evaluations.
func shardBase() (Config, string, []float64, int) {
	base := DefaultConfig()
	base.Data, base.Method, base.Steps, base.EvalReps, base.IWBOSamples = "gap", "mfvi", 30, 2, 8
	base.Controls = sim.Controls{"lr": sim.Num(0.02)}
	return base, "prior_scale", []float64{0.5, 1, 2}, 2
}

// shardAll runs every shard of n and round-trips each part through its JSON,
// as a batch job's files would.
func shardAll(t *testing.T, n int) []*SweepPart {
	t.Helper()
	base, param, values, seeds := shardBase()
	parts := make([]*SweepPart, n)
	for k := 1; k <= n; k++ {
		p, err := SweepShard(context.Background(), base, param, values, seeds, k, n, 1, nil)
		if err != nil {
			t.Fatalf("shard %d/%d: %v", k, n, err)
		}
		var buf bytes.Buffer
		if err := json.NewEncoder(&buf).Encode(p); err != nil {
			t.Fatal(err)
		}
		if parts[k-1], err = ReadSweepPart(&buf, "part"); err != nil {
			t.Fatal(err)
		}
	}
	return parts
}

// A sweep cut into parts and merged equals the whole sweep bit for bit, for
// any number of parts, including more parts than runs (an empty part).
func TestSweepShardsMergeToWholeSweep(t *testing.T) {
	base, param, values, seeds := shardBase()
	want, err := Sweep(context.Background(), base, param, values, seeds, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 4, 7} {
		parts := shardAll(t, n)
		runs := 0
		for _, p := range parts {
			runs += len(p.Runs)
		}
		if runs != len(values)*seeds {
			t.Errorf("%d parts hold %d runs; want %d", n, runs, len(values)*seeds)
		}
		slices.Reverse(parts) // the order parts are given in does not matter
		h, got, err := MergeSweep(parts)
		if err != nil {
			t.Fatalf("%d parts: %v", n, err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%d parts merge to\n%+v\nwant the whole sweep's\n%+v", n, got, want)
		}
		if h.Param != param || !slices.Equal(h.Values, values) || h.Seeds != seeds {
			t.Errorf("merged header %+v does not describe the sweep", h)
		}
	}
}

// A merge refuses anything but all the parts of one sweep, once each, and
// says which part is wrong.
func TestMergeSweepRefuses(t *testing.T) {
	// The parts are computed once (each is a real sweep) and every case
	// edits its own copy: parts carry float64 exactly through JSON, as a
	// merge of files reads them.
	whole, err := json.Marshal(shardAll(t, 3))
	if err != nil {
		t.Fatal(err)
	}
	fresh := func() []*SweepPart {
		var p []*SweepPart
		if err := json.Unmarshal(whole, &p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	other := func() *SweepPart {
		base, param, values, seeds := shardBase()
		base.Steps++
		p, err := SweepShard(context.Background(), base, param, values, seeds, 2, 3, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}()
	for _, tc := range []struct {
		name  string
		parts func() []*SweepPart
		want  string
	}{
		{"none", func() []*SweepPart { return nil }, "no parts"},
		{"missing", func() []*SweepPart { return fresh()[:2] }, "missing shards: 3/3"},
		{"repeated", func() []*SweepPart { p := fresh(); return append(p, p[0]) }, "shard 1/3 is given twice"},
		{"other sweep", func() []*SweepPart { p := fresh(); p[1] = other; return p }, "another sweep"},
		{"cut differently", func() []*SweepPart { p := fresh(); p[2].Shards = 4; return p }, "cut into 4 parts"},
		{"run in the wrong part", func() []*SweepPart {
			p := fresh()
			p[0].Runs = append(p[0].Runs, p[1].Runs[0])
			return p
		}, "belongs to shard 2"},
		{"run lost", func() []*SweepPart { p := fresh(); p[2].Runs = p[2].Runs[1:]; return p }, "no part has the run"},
	} {
		_, _, err := MergeSweep(tc.parts())
		var fe *sim.FieldError
		if !errors.As(err, &fe) || fe.Field != "parts" || !strings.Contains(fe.Message, tc.want) {
			t.Errorf("%s: err = %v; want a field error on parts saying %q", tc.name, err, tc.want)
		}
	}
}

func TestParseShard(t *testing.T) {
	for _, s := range []string{"1/1", "3/4", "1000/1000"} {
		if _, _, err := ParseShard(s); err != nil {
			t.Errorf("ParseShard(%q): %v", s, err)
		}
	}
	for _, s := range []string{"", "0/3", "4/3", "1/0", "1/1001", "a/b", "1/3x", "+1/3", "01/3", "1 /3", "2"} {
		if _, _, err := ParseShard(s); err == nil {
			t.Errorf("ParseShard(%q) = nil error; want a field error on shard", s)
		}
	}
}

func TestReadSweepPartRefusesOtherFiles(t *testing.T) {
	for _, in := range []string{`{"format":"other/1"}`, `{"format":"` + SweepPartFormat + `","extra":1}`, `[1,2]`, ``} {
		if _, err := ReadSweepPart(strings.NewReader(in), "f.json"); err == nil || !strings.Contains(err.Error(), "f.json") {
			t.Errorf("ReadSweepPart(%q) = %v; want an error naming f.json", in, err)
		}
	}
}
