package numeric

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestBroadcastValue compares every broadcasting form with a direct loop.
func TestBroadcastValue(t *testing.T) {
	rng := NewRand(20)
	shapes := [][4]int{{3, 4, 3, 4}, {3, 4, 1, 4}, {1, 4, 3, 4}, {3, 4, 3, 1}, {3, 1, 3, 4}, {3, 4, 1, 1}, {1, 1, 3, 4}}
	at := func(m *mat.Dense, i, j int) float64 {
		r, c := m.Dims()
		return m.At(min(i, r-1), min(j, c-1))
	}
	for _, s := range shapes {
		a, b := randn(rng, s[0], s[1]), randAway(rng, s[2], s[3])
		tp := NewTape()
		av, bv := tp.Const(a), tp.Const(b)
		got := []*mat.Dense{tp.Value(tp.Add(av, bv)), tp.Value(tp.Sub(av, bv)), tp.Value(tp.Mul(av, bv)), tp.Value(tp.Div(av, bv))}
		for k, g := range got {
			if r, c := g.Dims(); r != 3 || c != 4 {
				t.Fatalf("%v op %d: result %d×%d, want 3×4", s, k, r, c)
			}
			for i := 0; i < 3; i++ {
				for j := 0; j < 4; j++ {
					x, y := at(a, i, j), at(b, i, j)
					want := [...]float64{x + y, x - y, x * y, x / y}[k]
					if g.At(i, j) != want {
						t.Errorf("%v op %d (%d,%d) = %v, want %v", s, k, i, j, g.At(i, j), want)
					}
				}
			}
		}
	}
}

func TestBroadcastMismatchPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Add of 3×4 and 2×4 did not panic")
		}
	}()
	tp := NewTape()
	tp.Add(tp.Const(mat.NewDense(3, 4, nil)), tp.Const(mat.NewDense(2, 4, nil)))
}

// TestStableValues checks the overflow-prone functions at extreme inputs,
// where the naive formulas give Inf or NaN.
func TestStableValues(t *testing.T) {
	tp := NewTape()
	x := tp.Const(mat.NewDense(1, 4, []float64{-1000, -1e-20, 1e-20, 1000}))
	sp, sg := tp.Value(tp.Softplus(x)), tp.Value(tp.Sigmoid(x))
	wantSp := []float64{0, math.Ln2, math.Ln2, 1000}
	wantSg := []float64{0, 0.5, 0.5, 1}
	for j := range 4 {
		if math.Abs(sp.At(0, j)-wantSp[j]) > 1e-15 || math.Abs(sg.At(0, j)-wantSg[j]) > 1e-15 {
			t.Errorf("x=%v: softplus %v (want %v), sigmoid %v (want %v)",
				j, sp.At(0, j), wantSp[j], sg.At(0, j), wantSg[j])
		}
	}
	big := tp.Const(mat.NewDense(2, 2, []float64{1000, 1000, 1000, -1000}))
	if got, want := tp.Scalar(tp.LogSumExp(big)), 1000+math.Log(3); math.Abs(got-want) > 1e-12 {
		t.Errorf("LogSumExp = %v, want %v", got, want)
	}
	col := tp.Value(tp.ColLogSumExp(big))
	if got, want := col.At(0, 0), 1000+math.Ln2; math.Abs(got-want) > 1e-12 {
		t.Errorf("ColLogSumExp[0] = %v, want %v", got, want)
	}
	if got := col.At(0, 1); math.Abs(got-1000) > 1e-12 {
		t.Errorf("ColLogSumExp[1] = %v, want 1000", got)
	}
}

func TestReductionValues(t *testing.T) {
	tp := NewTape()
	a := tp.Const(mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, 6}))
	check := func(name string, v Var, want []float64) {
		got := tp.Value(v).RawMatrix().Data
		for i := range want {
			if math.Abs(got[i]-want[i]) > 1e-14 {
				t.Errorf("%s = %v, want %v", name, got, want)
				return
			}
		}
	}
	check("Sum", tp.Sum(a), []float64{21})
	check("Mean", tp.Mean(a), []float64{3.5})
	check("RowSums", tp.RowSums(a), []float64{6, 15})
	check("RowMeans", tp.RowMeans(a), []float64{2, 5})
	check("ColSums", tp.ColSums(a), []float64{5, 7, 9})
	check("ColMeans", tp.ColMeans(a), []float64{2.5, 3.5, 4.5})
	check("AppendOnes", tp.AppendOnes(a), []float64{1, 2, 3, 1, 4, 5, 6, 1})
	check("Transpose", tp.Transpose(a), []float64{1, 4, 2, 5, 3, 6})
	check("Slice", tp.Slice(a, 1, 2, 1, 3), []float64{5, 6})
	check("ConcatCols", tp.ConcatCols(a, tp.Slice(a, 0, 2, 0, 1)), []float64{1, 2, 3, 1, 4, 5, 6, 4})
	check("AddDiag", tp.AddDiag(tp.Slice(a, 0, 2, 0, 2), 10), []float64{11, 2, 4, 15})
}

