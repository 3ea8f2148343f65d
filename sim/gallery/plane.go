package gallery

import (
	"math"
	"time"

	"github.com/posterior-playground/playground/sim/family"
	"github.com/posterior-playground/playground/sim/sampler"
	"github.com/posterior-playground/playground/sim/target"
)

// The plane's payloads, in the frame format of the browser's plane view
// (static/app/plane.js): numbers as float32, which the page draws with
// room to spare and which halves a frame.

// PlaneBox is a target.Box as the page reads it.
type PlaneBox struct {
	X [2]float64 `json:"x"`
	Y [2]float64 `json:"y"`
}

func planeBox(b target.Box) PlaneBox {
	return PlaneBox{X: [2]float64{b.XMin, b.XMax}, Y: [2]float64{b.YMin, b.YMax}}
}

// PlaneGrid is a density on an N × N grid over the box, row by row from
// its lower edge, with each parameter's marginal at N bins (the exact
// answer's only).
type PlaneGrid struct {
	N         int           `json:"n"`
	Values    []float32     `json:"values"`
	Marginals *[2][]float32 `json:"marginals,omitempty"`
}

// MaxPlaneGrid is the most cells per axis of the exact grid sent to the
// page: 128² are smooth contours, a quarter of a 256² grid's bytes.
const MaxPlaneGrid = 128

// PlaneExact is the exact answer's part of the plane, made once per
// exact answer: the page keeps it until the target or its controls
// change.
type PlaneExact struct {
	Key    string        `json:"key"`
	Box    PlaneBox      `json:"box"`
	Params [2]string     `json:"params"`
	Exact  PlaneGrid     `json:"exact"`
	LogZ   float64       `json:"log_z"`
	Mean   target.Point  `json:"mean"`
	Cov    [2][2]float64 `json:"cov"`
	// Q05 and Q95 are each parameter's exact 5% and 95% quantiles.
	Q05 [2]float64 `json:"q05"`
	Q95 [2]float64 `json:"q95"`
}

// NewPlaneExact makes ex's part of the plane: its shown grid, averaged
// down to at most MaxPlaneGrid cells a side.
func NewPlaneExact(ex *Exact) *PlaneExact {
	g := ex.Shown
	d := g.Density(nil)
	k := 1
	for g.N/k > MaxPlaneGrid && g.N%(2*k) == 0 {
		k *= 2
	}
	n := g.N / k
	vals := make([]float32, n*n)
	for j := range g.N {
		for i := range g.N {
			vals[(j/k)*n+i/k] += float32(d[j*g.N+i] / float64(k*k))
		}
	}
	var marg [2][]float32
	for a := range 2 {
		marg[a] = make([]float32, n)
		for i, v := range g.Marginal[a] {
			marg[a][i/k] += float32(v / float64(k))
		}
	}
	pe := &PlaneExact{Key: ex.Key, Box: planeBox(g.Box), Params: g.Params, Exact: PlaneGrid{N: n, Values: vals, Marginals: &marg},
		LogZ: g.LogZ, Mean: g.Mean, Cov: g.Cov}
	for a := range 2 {
		pe.Q05[a], pe.Q95[a] = g.Quantile(a, 0.05), g.Quantile(a, 0.95)
	}
	return pe
}

// PlaneXY are points in flat arrays, with each one's chain for draws.
type PlaneXY struct {
	X     []float32 `json:"x"`
	Y     []float32 `json:"y"`
	Chain []uint8   `json:"chain,omitempty"`
}

func (p *PlaneXY) add(q target.Point) {
	p.X, p.Y = append(p.X, float32(q[0])), append(p.Y, float32(q[1]))
}

// PlaneTransition is a sampler's latest transition (sampler.Record) as
// the page reads it, in the shown coordinates.
type PlaneTransition struct {
	Kind        string          `json:"kind"`
	Chain       int             `json:"chain"`
	Start       target.Point    `json:"start"`
	Proposal    target.Point    `json:"proposal"`
	Accepted    bool            `json:"accepted"`
	Path        []target.Point  `json:"path,omitempty"`
	Divergent   bool            `json:"divergent"`
	DivergentAt int             `json:"divergentAt"`
	Doublings   []planeDoubling `json:"doublings,omitempty"`
	Subtrees    []planeSubtree  `json:"subtrees,omitempty"`
	Chosen      int             `json:"chosen"`
	Stop        sampler.Stop    `json:"stop,omitempty"`
}

