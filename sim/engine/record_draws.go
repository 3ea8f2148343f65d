package engine

import (
	"github.com/posterior-playground/playground/sim/wire"

	"github.com/posterior-playground/playground/sim"

	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/posterior-playground/playground/numeric"
)

// Limits of the draws a sampler's frames carry to its dashboard panel.
const (
	DrawWindow    = 500  // most recent retained draws per chain sent to the browser
	StatsWindow   = 2000 // most recent retained draws per chain the live statistics use
	MaxDrawParams = 4    // parameters recorded per run
	RankBins      = 20   // bins of the rank plot
	maxDrawChains = 8

	// drawsInterval is the shortest time between two draw sets: the
	// statistics cost milliseconds, and a draw set is tens of kilobytes of
	// JSON per viewer.
	drawsInterval = 500 * time.Millisecond
	// drawsCostShare bounds the run goroutine's time spent on draw sets to
	// about 1/drawsCostShare of the wall time.
	drawsCostShare = 10
)

// drawRecorder keeps a sampler's most recent retained draws of a few
// parameters in fixed rings, fed from Trace after every retained step, and
// makes DrawSets from them. It is owned by the run goroutine.
type drawRecorder struct {
	chains   sim.Chains
	params   []string
	col      [][]int // col[p][c]: index of param p, chain c in Trace()
	nc       int
	ring     []float64 // [(p·nc + c)·StatsWindow + slot]
	divRing  []bool    // [c·StatsWindow + slot]
	n        int64     // retained draws recorded
	divNow   []int
	divPrev  []int
	dirty    bool
	next     time.Time // earliest next draw set
	set      *wire.DrawSet
	stats    map[string]wire.ParamStats
	statsN   int
	statsAt  int64
	scratch  [][]float64 // Summarize's input, chain → draws
	rankWork []float64
}

// newDrawRecorder returns a recorder for m, or nil when m is not a sampler
// with per-chain traces named "param.cK".
func newDrawRecorder(m sim.Stepper, traces []string, c sim.Controls) *drawRecorder {
	ch, ok := m.(sim.Chains)
	if !ok {
		return nil
	}
	rec := &drawRecorder{chains: ch}
	rec.nc = maxDrawChains
	if v, ok := c["chains"]; ok && v.Num >= 1 {
		rec.nc = min(maxDrawChains, int(v.Num))
	}
	for i, name := range traces {
		p, k, ok := chainTrace(name)
		if !ok || k > rec.nc {
			continue
		}
		j := -1
		for q, have := range rec.params {
			if have == p {
				j = q
			}
		}
		if j < 0 {
			if len(rec.params) == MaxDrawParams+1 { // one spare: an all-NaN parameter is dropped later
				continue
			}
			rec.params = append(rec.params, p)
			rec.col = append(rec.col, make([]int, rec.nc))
			for c := range rec.col[len(rec.col)-1] {
				rec.col[len(rec.col)-1][c] = -1
			}
			j = len(rec.params) - 1
		}
		rec.col[j][k-1] = i
	}
	if len(rec.params) == 0 {
		return nil
	}
	rec.alloc()
	return rec
}

// chainTrace splits "b0.c3" into ("b0", 3).
func chainTrace(name string) (param string, chain int, ok bool) {
	i := strings.LastIndex(name, ".c")
	if i <= 0 {
		return "", 0, false
	}
	k, err := strconv.Atoi(name[i+2:])
	if err != nil || k < 1 || k > maxDrawChains {
		return "", 0, false
	}
	return name[:i], k, true
}

func (d *drawRecorder) alloc() {
	np := len(d.params)
	d.ring = make([]float64, np*d.nc*StatsWindow)
	d.divRing = make([]bool, d.nc*StatsWindow)
	d.divNow, d.divPrev = make([]int, 0, d.nc), make([]int, d.nc)
	d.scratch = make([][]float64, d.nc)
	for c := range d.scratch {
		d.scratch[c] = make([]float64, 0, StatsWindow)
	}
	d.rankWork = make([]float64, 0, d.nc*StatsWindow)
}

// reset forgets every draw (a re-initialised method).
func (d *drawRecorder) reset() {
	d.n, d.dirty, d.set, d.stats, d.statsN, d.statsAt = 0, false, nil, nil, 0, 0
	clear(d.divPrev)
	d.next = time.Time{}
}

// drawsRec records a sampler's retained draws (a drawRecorder, made on
// the first step of a method with per-chain traces) and adds their draw
// set to the frames as the extra "draws".
type drawsRec struct {
	r        *Run
	rec      *drawRecorder
	off      bool // the method is not a sampler with per-chain traces
	retained bool // the coming step's draw is kept
	out      payload[*wire.DrawSet]
}

// reset forgets the draws of a re-initialised method or of the old data
// (reinit calls it after setting the new controls). A new chain count
// needs rings of another size: the next step makes a new recorder.
func (d *drawsRec) reset(e change) {
	if d.rec == nil || e == changeControl {
		return
	}
	if v, ok := d.r.ctl.now["chains"]; ok && min(maxDrawChains, int(v.Num)) != d.rec.nc {
		d.rec = nil
		return
	}
	d.rec.reset()
}

