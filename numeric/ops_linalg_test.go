package numeric

import (
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// valueTol bounds the difference from gonum on the small well-conditioned
// matrices used here: both sides do O(n) floating-point operations per entry
// on O(1..10) values, so agreement to ~1e-13 is expected; 1e-10 leaves room.
const valueTol = 1e-10

func TestMatMulValue(t *testing.T) {
	rng := NewRand(10)
	for _, tA := range []bool{false, true} {
		for _, tB := range []bool{false, true} {
			a, b := randn(rng, 3, 4), randn(rng, 4, 5)
			var opA, opB mat.Matrix = a, b
			if tA {
				a = randn(rng, 4, 3)
				opA = a.T()
			}
			if tB {
				b = randn(rng, 5, 4)
				opB = b.T()
			}
			var want mat.Dense
			want.Mul(opA, opB)
			tp := NewTape()
			got := tp.Value(tp.MatMul(tp.Const(a), tp.Const(b), tA, tB))
			if !mat.EqualApprox(got, &want, valueTol) {
				t.Errorf("tA=%v tB=%v: got\n%v\nwant\n%v", tA, tB, mat.Formatted(got), mat.Formatted(&want))
			}
		}
	}
}

func TestCholeskyValue(t *testing.T) {
	rng := NewRand(11)
	const n = 6
	a := randSPD(rng, n)
	var ch mat.Cholesky
	if !ch.Factorize(mat.NewSymDense(n, mat.DenseCopyOf(a).RawMatrix().Data)) {
		t.Fatal("gonum: not positive definite")
	}
	var want mat.TriDense
	ch.LTo(&want)
	// Garbage in the upper triangle must be ignored.
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			a.Set(i, j, 1e6)
		}
	}
	tp := NewTape()
	l := tp.Cholesky(tp.Const(a))
	if !mat.EqualApprox(tp.Value(l), &want, valueTol) {
		t.Errorf("got\n%v\nwant\n%v", mat.Formatted(tp.Value(l)), mat.Formatted(&want))
	}
	if got, want := tp.Scalar(tp.LogDetChol(l)), ch.LogDet(); math.Abs(got-want) > valueTol {
		t.Errorf("LogDetChol = %v, gonum LogDet = %v", got, want)
	}
}

// TestLogDetGradient compares d log det A / dA with A⁻¹ from gonum: for
// symmetric A the symmetrised gradient of log det A is exactly A⁻¹.
func TestLogDetGradient(t *testing.T) {
	rng := NewRand(12)
	const n = 5
	a := randSPD(rng, n)
	var inv mat.Dense
	if err := inv.Inverse(a); err != nil {
		t.Fatal(err)
	}
	tp := NewTape()
	x := tp.Param(a)
	tp.Backward(tp.LogDetChol(tp.Cholesky(x)))
	if !mat.EqualApprox(tp.Grad(x), &inv, valueTol) {
		t.Errorf("grad\n%v\nwant A⁻¹\n%v", mat.Formatted(tp.Grad(x)), mat.Formatted(&inv))
	}
}

func TestSolveValue(t *testing.T) {
	rng := NewRand(13)
	const n = 5
	l, b := randLower(rng, n), randn(rng, n, 3)
	tri := mat.NewTriDense(n, mat.Lower, nil)
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			tri.SetTri(i, j, l.At(i, j))
		}
	}
	tp := NewTape()
	lv, bv := tp.Const(l), tp.Const(b)
	for _, trans := range []bool{false, true} {
		var x Var
		var opL mat.Matrix = tri
		if trans {
			x = tp.SolveLowerT(lv, bv)
			opL = tri.T()
		} else {
			x = tp.SolveLower(lv, bv)
		}
		var lx mat.Dense
		lx.Mul(opL, tp.Value(x))
		if !mat.EqualApprox(&lx, b, valueTol) {
			t.Errorf("trans=%v: op(L)·X =\n%v\nwant b =\n%v", trans, mat.Formatted(&lx), mat.Formatted(b))
		}
	}
}

func TestCholeskyFailure(t *testing.T) {
	tp := NewTape()
	a := mat.NewDense(2, 2, []float64{1, 2, 2, 1}) // eigenvalues 3 and −1
	p := tp.Param(a)
	l := tp.Cholesky(p)
	loss := tp.Add(tp.LogDetChol(l), tp.Sum(p))
	tp.Backward(loss) // must not panic
	err := tp.Err()
	if err == nil || !errors.Is(err, ErrNotPositiveDefinite) ||
		!strings.Contains(err.Error(), "cholesky: matrix is not positive definite") {
		t.Fatalf("Err() = %v, want a not-positive-definite error", err)
	}
	if v := tp.Scalar(loss); !math.IsNaN(v) {
		t.Errorf("loss after failed Cholesky = %v, want NaN", v)
	}
	// The failed node passes nothing back; the Sum path still contributes 1.
	if g := tp.Grad(p); !mat.Equal(g, mat.NewDense(2, 2, []float64{1, 1, 1, 1})) {
		t.Errorf("grad through failed Cholesky = %v, want ones from Sum only", mat.Formatted(g))
	}
	tp.Reset()
	if tp.Err() != nil {
		t.Errorf("Err() after Reset = %v", tp.Err())
	}
	tp.Cholesky(tp.Const(mat.NewDense(2, 2, []float64{4, 0, 2, 5})))
	if tp.Err() != nil {
		t.Errorf("Err() after a successful Cholesky = %v", tp.Err())
	}
}

