package numeric

import (
	"fmt"
	"math"

	"github.com/posterior-playground/playground/numeric/fastblas"
	"github.com/posterior-playground/playground/numeric/internal/kernels"
)

// Elementwise binary operations, with broadcasting (package documentation).

// Add returns a + b.
func (t *Tape) Add(a, b Var) Var { return t.binary(opAdd, a, b) }

// Sub returns a − b.
func (t *Tape) Sub(a, b Var) Var { return t.binary(opSub, a, b) }

// Mul returns a ⊙ b (elementwise).
func (t *Tape) Mul(a, b Var) Var { return t.binary(opMul, a, b) }

// Div returns a ⊘ b (elementwise).
func (t *Tape) Div(a, b Var) Var { return t.binary(opDiv, a, b) }

// strides returns the row and column steps of an rx×cx operand broadcast
// against an r×c result: a repeated axis has step 0.
func strides(rx, cx int) (rs, cs int) {
	rs, cs = cx, 1
	if rx == 1 {
		rs = 0
	}
	if cx == 1 {
		cs = 0
	}
	return rs, cs
}

func (t *Tape) binary(op opKind, a, b Var) Var {
	an, bn := t.node(a), t.node(b)
	r, c := max(an.r, bn.r), max(an.c, bn.c)
	if (an.r != r && an.r != 1) || (an.c != c && an.c != 1) ||
		(bn.r != r && bn.r != 1) || (bn.c != c && bn.c != 1) {
		panic(fmt.Sprintf("numeric: cannot broadcast %d×%d with %d×%d", an.r, an.c, bn.r, bn.c))
	}
	v, nd, an, bn := t.push2(op, a, b, r, c)
	av, bv, y := an.v, bn.v, nd.v
	if an.r == bn.r && an.c == bn.c {
		binarySame(op, y, av, bv)
		return v
	}
	ars, acs := strides(an.r, an.c)
	brs, bcs := strides(bn.r, bn.c)
	if acs == 1 && bcs == 1 {
		// Only rows are broadcast (a bias row, say): whole rows line up.
		for i := 0; i < r; i++ {
			binarySame(op, y[i*c:(i+1)*c], av[i*ars:i*ars+c], bv[i*brs:i*brs+c])
		}
		return v
	}
	if an.r == r && an.c == c && bn.c == 1 {
		// b a column (or a scalar), as in Λ scaling the rows of Φ: one
		// value per row, the same arithmetic as the general loop.
		if op == opMul {
			fastblas.RowScale(r, c, av, c, bv, brs, y, c)
			return v
		}
		for i := 0; i < r; i++ {
			binaryRowScalar(op, y[i*c:(i+1)*c], av[i*c:(i+1)*c], bv[i*brs])
		}
		return v
	}
	for i := 0; i < r; i++ {
		row := y[i*c : (i+1)*c]
		for j := range row {
			x, z := av[i*ars+j*acs], bv[i*brs+j*bcs]
			switch op {
			case opAdd:
				row[j] = x + z
			case opSub:
				row[j] = x - z
			case opMul:
				row[j] = x * z
			case opDiv:
				row[j] = x / z
			}
		}
	}
	return v
}

// binarySame writes y = av op bv for slices of equal length, with the op

// binaryRowScalar sets y = a op z for one row a and one value z.
func binaryRowScalar(op opKind, y, a []float64, z float64) {
	switch op {
	case opAdd:
		for j, x := range a {
			y[j] = x + z
		}
	case opSub:
		for j, x := range a {
			y[j] = x - z
		}
	case opMul:
		for j, x := range a {
			y[j] = x * z
		}
	case opDiv:
		for j, x := range a {
			y[j] = x / z
		}
	}
}

// switch hoisted out of the loop.
func binarySame(op opKind, y, av, bv []float64) {
	switch op {
	case opAdd:
		for i := range y {
			y[i] = av[i] + bv[i]
		}
	case opSub:
		for i := range y {
			y[i] = av[i] - bv[i]
		}
	case opMul:
		for i := range y {
			y[i] = av[i] * bv[i]
		}
	case opDiv:
		for i := range y {
			y[i] = av[i] / bv[i]
		}
	}
}

