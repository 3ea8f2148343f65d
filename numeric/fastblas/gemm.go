package fastblas

import (
	"math"
	"sync/atomic"

	"gonum.org/v1/gonum/blas"
)

// Register tile of the micro-kernel (internal/asmgen writes it for these)
// and cache blocking of the driver. An mc×kc block of packed A (240 KiB)
// stays in the 1 MiB L2 of a Zen 4 core while a kc×nr panel of packed B
// (16 KiB) streams from L1; a kc×nc block of packed B (1 MiB) sits in L3.
const (
	mr = 6
	nr = 8
	kc = 256
	mc = 20 * mr
	nc = 64 * nr
	// shortRows is the most rows of kernel4x8's tile.
	shortRows = 4
)

// packBuffers is the scratch of one call: packed A and B for Dgemm; for
// Dtrsm, a packed panel of the triangle, the packed solution and a
// transposed right-hand side. Its slices grow to the largest call they have
// served and are then reused.
type packBuffers struct {
	a, b, t []float64
}

// size makes a, b and t at least na, nb and nt long.
func (p *packBuffers) size(na, nb, nt int) {
	grow := func(s *[]float64, n int) {
		if len(*s) < n {
			*s = make([]float64, n)
		}
	}
	grow(&p.a, na)
	grow(&p.b, nb)
	grow(&p.t, nt)
}

// freeBuffers holds idle scratch. Each call takes its own (or a new one
// when all are in use) and returns it, so concurrent calls share none, and
// once warm a call allocates nothing. A channel rather than a sync.Pool:
// the pool empties at every other garbage collection, which would make
// the next call re-allocate its scratch, and under the race detector it
// drops items at random. lastBuffers is a one-slot cache in front of it:
// one goroutine's run of calls (a method's step makes hundreds of small
// ones) swaps a pointer instead of taking the channel's lock twice, which
// cost about 7% of a GIP step.
var (
	freeBuffers = make(chan *packBuffers, 16)
	lastBuffers atomic.Pointer[packBuffers]
)

func getBuffers() *packBuffers {
	if p := lastBuffers.Swap(nil); p != nil {
		return p
	}
	select {
	case p := <-freeBuffers:
		return p
	default:
		return new(packBuffers)
	}
}

func putBuffers(p *packBuffers) {
	if lastBuffers.CompareAndSwap(nil, p) {
		return
	}
	select {
	case freeBuffers <- p:
	default: // more calls were in flight than are kept
	}
}

// roundUp rounds n up to a multiple of q.
func roundUp(n, q int) int { return (n + q - 1) / q * q }