// TestWeightedGramValue checks WeightedGram against the MatMul and Mul it
// replaces: the lower triangle is the same dot products in the same order,
// so equal bit for bit, and the upper triangle mirrors it.
func TestWeightedGramValue(t *testing.T) {
	rng := NewRand(12)
	for _, s := range [][2]int{{1, 1}, {7, 3}, {100, 51}, {13, 2}, {30, 25}, {100, 60}} {
		phi, w := randn(rng, s[0], s[1]), randn(rng, s[0], 1)
		tp := NewTape()
		p, wv := tp.Const(phi), tp.Const(w)
		got := tp.Value(tp.WeightedGram(p, wv))
		want := tp.Value(tp.MatMul(p, tp.Mul(p, wv), true, false))
		n := s[1]
		for i := range n {
			for j := range n {
				if g := got.At(i, j); j <= i && g != want.At(i, j) || j > i && g != got.At(j, i) {
					t.Fatalf("%d×%d: WeightedGram[%d,%d] = %v, Φᵀ(w⊙Φ) has %v", s[0], n, i, j, g, want.At(i, j))
				}
			}
		}
	}
}

// TestGemmLowerNT checks the blocked lower triangle against the whole
// product: the same dot products in the same kernels, so within a few
// roundings of k terms of size O(1) (1e-12 is ~50× that).
func TestGemmLowerNT(t *testing.T) {
	rng := NewRand(13)
	for _, s := range [][2]int{{5, 3}, {25, 8}, {51, 50}, {51, 51}, {60, 9}, {100, 13}} {
		n, k := s[0], s[1]
		a, b := randn(rng, n, k), randn(rng, n, k)
		var want mat.Dense
		want.Mul(a, b.T())
		got := make([]float64, n*n)
		gemmLowerNT(n, k, a.RawMatrix().Data, b.RawMatrix().Data, got, make([]float64, n*k))
		for i := range n {
			for j := 0; j <= i; j++ {
				if d := math.Abs(got[i*n+j] + want.At(i, j)); d > 1e-12 {
					t.Fatalf("n=%d k=%d: C[%d,%d] = %v, want %v", n, k, i, j, got[i*n+j], -want.At(i, j))
				}
			}
		}
	}
}

// TestTraceInvCholValue compares with the composition it replaces,
// SumSquares(SolveLower(L, I)), for L the Cholesky factor of randSPD's
// BBᵀ + nI (condition number about 5): both solve for the same L⁻¹ by
// substitution, blocked differently, so the sums of n² positive terms agree
// to a few roundings each, far below 1e-12 relative.
func TestTraceInvCholValue(t *testing.T) {
	rng := NewRand(16)
	for _, n := range []int{1, 5, 24, 25, 26, 51, 60} {
		tc := NewTape()
		l := mat.DenseCopyOf(tc.Value(tc.Cholesky(tc.Const(randSPD(rng, n)))))
		eye := mat.NewDense(n, n, nil)
		for i := range n {
			eye.Set(i, i, 1)
		}
		tp := NewTape()
		lv := tp.Const(l)
		got := tp.Scalar(tp.TraceInvChol(lv))
		want := tp.Scalar(tp.SumSquares(tp.SolveLower(lv, tp.Const(eye))))
		if math.Abs(got-want) > 1e-12*want {
			t.Errorf("n=%d: TraceInvChol = %v, SumSquares(SolveLower(L, I)) = %v", n, got, want)
		}
	}
}

// TestMirrorLower checks the stripe-transposed mirror against the element
// loop it replaced, bit for bit (both copy), across stripe edges.
func TestMirrorLower(t *testing.T) {
	rng := NewRand(17)
	for n := range 27 {
		got := make([]float64, n*n)
		for i := range got {
			got[i] = rng.NormFloat64()
		}
		want := append([]float64(nil), got...)
		for i := range n {
			for j := i + 1; j < n; j++ {
				want[i*n+j] = want[j*n+i]
			}
		}
		mirrorLower(got, n)
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("n=%d: element (%d, %d) = %v, want %v", n, i/n, i%n, got[i], want[i])
			}
		}
	}
}
