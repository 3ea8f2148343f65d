package numeric

import (
	"errors"
	"fmt"
	"math"

	"github.com/posterior-playground/playground/numeric/fastblas"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// ErrNotPositiveDefinite is wrapped by the error a failed Cholesky records on
// the tape; test for it with errors.Is.
var ErrNotPositiveDefinite = errors.New("cholesky: matrix is not positive definite")

func trans(b bool) blas.Transpose {
	if b {
		return blas.Trans
	}
	return blas.NoTrans
}

// MatMul returns op(a)·op(b), where op transposes its argument when the
// corresponding flag is set.
func (t *Tape) MatMul(a, b Var, transA, transB bool) Var {
	an, bn := t.node(a), t.node(b)
	m, k := an.r, an.c
	if transA {
		m, k = k, m
	}
	kb, n := bn.r, bn.c
	if transB {
		kb, n = n, kb
	}
	if k != kb {
		panic(fmt.Sprintf("numeric: MatMul of %d×%d (trans %v) and %d×%d (trans %v)",
			an.r, an.c, transA, bn.r, bn.c, transB))
	}
	v, nd, an, bn := t.push2(opMatMul, a, b, m, n)
	nd.tA, nd.tB = transA, transB
	if k == 0 {
		clear(nd.v)
		return v
	}
	blas64.Gemm(trans(transA), trans(transB), 1,
		general(an.r, an.c, an.v), general(bn.r, bn.c, bn.v), 0, general(m, n, nd.v))
	return v
}

// matMulBackward for C = op(A)·op(B) with upstream G:
//
//	Ā = G·op(B)ᵀ   (or its transpose op(B)·Gᵀ when A was transposed)
//	B̄ = op(A)ᵀ·G   (or Gᵀ·op(A) when B was transposed)
func (t *Tape) matMulBackward(nd, a, b *node) {
	an, bn := t.nodes[nd.a], t.nodes[nd.b]
	A, B := general(an.r, an.c, an.v), general(bn.r, bn.c, bn.v)
	G := general(nd.r, nd.c, nd.g)
	if (an.r == 0 || an.c == 0) || (bn.r == 0 || bn.c == 0) {
		ready(a)
		ready(b)
		return
	}
	// An operand's first contribution is written over its gradient (β = 0,
	// which also ignores what the buffer held); later ones are added.
	beta := func(x *node) float64 {
		if x.fresh {
			x.fresh = false
			return 0
		}
		return 1
	}
	if a != nil {
		ga := general(a.r, a.c, a.g)
		if !nd.tA {
			blas64.Gemm(blas.NoTrans, trans(!nd.tB), 1, G, B, beta(a), ga)
		} else {
			blas64.Gemm(trans(nd.tB), blas.Trans, 1, B, G, beta(a), ga)
		}
	}
	if b != nil {
		gb := general(b.r, b.c, b.g)
		if !nd.tB {
			blas64.Gemm(trans(!nd.tA), blas.NoTrans, 1, A, G, beta(b), gb)
		} else {
			blas64.Gemm(blas.Trans, trans(nd.tA), 1, G, A, beta(b), gb)
		}
	}
}

// lower wraps a contiguous n×n slice as a non-unit lower triangle.
func lower(n int, data []float64) blas64.Triangular {
	return blas64.Triangular{Uplo: blas.Lower, Diag: blas.NonUnit, N: n, Stride: max(n, 1), Data: data}
}

// Linear algebra.

// Cholesky returns the lower-triangular L with L·Lᵀ = a for symmetric
// positive definite a (only the lower triangle of a is read; the gradient is
// symmetrised). On failure it records an error on the tape and the value is
// all NaN, and no gradient flows back through it.
func (t *Tape) Cholesky(a Var) Var {
	an := t.node(a)
	if an.r != an.c {
		panic(fmt.Sprintf("numeric: Cholesky of a %d×%d matrix", an.r, an.c))
	}
	n := an.r
	v, nd, an := t.push1(opCholesky, a, n, n)
	for i := 0; i < n; i++ {
		copy(nd.v[i*n:i*n+i+1], an.v[i*n:i*n+i+1])
		clear(nd.v[i*n+i+1 : (i+1)*n])
	}
	if n == 0 {
		return v
	}
	if _, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Lower, N: n, Stride: n, Data: nd.v}); !ok {
		nd.failed = true
		for i := range nd.v {
			nd.v[i] = math.NaN()
		}
		if t.err == nil {
			t.err = fmt.Errorf("numeric: %w (%d×%d input, node %d)", ErrNotPositiveDefinite, n, n, v.id)
		}
	}
	return v
}

