package fastblas

// leftSolve solves op(A)·X = α·B for X in place of the m×n matrix B, where
// op(A) is lower triangular when lowerOp (forward substitution) and upper
// otherwise (backward). trans says whether op(A) = Aᵀ; unit, whether the
// diagonal is taken as ones. m must be at most maxSolve.
//
// Rows of X are solved six at a time, eight columns per tile: the
// micro-kernel computes −op(A)[rows, solved]·X[solved, cols] for the tile,
// reading op(A) where it lies (through signed strides, in solving order),
// α·B is added, and the 6×6 diagonal block is solved on the tile. Solved
// rows are appended to a packed copy of X, in the order they are solved
// (bottom-up for backward substitution), so each tile's product reads a
// contiguous packed panel without repacking.
func leftSolve(buf *packBuffers, lowerOp, trans, unit bool, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) {
	at := func(i, j int) float64 { // op(A)[i, j]
		if trans {
			return a[j*lda+i]
		}
		return a[i*lda+j]
	}
	mp := roundUp(m, mr) // panel stride: room for a padded last block
	// Columns are solved in chunks whose packed solution fits kc·nc values.
	width := min(roundUp(n, nr), max(nr, kc*nc/mp/nr*nr))
	buf.size(mr*m, width*mp, 0)
	for jc := 0; jc < n; jc += width {
		w := min(width, n-jc)
		xp := buf.b
		for blk := 0; blk < m; blk += mr {
			// Rows i0..i1 of X, solved after the k rows before them in
			// solving order.
			i0, i1 := blk, min(blk+mr, m)
			if !lowerOp {
				i0, i1 = max(m-blk-mr, 0), m-blk
			}
			r, k := i1-i0, blk
			// row(s) is the row of X solved s-th in the block; tiles hold
			// their rows in this order.
			row := func(s int) int {
				if lowerOp {
					return i0 + s
				}
				return i1 - 1 - s
			}
			// op(A)[row(s), c_q] (c_q the q-th column solved) is at
			// a[a0 + s·ars + q·aps]: a full block reads the triangle in
			// place, an edge block a zero-padded packed copy.
			a0, ars, aps := i0*lda, lda, 1 // forward, op(A) = A
			switch {
			case lowerOp && trans:
				a0, ars, aps = i0, 1, lda
			case !lowerOp && !trans:
				a0, ars, aps = (i1-1)*lda+m-1, -lda, -1
			case !lowerOp && trans:
				a0, ars, aps = (m-1)*lda+i1-1, -1, -lda
			}
			ap0 := &a[a0]
			if r < mr {
				ap := buf.a[:mr*k]
				packSolved(ap, a, lda, trans, lowerOp, m, k, row(0), r)
				ars, aps = 1, mr
				if k > 0 {
					ap0 = &ap[0]
				}
			}
			// The diagonal block in solving order, with reciprocals of the
			// diagonal as gonum's Dtrsm scales by them.
			var diag [mr * mr]float64
			for s := range r {
				for l := range s {
					diag[s*mr+l] = at(row(s), row(l))
				}
				diag[s*mr+s] = 1
				if !unit {
					diag[s*mr+s] = 1 / at(row(s), row(s))
				}
			}
			for s := r; s < mr; s++ {
				diag[s*mr+s] = 1
			}
			for jr := 0; jr < w; jr += nr {
				cols := min(nr, w-jr)
				panel := xp[jr*mp : jr*mp+nr*mp]
				if r == mr && cols == nr {
					// Rows in solving order: downwards, or upwards from the
					// block's last row.
					x, ldx := i0*ldb+jc+jr, ldb
					if !lowerOp {
						x, ldx = (i1-1)*ldb+jc+jr, -ldb
					}
					trsm6x8(k, ap0, ars, aps, &panel[0], &b[x], ldx, alpha, &diag[0], &panel[blk*nr])
					continue
				}
				// Edge tile: the same kernel on a zero-padded stack copy. Padded
				// rows have a unit diagonal and solve to zero, as do padded
				// columns; panels have room for them (stride mp).
				var t [mr * nr]float64
				for s := range r {
					copy(t[s*nr:s*nr+cols], b[row(s)*ldb+jc+jr:row(s)*ldb+jc+jr+cols])
				}
				trsm6x8(k, ap0, ars, aps, &panel[0], &t[0], nr, alpha, &diag[0], &panel[blk*nr])
				for s := range r {
					copy(b[row(s)*ldb+jc+jr:row(s)*ldb+jc+jr+cols], t[s*nr:s*nr+cols])
				}
			}
		}
	}
}

// maxSolve bounds the triangular order leftSolve accepts, and so the
// scratch it keeps (a packed 6×m panel of op(A)).
const maxSolve = mc * kc / mr

// packSolved packs op(A)[rows, solved columns] for leftSolve: step q holds
// op(A)[row(s), c_q] for s < r (zero beyond), where row(s) = r0 ± s runs in
// solving order and c_q is the q-th column solved (q, or m−1−q backward).
func packSolved(ap, a []float64, lda int, trans, lowerOp bool, m, k, r0, r int) {
	dir := 1 // row(s) = r0 + dir·s, and c_q = c0 + dir·q
	c0 := 0
	if !lowerOp {
		dir, c0 = -1, m-1
	}
	if r < mr {
		clear(ap)
	}
	if !trans { // op(A)[i, c] = a[i*lda+c]: one row of A per s
		for s := range r {
			src := a[(r0+dir*s)*lda:]
			if dir > 0 {
				src = src[:k]
				for q, v := range src {
					ap[q*mr+s] = v
				}
				continue
			}
			for q := range k {
				ap[q*mr+s] = src[c0-q]
			}
		}
		return
	}
	// op(A)[i, c] = a[c*lda+i]: consecutive rows i of X are adjacent in A.
	for q := range k {
		src := a[(c0+dir*q)*lda:]
		d := ap[q*mr : q*mr+r]
		if dir > 0 {
			copy(d, src[r0:r0+r])
			continue
		}
		for s := range d {
			d[s] = src[r0-s]
		}
	}
}
