package numeric

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// fdStep is the central-difference step. For inputs of order 1 the error of
// (f(x+h) − f(x−h))/2h is at most h²·M₃/6 (truncation, M₃ the largest third
// derivative nearby) plus about ε·|f|/h (rounding, ε = 2.2e-16). With
// h = 1e-6, |f| ≲ 100 and M₃ ≲ 100 (inputs are kept away from kinks and
// singularities) that is ≲ 2e-11 + 2e-8, well below fdTol; the observed
// worst case is 3e-9 (logged per input with -v).
const (
	fdStep = 1e-6
	fdTol  = 1e-6
)

// gradCase is one finite-difference check: loss = Σ f(x)⊙R for a random
// constant R of f's shape, differentiated with respect to every input.
type gradCase struct {
	name string
	in   []*mat.Dense
	// sym marks inputs that must stay symmetric: (i,j) and (j,i) move
	// together, and the analytic derivative is G_ij + G_ji.
	sym []bool
	f   func(t *Tape, x []Var) Var
}

// randn returns an r×c matrix of standard normal entries.
func randn(rng *rand.Rand, r, c int) *mat.Dense {
	m := mat.NewDense(r, c, nil)
	for i := range m.RawMatrix().Data {
		m.RawMatrix().Data[i] = rng.NormFloat64()
	}
	return m
}

// randIn returns entries uniform on [lo, hi].
func randIn(rng *rand.Rand, r, c int, lo, hi float64) *mat.Dense {
	m := mat.NewDense(r, c, nil)
	for i := range m.RawMatrix().Data {
		m.RawMatrix().Data[i] = lo + (hi-lo)*rng.Float64()
	}
	return m
}

// randAway returns entries with |x| in [0.2, 2] and random sign, away from
// the kinks of ReLU and ELU.
func randAway(rng *rand.Rand, r, c int) *mat.Dense {
	m := randIn(rng, r, c, 0.2, 2)
	for i := range m.RawMatrix().Data {
		if rng.IntN(2) == 0 {
			m.RawMatrix().Data[i] *= -1
		}
	}
	return m
}

// randSPD returns B·Bᵀ + n·I for standard normal n×n B.
func randSPD(rng *rand.Rand, n int) *mat.Dense {
	b := randn(rng, n, n)
	a := mat.NewDense(n, n, nil)
	a.Mul(b, b.T())
	for i := 0; i < n; i++ {
		a.Set(i, i, a.At(i, i)+float64(n))
	}
	return a
}

// randLower returns a lower-triangular factor with diagonal in [1, 2] and
// garbage in the upper triangle, which the solves must not read.
func randLower(rng *rand.Rand, n int) *mat.Dense {
	l := randn(rng, n, n)
	for i := 0; i < n; i++ {
		l.Set(i, i, 1+rng.Float64())
		for j := i + 1; j < n; j++ {
			l.Set(i, j, 100*rng.NormFloat64())
		}
	}
	return l
}

// checkGrad compares the tape's gradients with central differences. It uses
// its own loop rather than gonum's diff/fd because symmetric inputs need the
// paired (i,j),(j,i) perturbation, and because the loss is re-recorded on
// the same tape, which also exercises Reset.
func checkGrad(t *testing.T, rng *rand.Rand, c gradCase) {
	t.Helper()
	tp := NewTape()
	var R *mat.Dense
	eval := func() (Var, []Var) {
		tp.Reset()
		xs := make([]Var, len(c.in))
		for k, m := range c.in {
			xs[k] = tp.Param(m)
		}
		y := c.f(tp, xs)
		if R == nil {
			R = randn(rng, tp.Value(y).RawMatrix().Rows, tp.Value(y).RawMatrix().Cols)
		}
		return tp.Sum(tp.Mul(y, tp.Const(R))), xs
	}
	loss, xs := eval()
	tp.Backward(loss)
	if err := tp.Err(); err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	grads := make([]*mat.Dense, len(xs))
	for k, x := range xs {
		grads[k] = mat.DenseCopyOf(tp.Grad(x))
	}
	f := func() float64 { l, _ := eval(); return tp.Scalar(l) }
	for k, m := range c.in {
		sym := c.sym != nil && c.sym[k]
		r, cc := m.Dims()
		if gr, gc := grads[k].Dims(); gr != r || gc != cc {
			t.Fatalf("%s: input %d is %d×%d but its gradient is %d×%d", c.name, k, r, cc, gr, gc)
		}
		worst := 0.0
		for i := 0; i < r; i++ {
			for j := 0; j < cc; j++ {
				if sym && j > i {
					continue
				}
				perturb := func(d float64) {
					m.Set(i, j, m.At(i, j)+d)
					if sym && i != j {
						m.Set(j, i, m.At(j, i)+d)
					}
				}
				perturb(fdStep)
				fp := f()
				perturb(-2 * fdStep)
				fm := f()
				perturb(fdStep)
				fd := (fp - fm) / (2 * fdStep)
				g := grads[k].At(i, j)
				if sym && i != j {
					g += grads[k].At(j, i)
				}
				e := math.Abs(g-fd) / max(1, math.Abs(g))
				if !(e < fdTol) {
					t.Errorf("%s: input %d (%d,%d): analytic %.10g, finite difference %.10g", c.name, k, i, j, g, fd)
				}
				worst = max(worst, e)
			}
		}
		t.Logf("%s: input %d: max relative error %.2e", c.name, k, worst)
	}
}

