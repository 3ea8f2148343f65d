package numeric

import (
	"math"
	"sort"
)

// Point is one recorded value at a step (package wire writes a run of them
// as JSON).
type Point struct {
	Step  int64
	Value float64
}

// History is a bounded record of several series sampled at common steps (an
// objective and a few traces), in constant memory however long a run lasts.
//
// It keeps the n-th Add when n is a multiple of its stride, which starts at
// 1. When the buffer is full it keeps every other point and doubles the
// stride, so it always holds between capacity/2 and capacity points spread
// evenly over the whole run: old points thin out, none is biased. Add
// allocates nothing. A History is not safe for concurrent use.
type History struct {
	capacity int
	stride   int64
	n        int64 // Adds since Reset
	steps    []int64
	cols     [][]float64
}

// NewHistory returns a history of columns series holding at most capacity
// points each. capacity is rounded up to an even number of at least 2.
func NewHistory(capacity, columns int) *History {
	capacity = max(2, capacity+capacity%2)
	h := &History{capacity: capacity, stride: 1, steps: make([]int64, 0, capacity), cols: make([][]float64, columns)}
	for i := range h.cols {
		h.cols[i] = make([]float64, 0, capacity)
	}
	return h
}

// Len is the number of points held.
func (h *History) Len() int { return len(h.steps) }

// Stride is the number of Adds between kept points.
func (h *History) Stride() int64 { return h.stride }

// Wants reports whether the next Add keeps its values, so a caller can skip
// computing values that would be thrown away.
func (h *History) Wants() bool { return h.n%h.stride == 0 }

// Add records values (one per column) at step. Steps must increase. values
// is read only when Wants() was true; otherwise it may be nil.
func (h *History) Add(step int64, values []float64) {
	keep := h.Wants()
	h.n++
	if !keep {
		return
	}
	if len(h.steps) == h.capacity {
		h.halve()
	}
	h.steps = append(h.steps, step)
	for i := range h.cols {
		v := math.NaN()
		if i < len(values) {
			v = values[i]
		}
		h.cols[i] = append(h.cols[i], v)
	}
}

// halve keeps the points at even positions: those whose Add index is a
// multiple of twice the stride, so the rule "keep n%stride == 0" still holds.
func (h *History) halve() {
	m := len(h.steps) / 2
	for i := 0; i < m; i++ {
		h.steps[i] = h.steps[2*i]
	}
	h.steps = h.steps[:m]
	for c, col := range h.cols {
		for i := 0; i < m; i++ {
			col[i] = col[2*i]
		}
		h.cols[c] = col[:m]
	}
	h.stride *= 2
}

// Since appends to dst the points of column col with a step greater than
// after, oldest first, and returns the extended slice.
func (h *History) Since(after int64, col int, dst []Point) []Point {
	i := sort.Search(len(h.steps), func(i int) bool { return h.steps[i] > after })
	vals := h.cols[col]
	for ; i < len(h.steps); i++ {
		dst = append(dst, Point{h.steps[i], vals[i]})
	}
	return dst
}

// Last returns the step of the newest point, or ok == false when empty.
func (h *History) Last() (step int64, ok bool) {
	if len(h.steps) == 0 {
		return 0, false
	}
	return h.steps[len(h.steps)-1], true
}

// Reset empties the history and returns the stride to 1, keeping buffers.
func (h *History) Reset() {
	h.stride, h.n = 1, 0
	h.steps = h.steps[:0]
	for i := range h.cols {
		h.cols[i] = h.cols[i][:0]
	}
}
