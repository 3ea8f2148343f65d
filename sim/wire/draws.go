package wire

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/posterior-playground/playground/numeric"
)

// DrawSet is a sampler's recent retained draws and their live statistics,
// published with a frame a few times a second. Like a Frame it is
// immutable once published; it marshals to JSON it encoded once, so each
// viewer's writer only copies bytes.
type DrawSet struct {
	Step       int64                  // the run's step when the set was taken
	Retained   int64                  // retained draws per chain recorded since warm-up ended
	Chains     int                    // chains
	Params     []string               // recorded parameters, at most a few
	Values     map[string][][]float64 // param → chain → last draws (a window), oldest first
	Divergent  [][]int                // chain → indices into the Values window of divergent transitions
	Stats      map[string]ParamStats  // over the last StatsDraws draws per chain; empty below 4
	StatsDraws int                    // draws per chain behind Stats
	StatsStep  int64                  // the step Stats were computed at

	raw []byte
}

// ParamStats summarises one parameter's recent draws: the pooled summary
// (mean, sd, quantiles, rank-normalised split R-hat, bulk and tail ESS) and
// the rank plot, chain → counts of the pooled ranks in equal bins.
type ParamStats struct {
	numeric.ParamSummary
	Ranks [][]int
}

// Seal encodes the set once; from then on it is immutable and MarshalJSON
// returns those bytes.
func (d *DrawSet) Seal() { d.raw = d.encode() }

// MarshalJSON returns the sealed encoding, or encodes the set when it was
// not sealed.
func (d *DrawSet) MarshalJSON() ([]byte, error) {
	if d.raw == nil {
		return d.encode(), nil
	}
	return d.raw, nil
}

// encode writes the set as JSON once, in the run goroutine:
//
//	{"step","retained","chains","params","values":{param:[[draws of chain 1],…]},
//	 "divergent":[[indices of chain 1],…],"stats_draws","stats_step",
//	 "param_stats":{param:{"mean","sd","q05","q50","q95","ess_bulk","ess_tail","rhat","ranks":[[…],…]}}}
//
// Draws keep six significant digits (a plot needs fewer), which shortens
// the message by half; non-finite numbers are null.
func (d *DrawSet) encode() []byte {
	n := 0
	for _, rows := range d.Values {
		for _, row := range rows {
			n += len(row)
		}
	}
	b := make([]byte, 0, 1024+n*10)
	b = append(b, `{"step":`...)
	b = strconv.AppendInt(b, d.Step, 10)
	b = append(b, `,"retained":`...)
	b = strconv.AppendInt(b, d.Retained, 10)
	b = append(b, `,"chains":`...)
	b = strconv.AppendInt(b, int64(d.Chains), 10)
	b = append(b, `,"params":[`...)
	for i, p := range d.Params {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, p)
	}
	b = append(b, `],"values":{`...)
	for i, p := range d.Params {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, p)
		b = append(b, ':')
		b = appendRows(b, d.Values[p])
	}
	b = append(b, `},"divergent":[`...)
	for c, idx := range d.Divergent {
		if c > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		for i, v := range idx {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(v), 10)
		}
		b = append(b, ']')
	}
	b = append(b, `],"stats_draws":`...)
	b = strconv.AppendInt(b, int64(d.StatsDraws), 10)
	b = append(b, `,"stats_step":`...)
	b = strconv.AppendInt(b, d.StatsStep, 10)
	b = append(b, `,"param_stats":{`...)
	first := true
	for _, p := range d.Params {
		s, ok := d.Stats[p]
		if !ok {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendString(b, p)
		b = append(b, ':', '{')
		for i, f := range []struct {
			k string
			v float64
		}{{"mean", s.Mean}, {"sd", s.SD}, {"q05", s.Q05}, {"q50", s.Q50}, {"q95", s.Q95},
			{"ess_bulk", s.ESSBulk}, {"ess_tail", s.ESSTail}, {"rhat", s.RHat}} {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '"')
			b = append(b, f.k...)
			b = append(b, '"', ':')
			b = appendFloat(b, f.v)
		}
		b = append(b, `,"ranks":[`...)
		for c, row := range s.Ranks {
			if c > 0 {
				b = append(b, ',')
			}
			b = append(b, '[')
			for i, v := range row {
				if i > 0 {
					b = append(b, ',')
				}
				b = strconv.AppendInt(b, int64(v), 10)
			}
			b = append(b, ']')
		}
		b = append(b, ']', '}')
	}
	return append(b, '}', '}')
}

func appendRows(b []byte, rows [][]float64) []byte {
	b = append(b, '[')
	for c, row := range rows {
		if c > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		for i, v := range row {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendFloat(b, v)
		}
		b = append(b, ']')
	}
	return append(b, ']')
}

func appendFloat(b []byte, v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return append(b, "null"...)
	}
	return strconv.AppendFloat(b, v, 'g', 6, 64)
}

func appendString(b []byte, s string) []byte {
	q, err := json.Marshal(s)
	if err != nil { // cannot happen for a string
		return append(b, `""`...)
	}
	return append(b, q...)
}
