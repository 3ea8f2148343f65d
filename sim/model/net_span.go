package model

import (
	"math"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/numeric/fastblas"
)

// spans is the first hidden layer of a ReLU net on one sorted input, laid
// out so that the products of the layer above skip its zeros. Unit j's
// pre-activation x·a_j + b_j is monotone in x (each product and sum is
// rounded monotonically), so on sorted inputs the unit is active on a
// prefix of the rows (a_j < 0), a suffix (a_j > 0), all or none. Forward
// orders the units as [prefix units by breakpoint −b/a][ones][suffix units
// by breakpoint], so that each row's active units are one run of columns
// around the ones column, and reads each column's exact active rows off
// the activations it wrote (fastblas.GemmSpanNN and friends then skip the
// zero ends of every tile's sum, and whole zero tiles). With about half
// the activations zero that is about a third of the net's arithmetic.
//
// The order only decides how much is skipped: the spans come from the
// activations themselves, so the products are those of the dense path up
// to the order of their sums.
type spans struct {
	perm   []int     // perm[c]: the unit in column c; the bias row (ones) is unit c1
	key    []float64 // unit u's breakpoint, or ±Inf
	grp    []int8    // 0: prefix units (and always-on or dead ones), 1: ones, 2: suffix units
	h      []float64 // n × m activations in column order
	lo, hi []int     // column c of h is zero outside rows [lo[c], hi[c])
	w0, w1 []float64 // the first layer's weights in column order
	w2     []float64 // the second layer's weight rows in column order (m × c2)
	dw2    []float64 // their gradient, in column order
	ord    []int     // columns in order of their span's end (scratch)
	r0, r1 []float64 // running sums of x_i·G[i, :] and G[i, :] over rows
	zero   []float64 // c2 zeros
	on     bool      // the last Forward took the spans
}

// UseSpans makes Forward and Backward skip the zeros of the first hidden
// layer when the net fits (ReLU, one input, at least two hidden layers)
// and its inputs are sorted ascending, and reports whether they will.
// Results change only in the order of sums.
func (t *Net) UseSpans(layers []Layer) bool {
	t.sp = nil
	if len(layers) < 3 || layers[0].Act != ReLU || layers[0].Rows != 2 || layers[1].Cols < 2 || len(t.g) == 0 || !t.sortedInputs() {
		return false
	}
	c1, c2 := layers[0].Cols, layers[1].Cols
	m := c1 + 1
	sp := &spans{
		perm: make([]int, m), key: make([]float64, m), grp: make([]int8, m),
		h: make([]float64, t.n*m), lo: make([]int, m), hi: make([]int, m),
		w0: make([]float64, m), w1: make([]float64, m),
		w2: make([]float64, m*c2), dw2: make([]float64, m*c2),
		ord: make([]int, 0, m), r0: make([]float64, c2), r1: make([]float64, c2), zero: make([]float64, c2),
	}
	for c := range sp.perm {
		sp.perm[c] = c
	}
	t.sp = sp
	return true
}

func (t *Net) sortedInputs() bool {
	for i := 1; i < t.n; i++ {
		if !(t.in[2*(i-1)] <= t.in[2*i]) {
			return false
		}
	}
	return true
}

// spansFit reports whether Forward takes the spans with weights w: the
// first layer's weights must be finite, or the active rows of a unit need
// not be one run and the running sums of backward01 would not be exact.
func (t *Net) spansFit(layers []Layer, w []float64) bool {
	if t.sp == nil {
		return false
	}
	l0 := layers[0]
	t.sp.on = true
	for _, v := range w[l0.Off : l0.Off+2*l0.Cols] {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			t.sp.on = false
			break
		}
	}
	return t.sp.on
}

// forward01 is Forward's first two layers on spans: the first layer's
// activations into sp.h, the second's pre-activations into h (n rows of
// stride c2+1).
func (t *Net) forward01(layers []Layer, w []float64, h []float64) {
	sp := t.sp
	l0, l1 := layers[0], layers[1]
	c1, c2 := l0.Cols, l1.Cols
	m := c1 + 1
	a, b := w[l0.Off:l0.Off+c1], w[l0.Off+c1:l0.Off+2*c1]
	for u := range c1 {
		au, bu := a[u], b[u]
		switch {
		case au < 0:
			sp.grp[u], sp.key[u] = 0, -bu/au
		case au > 0:
			sp.grp[u], sp.key[u] = 2, -bu/au
		case bu > 0: // a = 0: on everywhere or nowhere
			sp.grp[u], sp.key[u] = 0, math.Inf(1)
		default:
			sp.grp[u], sp.key[u] = 0, math.Inf(-1)
		}
	}
	sp.grp[c1], sp.key[c1] = 1, 0
	// Insertion sort from the last call's order: between leapfrog steps
	// few breakpoints cross.
	less := func(u, v int) bool {
		if sp.grp[u] != sp.grp[v] {
			return sp.grp[u] < sp.grp[v]
		}
		return sp.key[u] < sp.key[v]
	}
	perm := sp.perm
	for c := 1; c < m; c++ {
		u := perm[c]
		d := c
		for d > 0 && less(u, perm[d-1]) {
			perm[d] = perm[d-1]
			d--
		}
		perm[d] = u
	}
	w2 := w[l1.Off : l1.Off+l1.Rows*c2]
	for c, u := range perm {
		if u == c1 {
			sp.w0[c], sp.w1[c] = 0, 1
		} else {
			sp.w0[c], sp.w1[c] = a[u], b[u]
		}
		copy(sp.w2[c*c2:c*c2+c2], w2[u*c2:u*c2+c2])
	}
	numeric.ReLUAffine(t.n, t.in, 2, sp.w0, sp.w1, sp.h, m)
	n := t.n
	for c, u := range perm {
		var au, bu float64
		if u < c1 {
			au, bu = a[u], b[u]
		}
		switch {
		case u == c1:
			sp.lo[c], sp.hi[c] = 0, n
		case au > 0: // active from the first row with h > 0
			sp.lo[c], sp.hi[c] = firstRow(n, func(i int) bool { return sp.h[i*m+c] > 0 }), n
		case au < 0: // active up to the first row with h ≤ 0
			sp.lo[c], sp.hi[c] = 0, firstRow(n, func(i int) bool { return !(sp.h[i*m+c] > 0) })
		case bu > 0: // a = 0: on everywhere
			sp.lo[c], sp.hi[c] = 0, n
		default:
			sp.lo[c], sp.hi[c] = 0, 0
		}
	}
	fastblas.GemmSpanNN(n, c2, m, sp.h, m, sp.lo, sp.hi, sp.w2, c2, h, c2+1)
}