// binaryBackward accumulates into the operands that need gradients (a or b
// may be nil). Broadcast operands receive sums through their zero strides.
func (t *Tape) binaryBackward(nd, a, b *node) {
	an, bn := t.nodes[nd.a], t.nodes[nd.b]
	av, bv, y, g := an.v, bn.v, nd.v, nd.g
	r, c := nd.r, nd.c
	if an.r == bn.r && an.c == bn.c {
		binaryBackwardSame(nd.op, g, y, av, bv, gradOf(a), gradOf(b))
		return
	}
	ars, acs := strides(an.r, an.c)
	brs, bcs := strides(bn.r, bn.c)
	if an.r == r && an.c == c && bn.c == 1 {
		if nd.op == opMul && a != nil && b != nil {
			// Both gradients of a product in one pass (Λ·Φ in gip), four
			// columns at a time: b's sums in four partial sums.
			nd.aux = grow(nd.aux, 5*r)
			dot, lanes := nd.aux[:r], nd.aux[r:]
			kernels.RowScaleDot(r, c, g, c, av, c, bv, brs, a.g, c, dot, lanes)
			for i, d := range dot {
				b.g[i*brs] += d
			}
			return
		}
		for i := 0; i < r; i++ {
			var ga []float64
			if a != nil {
				ga = a.g[i*c : (i+1)*c]
			}
			var gb *float64
			if b != nil {
				gb = &b.g[i*brs]
			}
			binaryBackwardRowScalar(nd.op, g[i*c:(i+1)*c], y[i*c:(i+1)*c], av[i*c:(i+1)*c], bv[i*brs], ga, gb)
		}
		return
	}
	if acs == 1 && bcs == 1 {
		// Only rows are broadcast: whole rows line up, so hoist the op
		// switch out of the loops as in the forward pass.
		var ga, gb []float64
		for i := 0; i < r; i++ {
			if a != nil {
				ga = a.g[i*ars : i*ars+c]
			}
			if b != nil {
				gb = b.g[i*brs : i*brs+c]
			}
			binaryBackwardSame(nd.op, g[i*c:(i+1)*c], y[i*c:(i+1)*c],
				av[i*ars:i*ars+c], bv[i*brs:i*brs+c], ga, gb)
		}
		return
	}
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			k := i*c + j
			ia, ib := i*ars+j*acs, i*brs+j*bcs
			gk := g[k]
			switch nd.op {
			case opAdd:
				if a != nil {
					a.g[ia] += gk
				}
				if b != nil {
					b.g[ib] += gk
				}
			case opSub:
				if a != nil {
					a.g[ia] += gk
				}
				if b != nil {
					b.g[ib] -= gk
				}
			case opMul:
				if a != nil {
					a.g[ia] += gk * bv[ib]
				}
				if b != nil {
					b.g[ib] += gk * av[ia]
				}
			case opDiv:
				if a != nil {
					a.g[ia] += gk / bv[ib]
				}
				if b != nil {
					b.g[ib] -= gk * y[k] / bv[ib]
				}
			}
		}
	}
}

// gradOf returns x's gradient buffer, or nil for a nil node.
func gradOf(x *node) []float64 {
	if x == nil {
		return nil
	}
	return x.g
}

// binaryBackwardSame is binaryBackward for slices of equal length; ga or gb
// is nil when that operand needs no gradient.
func binaryBackwardSame(op opKind, g, y, av, bv, ga, gb []float64) {
	switch op {
	case opAdd, opSub:
		if ga != nil {
			for i, gi := range g {
				ga[i] += gi
			}
		}
		if gb != nil {
			sign := 1.0
			if op == opSub {
				sign = -1
			}
			for i, gi := range g {
				gb[i] += sign * gi
			}
		}
	case opMul:
		if ga != nil {
			for i, gi := range g {
				ga[i] += gi * bv[i]
			}
		}
		if gb != nil {
			for i, gi := range g {
				gb[i] += gi * av[i]
			}
		}
	case opDiv:
		if ga != nil {
			for i, gi := range g {
				ga[i] += gi / bv[i]
			}
		}
		if gb != nil {
			for i, gi := range g {
				gb[i] -= gi * y[i] / bv[i]
			}
		}
	}
}

// Scale returns s·a.
func (t *Tape) Scale(a Var, s float64) Var { return t.unary(opScale, a, s) }

// AddScalar returns a + s elementwise.
func (t *Tape) AddScalar(a Var, s float64) Var { return t.unary(opAddScalar, a, s) }

// AddDiag returns a + s·I for square a.
func (t *Tape) AddDiag(a Var, s float64) Var {
	if an := t.node(a); an.r != an.c {
		panic(fmt.Sprintf("numeric: AddDiag of a %d×%d matrix", an.r, an.c))
	}
	return t.unary(opAddDiag, a, s)
}

// Elementwise unary operations.

// Neg returns −a.
func (t *Tape) Neg(a Var) Var { return t.unary(opNeg, a, 0) }

// Exp returns e^a.
func (t *Tape) Exp(a Var) Var { return t.unary(opExp, a, 0) }

// Log returns log a.
func (t *Tape) Log(a Var) Var { return t.unary(opLog, a, 0) }

// Log1p returns log(1+a), accurate for small a.
func (t *Tape) Log1p(a Var) Var { return t.unary(opLog1p, a, 0) }

// Softplus returns log(1+e^a), stable for large |a|.
func (t *Tape) Softplus(a Var) Var { return t.unary(opSoftplus, a, 0) }

// Tanh returns tanh a.
func (t *Tape) Tanh(a Var) Var { return t.unary(opTanh, a, 0) }

// ReLU returns max(a, 0); its gradient is 0 where a ≤ 0.
func (t *Tape) ReLU(a Var) Var { return t.unary(opReLU, a, 0) }

// Sigmoid returns 1/(1+e^−a), stable for large |a|.
func (t *Tape) Sigmoid(a Var) Var { return t.unary(opSigmoid, a, 0) }

