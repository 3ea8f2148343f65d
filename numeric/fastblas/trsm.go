package fastblas

import "gonum.org/v1/gonum/blas"

// trsmBlock is the order of the diagonal blocks of the blocked triangular
// routines: a multiple of both tile sides, so the off-diagonal products are
// made of whole tiles along the block.
const trsmBlock = 24

// Dtrsm solves op(A)·X = α·B (side Left) or X·op(A) = α·B (side Right) for X,
// overwriting B, where A is triangular. Up to order maxSolve it runs the
// fused substitution of leftSolve (side Right on the transpose of B). Larger
// systems are solved by blocks of trsmBlock in dependency order: each
// block's right-hand side first takes the solved blocks' contribution in one
// Dgemm, then the small triangular block is solved by gonum.
func (im Impl) Dtrsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) {
	k := n
	if s == blas.Left {
		k = m
	}
	if !hasKernels || alpha == 0 || m == 0 || n == 0 || !triArgsOK(s, ul, tA, d, m, n, a, lda, b, ldb) {
		im.Implementation.Dtrsm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
		return
	}
	trans := isTrans(tA)
	// op(A) is lower triangular when exactly one of "A is lower" and
	// "transposed" holds.
	lower := (ul == blas.Lower) != trans
	unit := d == blas.Unit
	switch {
	case s == blas.Left && n == 1, s == blas.Right && m == 1:
		// One right-hand side: substitution by gonum's Dtrsv (dot products
		// or axpys along A) is several times faster than a padded tile.
		// X·op(A) = α·B with X one row is op(A)ᵀ·Xᵀ = α·Bᵀ.
		inc, tv := ldb, tA
		if s == blas.Right {
			inc = 1
			if trans {
				tv = blas.NoTrans
			} else {
				tv = blas.Trans
			}
		}
		if alpha != 1 {
			im.Implementation.Dscal(k, alpha, b, inc)
		}
		im.Implementation.Dtrsv(ul, tv, d, k, a, lda, b, inc)
	case k > maxSolve || (s == blas.Right && m*n > kc*nc):
		im.trsmBlocked(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
	case s == blas.Left:
		buf := getBuffers()
		leftSolve(buf, lower, trans, unit, m, n, alpha, a, lda, b, ldb)
		putBuffers(buf)
	default:
		// X·op(A) = α·B is op(A)ᵀ·Xᵀ = α·Bᵀ: solve on the transpose.
		buf := getBuffers()
		buf.size(0, 0, m*n)
		t := buf.t[:n*m]
		transpose(t, m, b, ldb, m, n)
		leftSolve(buf, !lower, !trans, unit, n, m, alpha, a, lda, t, m)
		transpose(b, ldb, t, m, n, m)
		putBuffers(buf)
	}
}

// trsmBlocked is Dtrsm by blocks of trsmBlock, for systems too large for
// leftSolve's buffers. Arguments are valid and alpha is not zero.
func (im Impl) trsmBlocked(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) {
	trans := isTrans(tA)
	lower := (ul == blas.Lower) != trans
	g := im.Implementation
	if s == blas.Left {
		// op(A)[i0:i1, j0:j1] as a Dgemm operand: a sub-block of A, read
		// transposed when op(A) = Aᵀ.
		sub := func(i0, j0 int) []float64 {
			if trans {
				return a[j0*lda+i0:]
			}
			return a[i0*lda+j0:]
		}
		solve := func(i0, i1 int, alpha float64) {
			g.Dtrsm(s, ul, tA, d, i1-i0, n, alpha, a[i0*lda+i0:], lda, b[i0*ldb:], ldb)
		}
		if lower { // forward: X_i = op(A)_ii⁻¹ (α B_i − op(A)[i, :i] X[:i])
			for i0 := 0; i0 < m; i0 += trsmBlock {
				i1 := min(i0+trsmBlock, m)
				if i0 == 0 {
					solve(i0, i1, alpha)
					continue
				}
				gemm(trans, false, i1-i0, n, i0, -1, sub(i0, 0), lda, b, ldb, alpha, b[i0*ldb:], ldb)
				solve(i0, i1, 1)
			}
			return
		}
		// backward: X_i = op(A)_ii⁻¹ (α B_i − op(A)[i, i1:] X[i1:])
		for i0 := (m - 1) / trsmBlock * trsmBlock; i0 >= 0; i0 -= trsmBlock {
			i1 := min(i0+trsmBlock, m)
			if i1 == m {
				solve(i0, i1, alpha)
				continue
			}
			gemm(trans, false, i1-i0, n, m-i1, -1, sub(i0, i1), lda, b[i1*ldb:], ldb, alpha, b[i0*ldb:], ldb)
			solve(i0, i1, 1)
		}
		return
	}

	sub := func(i0, j0 int) []float64 {
		if trans {
			return a[j0*lda+i0:]
		}
		return a[i0*lda+j0:]
	}
	solve := func(j0, j1 int, alpha float64) {
		g.Dtrsm(s, ul, tA, d, m, j1-j0, alpha, a[j0*lda+j0:], lda, b[j0:], ldb)
	}
	if !lower { // forward: X_j = (α B_j − X[:, :j] op(A)[:j, j]) op(A)_jj⁻¹
		for j0 := 0; j0 < n; j0 += trsmBlock {
			j1 := min(j0+trsmBlock, n)
			if j0 == 0 {
				solve(j0, j1, alpha)
				continue
			}
			gemm(false, trans, m, j1-j0, j0, -1, b, ldb, sub(0, j0), lda, alpha, b[j0:], ldb)
			solve(j0, j1, 1)
		}
		return
	}
	// backward: X_j = (α B_j − X[:, j1:] op(A)[j1:, j]) op(A)_jj⁻¹
	for j0 := (n - 1) / trsmBlock * trsmBlock; j0 >= 0; j0 -= trsmBlock {
		j1 := min(j0+trsmBlock, n)
		if j1 == n {
			solve(j0, j1, alpha)
			continue
		}
		gemm(false, trans, m, j1-j0, n-j1, -1, b[j1:], ldb, sub(j1, j0), lda, alpha, b[j0:], ldb)
		solve(j0, j1, 1)
	}
}

// triArgsOK mirrors gonum's argument checks of Dtrsm and Dtrmm; on false,
// gonum's routine panics with its own message.
func triArgsOK(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, a []float64, lda int, b []float64, ldb int) bool {
	if (s != blas.Left && s != blas.Right) || (ul != blas.Lower && ul != blas.Upper) || !validTrans(tA) ||
		(d != blas.NonUnit && d != blas.Unit) || m < 0 || n < 0 {
		return false
	}
	k := n
	if s == blas.Left {
		k = m
	}
	if lda < max(1, k) || ldb < max(1, n) {
		return false
	}
	if m == 0 || n == 0 {
		return true
	}
	return len(a) >= lda*(k-1)+k && len(b) >= ldb*(m-1)+n
}

// transpose writes the c×r transpose of the r×c matrix src (stride lds)
// into dst (stride ldd): 4×4 blocks by transpose4, the edges by element.
// It runs only where the kernels do.
func transpose(dst []float64, ldd int, src []float64, lds, r, c int) {
	r4, c4 := r/4*4, c/4*4
	if c4 > 0 {
		for i := 0; i < r4; i += 4 {
			transpose4(c4/4, &src[i*lds], lds, &dst[i], ldd)
		}
	}
	for i := range r {
		j0 := c4
		if i >= r4 {
			j0 = 0
		}
		for j, v := range src[i*lds+j0 : i*lds+c] {
			dst[(j0+j)*ldd+i] = v
		}
	}
}