// Dgemm computes C = α·op(A)·op(B) + β·C where op(X) is X or Xᵀ, A is m×k
// after op, B is k×n after op and C is m×n. With β = 0, C is not read.
func (im Impl) Dgemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if !hasKernels || !gemmArgsOK(tA, tB, m, n, k, a, lda, b, ldb, c, ldc) {
		im.Implementation.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	aT, bT := isTrans(tA), isTrans(tB)
	switch {
	case n == 1 && m > 1 && k > 0 && alpha != 0:
		// A column of C: c = α·op(A)·b + β·c, b a column of op(B). The
		// padded tile would waste seven eighths of the kernel.
		incB := ldb
		if bT {
			incB = 1
		}
		ra, ca := m, k
		if aT {
			ra, ca = k, m
		}
		im.Implementation.Dgemv(tA, ra, ca, alpha, a, lda, b, incB, beta, c, ldc)
	case m == 1 && n > 1 && k > 0 && alpha != 0:
		// A row of C: cᵀ = α·op(B)ᵀ·a + β·cᵀ, a the row of op(A).
		incA := 1
		if aT {
			incA = lda
		}
		rb, cb, t := k, n, blas.Trans
		if bT {
			rb, cb, t = n, k, blas.NoTrans
		}
		im.Implementation.Dgemv(t, rb, cb, alpha, b, ldb, a, incA, beta, c, 1)
	case k == 1 && m > 1 && n > 1 && alpha != 0:
		// A rank-one update (a gradient of a one-column product): every
		// tile of the kernel would load and store C for one FMA per
		// element, so scale C (β = 0 writes zeros, ignoring NaN) and add
		// α·a·bᵀ row by row.
		incA := lda
		if aT {
			incA = 1
		}
		incB := 1
		if bT {
			incB = ldb
		}
		if beta == 0 {
			outerSet(m, n, alpha, a, incA, b, incB, c, ldc)
			return
		}
		scale(m, n, beta, c, ldc)
		im.Implementation.Dger(m, n, alpha, a, incA, b, incB, c, ldc)
	default:
		gemm(aT, bT, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	}
}

// gemmArgsOK mirrors gonum's argument checks; on false, gonum's Dgemm
// panics with its own message.
func gemmArgsOK(tA, tB blas.Transpose, m, n, k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) bool {
	if !validTrans(tA) || !validTrans(tB) || m < 0 || n < 0 || k < 0 || ldc < max(1, n) {
		return false
	}
	ra, ca := m, k // rows and columns of A as stored
	if isTrans(tA) {
		ra, ca = k, m
	}
	rb, cb := k, n
	if isTrans(tB) {
		rb, cb = n, k
	}
	if lda < max(1, ca) || ldb < max(1, cb) {
		return false
	}
	if m == 0 || n == 0 {
		return true
	}
	return len(a) >= (ra-1)*lda+ca && len(b) >= (rb-1)*ldb+cb && len(c) >= (m-1)*ldc+n
}

// gemm is Dgemm after argument checks.
func gemm(tA, tB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	if m == 0 || n == 0 {
		return
	}
	if alpha == 0 || k == 0 {
		scale(m, n, beta, c, ldc)
		return
	}
	buf := getBuffers()
	defer putBuffers(buf)
	buf.size(roundUp(min(m, mc), mr)*min(k, kc), min(k, kc)*roundUp(min(n, nc), nr), 0)
	for jc := 0; jc < n; jc += nc {
		nb := min(nc, n-jc)
		for pc := 0; pc < k; pc += kc {
			kb := min(kc, k-pc)
			bt := beta
			if pc > 0 {
				bt = 1
			}
			if m*kb <= mc*kc {
				// op(A)'s slice is no larger than a packed mc×kc block: read
				// in place, it stays in L2 while the column panels pass
				// over it, as a packed block would (fBNN's 140-row products
				// on gap spent an eighth of their time packing A, and
				// LIVI's 64×2,701 W₂ᵀ was copied whole).
				gemmInPlace(buf, tA, tB, m, nb, kb, alpha, a[aOffset(tA, lda, 0, pc):], lda, b[bOffset(tB, ldb, pc, jc):], ldb, bt, c[jc:], ldc)
				continue
			}
			packB(buf.b, tB, b, ldb, pc, jc, kb, nb)
			for ic := 0; ic < m; ic += mc {
				mb := min(mc, m-ic)
				packA(buf.a, tA, a, lda, ic, pc, mb, kb)
				macroKernel(buf, mb, nb, kb, alpha, bt, c[ic*ldc+jc:], ldc)
			}
		}
	}
}

// aOffset is the index of op(A)[i][p] in a; bOffset that of op(B)[p][j]
// in b.
func aOffset(tA bool, lda, i, p int) int {
	if tA {
		return p*lda + i
	}
	return i*lda + p
}

func bOffset(tB bool, ldb, p, j int) int {
	if tB {
		return j*ldb + p
	}
	return p*ldb + j
}

// gemmInPlace is gemm for a product within one cache block: the kernel
// reads whole 6-row panels of op(A), and whole 8-column panels of B when it
// is not transposed, where they lie; only edge panels and a transposed B
// are packed. On the GIP shapes (m, n, k ≈ 50–100) packing took about a
// fifth of the time of a product.
func gemmInPlace(buf *packBuffers, tA, tB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	mFull, nFull := m/mr*mr, n/nr*nr
	// The edge panel of op(A): for Aᵀ its steps are rows of A, packed
	// (packEdge copies them as whole steps); for A its rows are copied
	// as rows, kernel-read with row stride k, a memmove each instead of
	// a gather into steps. Its rows past m are not written: the kernel
	// neither stores nor mixes them.
	eap, ears, eaps := &buf.a[0], 1, mr
	if mFull < m {
		if tA {
			packA(buf.a, true, a, lda, mFull, 0, m-mFull, k)
		} else {
			for i := range m - mFull {
				copy(buf.a[i*k:(i+1)*k], a[(mFull+i)*lda:])
			}
			ears, eaps = k, 1
		}
	}
	if tB {
		packB(buf.b, true, b, ldb, 0, 0, k, n)
	} else if nFull < n {
		packB(buf.b, false, b, ldb, 0, nFull, k, n-nFull)
	}
	// op(A)[i, p] = a[i·ars + p·aps].
	ars, aps := lda, 1
	if tA {
		ars, aps = 1, lda
	}
	for jr := 0; jr < n; jr += nr {
		cols := min(nr, n-jr)
		bp, bps := &buf.b[0], nr // the packed edge panel
		switch {
		case tB:
			bp = &buf.b[jr*k]
		case cols == nr:
			bp, bps = &b[jr], ldb
		}
		ir := 0
		if cols <= nr/2 {
			// A narrow last panel: twelve rows of four lanes per kernel
			// call over the rows read in place.
			for ; ir+2*mr <= mFull; ir += 2 * mr {
				if tA { // twelve rows are twelve consecutive values
					narrowTileT(k, &a[ir], aps, bp, bps, c[ir*ldc+jr:], ldc, cols, alpha, beta)
					continue
				}
				narrowTile(k, &a[ir*ars], ars, aps, bp, bps, c[ir*ldc+jr:], ldc, cols, alpha, beta)
			}
		}
		if cols == nr && mFull > 0 {
			// The whole tiles down the panel in one kernel call.
			kernel6x8n(mFull/mr, k, &a[0], ars, aps, mr*ars, bp, bps, &c[jr], ldc, alpha, beta)
			ir = mFull
		}
		for ; ir < m; ir += mr {
			rows := min(mr, m-ir)
			ap, ar, ap2 := eap, ears, eaps // the edge panel
			if rows == mr {
				ap, ar, ap2 = &a[ir*ars], ars, aps
			}
			if cols == nr { // as tile does, without its frame
				if rows <= shortRows {
					kernel4x8(k, ap, ar, ap2, bp, bps, &c[ir*ldc+jr], ldc, rows, alpha, beta)
					continue
				}
				kernel6x8(k, ap, ar, ap2, bp, bps, &c[ir*ldc+jr], ldc, rows, alpha, beta)
				continue
			}
			tile(k, ap, ar, ap2, bp, bps, c[ir*ldc+jr:], ldc, rows, cols, alpha, beta)
		}
	}
}

// narrowTile updates the 12×cols tile at c (cols ≤ 4) with kernel12x4,
// which stores only the cols columns (checking the bounds it does not).
func narrowTile(k int, ap *float64, ars, aps int, bp *float64, bps int, c []float64, ldc, cols int, alpha, beta float64) {
	_ = c[(2*mr-1)*ldc+cols-1]
	kernel12x4(k, ap, ars, aps, bp, bps, &c[0], ldc, cols, alpha, beta)
}

// narrowTileT updates the 12×cols tile at c (cols ≤ 4) with kernel4x12t,
// for op(A) = Aᵀ read in place: row i of the tile is op(A)'s row, at
// a[i + p·aps]. The kernel writes the tile transposed to the stack.
func narrowTileT(k int, ap *float64, aps int, bp *float64, bps int, c []float64, ldc, cols int, alpha, beta float64) {
	const rows = 2 * mr
	var t [rows * nr / 2]float64
	kernel4x12t(k, ap, aps, bp, bps, &t[0], alpha)
	for i := range rows {
		row := c[i*ldc : i*ldc+cols]
		if beta == 0 {
			for j := range row {
				row[j] = t[j*rows+i]
			}
			continue
		}
		for j := range row {
			row[j] = math.FMA(beta, row[j], t[j*rows+i])
		}
	}
}

// tile updates the rows×cols tile at c: the kernel stores whole rows of
// eight in place, fewer columns go through a stack tile. Tiles of at most
// shortRows rows take kernel4x8.
func tile(k int, ap *float64, ars, aps int, bp *float64, bps int, c []float64, ldc, rows, cols int, alpha, beta float64) {
	if cols == nr {
		if rows <= shortRows {
			kernel4x8(k, ap, ars, aps, bp, bps, &c[0], ldc, rows, alpha, beta)
			return
		}
		kernel6x8(k, ap, ars, aps, bp, bps, &c[0], ldc, rows, alpha, beta)
		return
	}
	var t [mr * nr]float64
	if rows <= shortRows {
		kernel4x8(k, ap, ars, aps, bp, bps, &t[0], nr, rows, alpha, 0)
	} else {
		kernel6x8(k, ap, ars, aps, bp, bps, &t[0], nr, mr, alpha, 0)
	}
	mergeTile(c, ldc, t[:], nr, rows, cols, beta)
}

// mergeTile sets the rows×cols tile at c to β·C + T, T a stack tile of
// row stride tw that a kernel wrote with β = 0 (so β = 0 ignores NaN in C).
func mergeTile(c []float64, ldc int, t []float64, tw, rows, cols int, beta float64) {
	for i := range rows {
		row := c[i*ldc : i*ldc+cols]
		tr := t[i*tw : i*tw+cols]
		if beta == 0 {
			//lint:ignore S1001 a copy call per row of 1-7 values costs more than the loop
			for j, v := range tr {
				row[j] = v
			}
			continue
		}
		for j := range row {
			// Fused, as the kernels add β·C.
			row[j] = math.FMA(beta, row[j], tr[j])
		}
	}
}

// scale sets C = β·C, writing zeros when β = 0.
func scale(m, n int, beta float64, c []float64, ldc int) {
	if beta == 1 {
		return
	}
	for i := range m {
		row := c[i*ldc : i*ldc+n]
		if beta == 0 {
			clear(row)
			continue
		}
		for j := range row {
			row[j] *= beta
		}
	}
}

// macroKernel updates the mb×nb block at c from the packed blocks in buf.
func macroKernel(buf *packBuffers, mb, nb, kb int, alpha, beta float64, c []float64, ldc int) {
	for jr := 0; jr < nb; jr += nr {
		cols := min(nr, nb-jr)
		bp := &buf.b[jr*kb]
		ir := 0
		if mFull := mb / mr * mr; cols == nr && mFull > 0 {
			kernel6x8n(mFull/mr, kb, &buf.a[0], 1, mr, mr*kb, bp, nr, &c[jr], ldc, alpha, beta)
			ir = mFull
		}
		for ; ir < mb; ir += mr {
			tile(kb, &buf.a[ir*kb], 1, mr, bp, nr, c[ir*ldc+jr:], ldc, min(mr, mb-ir), cols, alpha, beta)
		}
	}
}

// outerSet writes C = (α·a)·bᵀ: c_ij = (α·a_i)·b_j, Dger's value on a
// cleared C up to the sign of a zero, without reading C. The strided a and b
// are gathered onto the stack a block at a time so that rowScale4 writes the
// rows four columns at a time; its products are the scalar loop's.
func outerSet(m, n int, alpha float64, a []float64, incA int, b []float64, incB int, c []float64, ldc int) {
	const blk = 64
	var as, bs [blk]float64
	for j0 := 0; j0 < n; j0 += blk {
		nb := min(blk, n-j0)
		for j := range nb {
			bs[j] = b[(j0+j)*incB]
		}
		n4 := nb &^ 3
		for i0 := 0; i0 < m; i0 += blk {
			mb := min(blk, m-i0)
			for i := range mb {
				as[i] = alpha * a[(i0+i)*incA]
			}
			cb := c[i0*ldc+j0 : (i0+mb-1)*ldc+j0+nb]
			if n4 > 0 {
				rowScale4(mb, n4, &bs[0], 0, &as[0], 1, &cb[0], ldc)
			}
			for i := range mb {
				row := cb[i*ldc : i*ldc+nb]
				for j := n4; j < nb; j++ {
					row[j] = as[i] * bs[j]
				}
			}
		}
	}
}
