package numeric

import (
	"fmt"

	"github.com/posterior-playground/playground/numeric/fastblas"
	"github.com/posterior-playground/playground/numeric/internal/kernels"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// Products with triangular or symmetric structure, done as GEMMs over the
// blocks that structure leaves non-zero (or that the result keeps).

// lowerBlock is the row block of gemmLowerNT: twice the kernel's six rows.
const lowerBlock = 12

// lowerBlockEnd is the end of the row block from i0. The n mod 12 rows
// left over form the first block, where the triangle leaves them only as
// many columns as rows (on n = 51, a 3×3 block; last, they were a 3×51
// product padded to the kernel's six rows, in a call of its own), so every
// later block is two whole tiles tall. One row left over joins the next
// block, since Dgemm would take a single row as a matrix–vector product
// and round it differently from the kernels.
func lowerBlockEnd(i0, n int) int {
	if i0 > 0 {
		return min(i0+lowerBlock, n)
	}
	r := n % lowerBlock
	switch r {
	case 0:
		r = lowerBlock
	case 1:
		r += lowerBlock
	}
	return min(r, n)
}

// gemmLowerNT sets the lower triangle (and some entries above it) of the
// n×n c to −a·bᵀ for n×k a and b. By row blocks, each only as wide as its
// last row needs: on n = 51 that is 39% fewer multiply-adds than the whole
// product, whose upper triangle a triangular gradient discards. bᵀ is
// written once into bt (k·n values) and read in place by every block,
// where a transposed operand would be packed again for each (the same
// products in the same kernel, so the same values).
func gemmLowerNT(n, k int, a, b, c, bt []float64) {
	if k < 8 || n <= 2*lowerBlock {
		blas64.Gemm(blas.NoTrans, blas.Trans, -1, general(n, k, a), general(n, k, b), 0, general(n, n, c))
		return
	}
	fastblas.Transpose(bt, n, b, k, n, k)
	for i0, i1 := 0, 0; i0 < n; i0 = i1 {
		i1 = lowerBlockEnd(i0, n)
		blas64.Gemm(blas.NoTrans, blas.NoTrans, -1,
			blas64.General{Rows: i1 - i0, Cols: k, Stride: k, Data: a[i0*k:]},
			blas64.General{Rows: k, Cols: i1, Stride: n, Data: bt},
			0, blas64.General{Rows: i1 - i0, Cols: i1, Stride: n, Data: c[i0*n:]})
	}
}

// WeightedGram returns Φᵀ·diag(w)·Φ for an m×n Φ and an m×1 column w: the
// lower triangle is MatMul(phi, Mul(phi, w), true, false)'s bit for bit
// (the same dot products in the same kernels), the upper triangle its mirror
// image (the MatMul's differs from it in the last bits). Its
// backward takes one product, Φ·(Ḡ + Ḡᵀ), where the two MatMul and Mul
// nodes take two (GIP's precision ΦᵀΛΦ spends half its gradient's GEMMs
// there).
func (t *Tape) WeightedGram(phi, w Var) Var {
	pn, wn := t.node(phi), t.node(w)
	if wn.r != pn.r || wn.c != 1 {
		panic(fmt.Sprintf("numeric: WeightedGram of %d×%d Φ and %d×%d w (want %d×1)", pn.r, pn.c, wn.r, wn.c, pn.r))
	}
	m, n := pn.r, pn.c
	v, nd, pn, wn := t.push2(opWeightedGram, phi, w, n, n)
	if m == 0 {
		clear(nd.v)
		return v
	}
	nd.aux = grow(nd.aux, n*n+m*n+5*m) // room for the backward pass's buffers
	wphi := nd.aux[:m*n]
	fastblas.RowScale(m, n, pn.v, n, wn.v, 1, wphi, n)
	// The lower triangle by row blocks as in gemmLowerNT, then its mirror
	// image above: 39% fewer multiply-adds on n = 51, and P is exactly
	// symmetric.
	p := nd.v
	if n <= 2*lowerBlock {
		blas64.Gemm(blas.Trans, blas.NoTrans, 1, general(m, n, pn.v), general(m, n, wphi), 0, general(n, n, p))
	} else {
		for i0, i1 := 0, 0; i0 < n; i0 = i1 {
			i1 = lowerBlockEnd(i0, n)
			blas64.Gemm(blas.Trans, blas.NoTrans, 1,
				blas64.General{Rows: m, Cols: i1 - i0, Stride: n, Data: pn.v[i0:]},
				blas64.General{Rows: m, Cols: i1, Stride: n, Data: wphi},
				0, blas64.General{Rows: i1 - i0, Cols: i1, Stride: n, Data: p[i0*n:]})
		}
	}
	mirrorLower(p, n)
	return v
}

// mirrorLower copies the strictly lower triangle of the n×n matrix y (row
// stride n) onto its upper triangle: each stripe of eight rows left of the
// diagonal is transposed by fastblas.Transpose's 4×4 register blocks, where
// an element loop read a column for every row.
func mirrorLower(y []float64, n int) {
	const stripe = 8
	for i0 := 0; i0 < n; i0 += stripe {
		i1 := min(i0+stripe, n)
		// Rows i0..i1, columns 0..i0 → rows 0..i0, columns i0..i1.
		fastblas.Transpose(y[i0:], n, y[i0*n:], n, i1-i0, i0)
		for i := i0; i < i1; i++ {
			for j := i + 1; j < i1; j++ {
				y[i*n+j] = y[j*n+i]
			}
		}
	}
}

// weightedGramBackward for P = Φᵀ·diag(w)·Φ with upstream Ḡ: with
// H = Φ·(Ḡ + Ḡᵀ), Φ̄ = diag(w)·H and w̄_i = ½ Σ_j H_ij Φ_ij.
func (t *Tape) weightedGramBackward(nd, phi, w *node) {
	pn, wn := t.nodes[nd.a], t.nodes[nd.b]
	m, n := pn.r, pn.c
	if m == 0 || n == 0 {
		return
	}
	nd.aux = grow(nd.aux, n*n+m*n+5*m) // S, H, and RowScaleDot's dot and lanes
	s, h := nd.aux[:n*n], nd.aux[n*n:n*n+m*n]
	g := nd.g
	// Ḡᵀ by the transpose kernel, then Ḡ added along rows: no column reads.
	fastblas.Transpose(s, n, g, n, n, n)
	for i, v := range g[:n*n] {
		s[i] = v + s[i]
	}
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, general(m, n, pn.v), general(n, n, s), 0, general(m, n, h))
	if phi != nil && w != nil {
		// Both in one pass, four columns at a time (the loops below, as
		// rounded).
		dot, lanes := nd.aux[n*n+m*n:n*n+m*n+m], nd.aux[n*n+m*n+m:]
		kernels.RowScaleDot(m, n, h, n, pn.v, n, wn.v, 1, phi.g, n, dot, lanes)
		for i, d := range dot {
			w.g[i] += 0.5 * d
		}
		return
	}
	for i := range m {
		hi, xi := h[i*n:(i+1)*n], pn.v[i*n:(i+1)*n]
		if phi != nil {
			wi, gi := wn.v[i], phi.g[i*n:(i+1)*n]
			for j, x := range hi {
				gi[j] += wi * x
			}
		}
		if w != nil {
			// Four partial sums: one chain of dependent adds was most of
			// this loop's time.
			var d0, d1, d2, d3 float64
			j := 0
			for ; j+4 <= n; j += 4 {
				d0 += hi[j] * xi[j]
				d1 += hi[j+1] * xi[j+1]
				d2 += hi[j+2] * xi[j+2]
				d3 += hi[j+3] * xi[j+3]
			}
			for ; j < n; j++ {
				d0 += hi[j] * xi[j]
			}
			w.g[i] += 0.5 * ((d0 + d1) + (d2 + d3))
		}
	}
}

