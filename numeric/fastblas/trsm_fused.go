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
// contiguous packed panel without repacking. The m mod 6 rows left over
// are solved first, so their padded tile has no product to form (solved
// last, it had the longest).
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
	buf.size(0, width*mp, 0)
	for jc := 0; jc < n; jc += width {
		w := min(width, n-jc)
		xp := buf.b
		for blk, r := 0, 0; blk < m; blk += r {
			// Rows i0..i1 of X, solved after the k rows before them in
			// solving order. The short block (m mod 6 rows) is solved
			// first, where its padded tile has no product to form.
			r = mr
			if blk == 0 && m%mr != 0 {
				r = m % mr
			}
			i0, i1 := blk, blk+r
			if !lowerOp {
				i0, i1 = m-blk-r, m-blk
			}
			k := blk
			// row(s) is the row of X solved s-th in the block; tiles hold
			// their rows in this order.
			row := func(s int) int {
				if lowerOp {
					return i0 + s
				}
				return i1 - 1 - s
			}
			// op(A)[row(s), c_q] (c_q the q-th column solved) is at
			// a[a0 + s·ars + q·aps]: the kernel reads the triangle in
			// place. Only a first block can be short, and it reads none.
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
				// columns; panels have room for them (stride mp ≥ 6), and the
				// next block's rows overwrite a short first block's padding.
				var t [mr * nr]float64
				for s := range r {
					src := b[row(s)*ldb+jc+jr : row(s)*ldb+jc+jr+cols]
					// By element: a copy call per row of 1-7 values costs more.
					for j, v := range src {
						t[s*nr+j] = v
					}
				}
				trsm6x8(k, ap0, ars, aps, &panel[0], &t[0], nr, alpha, &diag[0], &panel[blk*nr])
				for s := range r {
					dst := b[row(s)*ldb+jc+jr : row(s)*ldb+jc+jr+cols]
					// By element: a copy call per row of 1-7 values costs more.
					for j := range dst {
						dst[j] = t[s*nr+j]
					}
				}
			}
		}
	}
}

// maxSolve bounds the triangular order leftSolve accepts: its packed
// solution holds at least one 8-column panel of m rows in kc·nc values.
const maxSolve = mc * kc / mr
