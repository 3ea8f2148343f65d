package fastblas

import "gonum.org/v1/gonum/blas"

// Products with a matrix A (m×k, row stride lda) whose column p may be
// nonzero only in rows [lo[p], hi[p]) — a column span; an empty span
// (lo[p] ≥ hi[p]) is a zero column. The first hidden layer of a ReLU
// network on one sorted input has this shape: each unit is active on a
// prefix or a suffix of the rows. The three products of the layer above
// (forward A·B, weight gradient Aᵀ·G, and the gradient G·Bᵀ reaching A's
// nonzeros) then skip whole 6×8 tiles and the zero ends of each tile's sum:
// for a row tile the kernel sums over the hull of the spans that meet it,
// so the spans may be loose (any superset is exact) and need no order, but
// the work saved depends on units with similar spans lying side by side.
//
// They are Dgemm with A's structure given. Without the kernels they are
// gonum's Dgemm on the whole matrices, which gives the same values up to
// the rounding of the skipped zeros' order.

// GemmSpanNN sets C = A·B for A m×k with column spans lo, hi, B k×n and C
// m×n (strides lda, ldb, ldc). C is written, not read.
func GemmSpanNN(m, n, k int, a []float64, lda int, lo, hi []int, b []float64, ldb int, c []float64, ldc int) {
	if m <= 0 || n <= 0 {
		return
	}
	lo, hi = lo[:k], hi[:k]
	if !hasKernels || k == 0 {
		Impl{}.Implementation.Dgemm(blas.NoTrans, blas.NoTrans, m, n, k, 1, a, lda, b, ldb, 0, c, ldc)
		return
	}
	checkRows("GemmSpanNN", m, k, a, lda)
	checkRows("GemmSpanNN", k, n, b, ldb)
	checkRows("GemmSpanNN", m, n, c, ldc)
	buf := spanBuffers(b, ldb, k, n)
	defer putBuffers(buf)
	for ir := 0; ir < m; ir += mr {
		rows := min(mr, m-ir)
		// The columns of A whose spans meet rows [ir, ir+rows).
		p0, p1 := k, 0
		for p := range k {
			if lo[p] < ir+rows && hi[p] > ir && lo[p] < hi[p] {
				p0, p1 = min(p0, p), p+1
			}
		}
		spanRow(buf, false, a, lda, ir, rows, min(p0, k-1), max(p1-p0, 0), b, ldb, n, c[ir*ldc:], ldc)
	}
}

// spanBuffers takes pack buffers for a span product of kb steps into n
// columns and packs B's partial last column panel, as gemmInPlace does.
func spanBuffers(b []float64, ldb, kb, n int) *packBuffers {
	buf := getBuffers()
	buf.size(mr*kb, nr*kb, 0)
	if nFull := n / nr * nr; nFull < n {
		packB(buf.b, false, b, ldb, 0, nFull, kb, n-nFull)
	}
	return buf
}

// spanRow writes a row tile of C (rows × n at c): rows ir to ir+rows of
// op(A) (A itself, or Aᵀ when trans) over the kk steps from q0, read in
// place when the tile is whole and packed into buf.a when it is short,
// times rows q0 to q0+kk of B, read in place (row stride ldb) but for its
// last, partial column panel, which spanBuffers packed from row 0.
func spanRow(buf *packBuffers, trans bool, a []float64, lda, ir, rows, q0, kk int, b []float64, ldb, n int, c []float64, ldc int) {
	var ap *float64
	var ars, aps int
	switch {
	case rows < mr:
		if kk > 0 {
			packA(buf.a, trans, a, lda, ir, q0, rows, kk)
		}
		ap, ars, aps = &buf.a[0], 1, mr
	case trans: // op(A)[i][q] = a[q·lda + i]
		ap, ars, aps = &a[q0*lda+ir], 1, lda
	default:
		ap, ars, aps = &a[ir*lda+q0], lda, 1
	}
	for jr := 0; jr < n; jr += nr {
		cols := min(nr, n-jr)
		bp, bps := &b[q0*ldb+jr], ldb
		if cols < nr {
			bp, bps = &buf.b[q0*nr], nr
		}
		tile(kk, ap, ars, aps, bp, bps, c[jr:], ldc, rows, cols, 1, 0)
	}
}

// GemmSpanTN sets C = Aᵀ·B for A m×k with column spans lo, hi, B m×n and
// C k×n (strides lda, ldb, ldc): row p of C sums rows lo[p] to hi[p] of B
// only. C is written, not read.
func GemmSpanTN(m, n, k int, a []float64, lda int, lo, hi []int, b []float64, ldb int, c []float64, ldc int) {
	if k <= 0 || n <= 0 {
		return
	}
	lo, hi = lo[:k], hi[:k]
	if !hasKernels || m == 0 {
		Impl{}.Implementation.Dgemm(blas.Trans, blas.NoTrans, k, n, m, 1, a, lda, b, ldb, 0, c, ldc)
		return
	}
	checkRows("GemmSpanTN", m, k, a, lda)
	checkRows("GemmSpanTN", m, n, b, ldb)
	checkRows("GemmSpanTN", k, n, c, ldc)
	buf := spanBuffers(b, ldb, m, n)
	defer putBuffers(buf)
	for ir := 0; ir < k; ir += mr {
		rows := min(mr, k-ir)
		// The hull of the spans of columns ir to ir+rows of A, clipped
		// to its rows.
		i0, i1 := m, 0
		for p := ir; p < ir+rows; p++ {
			if l, h := max(lo[p], 0), min(hi[p], m); l < h {
				i0, i1 = min(i0, l), max(i1, h)
			}
		}
		spanRow(buf, true, a, lda, ir, rows, min(i0, m-1), max(i1-i0, 0), b, ldb, n, c[ir*ldc:], ldc)
	}
}

// checkRows panics unless s holds n rows of c values, stride ld ≥ c (the
// kernels read and write without bounds checks).
func checkRows(name string, n, c int, s []float64, ld int) {
	if ld < c || len(s) < (n-1)*ld+c {
		panic("fastblas: " + name + ": slice too short for its rows")
	}
}