func TestGradBinaryBroadcast(t *testing.T) {
	rng := NewRand(1)
	type binop func(t *Tape, a, b Var) Var
	ops := []struct {
		name string
		f    binop
	}{
		{"Add", (*Tape).Add}, {"Sub", (*Tape).Sub}, {"Mul", (*Tape).Mul}, {"Div", (*Tape).Div},
	}
	shapes := [][4]int{
		{3, 4, 3, 4}, // equal
		{3, 4, 1, 4}, // row on the right
		{1, 4, 3, 4}, // row on the left
		{3, 4, 3, 1}, // column on the right
		{3, 1, 3, 4}, // column on the left
		{3, 4, 1, 1}, // scalar on the right
		{1, 1, 3, 4}, // scalar on the left
		{1, 4, 3, 1}, // row with column (outer)
	}
	for _, op := range ops {
		for _, s := range shapes {
			a := randn(rng, s[0], s[1])
			b := randn(rng, s[2], s[3])
			if op.name == "Div" {
				// Denominators with |b| ≥ 0.5 keep the third derivative of a/b small.
				b = randAway(rng, s[2], s[3])
				b.Apply(func(_, _ int, v float64) float64 { return v + 0.3*math.Copysign(1, v) }, b)
			}
			checkGrad(t, rng, gradCase{
				name: fmt.Sprintf("%s %d×%d,%d×%d", op.name, s[0], s[1], s[2], s[3]),
				in:   []*mat.Dense{a, b},
				f:    func(tp *Tape, x []Var) Var { return op.f(tp, x[0], x[1]) },
			})
		}
	}
}

func TestGradMatMul(t *testing.T) {
	rng := NewRand(2)
	const m, k, n = 3, 4, 2
	for _, tA := range []bool{false, true} {
		for _, tB := range []bool{false, true} {
			a := randn(rng, m, k)
			if tA {
				a = randn(rng, k, m)
			}
			b := randn(rng, k, n)
			if tB {
				b = randn(rng, n, k)
			}
			checkGrad(t, rng, gradCase{
				name: fmt.Sprintf("MatMul tA=%v tB=%v", tA, tB),
				in:   []*mat.Dense{a, b},
				f:    func(tp *Tape, x []Var) Var { return tp.MatMul(x[0], x[1], tA, tB) },
			})
		}
	}
	// The same matrix on both sides: AᵀA accumulates two contributions.
	checkGrad(t, rng, gradCase{
		name: "MatMul AᵀA",
		in:   []*mat.Dense{randn(rng, 4, 3)},
		f:    func(tp *Tape, x []Var) Var { return tp.MatMul(x[0], x[0], true, false) },
	})
}

