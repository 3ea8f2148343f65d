package gallery

import (
	"math"
	"testing"
	"time"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
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

// A plane carries exactly the draws taken since the last one, chain by
// chain (one per chain per transition after warm-up), and never more than
// MaxPlaneDraws.
func TestPlaneSendsTheDrawsSinceTheLast(t *testing.T) {
	ex := newRun(t, gaussian("metropolis", 1)).Exact()
	m, err := NewEngineMethod(ex, "metropolis", 4)
	if err != nil {
		t.Fatal(err)
	}
	c, err := m.Spec().Resolve(sim.Controls{})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Init(ex.Target, c, numeric.NewStream(1, 0)); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for _, steps := range []int{0, 1, 37, 5000} {
		for range steps {
			m.Step()
		}
		p := m.Plane(now).(*Plane)
		got := 0
		if p.Draws != nil {
			got = len(p.Draws.X)
			for i := 1; i < got; i++ {
				if p.Draws.Chain[i] < p.Draws.Chain[i-1] {
					t.Fatalf("after %d steps: draws not chain by chain", steps)
				}
			}
		}
		if want := min(4*steps, MaxPlaneDraws); got != want {
			t.Errorf("after %d steps: %d draws sent, want %d", steps, got, want)
		}
	}
}