type planeDoubling struct {
	Dir    int  `json:"dir"`
	Depth  int  `json:"depth"`
	First  int  `json:"first"`
	Last   int  `json:"last"`
	Merged bool `json:"merged"`
}

type planeSubtree struct {
	Depth     int  `json:"depth"`
	First     int  `json:"first"`
	Last      int  `json:"last"`
	UTurn     bool `json:"uturn"`
	Divergent bool `json:"divergent"`
}

// Plane is the plane now. Draws and divergences are numbered, so that a
// reader that missed planes knows what it missed: Totals[c] counts chain
// c's post-warm-up draws so far, and Draws hold, chain by chain, chain c's
// draws numbered From[c] to Totals[c] − 1 (from 0, oldest first): those
// since the plane PlaneTail planes before this one, at most
// MaxPlaneDraws/Chains a chain (the newest). A reader keeps, per chain,
// how many it has (have[c]), takes the draws numbered have[c] or more,
// counts From[c] − have[c] as missed when positive, and sets have[c] to
// Totals[c]; a total below have[c], or a new Key, is a new run. So a
// reader that misses up to PlaneTail − 1 planes in a row loses nothing
// unless a chain took more than its share of draws meanwhile, and is
// told how many it lost when it does. Divergences are numbered the same
// way, by DivergenceFrom and DivergenceTotal. The rest is the plane now:
// a reader replaces what it had.
type Plane struct {
	Key    string `json:"key"` // the exact answer's: the page drops what it kept when it changes
	Chains int    `json:"chains"`
	// Totals and From number a sampler's draws (above); nil for a family.
	Totals []int64  `json:"totals,omitempty"`
	From   []int64  `json:"from,omitempty"`
	Draws  *PlaneXY `json:"draws,omitempty"`
	// Divergences are where divergent transitions ended, numbered
	// DivergenceFrom to DivergenceTotal − 1 over all chains.
	Divergences     *PlaneXY         `json:"divergences,omitempty"`
	DivergenceFrom  int64            `json:"divergence_from"`
	DivergenceTotal int64            `json:"divergence_total"`
	Transition      *PlaneTransition `json:"transition,omitempty"`
	// Particles are SVGD's particles, or QDraws of q's draws when its
	// density is not drawn (in other coordinates than the shown ones).
	Particles *PlaneXY `json:"particles,omitempty"`
	Measure   Measure  `json:"measure"` // the cheap measures now
}

// PlaneQ is q's density over the box, made at most every qInterval
// when the family has one and is fitted in the shown coordinates, with
// q's mean and covariance in the coordinates it is fitted in (for a
// Gaussian family, its parameters: what the page exports as q's). It is
// its own payload (EngineMethod.PlaneQ), sent to each viewer once.
type PlaneQ struct {
	Q        *PlaneGrid    `json:"q"`
	QMoments *PlaneMoments `json:"q_moments"`
}

// PlaneMoments are a mean and a covariance.
type PlaneMoments struct {
	Mean target.Point  `json:"mean"`
	Cov  [2][2]float64 `json:"cov"`
}

// MaxPlaneDraws bounds the draws one plane carries.
const MaxPlaneDraws = 4000

// PlaneTail is how many planes' draws a plane carries (this one's and
// the PlaneTail − 1 before it): a reader, or the stream's hub, that skips
// up to PlaneTail − 1 planes in a row loses no draw, for at most
// PlaneTail times a plane's bytes.
const PlaneTail = 4

// planeState is what the last planes sent.
type planeState struct {
	// sent[k%PlaneTail] holds, per chain, the draw totals at the k-th
	// plane, and its last element the divergence total; k counts planes.
	sent [PlaneTail][]int64
	k    int
	qAt  time.Time
	q    []float64 // q's density on the plane's grid
	// latestQ is the newest q payload (PlaneQ).
	latestQ *PlaneQ
}