// TraceInvChol returns tr((L·Lᵀ)⁻¹) = ‖L⁻¹‖²_F as 1×1, for a Cholesky
// factor L (only its lower triangle is read): the same value as
// SumSquares(SolveLower(l, I)) up to rounding, at a third of the forward
// multiply-adds (L⁻¹ is solved for by column blocks, each only below its
// first row) and with the backward rule L̄ = −2·tril(Xᵀ·X·Xᵀ), X = L⁻¹, as
// two GEMMs over the triangles' non-zero blocks instead of a triangular
// solve and a whole product.
func (t *Tape) TraceInvChol(l Var) Var {
	ln := t.node(l)
	if ln.r != ln.c {
		panic(fmt.Sprintf("numeric: TraceInvChol of a %d×%d matrix", ln.r, ln.c))
	}
	n := ln.r
	v, nd, ln := t.push1(opTraceInvChol, l, 1, 1)
	nd.aux = grow(nd.aux, 3*n*n) // X, and the backward pass's Y and Zᵀ
	x := nd.aux[:n*n]
	clear(x)
	for i := range n {
		x[i*n+i] = 1
	}
	for j0, j1 := 0, 0; j0 < n; j0 = j1 {
		j1 = lowerBlockEnd(j0, n)
		// X[j0:, j0:j1] = L[j0:, j0:]⁻¹·I[j0:, j0:j1]; X is zero above.
		blas64.Trsm(blas.Left, blas.NoTrans, 1,
			blas64.Triangular{Uplo: blas.Lower, Diag: blas.NonUnit, N: n - j0, Stride: n, Data: ln.v[j0*n+j0:]},
			blas64.General{Rows: n - j0, Cols: j1 - j0, Stride: n, Data: x[j0*n+j0:]})
	}
	s := 0.0
	for i := range n {
		s += sumSquares4(x[i*n : i*n+i+1])
	}
	nd.v[0] = s
	return v
}

