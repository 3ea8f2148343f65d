package gallery

import (
	"math"
	"slices"
	"testing"
	"time"
)

// The exact grid sent to the page is the shown grid averaged over blocks
// of cells: it holds the same mass (to float32's rounding over its cells)
// and each marginal too, at no more than MaxPlaneGrid cells a side.
func TestPlaneExactKeepsTheMass(t *testing.T) {
	ex := newRun(t, gaussian("nuts", 1)).Exact()
	g, pe := ex.Shown, NewPlaneExact(ex)
	if pe.Exact.N > MaxPlaneGrid || g.N%pe.Exact.N != 0 {
		t.Fatalf("plane grid %d from %d: want a divisor at most %d", pe.Exact.N, g.N, MaxPlaneGrid)
	}
	cell := func(n int) float64 { return (g.Box.XMax - g.Box.XMin) * (g.Box.YMax - g.Box.YMin) / float64(n*n) }
	var full, sent float64
	for _, v := range g.Density(nil) {
		full += v * cell(g.N)
	}
	for _, v := range pe.Exact.Values {
		sent += float64(v) * cell(pe.Exact.N)
	}
	// float32 keeps 24 bits: a relative error of 2⁻²⁴ per value, summed
	// over at most 128² of them.
	if tol := 128 * 128 * math.Ldexp(1, -24) * full; math.Abs(sent-full) > tol {
		t.Errorf("mass %v sent, %v on the grid: more than %v apart", sent, full, tol)
	}
	for a := range 2 {
		var m float64
		for _, v := range (*pe.Exact.Marginals)[a] {
			m += float64(v)
		}
		var want float64
		for _, v := range g.Marginal[a] {
			want += v
		}
		if k := float64(g.N / pe.Exact.N); math.Abs(m*k-want) > 1e-5*want {
			t.Errorf("marginal %d: %v sent (× %v), %v on the grid", a, m, k, want)
		}
	}
}

// planeReader is a page's reader of planes, as the Plane doc says: per
// chain the draws it has, and how many it was told it missed.
type planeReader struct {
	have   [][]float32 // per chain, the x of each draw, in order
	missed []int64
	div    int64 // divergences read or missed
}

func (r *planeReader) read(t *testing.T, p *Plane) {
	if r.have == nil {
		r.have, r.missed = make([][]float32, len(p.Totals)), make([]int64, len(p.Totals))
	}
	at := 0 // the plane's draws are chain by chain
	for c, total := range p.Totals {
		n := int(total - p.From[c])
		got := int64(len(r.have[c])) + r.missed[c]
		if p.From[c] > got {
			r.missed[c] += p.From[c] - got
			got = p.From[c]
		}
		for i := range n {
			if p.Draws.Chain[at+i] != uint8(c) {
				t.Fatalf("draw %d of the plane is chain %d's, want %d's", at+i, p.Draws.Chain[at+i], c)
			}
			if p.From[c]+int64(i) >= got {
				r.have[c] = append(r.have[c], p.Draws.X[at+i])
			}
		}
		at += n
	}
	if p.Draws != nil && at != len(p.Draws.X) {
		t.Fatalf("plane numbers %d draws and carries %d", at, len(p.Draws.X))
	}
	r.div = p.DivergenceTotal
}

// A reader of the planes that skips up to PlaneTail − 1 of them in a row
// ends with the same draws, in the same order, as one that read every
// plane (and that one has every draw taken, none missed); one that skips
// more is told exactly how many it missed: what it has and what it missed
// add up to every draw taken. No plane carries more than MaxPlaneDraws.
func TestPlaneReaderMissesNothing(t *testing.T) {
	ex := newRun(t, gaussian("metropolis", 1)).Exact()
	m := newEngineMethod(t, ex, "metropolis", 4)
	now := time.Now()
	var all, skips, lossy planeReader
	steps := 0
	for k := range 60 {
		for range 1 + k%3 {
			m.Step()
			steps++
		}
		p := m.Plane(now).(*Plane)
		if p.Draws != nil && len(p.Draws.X) > MaxPlaneDraws {
			t.Fatalf("plane %d carries %d draws", k, len(p.Draws.X))
		}
		all.read(t, p)
		if k < 20 || k%PlaneTail == 0 || k == 59 { // from plane 20 on, skips PlaneTail − 1 in a row; reads the last
			skips.read(t, p)
		}
		if k < 20 || k%(PlaneTail+2) == 0 || k == 59 { // skips PlaneTail + 1 in a row
			lossy.read(t, p)
		}
	}
	for c := range 4 {
		if len(all.have[c]) != steps || all.missed[c] != 0 {
			t.Errorf("chain %d: the reader of every plane has %d draws and missed %d; %d were taken", c, len(all.have[c]), all.missed[c], steps)
		}
		if !slices.Equal(skips.have[c], all.have[c]) || skips.missed[c] != 0 {
			t.Errorf("chain %d: a reader skipping %d planes in a row has %d draws (missed %d), not the %d of every plane",
				c, PlaneTail-1, len(skips.have[c]), skips.missed[c], len(all.have[c]))
		}
		if lossy.missed[c] == 0 || int64(len(lossy.have[c]))+lossy.missed[c] != int64(steps) {
			t.Errorf("chain %d: a reader skipping %d planes in a row has %d draws and was told it missed %d, of %d",
				c, PlaneTail+1, len(lossy.have[c]), lossy.missed[c], steps)
		}
	}
}

// A plane after many steps carries at most MaxPlaneDraws, the newest:
// each chain's last MaxPlaneDraws/chains draws, From numbering them.
func TestPlaneBoundsItsDraws(t *testing.T) {
	ex := newRun(t, gaussian("metropolis", 1)).Exact()
	m := newEngineMethod(t, ex, "metropolis", 4)
	for range 5000 {
		m.Step()
	}
	p := m.Plane(time.Now()).(*Plane)
	if len(p.Draws.X) != MaxPlaneDraws {
		t.Errorf("%d draws, want %d", len(p.Draws.X), MaxPlaneDraws)
	}
	for c := range 4 {
		if p.Totals[c] != 5000 || p.From[c] != 5000-MaxPlaneDraws/4 {
			t.Errorf("chain %d: draws %d to %d, want %d to 5000", c, p.From[c], p.Totals[c], 5000-MaxPlaneDraws/4)
		}
	}
}