func TestGradUnary(t *testing.T) {
	rng := NewRand(3)
	type unop = func(t *Tape, a Var) Var
	cases := []struct {
		name string
		f    unop
		in   *mat.Dense
	}{
		{"Neg", (*Tape).Neg, randn(rng, 3, 4)},
		{"Exp", (*Tape).Exp, randIn(rng, 3, 4, -2, 2)},
		{"Log", (*Tape).Log, randIn(rng, 3, 4, 0.5, 3)},
		{"Log1p", (*Tape).Log1p, randIn(rng, 3, 4, -0.5, 3)},
		{"Softplus", (*Tape).Softplus, randIn(rng, 3, 4, -5, 5)},
		{"Softplus large", (*Tape).Softplus, randIn(rng, 2, 2, 30, 40)},
		{"Softplus very negative", (*Tape).Softplus, randIn(rng, 2, 2, -40, -30)},
		{"Tanh", (*Tape).Tanh, randIn(rng, 3, 4, -2, 2)},
		{"ReLU", (*Tape).ReLU, randAway(rng, 3, 4)},
		{"Sigmoid", (*Tape).Sigmoid, randIn(rng, 3, 4, -5, 5)},
		{"ELU", (*Tape).ELU, randAway(rng, 3, 4)},
		{"Square", (*Tape).Square, randn(rng, 3, 4)},
		{"Sqrt", (*Tape).Sqrt, randIn(rng, 3, 4, 0.5, 3)},
		{"Scale", func(tp *Tape, a Var) Var { return tp.Scale(a, -2.5) }, randn(rng, 3, 4)},
		{"AddScalar", func(tp *Tape, a Var) Var { return tp.AddScalar(a, 0.7) }, randn(rng, 3, 4)},
		{"AddDiag", func(tp *Tape, a Var) Var { return tp.AddDiag(a, 1.3) }, randn(rng, 4, 4)},
		{"Sum", (*Tape).Sum, randn(rng, 3, 4)},
		{"Mean", (*Tape).Mean, randn(rng, 3, 4)},
		{"RowSums", (*Tape).RowSums, randn(rng, 3, 4)},
		{"RowMeans", (*Tape).RowMeans, randn(rng, 3, 4)},
		{"ColSums", (*Tape).ColSums, randn(rng, 3, 4)},
		{"ColMeans", (*Tape).ColMeans, randn(rng, 3, 4)},
		{"LogSumExp", (*Tape).LogSumExp, randIn(rng, 3, 4, -3, 3)},
		{"LogSumExp shifted", (*Tape).LogSumExp, randIn(rng, 3, 4, 40, 43)},
		{"ColLogSumExp", (*Tape).ColLogSumExp, randIn(rng, 3, 4, -3, 3)},
		{"AppendOnes", (*Tape).AppendOnes, randn(rng, 3, 2)},
		{"ReLUAppendOnes", (*Tape).ReLUAppendOnes, randAway(rng, 3, 2)},
		{"SumSquares", (*Tape).SumSquares, randn(rng, 3, 4)},
		{"Transpose", (*Tape).Transpose, randn(rng, 3, 4)},
		{"Slice", func(tp *Tape, a Var) Var { return tp.Slice(a, 1, 4, 2, 5) }, randn(rng, 5, 6)},
		{"LogDetChol", (*Tape).LogDetChol, randLower(rng, 4)},
	}
	for _, c := range cases {
		checkGrad(t, rng, gradCase{
			name: c.name,
			in:   []*mat.Dense{c.in},
			f:    func(tp *Tape, x []Var) Var { return c.f(tp, x[0]) },
		})
	}
	checkGrad(t, rng, gradCase{
		name: "ConcatCols",
		in:   []*mat.Dense{randn(rng, 3, 2), randn(rng, 3, 3)},
		f:    func(tp *Tape, x []Var) Var { return tp.ConcatCols(x[0], x[1]) },
	})
}

func TestGradLinalg(t *testing.T) {
	rng := NewRand(4)
	const n = 5
	sym1 := []bool{true}
	sym2 := []bool{true, false}
	cases := []gradCase{
		{name: "Cholesky", in: []*mat.Dense{randSPD(rng, n)}, sym: sym1,
			f: func(tp *Tape, x []Var) Var { return tp.Cholesky(x[0]) }},
		{name: "Cholesky, blocked backward (n = 26)", in: []*mat.Dense{randSPD(rng, 26)}, sym: sym1,
			f: func(tp *Tape, x []Var) Var { return tp.Cholesky(x[0]) }},
		{name: "TraceInvChol", in: []*mat.Dense{randLower(rng, n)},
			f: func(tp *Tape, x []Var) Var { return tp.TraceInvChol(x[0]) }},
		{name: "TraceInvChol, blocked (n = 26)", in: []*mat.Dense{randLower(rng, 26)},
			f: func(tp *Tape, x []Var) Var { return tp.TraceInvChol(x[0]) }},
		{name: "TraceInvChol∘Cholesky", in: []*mat.Dense{randSPD(rng, n)}, sym: sym1,
			f: func(tp *Tape, x []Var) Var { return tp.TraceInvChol(tp.Cholesky(x[0])) }},
		{name: "SolveLower", in: []*mat.Dense{randLower(rng, n), randn(rng, n, 3)},
			f: func(tp *Tape, x []Var) Var { return tp.SolveLower(x[0], x[1]) }},
		{name: "SolveLowerT", in: []*mat.Dense{randLower(rng, n), randn(rng, n, 3)},
			f: func(tp *Tape, x []Var) Var { return tp.SolveLowerT(x[0], x[1]) }},
		{name: "LogDetChol∘Cholesky", in: []*mat.Dense{randSPD(rng, n)}, sym: sym1,
			f: func(tp *Tape, x []Var) Var { return tp.LogDetChol(tp.Cholesky(x[0])) }},
		// A⁻¹b through both solves, the Mahalanobis-style composition used
		// by Gaussian likelihoods.
		{name: "A⁻¹b via Cholesky", in: []*mat.Dense{randSPD(rng, n), randn(rng, n, 2)}, sym: sym2,
			f: func(tp *Tape, x []Var) Var {
				l := tp.Cholesky(x[0])
				return tp.SolveLowerT(l, tp.SolveLower(l, x[1]))
			}},
		{name: "WeightedGram", in: []*mat.Dense{randn(rng, 7, n), randn(rng, 7, 1)},
			f: func(tp *Tape, x []Var) Var { return tp.WeightedGram(x[0], x[1]) }},
		{name: "WeightedGram, blocked (n = 26)", in: []*mat.Dense{randn(rng, 9, 26), randn(rng, 9, 1)},
			f: func(tp *Tape, x []Var) Var { return tp.WeightedGram(x[0], x[1]) }},
		{name: "Cholesky of AddDiag(WeightedGram)", in: []*mat.Dense{randn(rng, 7, n), randIn(rng, 7, 1, 0.5, 2)},
			f: func(tp *Tape, x []Var) Var {
				return tp.Cholesky(tp.AddDiag(tp.WeightedGram(x[0], x[1]), 0.5))
			}},
		{name: "Cholesky of AddDiag(AᵀA)", in: []*mat.Dense{randn(rng, 6, n)},
			f: func(tp *Tape, x []Var) Var {
				return tp.Cholesky(tp.AddDiag(tp.MatMul(x[0], x[0], true, false), 0.5))
			}},
	}
	for _, c := range cases {
		checkGrad(t, rng, c)
	}
}