// choleskyBackward uses Murray (2016), "Differentiation of the Cholesky
// decomposition", eq. 10 in matrix form, without forming L⁻¹:
//
//	P = Φ(Lᵀ·tril(L̄)),  S = L⁻ᵀ·P·L⁻¹,  Ā = (S + Sᵀ)/2
//
// where Φ keeps the lower triangle and halves the diagonal. tril(L̄) drops
// gradient on the structurally zero upper triangle of L. Ā is split equally
// between (i,j) and (j,i), so a symmetric perturbation of a sees Ā_ij + Ā_ji.
func choleskyBackward(nd, a *node) {
	if a == nil {
		return
	}
	n := nd.r
	nd.aux = grow(nd.aux, 3*n*n)
	lb, w, st, g := nd.aux[:n*n], nd.aux[n*n:2*n*n], nd.aux[2*n*n:], nd.g
	for i := 0; i < n; i++ {
		copy(lb[i*n:i*n+i+1], g[i*n:i*n+i+1])
		clear(lb[i*n+i+1 : (i+1)*n])
	}
	// W = Lᵀ·tril(L̄), lower triangle only (Φ discards the rest), by row
	// blocks: rows i0..i1 of Lᵀ are zero before column i0 and tril(L̄)'s
	// columns past i1 are not needed, so each block is one GEMM over
	// k = i0..n and columns 0..i1: on n = 51 about 30% of the whole product's
	// multiply-adds, where gonum's Dtrmm took the whole triangle's half.
	for i0, i1 := 0, 0; i0 < n; i0 = i1 {
		i1 = lowerBlockEnd(i0, n)
		blas64.Gemm(blas.Trans, blas.NoTrans, 1,
			blas64.General{Rows: n - i0, Cols: i1 - i0, Stride: n, Data: nd.v[i0*n+i0:]},
			blas64.General{Rows: n - i0, Cols: i1, Stride: n, Data: lb[i0*n:]},
			0, blas64.General{Rows: i1 - i0, Cols: i1, Stride: n, Data: w[i0*n:]})
	}
	L, W := lower(n, nd.v), general(n, n, w)
	for i := 0; i < n; i++ {
		w[i*n+i] *= 0.5
		clear(w[i*n+i+1 : (i+1)*n])
	}
	blas64.Trsm(blas.Left, blas.Trans, 1, L, W) // W = L⁻ᵀ·P
	// Sᵀ = L⁻ᵀ·Wᵀ: the side-Right solve W·L⁻¹ as fastblas runs it (a
	// left solve on the transpose), without transposing the result back:
	// Ā needs only S + Sᵀ.
	fastblas.Transpose(st, n, w, n, n, n)
	blas64.Trsm(blas.Left, blas.Trans, 1, L, general(n, n, st))
	ga := a.g
	for i := 0; i < n; i++ {
		ga[i*n+i] += st[i*n+i]
		for j := 0; j < i; j++ {
			s := 0.5 * (st[i*n+j] + st[j*n+i])
			ga[i*n+j] += s
			ga[j*n+i] += s
		}
	}
}

// SolveLower returns X with L·X = b, for lower-triangular L.
func (t *Tape) SolveLower(l, b Var) Var { return t.solve(opSolveLower, l, b) }

// SolveLowerT returns X with Lᵀ·X = b, for lower-triangular L.
func (t *Tape) SolveLowerT(l, b Var) Var { return t.solve(opSolveLowerT, l, b) }

func (t *Tape) solve(op opKind, l, b Var) Var {
	ln, bn := t.node(l), t.node(b)
	if ln.r != ln.c || bn.r != ln.r {
		panic(fmt.Sprintf("numeric: triangular solve with %d×%d L and %d×%d b", ln.r, ln.c, bn.r, bn.c))
	}
	v, nd, ln, bn := t.push2(op, l, b, bn.r, bn.c)
	copy(nd.v, bn.v)
	if nd.r == 0 || nd.c == 0 {
		return v
	}
	blas64.Trsm(blas.Left, trans(op == opSolveLowerT), 1, lower(ln.r, ln.v), general(nd.r, nd.c, nd.v))
	return v
}

// solveBackward, with X = L⁻¹B (or L⁻ᵀB) and upstream X̄:
//
//	B̄ = L⁻ᵀX̄ (or L⁻¹X̄),  L̄ = tril(−B̄Xᵀ) (or tril(−XB̄ᵀ)).
//
// Only the lower triangle of L is read, so its upper triangle gets no
// gradient.
func (t *Tape) solveBackward(nd, l, b *node) {
	ln := t.nodes[nd.a]
	n, k := nd.r, nd.c
	ready(l)
	if (l == nil && b == nil) || n == 0 || k == 0 {
		ready(b)
		return
	}
	nd.aux = grow(nd.aux, 2*n*k+n*n)
	bbar, lbar, bt := nd.aux[:n*k], nd.aux[n*k:n*k+n*n], nd.aux[n*k+n*n:]
	// B̄ is solved for in b's gradient itself when nothing has been
	// written to it yet (b fresh), instead of being added to a cleared one.
	direct := b != nil && b.fresh && b != l
	if direct {
		bbar, b.fresh = b.g, false
	}
	copy(bbar, nd.g)
	Bbar := general(n, k, bbar)
	blas64.Trsm(blas.Left, trans(nd.op == opSolveLower), 1, lower(n, ln.v), Bbar)
	if b != nil && !direct {
		ready(b)
		for i, x := range bbar {
			b.g[i] += x
		}
	}
	if l == nil {
		return
	}
	if nd.op == opSolveLower {
		gemmLowerNT(n, k, bbar, nd.v, lbar, bt)
	} else {
		gemmLowerNT(n, k, nd.v, bbar, lbar, bt)
	}
	for i := 0; i < n; i++ {
		gl := l.g[i*n : i*n+i+1]
		for j, x := range lbar[i*n : i*n+i+1] {
			gl[j] += x
		}
	}
}

// LogDetChol returns log det(L·Lᵀ) = 2 Σ log L_ii as 1×1, for a Cholesky
// factor L.
func (t *Tape) LogDetChol(l Var) Var {
	ln := t.node(l)
	if ln.r != ln.c {
		panic(fmt.Sprintf("numeric: LogDetChol of a %d×%d matrix", ln.r, ln.c))
	}
	v, nd, ln := t.push1(opLogDetChol, l, 1, 1)
	s := 0.0
	for i := 0; i < ln.r; i++ {
		s += math.Log(ln.v[i*ln.c+i])
	}
	nd.v[0] = 2 * s
	return v
}

func logDetBackward(nd, ln, l *node) {
	if l == nil {
		return
	}
	for i := 0; i < ln.r; i++ {
		l.g[i*ln.c+i] += 2 * nd.g[0] / ln.v[i*ln.c+i]
	}
}
