package experiment

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/posterior-playground/playground/sim"
)

// SweepPartFormat names the version of a sweep part's JSON layout.
const SweepPartFormat = "playground-sweep-part/1"

// SweepHeader says what a sweep ran: the fields its output reports and all
// its runs' results depend on, so that parts of one sweep are told apart
// from another's.
type SweepHeader struct {
	Method      string            `json:"method"`
	Data        string            `json:"data"` // a built-in name or the CSV's path
	Model       string            `json:"model,omitempty"`
	Param       string            `json:"param"`
	Values      []float64         `json:"values"`
	Steps       int               `json:"steps"`
	Seed        uint64            `json:"seed"`
	DataSeed    uint64            `json:"data_seed"`
	Seeds       int               `json:"seeds"`
	Controls    map[string]string `json:"controls,omitempty"`
	EvalReps    int               `json:"eval_reps"`
	IWBOSamples int               `json:"iwbo_samples"`
}

// NewSweepHeader describes the sweep of param over values with seeds
// training seeds per value from base.
func NewSweepHeader(base Config, param string, values []float64, seeds int) SweepHeader {
	h := SweepHeader{
		Method: base.Method, Data: base.Data + base.DataFile, Model: base.Model, Param: param,
		Values: slices.Clone(values), Steps: base.Steps, Seed: base.Seed, DataSeed: base.DataSeedUsed(),
		Seeds: seeds, EvalReps: base.EvalReps, IWBOSamples: base.IWBOSamples,
	}
	if len(base.Controls) > 0 {
		h.Controls = make(map[string]string, len(base.Controls))
		for k, v := range base.Controls {
			h.Controls[k] = v.String()
		}
	}
	return h
}

// SweepPart is one shard's share of a sweep: the (value, seed) pairs whose
// index value·seeds + seed is congruent to Shard−1 modulo Shards. Pairs are
// dealt round-robin so that slow values spread over the shards.
type SweepPart struct {
	Format string `json:"format"`
	Shard  int    `json:"shard"`  // 1 … Shards
	Shards int    `json:"shards"` // how many parts the sweep was cut into
	SweepHeader
	Runs []SweepPartRun `json:"runs"`
}

// SweepPartRun is one run of a part: the index of its value, its seed
// offset (the training seed is Seed + SeedIndex) and its bounds. JSON
// carries float64 exactly, so a merge aggregates the very numbers a whole
// sweep would.
type SweepPartRun struct {
	Value     int `json:"value"`
	SeedIndex int `json:"seed_index"`
	runBounds
}

// ParseShard reads "K/N" (1 ≤ K ≤ N ≤ MaxSweepRuns).
func ParseShard(s string) (k, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	if ok {
		_, err1 := fmt.Sscanf(a, "%d", &k)
		_, err2 := fmt.Sscanf(b, "%d", &n)
		ok = err1 == nil && err2 == nil && fmt.Sprintf("%d/%d", k, n) == s
	}
	if !ok || k < 1 || n < 1 || k > n || n > MaxSweepRuns {
		return 0, 0, &sim.FieldError{Field: "shard", Message: fmt.Sprintf("%q is not K/N with 1 ≤ K ≤ N ≤ %d", s, MaxSweepRuns)}
	}
	return k, n, nil
}

// SweepShard runs shard k of n of the sweep Sweep(base, param, values,
// seeds) describes. Every configuration of the whole sweep is validated
// first, so a bad value fails in every shard, not only in the one that owns it.
func SweepShard(ctx context.Context, base Config, param string, values []float64, seeds, k, n, workers int, progress SweepProgress) (*SweepPart, error) {
	if k < 1 || n < 1 || k > n || n > MaxSweepRuns {
		return nil, &sim.FieldError{Field: "shard", Message: fmt.Sprintf("%d/%d is not K/N with 1 ≤ K ≤ N ≤ %d", k, n, MaxSweepRuns)}
	}
	prepared, err := prepareSweep(base, param, values, seeds)
	if err != nil {
		return nil, err
	}
	mine := func(j int) bool { return j%n == k-1 }
	runs, err := runSweep(ctx, prepared, values, workers, mine, progress)
	if err != nil {
		return nil, err
	}
	part := &SweepPart{Format: SweepPartFormat, Shard: k, Shards: n, SweepHeader: NewSweepHeader(base, param, values, seeds), Runs: []SweepPartRun{}}
	for i := range values {
		for s := range seeds {
			if mine(i*seeds + s) {
				part.Runs = append(part.Runs, SweepPartRun{Value: i, SeedIndex: s, runBounds: runs[i][s]})
			}
		}
	}
	return part, nil
}

