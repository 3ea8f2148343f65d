package numeric

import (
	"fmt"

	"github.com/posterior-playground/playground/numeric/internal/kernels"
)

// Shape operations.

// ConcatCols returns [a b]; a and b have the same number of rows.
func (t *Tape) ConcatCols(a, b Var) Var {
	an, bn := t.node(a), t.node(b)
	if an.r != bn.r {
		panic(fmt.Sprintf("numeric: ConcatCols of %d×%d and %d×%d", an.r, an.c, bn.r, bn.c))
	}
	c := an.c + bn.c
	v, nd, an, bn := t.push2(opConcatCols, a, b, an.r, c)
	for i := 0; i < nd.r; i++ {
		copy(nd.v[i*c:], an.v[i*an.c:(i+1)*an.c])
		copy(nd.v[i*c+an.c:], bn.v[i*bn.c:(i+1)*bn.c])
	}
	return v
}

// AppendOnes returns [a 1], a with a column of ones appended (bias by
// augmentation).
func (t *Tape) AppendOnes(a Var) Var {
	an := t.node(a)
	c := an.c + 1
	v, nd, an := t.push1(opAppendOnes, a, an.r, c)
	for i := 0; i < nd.r; i++ {
		copy(nd.v[i*c:], an.v[i*an.c:(i+1)*an.c])
		nd.v[i*c+an.c] = 1
	}
	return v
}

// ReLUAppendOnes returns AppendOnes(ReLU(a)) in one pass, with no
// intermediate node (and the same value and gradient, bit for bit): the
// input of a ReLU layer with its bias column.
func (t *Tape) ReLUAppendOnes(a Var) Var {
	an := t.node(a)
	c := an.c + 1
	v, nd, an := t.push1(opReLUAppendOnes, a, an.r, c)
	kernels.ReLURows(nd.r, an.c, an.v, an.c, nd.v, c)
	for i := 0; i < nd.r; i++ {
		nd.v[i*c+an.c] = 1
	}
	return v
}

// Slice returns rows [r0,r1) and columns [c0,c1) of a, as a copy.
func (t *Tape) Slice(a Var, r0, r1, c0, c1 int) Var {
	an := t.node(a)
	if r0 < 0 || r0 > r1 || r1 > an.r || c0 < 0 || c0 > c1 || c1 > an.c {
		panic(fmt.Sprintf("numeric: Slice [%d,%d)×[%d,%d) of a %d×%d matrix", r0, r1, c0, c1, an.r, an.c))
	}
	v, nd, an := t.push1(opSlice, a, r1-r0, c1-c0)
	nd.i0, nd.i1 = r0, c0
	for i := 0; i < nd.r; i++ {
		src := an.v[(r0+i)*an.c+c0:]
		copy(nd.v[i*nd.c:(i+1)*nd.c], src[:nd.c])
	}
	return v
}

// Transpose returns aᵀ.
func (t *Tape) Transpose(a Var) Var {
	an := t.node(a)
	v, nd, an := t.push1(opTranspose, a, an.c, an.r)
	for i := 0; i < an.r; i++ {
		for j := 0; j < an.c; j++ {
			nd.v[j*an.r+i] = an.v[i*an.c+j]
		}
	}
	return v
}

// shapeBackward routes each output entry's gradient back to its source;
// a and b are the operands that need gradients (or nil).
func (t *Tape) shapeBackward(nd, a, b *node) {
	g, r, c := nd.g, nd.r, nd.c
	switch nd.op {
	case opConcatCols, opAppendOnes:
		if a == nil && b == nil {
			return
		}
		ca := t.nodes[nd.a].c
		for i := 0; i < r; i++ {
			row := g[i*c : (i+1)*c]
			if a != nil {
				ga := a.g[i*ca : (i+1)*ca]
				for j := range ga {
					ga[j] += row[j]
				}
			}
			if b != nil {
				cb := c - ca
				gb := b.g[i*cb : (i+1)*cb]
				for j := range gb {
					gb[j] += row[ca+j]
				}
			}
		}
	case opReLUAppendOnes:
		if a == nil {
			return
		}
		ca := c - 1
		if a.fresh { // the first contribution: written over, not added
			kernels.ReLUMaskSet(r, ca, g, c, t.nodes[nd.a].v, ca, a.g, ca)
			a.fresh = false
			return
		}
		kernels.ReLUMaskAdd(r, ca, g, c, t.nodes[nd.a].v, ca, a.g, ca)
	case opSlice:
		if a == nil {
			return
		}
		for i := 0; i < r; i++ {
			ga := a.g[(nd.i0+i)*a.c+nd.i1:]
			for j, gj := range g[i*c : (i+1)*c] {
				ga[j] += gj
			}
		}
	case opTranspose:
		if a == nil {
			return
		}
		// nd is r×c = aᵀ, so a is c×r.
		for i := 0; i < r; i++ {
			for j := 0; j < c; j++ {
				a.g[j*r+i] += g[i*c+j]
			}
		}
	}
}