// TestGradCompositeMLP checks a small network end to end, including a
// parameter reused in two places and broadcasting of a row bias.
func TestGradCompositeMLP(t *testing.T) {
	rng := NewRand(5)
	checkGrad(t, rng, gradCase{
		name: "MLP",
		in:   []*mat.Dense{randn(rng, 6, 2), randn(rng, 3, 4), randn(rng, 1, 4), randn(rng, 4, 1)},
		f: func(tp *Tape, x []Var) Var {
			h := tp.Tanh(tp.Add(tp.MatMul(tp.AppendOnes(x[0]), x[1], false, false), x[2]))
			o := tp.MatMul(h, x[3], false, false)
			return tp.Add(tp.Softplus(o), tp.Mean(tp.Square(x[2])))
		},
	})
}

// TestGradFreshOperands covers Backward's write-over of a gradient's first
// contribution (a product's GEMM with β = 0): an operand used twice by one
// product, a product's operand that other operations also use (before and
// after it in the backward pass), and a product's gradient reaching an
// operand that another product already wrote.
func TestGradFreshOperands(t *testing.T) {
	rng := NewRand(31)
	cases := []gradCase{
		{name: "MatMul(x, xᵀ)", in: []*mat.Dense{randn(rng, 4, 3)},
			f: func(tp *Tape, x []Var) Var { return tp.SumSquares(tp.MatMul(x[0], x[0], false, true)) }},
		{name: "x used by Mul and two products", in: []*mat.Dense{randn(rng, 4, 3), randn(rng, 3, 2), randn(rng, 4, 1)},
			f: func(tp *Tape, x []Var) Var {
				u := tp.MatMul(x[0], x[1], false, false)
				v := tp.MatMul(tp.Mul(x[0], x[2]), x[1], false, false)
				w := tp.MatMul(x[0], x[0], true, false)
				return tp.Add(tp.Add(tp.SumSquares(u), tp.SumSquares(v)), tp.SumSquares(w))
			}},
		{name: "b through a solve and a product, L through two solves", in: []*mat.Dense{randLower(rng, 5), randn(rng, 5, 3)},
			f: func(tp *Tape, x []Var) Var {
				s := tp.SolveLower(x[0], x[1])
				u := tp.SolveLowerT(x[0], tp.MatMul(x[1], x[1], false, true))
				return tp.Add(tp.SumSquares(s), tp.SumSquares(u))
			}},
		{name: "x through ReLUAppendOnes and a product", in: []*mat.Dense{randAway(rng, 5, 3), randn(rng, 4, 2)},
			f: func(tp *Tape, x []Var) Var {
				h := tp.MatMul(tp.ReLUAppendOnes(x[0]), x[1], false, false)
				return tp.Add(tp.SumSquares(h), tp.SumSquares(tp.ReLUAppendOnes(x[0])))
			}},
	}
	for _, c := range cases {
		checkGrad(t, rng, c)
	}
}
