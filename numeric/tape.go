package numeric

import (
	"fmt"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// Var is a handle to a node on a Tape. The zero Var is invalid.
type Var struct {
	t  *Tape
	id int32
}

// Tape records matrix operations for reverse-mode differentiation.
// See the package documentation for the reuse rules. A Tape is not safe for
// concurrent use; give each goroutine its own.
type Tape struct {
	// nodes[:n] are the nodes recorded since the last Reset. Nodes beyond n
	// are kept, with their buffers, for the next pass. Pointers keep each
	// node's address stable while the slice grows.
	nodes []*node
	n     int32
	err   error
}

// opKind selects the forward and backward rule of a node. Ops are an enum
// plus operand indices rather than closures, because closures allocate.
type opKind uint8

const (
	opLeaf opKind = iota
	opAdd
	opSub
	opMul
	opDiv
	opMatMul
	opScale
	opAddScalar
	opAddDiag
	opNeg
	opExp
	opLog
	opLog1p
	opSoftplus
	opTanh
	opReLU
	opSigmoid
	opELU
	opSquare
	opSqrt
	opSum
	opMean
	opRowSums
	opRowMeans
	opColSums
	opColMeans
	opLogSumExp
	opColLogSumExp
	opConcatCols
	opAppendOnes
	opSlice
	opTranspose
	opCholesky
	opSolveLower
	opSolveLowerT
	opLogDetChol
	opSumSquares
	opReLUAppendOnes
	opWeightedGram
	opTraceInvChol
)

// node is one recorded operation. v and g are contiguous row-major r×c
// slices; vbuf, gbuf and aux are the owned storage behind them, kept across
// Reset and grown only when a larger shape is recorded at this position.
type node struct {
	op       opKind
	needGrad bool // some input is a Param (transitively)
	reached  bool // Backward: out depends on this node
	gradOK   bool // g is sized and valid for the current pass
	fresh    bool // Backward: g is sized but not yet written (see ready)
	failed   bool // Cholesky: factorisation failed, no backward
	tA, tB   bool // MatMul transposes
	a, b     int32
	s        float64
	i0, i1   int // Slice offsets
	r, c     int

	v, g            []float64
	vbuf, gbuf, aux []float64
	vd, gd          *mat.Dense // views returned by Value and Grad
	user            *mat.Dense // aliased caller matrix of a leaf
}

// NewTape returns an empty tape.
func NewTape() *Tape { return &Tape{} }

// Reset rewinds the tape to empty, keeping every buffer for reuse, and clears
// the recorded error.
func (t *Tape) Reset() {
	t.n = 0
	t.err = nil
}

// Err returns the first numerical error recorded since the last Reset
// (for example a matrix that is not positive definite), or nil.
func (t *Tape) Err() error { return t.err }

// grow returns buf resliced to length n, reallocating only if its capacity
// is too small.
func grow(buf []float64, n int) []float64 {
	if cap(buf) < n {
		return make([]float64, n)
	}
	return buf[:n]
}

// push appends a node of the given shape whose value buffer is sized but
// not initialised: every forward rule must write all r·c entries.
func (t *Tape) push(op opKind, r, c int) (Var, *node) {
	if int(t.n) == len(t.nodes) {
		t.nodes = append(t.nodes, &node{vd: &mat.Dense{}, gd: &mat.Dense{}})
	}
	nd := t.nodes[t.n]
	id := t.n
	t.n++
	nd.op = op
	nd.needGrad, nd.reached, nd.gradOK, nd.failed = false, false, false, false
	nd.tA, nd.tB = false, false
	nd.a, nd.b = -1, -1
	nd.s = 0
	nd.i0, nd.i1 = 0, 0
	nd.r, nd.c = r, c
	nd.user = nil
	nd.vbuf = grow(nd.vbuf, r*c)
	nd.v = nd.vbuf
	nd.vd.SetRawMatrix(general(r, c, nd.v))
	return Var{t: t, id: id}, nd
}

// push1 records a node with one operand.
func (t *Tape) push1(op opKind, a Var, r, c int) (Var, *node, *node) {
	an := t.node(a)
	v, nd := t.push(op, r, c)
	nd.a = a.id
	nd.needGrad = an.needGrad
	return v, nd, an
}

// push2 records a node with two operands.
func (t *Tape) push2(op opKind, a, b Var, r, c int) (Var, *node, *node, *node) {
	an, bn := t.node(a), t.node(b)
	v, nd := t.push(op, r, c)
	nd.a, nd.b = a.id, b.id
	nd.needGrad = an.needGrad || bn.needGrad
	return v, nd, an, bn
}

// node returns the node of v, panicking on a Var from another tape or from
// before the last Reset.
func (t *Tape) node(v Var) *node {
	if v.t != t {
		panic("numeric: Var belongs to a different tape (or is the zero Var)")
	}
	if v.id < 0 || v.id >= t.n {
		panic("numeric: Var recorded before the last Reset")
	}
	return t.nodes[v.id]
}

// general wraps a contiguous row-major r×c slice for BLAS.
func general(r, c int, data []float64) blas64.General {
	return blas64.General{Rows: r, Cols: c, Stride: max(c, 1), Data: data}
}

// leaf records m, aliasing its storage when it is contiguous. A strided view
// is copied, which gives the same values for this pass.
func (t *Tape) leaf(m *mat.Dense, needGrad bool) Var {
	raw := m.RawMatrix()
	v, nd := t.push(opLeaf, 0, 0)
	nd.r, nd.c = raw.Rows, raw.Cols
	nd.needGrad = needGrad
	if raw.Stride == raw.Cols || raw.Rows <= 1 {
		nd.v = raw.Data[:raw.Rows*raw.Cols]
		nd.user = m
		return v
	}
	nd.vbuf = grow(nd.vbuf, raw.Rows*raw.Cols)
	nd.v = nd.vbuf
	for i := 0; i < raw.Rows; i++ {
		copy(nd.v[i*raw.Cols:(i+1)*raw.Cols], raw.Data[i*raw.Stride:])
	}
	nd.vd.SetRawMatrix(general(raw.Rows, raw.Cols, nd.v))
	return v
}

// Param records a differentiable leaf that aliases m (no copy): its gradient
// is available from Grad after Backward.
func (t *Tape) Param(m *mat.Dense) Var { return t.leaf(m, true) }

// Const records a non-differentiable leaf that aliases m (no copy).
func (t *Tape) Const(m *mat.Dense) Var { return t.leaf(m, false) }

// Value returns the node's value. It is owned by the tape (or, for leaves,
// by the caller) and valid until the next Reset.
func (t *Tape) Value(v Var) *mat.Dense {
	nd := t.node(v)
	if nd.user != nil {
		return nd.user
	}
	return nd.vd
}

// Scalar returns the value of a 1×1 node.
func (t *Tape) Scalar(v Var) float64 {
	nd := t.node(v)
	if nd.r != 1 || nd.c != 1 {
		panic(fmt.Sprintf("numeric: Scalar of a %d×%d node", nd.r, nd.c))
	}
	return nd.v[0]
}

// zeroGrad sizes the node's gradient buffer and clears it.
func (nd *node) zeroGrad() {
	nd.sizeGrad()
	clear(nd.g)
	nd.gradOK, nd.fresh = true, false
}

// sizeGrad sizes the node's gradient buffer without clearing it.
func (nd *node) sizeGrad() {
	nd.gbuf = grow(nd.gbuf, nd.r*nd.c)
	nd.g = nd.gbuf
	nd.gd.SetRawMatrix(general(nd.r, nd.c, nd.g))
}

// ready clears x's gradient if no contribution has been written to it yet
// in this pass, so that a backward rule may add to it. x may be nil.
func ready(x *node) {
	if x != nil && x.fresh {
		clear(x.g)
		x.fresh = false
	}
}

// Grad returns d out / d v after Backward(out). It is owned by the tape and
// valid until the next Reset. A node that out does not depend on has a zero
// gradient.
func (t *Tape) Grad(v Var) *mat.Dense {
	nd := t.node(v)
	if !nd.gradOK || nd.fresh {
		nd.zeroGrad()
	}
	return nd.gd
}

// Backward seeds d out / d out = 1 for the 1×1 node out and propagates
// gradients to every node recorded before it.
func (t *Tape) Backward(out Var) {
	o := t.node(out)
	if o.r != 1 || o.c != 1 {
		panic(fmt.Sprintf("numeric: Backward of a %d×%d node", o.r, o.c))
	}
	// A node's gradient buffer is sized when the pass first reaches it (in)
	// and marked fresh: its first contribution is written over it where a
	// rule can (a product's gradient by a GEMM with β = 0), and cleared just
	// before it otherwise (ready). Nodes never reached are zeroed lazily by
	// Grad if anyone asks. Clearing every buffer up front (3-4% of a GIP
	// step) evicted the values the pass was about to read.
	for _, nd := range t.nodes[:t.n] {
		nd.reached, nd.gradOK, nd.fresh = false, false, false
	}
	if !o.needGrad {
		return
	}
	o.zeroGrad()
	o.g[0] = 1
	o.reached = true
	for i := out.id; i >= 0; i-- {
		nd := t.nodes[i]
		if !nd.reached || !nd.needGrad || nd.op == opLeaf || nd.failed {
			continue
		}
		t.backward(nd)
	}
}

// in returns operand i of nd if it needs a gradient, marking it reached, or
// nil if the gradient would be discarded.
func (t *Tape) in(i int32) *node {
	if i < 0 {
		return nil
	}
	x := t.nodes[i]
	if !x.needGrad {
		return nil
	}
	if !x.reached {
		x.reached = true
		x.sizeGrad()
		x.gradOK, x.fresh = true, true
	}
	return x
}

// backward accumulates nd's gradient into its operands.
func (t *Tape) backward(nd *node) {
	a, b := t.in(nd.a), t.in(nd.b)
	switch nd.op {
	case opMatMul, opReLUAppendOnes, opSolveLower, opSolveLowerT:
		// These write over fresh operand gradients, or clear them.
	default:
		ready(a)
		ready(b)
	}
	switch nd.op {
	case opAdd, opSub, opMul, opDiv:
		t.binaryBackward(nd, a, b)
	case opMatMul:
		t.matMulBackward(nd, a, b)
	case opScale, opAddScalar, opAddDiag, opNeg, opExp, opLog, opLog1p,
		opSoftplus, opTanh, opReLU, opSigmoid, opELU, opSquare, opSqrt:
		unaryBackward(nd, t.nodes[nd.a], a)
	case opSum, opMean, opRowSums, opRowMeans, opColSums, opColMeans,
		opLogSumExp, opColLogSumExp, opSumSquares:
		reduceBackward(nd, t.nodes[nd.a], a)
	case opConcatCols, opAppendOnes, opSlice, opTranspose, opReLUAppendOnes:
		t.shapeBackward(nd, a, b)
	case opCholesky:
		choleskyBackward(nd, a)
	case opSolveLower, opSolveLowerT:
		t.solveBackward(nd, a, b)
	case opLogDetChol:
		logDetBackward(nd, t.nodes[nd.a], a)
	case opWeightedGram:
		t.weightedGramBackward(nd, a, b)
	case opTraceInvChol:
		traceInvCholBackward(nd, a)
	default:
		panic(fmt.Sprintf("numeric: no backward rule for op %d", nd.op))
	}
}