// TestGradEdgeCases: ReLU's gradient at exactly 0, nodes that do not reach
// the output, and constants all have zero gradient.
func TestGradEdgeCases(t *testing.T) {
	tp := NewTape()
	x := tp.Param(mat.NewDense(1, 3, []float64{-1, 0, 2}))
	unused := tp.Param(mat.NewDense(2, 2, []float64{1, 2, 3, 4}))
	c := tp.Const(mat.NewDense(1, 3, []float64{1, 1, 1}))
	after := tp.Exp(unused)
	out := tp.Sum(tp.Mul(tp.ReLU(x), c))
	tp.Exp(x) // recorded after out: must not contribute
	tp.Backward(out)
	if got := tp.Grad(x).RawMatrix().Data; got[0] != 0 || got[1] != 0 || got[2] != 1 {
		t.Errorf("ReLU grad = %v, want [0 0 1]", got)
	}
	for name, v := range map[string]Var{"unused": unused, "const": c, "after": after} {
		if mat.Norm(tp.Grad(v), 1) != 0 {
			t.Errorf("%s grad = %v, want zero", name, mat.Formatted(tp.Grad(v)))
		}
	}
}

// TestParamAliases: a Param sees the caller's matrix, not a copy.
func TestParamAliases(t *testing.T) {
	m := mat.NewDense(1, 1, []float64{2})
	tp := NewTape()
	if tp.Value(tp.Param(m)) != m {
		t.Error("Value(Param(m)) is not m")
	}
	m.Set(0, 0, 3)
	tp.Reset()
	if got := tp.Scalar(tp.Square(tp.Param(m))); got != 9 {
		t.Errorf("Square after update = %v, want 9", got)
	}
}

// The fused ops do the arithmetic of the ops they replace in the same order,
// so values and gradients are equal bit for bit, not just to rounding: runs
// recorded either way stay identical for a seed. The column broadcast of
// Mul, whose loop has its own fast path, is compared with the same product
// written as a full matrix.
func TestFusedOpsMatchComposition(t *testing.T) {
	rng := NewRand(21)
	x := randn(rng, 5, 3)
	col := randAway(rng, 5, 1)
	full := mat.NewDense(5, 3, nil)
	for i := range 5 {
		for j := range 3 {
			full.Set(i, j, col.At(i, 0))
		}
	}
	w := randn(rng, 5, 4)
	run := func(fused bool) (val float64, gx, gc *mat.Dense) {
		tp := NewTape()
		xv, cv := tp.Param(x), tp.Param(col)
		var h, s Var
		if fused {
			h = tp.ReLUAppendOnes(tp.Mul(xv, cv))
		} else {
			// Mul against the column written out: the gradient of the
			// column is the row sums of that of the full matrix.
			h = tp.AppendOnes(tp.ReLU(tp.Mul(xv, tp.MatMul(cv, tp.Const(mat.NewDense(1, 3, []float64{1, 1, 1})), false, false))))
		}
		p := tp.Mul(h, tp.Const(w))
		if fused {
			s = tp.SumSquares(p)
		} else {
			s = tp.Sum(tp.Square(p))
		}
		tp.Backward(s)
		return tp.Scalar(s), mat.DenseCopyOf(tp.Grad(xv)), mat.DenseCopyOf(tp.Grad(cv))
	}
	v1, gx1, gc1 := run(true)
	v2, gx2, gc2 := run(false)
	if v1 != v2 {
		t.Errorf("value %v fused, %v composed", v1, v2)
	}
	if !mat.Equal(gx1, gx2) {
		t.Errorf("gradient of x differs:\n%v\n%v", mat.Formatted(gx1), mat.Formatted(gx2))
	}
	// The composed column gradient goes through a GEMM (a different
	// summation), so it agrees to rounding only: 3 terms, relative 1e-15.
	if !mat.EqualApprox(gc1, gc2, 1e-14) {
		t.Errorf("gradient of the column differs:\n%v\n%v", mat.Formatted(gc1), mat.Formatted(gc2))
	}
}