// ReadSweepPart decodes a part written by SweepShard, refusing unknown
// fields and other formats. name labels errors (a file name).
func ReadSweepPart(r io.Reader, name string) (*SweepPart, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var p SweepPart
	if err := dec.Decode(&p); err != nil {
		return nil, &sim.FieldError{Field: "parts", Message: fmt.Sprintf("%s is not a sweep part: %v", name, err)}
	}
	if p.Format != SweepPartFormat {
		return nil, &sim.FieldError{Field: "parts", Message: fmt.Sprintf("%s has format %q; want %q", name, p.Format, SweepPartFormat)}
	}
	return &p, nil
}

// MergeSweep combines the parts of one sweep into the points Sweep would
// have returned, bit for bit. It refuses parts of different sweeps, a
// missing or repeated shard, and a run missing, repeated or in the wrong
// part.
func MergeSweep(parts []*SweepPart) (SweepHeader, []SweepPoint, error) {
	bad := func(format string, a ...any) (SweepHeader, []SweepPoint, error) {
		return SweepHeader{}, nil, &sim.FieldError{Field: "parts", Message: fmt.Sprintf(format, a...)}
	}
	if len(parts) == 0 {
		return bad("no parts to merge")
	}
	h, n := parts[0].SweepHeader, parts[0].Shards
	seeds, nv := h.Seeds, len(h.Values)
	if seeds < 1 || nv < 1 || nv*seeds > MaxSweepRuns {
		return bad("part 1 describes %d values × %d seeds", nv, seeds)
	}
	seen := make(map[int]bool, n)
	runs := make([][]runBounds, nv)
	have := make([][]bool, nv)
	for i := range runs {
		runs[i], have[i] = make([]runBounds, seeds), make([]bool, seeds)
	}
	for _, p := range parts {
		switch {
		case p.Shards != n:
			return bad("shard %d/%d is from a sweep cut into %d parts, not %d", p.Shard, p.Shards, p.Shards, n)
		case !sameHeader(p.SweepHeader, h):
			return bad("shard %d/%d is from another sweep (its method, data, values or settings differ from shard %d/%d's)", p.Shard, n, parts[0].Shard, n)
		case p.Shard < 1 || p.Shard > n:
			return bad("shard %d/%d is outside 1…%d", p.Shard, n, n)
		case seen[p.Shard]:
			return bad("shard %d/%d is given twice", p.Shard, n)
		}
		seen[p.Shard] = true
		for _, r := range p.Runs {
			i, s := r.Value, r.SeedIndex
			switch {
			case i < 0 || i >= nv || s < 0 || s >= seeds:
				return bad("shard %d/%d has a run (value %d, seed %d) outside the sweep", p.Shard, n, i, s)
			case (i*seeds+s)%n != p.Shard-1:
				return bad("shard %d/%d has a run (value %d, seed %d) that belongs to shard %d", p.Shard, n, i, s, (i*seeds+s)%n+1)
			case have[i][s]:
				return bad("shard %d/%d repeats the run (value %d, seed %d)", p.Shard, n, i, s)
			}
			runs[i][s], have[i][s] = r.runBounds, true
		}
	}
	if len(seen) != n {
		var missing []string
		for k := 1; k <= n; k++ {
			if !seen[k] {
				missing = append(missing, fmt.Sprintf("%d/%d", k, n))
			}
		}
		return bad("missing shards: %s", strings.Join(missing, ", "))
	}
	points := make([]SweepPoint, nv)
	for i := range points {
		for s := range seeds {
			if !have[i][s] {
				return bad("no part has the run (value %d, seed %d)", i, s)
			}
		}
		points[i] = aggregate(i, h.Values[i], runs[i])
	}
	return h, points, nil
}

func sameHeader(a, b SweepHeader) bool {
	return slices.Equal(a.Values, b.Values) && maps.Equal(a.Controls, b.Controls) &&
		a.Method == b.Method && a.Data == b.Data && a.Model == b.Model && a.Param == b.Param &&
		a.Steps == b.Steps && a.Seed == b.Seed && a.DataSeed == b.DataSeed && a.Seeds == b.Seeds &&
		a.EvalReps == b.EvalReps && a.IWBOSamples == b.IWBOSamples
}