// before reports whether the coming step's draw is retained (the sampler
// is past warm-up). It creates the recorder on first use.
func (d *drawsRec) before() bool {
	d.retained = false
	if d.off {
		return false
	}
	if d.rec == nil {
		d.rec = newDrawRecorder(d.r.m, d.r.box.traces, d.r.ctl.now)
		if d.rec == nil {
			d.off = true
			return false
		}
	}
	d.retained = !d.rec.chains.Warmup()
	return d.retained
}

// observe records the step's draws, tr (the method's Trace after the
// step), when they are retained. It allocates nothing.
func (d *drawsRec) observe(_ int64, _ float64, tr []float64) {
	if d.rec != nil {
		d.rec.record(d.retained, tr)
	}
}

func (d *drawsRec) contribute(f *Frame, now time.Time) {
	if !d.r.st.ready {
		return
	}
	d.out.add(f, d.r.opt.Log, "draws", d.set(now))
}

// record adds a step's draws when retained.
func (d *drawRecorder) record(retained bool, tr []float64) {
	d.divNow = d.chains.ChainDivergences(d.divNow[:0])
	if !retained {
		copy(d.divPrev, d.divNow)
		return
	}
	slot := int(d.n % StatsWindow)
	for p := range d.params {
		for c := range d.nc {
			v := math.NaN()
			if i := d.col[p][c]; i >= 0 && i < len(tr) {
				v = tr[i]
			}
			d.ring[(p*d.nc+c)*StatsWindow+slot] = v
		}
	}
	for c := range d.nc {
		div := c < len(d.divNow) && c < len(d.divPrev) && d.divNow[c] > d.divPrev[c]
		d.divRing[c*StatsWindow+slot] = div
	}
	copy(d.divPrev, d.divNow)
	d.n++
	d.dirty = true
}

// set returns the draw set for a frame published now: a new one when
// draws were added and the last is old enough (at once while paused), else
// the last.
func (d *drawsRec) set(now time.Time) *wire.DrawSet {
	rec := d.rec
	if rec == nil {
		return nil
	}
	if rec.n == 0 || !rec.dirty || (d.r.st.active() && now.Before(rec.next)) {
		return rec.set
	}
	t0 := time.Now()
	rec.refresh(d.r.st.step)
	rec.next = now.Add(max(drawsInterval, time.Since(t0)*drawsCostShare))
	return rec.set
}

// window copies the last m draws of param p, chain c, oldest first, into
// dst[:0].
func (d *drawRecorder) window(dst []float64, p, c, m int) []float64 {
	base := (p*d.nc + c) * StatsWindow
	start := d.n - int64(m)
	for i := start; i < d.n; i++ {
		dst = append(dst, d.ring[base+int(i%StatsWindow)])
	}
	return dst
}

// refresh computes the statistics and builds a new draw set.
func (d *drawRecorder) refresh(step int64) {
	d.dirty = false
	m := int(min(d.n, StatsWindow))
	stats := make(map[string]wire.ParamStats, len(d.params))
	var params []string
	for p, name := range d.params {
		for c := range d.nc {
			d.scratch[c] = d.window(d.scratch[c][:0], p, c, m)
		}
		if allNaN(d.scratch) {
			continue // e.g. the noise of a classifier
		}
		if len(params) == MaxDrawParams {
			break
		}
		params = append(params, name)
		if m >= 4 {
			stats[name] = wire.ParamStats{ParamSummary: numeric.Summarize(d.scratch), Ranks: d.ranks(d.scratch)}
		}
	}
	d.stats, d.statsN, d.statsAt = stats, m, step
	w := int(min(d.n, DrawWindow))
	set := &wire.DrawSet{Step: step, Retained: d.n, Chains: d.nc, Params: params, Values: make(map[string][][]float64, len(params)),
		Divergent: make([][]int, d.nc), Stats: d.stats, StatsDraws: d.statsN, StatsStep: d.statsAt}
	for _, name := range params {
		p := indexOf(d.params, name)
		vs := make([][]float64, d.nc)
		for c := range d.nc {
			vs[c] = d.window(make([]float64, 0, w), p, c, w)
		}
		set.Values[name] = vs
	}
	for c := range d.nc {
		set.Divergent[c] = []int{}
		for i := range w {
			if d.divRing[c*StatsWindow+int((d.n-int64(w)+int64(i))%StatsWindow)] {
				set.Divergent[c] = append(set.Divergent[c], i)
			}
		}
	}
	set.Seal()
	d.set = set
}

// ranks bins the pooled ranks of the draws by chain: a well-mixed sampler
// gives every chain a flat histogram (Vehtari et al. 2021, §4.1). A draw's
// rank is its position in the sorted pool (ties take the lowest).
func (d *drawRecorder) ranks(chains [][]float64) [][]int {
	pool := d.rankWork[:0]
	for _, x := range chains {
		pool = append(pool, x...)
	}
	d.rankWork = pool
	slices.Sort(pool)
	out := make([][]int, len(chains))
	n := len(pool)
	for c, x := range chains {
		out[c] = make([]int, RankBins)
		for _, v := range x {
			r, _ := slices.BinarySearch(pool, v)
			out[c][r*RankBins/n]++
		}
	}
	return out
}

func allNaN(chains [][]float64) bool {
	for _, x := range chains {
		for _, v := range x {
			if !math.IsNaN(v) {
				return false
			}
		}
	}
	return true
}

func indexOf(xs []string, s string) int {
	for i, x := range xs {
		if x == s {
			return i
		}
	}
	return -1
}
