package fastblas

import "gonum.org/v1/gonum/blas"

// Dsyrk computes the ul triangle of C = α·op(A)·op(A)ᵀ + β·C, where C is n×n
// symmetric and op(A) is n×k. Row blocks of trsmBlock are formed by Dgemm
// off the diagonal and by gonum's Dsyrk on it.
func (im Impl) Dsyrk(ul blas.Uplo, tA blas.Transpose, n, k int, alpha float64, a []float64, lda int, beta float64, c []float64, ldc int) {
	if !hasKernels || n <= trsmBlock || k == 0 || alpha == 0 || !syrkArgsOK(ul, tA, n, k, a, lda, c, ldc) {
		im.Implementation.Dsyrk(ul, tA, n, k, alpha, a, lda, beta, c, ldc)
		return
	}
	trans := isTrans(tA)
	// rows returns op(A)[i0:, :] as a Dgemm operand.
	rows := func(i0 int) []float64 {
		if trans {
			return a[i0:]
		}
		return a[i0*lda:]
	}
	for i0 := 0; i0 < n; i0 += trsmBlock {
		i1 := min(i0+trsmBlock, n)
		im.Implementation.Dsyrk(ul, tA, i1-i0, k, alpha, rows(i0), lda, beta, c[i0*ldc+i0:], ldc)
		if ul == blas.Lower && i0 > 0 { // C[i0:i1, :i0]
			gemm(trans, !trans, i1-i0, i0, k, alpha, rows(i0), lda, a, lda, beta, c[i0*ldc:], ldc)
		}
		if ul == blas.Upper && i1 < n { // C[i0:i1, i1:]
			gemm(trans, !trans, i1-i0, n-i1, k, alpha, rows(i0), lda, rows(i1), lda, beta, c[i0*ldc+i1:], ldc)
		}
	}
}

func syrkArgsOK(ul blas.Uplo, tA blas.Transpose, n, k int, a []float64, lda int, c []float64, ldc int) bool {
	if (ul != blas.Lower && ul != blas.Upper) || !validTrans(tA) || n < 0 || k < 0 {
		return false
	}
	row, col := n, k
	if isTrans(tA) {
		row, col = k, n
	}
	if lda < max(1, col) || ldc < max(1, n) {
		return false
	}
	if n == 0 {
		return true
	}
	return len(a) >= lda*(row-1)+col && len(c) >= ldc*(n-1)+n
}

// Dtrmm computes B = α·op(A)·B (side Left) or B = α·B·op(A) (side Right)
// for triangular A. Blocks of trsmBlock are taken in the order that leaves
// the blocks still to be read unchanged: each is multiplied by its diagonal
// block by gonum, then takes the other blocks' contribution in one Dgemm.
func (im Impl) Dtrmm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, b []float64, ldb int) {
	k := n
	if s == blas.Left {
		k = m
	}
	if !hasKernels || k <= trsmBlock || alpha == 0 || m == 0 || n == 0 || !triArgsOK(s, ul, tA, d, m, n, a, lda, b, ldb) {
		im.Implementation.Dtrmm(s, ul, tA, d, m, n, alpha, a, lda, b, ldb)
		return
	}
	trans := isTrans(tA)
	lower := (ul == blas.Lower) != trans // op(A) is lower triangular
	// sub returns op(A)[i0:, j0:] as a Dgemm operand.
	sub := func(i0, j0 int) []float64 {
		if trans {
			return a[j0*lda+i0:]
		}
		return a[i0*lda+j0:]
	}
	g := im.Implementation
	last := (k - 1) / trsmBlock * trsmBlock // first index of the last block
	if s == blas.Left {
		diag := func(i0, i1 int) {
			g.Dtrmm(s, ul, tA, d, i1-i0, n, alpha, a[i0*lda+i0:], lda, b[i0*ldb:], ldb)
		}
		if lower { // B_i = α(op(A)_ii B_i + op(A)[i, :i0] B[:i0]), bottom-up
			for i0 := last; i0 >= 0; i0 -= trsmBlock {
				i1 := min(i0+trsmBlock, m)
				diag(i0, i1)
				if i0 > 0 {
					gemm(trans, false, i1-i0, n, i0, alpha, sub(i0, 0), lda, b, ldb, 1, b[i0*ldb:], ldb)
				}
			}
			return
		}
		for i0 := 0; i0 < m; i0 += trsmBlock { // upper: top-down
			i1 := min(i0+trsmBlock, m)
			diag(i0, i1)
			if i1 < m {
				gemm(trans, false, i1-i0, n, m-i1, alpha, sub(i0, i1), lda, b[i1*ldb:], ldb, 1, b[i0*ldb:], ldb)
			}
		}
		return
	}
	diag := func(j0, j1 int) {
		g.Dtrmm(s, ul, tA, d, m, j1-j0, alpha, a[j0*lda+j0:], lda, b[j0:], ldb)
	}
	if lower { // B_j = α(B_j op(A)_jj + B[:, j1:] op(A)[j1:, j]), left to right
		for j0 := 0; j0 < n; j0 += trsmBlock {
			j1 := min(j0+trsmBlock, n)
			diag(j0, j1)
			if j1 < n {
				gemm(false, trans, m, j1-j0, n-j1, alpha, b[j1:], ldb, sub(j1, j0), lda, 1, b[j0:], ldb)
			}
		}
		return
	}
	for j0 := last; j0 >= 0; j0 -= trsmBlock { // upper: right to left
		j1 := min(j0+trsmBlock, n)
		diag(j0, j1)
		if j0 > 0 {
			gemm(false, trans, m, j1-j0, j0, alpha, b, ldb, sub(0, j0), lda, 1, b[j0:], ldb)
		}
	}
}
