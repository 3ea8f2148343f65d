package sampler

import (
	"testing"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim/target"
)

// TestNUTSTree checks every recorded tree of NUTS on the banana and the
// centred funnel (whose trees diverge): the path is the start and one
// point per leapfrog (as many as the gradient evaluations, but for the
// step-size search after a metric update in warm-up), the doublings
// tile it in order, a merged doubling of depth d holds 2^d points, a
// tree that stopped on its own criterion or its depth holds 2^depth − 1
// leapfrogs, every completed subtree of depth d spans 2^d points inside
// one doubling, and the chosen point is in the path and is where the
// chain went.
func TestNUTSTree(t *testing.T) {
	for _, tg := range []target.Target{banana(t), target.Funnel{}} {
		n := must(NewNUTS(tg, NUTSConfig{Warmup: 100, MaxDepth: 8}, numeric.NewStream(11, 1), Point{0.5, 0.5})).(*NUTS)
		rec := NewRecord(1 << 8)
		stops := map[Stop]int{}
		for i := range 600 {
			before := n.Counts().Gradient
			tr := n.Step(rec)
			stops[rec.Stop]++
			// At the end of a metric window the step-size heuristic
			// starts again, spending gradients of its own.
			_, search := n.win.at(i)
			grads := n.Counts().Gradient - before
			if got := len(rec.Path) - 1; got != tr.Leapfrogs || !search && int64(got) != grads || search && int64(got) >= grads {
				t.Fatalf("%s step %d: %d points after the start, %d leapfrogs, %d gradients", tg.Name(), i, got, tr.Leapfrogs, n.Counts().Gradient-before)
			}
			if rec.Chosen < 0 || rec.Chosen >= len(rec.Path) || rec.Path[rec.Chosen] != n.Position() || rec.Proposal != n.Position() {
				t.Fatalf("%s step %d: chosen %d of %d points is not the new position", tg.Name(), i, rec.Chosen, len(rec.Path))
			}
			if (rec.Chosen != 0) != tr.Accepted {
				t.Fatalf("%s step %d: chosen %d but accepted %v", tg.Name(), i, rec.Chosen, tr.Accepted)
			}
			next := 1
			for j, d := range rec.Doublings {
				size := d.Last - d.First + 1
				if d.First != next || d.Depth != j || d.Merged && size != 1<<d.Depth || size > 1<<d.Depth || size < 1 {
					t.Fatalf("%s step %d: doubling %d %+v after point %d", tg.Name(), i, j, d, next-1)
				}
				next = d.Last + 1
			}
			if next != len(rec.Path) {
				t.Fatalf("%s step %d: doublings end at %d of %d points", tg.Name(), i, next, len(rec.Path))
			}
			if (rec.Stop == StopUTurn || rec.Stop == StopMaxDepth) && tr.Leapfrogs != 1<<tr.Depth-1 {
				t.Fatalf("%s step %d: stopped by %s at depth %d after %d leapfrogs", tg.Name(), i, rec.Stop, tr.Depth, tr.Leapfrogs)
			}
			if rec.Divergent != (rec.Stop == StopDivergent) || rec.Divergent != tr.Divergent || rec.Divergent && (rec.DivergentAt < 1 || rec.DivergentAt != len(rec.Path)-1) {
				t.Fatalf("%s step %d: divergent %v at %d, stop %s", tg.Name(), i, rec.Divergent, rec.DivergentAt, rec.Stop)
			}
			for _, s := range rec.Subtrees {
				if s.Last-s.First+1 != 1<<s.Depth || !inOneDoubling(rec.Doublings, s) {
					t.Fatalf("%s step %d: subtree %+v", tg.Name(), i, s)
				}
			}
		}
		if stops[StopUTurn] == 0 {
			t.Errorf("%s: no tree stopped by a U-turn in 600 (%v)", tg.Name(), stops)
		}
		if tg.Name() == "funnel" && stops[StopDivergent] == 0 {
			t.Errorf("centred funnel: no divergent tree in 600 (%v)", stops)
		}
	}
}

func inOneDoubling(ds []Doubling, s Subtree) bool {
	for _, d := range ds {
		if s.First >= d.First && s.Last <= d.Last && s.Depth <= d.Depth {
			return true
		}
	}
	return false
}

// TestRecords checks the other samplers' records: the start, the proposal
// and whether the chain moved to it; HMC's path of L + 1 points from the
// start to the proposal, cut at a divergence.
func TestRecords(t *testing.T) {
	tg := target.Funnel{}
	r := numeric.NewStream(4, 1)
	ss := []Sampler{
		must(NewMetropolis(tg, MetropolisConfig{Scale: 2}, r, Point{0.5, 0.5})),
		must(NewMALA(tg, LangevinConfig{Step: 0.8}, r, Point{0.5, 0.5})),
		must(NewULA(tg, LangevinConfig{Step: 0.1}, r, Point{0.5, 0.5})),
		must(NewHMC(tg, HMCConfig{Step: 0.4, Leapfrogs: 15}, r, Point{-3, 0.05})),
	}
	for k, s := range ss {
		rec := NewRecord(16)
		var accepted, rejected, diverged int
		for i := range 2000 {
			start := s.Position()
			tr := s.Step(rec)
			if rec.Start != start || rec.Accepted != tr.Accepted {
				t.Fatalf("sampler %d step %d: record %+v, transition %+v", k, i, rec, tr)
			}
			if want := map[bool]Point{true: rec.Proposal, false: start}[tr.Accepted]; s.Position() != want {
				t.Fatalf("sampler %d step %d: at %v, want %v", k, i, s.Position(), want)
			}
			if h, ok := s.(*HMC); ok {
				if rec.Path[0] != start || rec.Path[len(rec.Path)-1] != rec.Proposal || tr.Divergent != rec.Divergent ||
					!tr.Divergent && len(rec.Path) != h.cfg.Leapfrogs+1 || tr.Divergent && rec.DivergentAt != len(rec.Path)-1 {
					t.Fatalf("HMC step %d: path of %d points, divergent %v at %d", i, len(rec.Path), tr.Divergent, rec.DivergentAt)
				}
				if tr.Divergent {
					diverged++
				}
			}
			if tr.Accepted {
				accepted++
			} else {
				rejected++
			}
		}
		if accepted == 0 || rejected == 0 && k != 2 {
			t.Errorf("sampler %d: %d accepted, %d rejected", k, accepted, rejected)
		}
		if k == 3 && diverged == 0 {
			t.Error("HMC in the funnel's neck: no divergence recorded")
		}
	}
}