// Plane returns the plane now (a *Plane); now paces q's density grid.
func (m *EngineMethod) Plane(now time.Time) any { return m.plane(now) }

func (m *EngineMethod) plane(now time.Time) *Plane {
	r := m.run
	p := &Plane{Key: m.ex.Key, Chains: max(len(r.chains), 1), Measure: r.cheap(r.Evals())}
	if r.fit != nil {
		m.planeFamily(p, now)
		return p
	}
	st := &m.pl
	n := len(r.rings)
	// base: the totals at the plane PlaneTail before this one (0 before
	// the first), in the slot this one's totals take once read.
	base := st.sent[st.k%PlaneTail]
	if st.k < PlaneTail {
		base = make([]int64, n+1)
	}
	per := MaxPlaneDraws / n
	d := &PlaneXY{}
	p.Totals, p.From = make([]int64, n), make([]int64, n)
	for c := range r.rings {
		rg := &r.rings[c]
		k := int(min(rg.total-base[c], int64(rg.n), int64(per)))
		for i := rg.n - k; i < rg.n; i++ {
			d.add(rg.at(i))
			d.Chain = append(d.Chain, uint8(c))
		}
		p.Totals[c], p.From[c] = rg.total, rg.total-int64(k)
	}
	if len(d.X) > 0 {
		p.Draws = d
	}
	dv := &r.divAt
	k := int(min(dv.total-base[n], int64(dv.n)))
	p.DivergenceTotal, p.DivergenceFrom = dv.total, dv.total-int64(k)
	if k > 0 {
		p.Divergences = &PlaneXY{}
		for i := dv.n - k; i < dv.n; i++ {
			p.Divergences.add(dv.at(i))
		}
	}
	totals := st.sent[st.k%PlaneTail][:0]
	totals = append(append(totals, p.Totals...), dv.total)
	st.sent[st.k%PlaneTail] = totals
	st.k++
	if r.recorded {
		p.Transition = m.transition()
	}
	return p
}

// PlaneQ returns q's latest density and moments (a *PlaneQ), or nil.
func (m *EngineMethod) PlaneQ() any {
	if m.pl.latestQ == nil {
		return nil
	}
	return m.pl.latestQ
}

// transition copies the latest Record in the shown coordinates.
func (m *EngineMethod) transition() *PlaneTransition {
	r := m.run
	var rec sampler.Record
	r.mapRecord(&rec)
	t := &PlaneTransition{Kind: m.spec.Name, Chain: r.recChain, Start: rec.Start, Proposal: rec.Proposal, Accepted: rec.Accepted,
		Path: rec.Path, Divergent: rec.Divergent, DivergentAt: rec.DivergentAt, Chosen: rec.Chosen, Stop: rec.Stop}
	for _, d := range rec.Doublings {
		t.Doublings = append(t.Doublings, planeDoubling{d.Dir, d.Depth, d.First, d.Last, d.Merged})
	}
	for _, s := range rec.Subtrees {
		t.Subtrees = append(t.Subtrees, planeSubtree{s.Depth, s.First, s.Last, s.UTurn, s.Divergent})
	}
	return t
}

// planeFamily adds q's density when due, if it has one drawn over the
// shown box, and its draws (SVGD's particles) otherwise.
func (m *EngineMethod) planeFamily(p *Plane, now time.Time) {
	r, st := m.run, &m.pl
	if r.dens != nil && r.ex.Target.Box() == r.ex.Shown.Box {
		if now.Before(st.qAt) {
			return
		}
		st.qAt = now.Add(qInterval)
		st.q = r.qDensity(st.q[:0])
		g := &PlaneGrid{N: ContourSize, Values: make([]float32, len(st.q))}
		for i, v := range st.q {
			if !math.IsNaN(v) {
				g.Values[i] = float32(v)
			}
		}
		mean, cov := r.fit.Moments()
		st.latestQ = &PlaneQ{Q: g, QMoments: &PlaneMoments{Mean: mean, Cov: cov}}
		return
	}
	pts := r.qPoints()
	if _, ok := r.fit.(*family.SVGD); !ok {
		pts = pts[:QDraws]
	}
	q := &PlaneXY{}
	for _, x := range pts {
		q.add(x)
	}
	p.Particles = q
}