// ELU returns a for a > 0 and e^a − 1 otherwise.
func (t *Tape) ELU(a Var) Var { return t.unary(opELU, a, 0) }

// Square returns a².
func (t *Tape) Square(a Var) Var { return t.unary(opSquare, a, 0) }

// Sqrt returns √a.
func (t *Tape) Sqrt(a Var) Var { return t.unary(opSqrt, a, 0) }

func (t *Tape) unary(op opKind, a Var, s float64) Var {
	an := t.node(a)
	v, nd, an := t.push1(op, a, an.r, an.c)
	nd.s = s
	x, y := an.v, nd.v
	switch op {
	case opScale:
		for i := range y {
			y[i] = s * x[i]
		}
	case opAddScalar:
		for i := range y {
			y[i] = x[i] + s
		}
	case opAddDiag:
		copy(y, x)
		for i := 0; i < nd.r; i++ {
			y[i*nd.c+i] += s
		}
	case opNeg:
		for i := range y {
			y[i] = -x[i]
		}
	case opExp:
		for i := range y {
			y[i] = math.Exp(x[i])
		}
	case opLog:
		for i := range y {
			y[i] = math.Log(x[i])
		}
	case opLog1p:
		for i := range y {
			y[i] = math.Log1p(x[i])
		}
	case opSoftplus:
		for i := range y {
			y[i] = Softplus(x[i])
		}
	case opTanh:
		for i := range y {
			y[i] = math.Tanh(x[i])
		}
	case opReLU:
		for i := range y {
			y[i] = max(x[i], 0)
		}
	case opSigmoid:
		for i := range y {
			y[i] = Sigmoid(x[i])
		}
	case opELU:
		for i := range y {
			if x[i] > 0 {
				y[i] = x[i]
			} else {
				y[i] = math.Expm1(x[i])
			}
		}
	case opSquare:
		for i := range y {
			y[i] = x[i] * x[i]
		}
	case opSqrt:
		for i := range y {
			y[i] = math.Sqrt(x[i])
		}
	}
	return v
}

// unaryBackward accumulates nd's gradient into a (operand node an, which
// needs a gradient iff a != nil).
func unaryBackward(nd, an, a *node) {
	if a == nil {
		return
	}
	x, y, g, ga := an.v, nd.v, nd.g, a.g
	switch nd.op {
	case opScale:
		for i, gi := range g {
			ga[i] += nd.s * gi
		}
	case opAddScalar, opAddDiag:
		for i, gi := range g {
			ga[i] += gi
		}
	case opNeg:
		for i, gi := range g {
			ga[i] -= gi
		}
	case opExp:
		for i, gi := range g {
			ga[i] += gi * y[i]
		}
	case opLog:
		for i, gi := range g {
			ga[i] += gi / x[i]
		}
	case opLog1p:
		for i, gi := range g {
			ga[i] += gi / (1 + x[i])
		}
	case opSoftplus:
		for i, gi := range g {
			ga[i] += gi * Sigmoid(x[i])
		}
	case opTanh:
		for i, gi := range g {
			ga[i] += gi * (1 - y[i]*y[i])
		}
	case opReLU:
		for i, gi := range g {
			if x[i] > 0 {
				ga[i] += gi
			}
		}
	case opSigmoid:
		for i, gi := range g {
			ga[i] += gi * y[i] * (1 - y[i])
		}
	case opELU:
		for i, gi := range g {
			if x[i] > 0 {
				ga[i] += gi
			} else {
				ga[i] += gi * (y[i] + 1)
			}
		}
	case opSquare:
		for i, gi := range g {
			ga[i] += 2 * gi * x[i]
		}
	case opSqrt:
		for i, gi := range g {
			ga[i] += gi / (2 * y[i])
		}
	}
}

// binaryBackwardRowScalar is the backward of binaryRowScalar for one row:
// it accumulates into the row's gradient ga and the value's gradient *gb
// (either may be nil) in the order of the general loop.
func binaryBackwardRowScalar(op opKind, g, y, a []float64, z float64, ga []float64, gb *float64) {
	if op == opMul && ga != nil && gb != nil {
		// Both gradients of a product in one pass (Λ·Φ in gip).
		ga, a = ga[:len(g)], a[:len(g)]
		s := *gb
		for j, gj := range g {
			ga[j] += gj * z
			s += gj * a[j]
		}
		*gb = s
		return
	}
	if ga != nil {
		switch op {
		case opAdd, opSub:
			for j, gj := range g {
				ga[j] += gj
			}
		case opMul:
			for j, gj := range g {
				ga[j] += gj * z
			}
		case opDiv:
			for j, gj := range g {
				ga[j] += gj / z
			}
		}
	}
	if gb == nil {
		return
	}
	s := *gb
	switch op {
	case opAdd:
		for _, gj := range g {
			s += gj
		}
	case opSub:
		for _, gj := range g {
			s -= gj
		}
	case opMul:
		for j, gj := range g {
			s += gj * a[j]
		}
	case opDiv:
		for j, gj := range g {
			s -= gj * y[j] / z
		}
	}
	*gb = s
}