// firstRow returns the first i < n with f(i), or n, for f false then true.
func firstRow(n int, f func(int) bool) int {
	lo, hi := 0, n
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if f(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// backward01 is Backward's first two layers on spans, g the gradient at
// the second layer's pre-activations (n × c2).
//
// The first layer's gradient needs only sums over each unit's active
// rows: with dH = G·W2ᵀ, unit u's weights get Σ_{i active} x_i·dH[i, u]
// and Σ_{i active} dH[i, u], that is W2[u, :]·Σ x_i·G[i, :] and
// W2[u, :]·Σ G[i, :] over its rows. A prefix unit's rows are [0, e), so
// one running sum of G's rows from the top, read off at each unit's e in
// increasing order, serves all of them; suffix units take one from the
// bottom. That is about 2·n·c2 + 4·m·c2 flops instead of the n·m·c2·2 of
// forming dH.
func (t *Net) backward01(layers []Layer, g, dw []float64) {
	sp := t.sp
	l0, l1 := layers[0], layers[1]
	c1, c2 := l0.Cols, l1.Cols
	m, n := c1+1, t.n
	fastblas.GemmSpanTN(n, c2, m, sp.h, m, sp.lo, sp.hi, g, c2, sp.dw2, c2)
	d2 := dw[l1.Off : l1.Off+l1.Rows*c2]
	for c, u := range sp.perm {
		copy(d2[u*c2:u*c2+c2], sp.dw2[c*c2:c*c2+c2])
	}
	d0, d1 := dw[l0.Off:l0.Off+c1], dw[l0.Off+c1:l0.Off+2*c1]
	// Prefix units (all rows counts as a prefix), by increasing end.
	ord := sp.ord[:0]
	for c, u := range sp.perm {
		switch {
		case u == c1:
		case sp.lo[c] >= sp.hi[c]:
			d0[u], d1[u] = 0, 0
		case sp.lo[c] == 0:
			ord = append(ord, c)
		}
	}
	sortBy(ord, sp.hi, false)
	clear(sp.r0)
	clear(sp.r1)
	row := 0
	for _, c := range ord {
		if e := sp.hi[c]; e > row {
			numeric.ColumnSums(e-row, t.in[2*row:], 2, g[row*c2:], c2, sp.r0, sp.r1)
			row = e
		}
		u := sp.perm[c]
		d0[u], d1[u] = numeric.SumDots(sp.r0, sp.r1, sp.w2[c*c2:c*c2+c2], sp.zero, nil, nil)
	}
	// Suffix units, by decreasing start.
	ord = ord[:0]
	for c, u := range sp.perm {
		if u != c1 && sp.lo[c] > 0 && sp.lo[c] < sp.hi[c] {
			ord = append(ord, c)
		}
	}
	sortBy(ord, sp.lo, true)
	clear(sp.r0)
	clear(sp.r1)
	row = n
	for _, c := range ord {
		if s := sp.lo[c]; s < row {
			numeric.ColumnSums(row-s, t.in[2*s:], 2, g[s*c2:], c2, sp.r0, sp.r1)
			row = s
		}
		u := sp.perm[c]
		d0[u], d1[u] = numeric.SumDots(sp.r0, sp.r1, sp.w2[c*c2:c*c2+c2], sp.zero, nil, nil)
	}
}

// sortBy sorts the columns ord by key[c], increasing or decreasing, by
// insertion: they come nearly sorted in the units' breakpoint order.
func sortBy(ord, key []int, decreasing bool) {
	for i := 1; i < len(ord); i++ {
		c := ord[i]
		j := i
		for j > 0 && (key[c] < key[ord[j-1]]) != decreasing && key[c] != key[ord[j-1]] {
			ord[j] = ord[j-1]
			j--
		}
		ord[j] = c
	}
}