func sumSquares4(x []float64) float64 {
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += x[i] * x[i]
		s1 += x[i+1] * x[i+1]
		s2 += x[i+2] * x[i+2]
		s3 += x[i+3] * x[i+3]
	}
	for ; i < len(x); i++ {
		s0 += x[i] * x[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// traceInvCholBackward: Y = Xᵀ·X by row blocks of its lower triangle
// (rows i0..i1 of Xᵀ vanish before column i0), mirrored; then the lower
// triangle of Z = Y·Xᵀ as the upper triangle of Zᵀ = X·Y (Y symmetric),
// by row blocks: rows i0..i1 of X vanish after column i1, and only columns
// from i0 are kept. Both operands are read in place, with no transpose of
// X, and the blocks take a third fewer multiply-adds than those of Y·Xᵀ's
// lower triangle.
func traceInvCholBackward(nd, l *node) {
	if l == nil {
		return
	}
	n := l.r
	if n == 0 {
		return
	}
	x, y, zt := nd.aux[:n*n], nd.aux[n*n:2*n*n], nd.aux[2*n*n:3*n*n]
	for i0, i1 := 0, 0; i0 < n; i0 = i1 {
		i1 = lowerBlockEnd(i0, n)
		blas64.Gemm(blas.Trans, blas.NoTrans, 1,
			blas64.General{Rows: n - i0, Cols: i1 - i0, Stride: n, Data: x[i0*n+i0:]},
			blas64.General{Rows: n - i0, Cols: i1, Stride: n, Data: x[i0*n:]},
			0, blas64.General{Rows: i1 - i0, Cols: i1, Stride: n, Data: y[i0*n:]})
	}
	mirrorLower(y, n)
	for i0, i1 := 0, 0; i0 < n; i0 = i1 {
		i1 = lowerBlockEnd(i0, n)
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1,
			blas64.General{Rows: i1 - i0, Cols: i1, Stride: n, Data: x[i0*n:]},
			blas64.General{Rows: i1, Cols: n - i0, Stride: n, Data: y[i0:]},
			0, blas64.General{Rows: i1 - i0, Cols: n - i0, Stride: n, Data: zt[i0*n+i0:]})
	}
	c := -2 * nd.g[0]
	for i := range n {
		gl := l.g[i*n : i*n+i+1]
		for j := range gl {
			gl[j] += c * zt[j*n+i]
		}
	}
}
