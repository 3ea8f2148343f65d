package numeric

import (
	"testing"

	"gonum.org/v1/gonum/mat"
)

// mlp is a 1→h→h→1 ReLU regression net with biases by AppendOnes, the shape
// of the BNN mean networks.
type mlp struct {
	x, y       *mat.Dense
	w1, w2, w3 *mat.Dense
	p          [3]Var
}

func newMLP(n, h int) *mlp {
	rng := NewRand(30)
	return &mlp{
		x: randn(rng, n, 1), y: randn(rng, n, 1),
		w1: randn(rng, 2, h), w2: randn(rng, h+1, h), w3: randn(rng, h+1, 1),
	}
}

// step records the forward pass and runs Backward, returning the loss.
func (m *mlp) step(tp *Tape) Var {
	tp.Reset()
	m.p = [3]Var{tp.Param(m.w1), tp.Param(m.w2), tp.Param(m.w3)}
	h := tp.ReLU(tp.MatMul(tp.AppendOnes(tp.Const(m.x)), m.p[0], false, false))
	h = tp.ReLU(tp.MatMul(tp.AppendOnes(h), m.p[1], false, false))
	o := tp.MatMul(tp.AppendOnes(h), m.p[2], false, false)
	loss := tp.Sum(tp.Square(tp.Sub(o, tp.Const(m.y))))
	tp.Backward(loss)
	return loss
}

// gaussStep records a Gaussian log-density style graph: Cholesky of a
// parameter-dependent covariance, two solves and a log determinant.
func gaussStep(tp *Tape, b, r *mat.Dense) Var {
	tp.Reset()
	bv := tp.Param(b)
	l := tp.Cholesky(tp.AddDiag(tp.MatMul(bv, bv, false, true), 1))
	z := tp.SolveLowerT(l, tp.SolveLower(l, tp.Const(r)))
	loss := tp.Add(tp.LogDetChol(l), tp.Sum(tp.Mul(z, tp.Const(r))))
	tp.Backward(loss)
	return loss
}

func TestReuseIdentical(t *testing.T) {
	m := newMLP(20, 8)
	tp := NewTape()
	first := tp.Scalar(m.step(tp))
	var grads [3]*mat.Dense
	for k, p := range m.p {
		grads[k] = mat.DenseCopyOf(tp.Grad(p))
	}
	loss := m.step(tp)
	if got := tp.Scalar(loss); got != first {
		t.Errorf("second pass loss %v, first %v", got, first)
	}
	for k, p := range m.p {
		if !mat.Equal(tp.Grad(p), grads[k]) {
			t.Errorf("param %d: gradient differs on the second pass", k)
		}
	}
}

func TestZeroAllocs(t *testing.T) {
	m := newMLP(30, 10)
	tp := NewTape()
	if a := testing.AllocsPerRun(20, func() { m.step(tp) }); a != 0 {
		t.Errorf("MLP step: %v allocs per run, want 0", a)
	}
	rng := NewRand(31)
	b, r := randn(rng, 8, 3), randn(rng, 8, 2)
	tp2 := NewTape()
	if a := testing.AllocsPerRun(20, func() { gaussStep(tp2, b, r) }); a != 0 {
		t.Errorf("Cholesky step: %v allocs per run, want 0", a)
	}
}

func BenchmarkMLPStep(b *testing.B) {
	m := newMLP(100, 50)
	tp := NewTape()
	m.step(tp) // warm-up: the first pass sizes the tape's buffers
	b.ReportAllocs()
	for b.Loop() {
		m.step(tp)
	}
}

func benchCholesky(b *testing.B, n int) {
	rng := NewRand(32)
	a, r := randSPD(rng, n), randn(rng, n, n)
	tp := NewTape()
	b.ReportAllocs()
	for b.Loop() {
		tp.Reset()
		x := tp.Param(a)
		tp.Backward(tp.Sum(tp.Mul(tp.Cholesky(x), tp.Const(r))))
	}
}

func BenchmarkCholesky50(b *testing.B)  { benchCholesky(b, 50) }
func BenchmarkCholesky100(b *testing.B) { benchCholesky(b, 100) }
