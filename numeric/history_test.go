package numeric

import (
	"math"
	"testing"
)

// fill adds steps 1..n with values (step, -step).
func fill(h *History, n int64) {
	row := make([]float64, 2)
	for s := int64(1); s <= n; s++ {
		if h.Wants() {
			row[0], row[1] = float64(s), -float64(s)
		}
		h.Add(s, row)
	}
}

func TestHistoryKeepsEveryPointUntilFull(t *testing.T) {
	h := NewHistory(8, 2)
	fill(h, 8)
	got := h.Since(math.MinInt64, 0, nil)
	if len(got) != 8 || h.Stride() != 1 {
		t.Fatalf("len %d stride %d, want 8 and 1", len(got), h.Stride())
	}
	for i, p := range got {
		if p.Step != int64(i+1) || p.Value != float64(i+1) {
			t.Fatalf("point %d = %+v", i, p)
		}
	}
}

// After the buffer fills, the kept points are exactly the Adds whose index
// (from 0) is a multiple of the stride: steps 1, 1+s, 1+2s, ….
func TestHistoryDecimatesEvenly(t *testing.T) {
	h := NewHistory(8, 2)
	fill(h, 9) // the 9th point forces a halving: keep 1,3,5,7 then 9
	want := []int64{1, 3, 5, 7, 9}
	got := h.Since(math.MinInt64, 1, nil)
	if h.Stride() != 2 || len(got) != len(want) {
		t.Fatalf("stride %d, points %v", h.Stride(), got)
	}
	for i, p := range got {
		if p.Step != want[i] || p.Value != -float64(want[i]) {
			t.Fatalf("point %d = %+v, want step %d", i, p, want[i])
		}
	}
}

func TestHistoryTenMillionStepsConstantMemory(t *testing.T) {
	const capacity, n = 1000, 10_000_000
	h := NewHistory(capacity, 2)
	fill(h, n)
	if h.Len() > capacity || h.Len() < capacity/2 {
		t.Fatalf("len %d outside [%d, %d]", h.Len(), capacity/2, capacity)
	}
	if cap(h.steps) != capacity || cap(h.cols[0]) != capacity {
		t.Fatalf("buffers grew: %d, %d", cap(h.steps), cap(h.cols[0]))
	}
	s := h.Stride()
	if s&(s-1) != 0 || int64(h.Len()-1)*s > n || int64(h.Len())*s <= n-s {
		t.Fatalf("stride %d does not cover %d steps with %d points", s, n, h.Len())
	}
	pts := h.Since(math.MinInt64, 0, nil)
	for i, p := range pts {
		if p.Step != 1+int64(i)*s || p.Value != float64(p.Step) {
			t.Fatalf("point %d = %+v, want step %d", i, p, 1+int64(i)*s)
		}
	}
}

func TestHistorySince(t *testing.T) {
	h := NewHistory(16, 1)
	fill(h, 10)
	got := h.Since(7, 0, make([]Point, 0, 4))
	if len(got) != 3 || got[0].Step != 8 || got[2].Step != 10 {
		t.Fatalf("Since(7) = %v", got)
	}
	if got := h.Since(10, 0, nil); len(got) != 0 {
		t.Fatalf("Since(last) = %v, want none", got)
	}
	// A viewer that last saw step 5, while the history halved twice, gets
	// the kept points after 5: fewer of them, none it has seen.
	fill2 := NewHistory(4, 1)
	fill(fill2, 5)
	seen := int64(5)
	row := []float64{0}
	for s := int64(6); s <= 40; s++ {
		row[0] = float64(s)
		fill2.Add(s, row)
	}
	pts := fill2.Since(seen, 0, nil)
	for i, p := range pts {
		if p.Step <= seen || (i > 0 && p.Step <= pts[i-1].Step) {
			t.Fatalf("Since(%d) = %v", seen, pts)
		}
	}
	if last, _ := fill2.Last(); len(pts) == 0 || pts[len(pts)-1].Step != last {
		t.Fatalf("Since(%d) = %v misses the newest point %d", seen, pts, last)
	}
}

func TestHistoryReset(t *testing.T) {
	h := NewHistory(4, 1)
	fill(h, 100)
	h.Reset()
	if h.Len() != 0 || h.Stride() != 1 || !h.Wants() {
		t.Fatalf("after Reset: len %d stride %d", h.Len(), h.Stride())
	}
	if _, ok := h.Last(); ok {
		t.Fatal("Last on empty history")
	}
}

func TestHistoryAddAllocatesNothing(t *testing.T) {
	h := NewHistory(64, 3)
	row := []float64{1, 2, 3}
	var s int64
	allocs := testing.AllocsPerRun(10_000, func() {
		s++
		h.Add(s, row)
	})
	if allocs != 0 {
		t.Fatalf("Add allocates %v times", allocs)
	}
}

func BenchmarkHistoryAdd(b *testing.B) {
	h := NewHistory(1024, 4)
	row := []float64{1, 2, 3, 4}
	b.ReportAllocs()
	b.ResetTimer() // exclude NewHistory's buffers from B/op
	for i := 0; i < b.N; i++ {
		h.Add(int64(i), row)
	}
}
