package stan

import (
	"fmt"
	"math"
)

// compiler turns the syntax tree into a program: constants folded,
// distributions with constant scales given their normalisers, powers with
// constant exponents specialised, and temporaries given registers in stack
// order so a program needs few.
//
// While compiling, an operand is 0 or 1 for a parameter, −(k+1) for
// constant k and 2+t for temporary t; link renumbers them once the number
// of constants is known.
type compiler struct {
	src    string
	prog   program
	consts map[float64]int32
	top    int32 // next free temporary
	ntemp  int32
}

// operand is a compiled expression: where its value is, and the value
// itself if it is a constant.
type operand struct {
	reg     int32
	isConst bool
	val     float64
}

func compile(src string, s *syntax) (*program, error) {
	c := &compiler{src: src, consts: map[float64]int32{}}
	for _, st := range s.stmts {
		start := len(c.prog.code)
		c.top = 0
		o, err := c.expr(st.expr)
		if err != nil {
			return nil, err
		}
		switch {
		case o.isConst:
			if math.IsNaN(o.val) || math.IsInf(o.val, 0) {
				return nil, errorAt(src, st.pos, "this statement is %v whatever the parameters", o.val)
			}
			c.prog.offset += o.val
		case o.reg < 2:
			c.prog.code = append(c.prog.code, instr{op: opID, acc: true, a: o.reg})
		default: // a temporary: the last instruction made it
			c.prog.code[len(c.prog.code)-1].acc = true
		}
		c.prog.spans = append(c.prog.spans, [2]int{start, len(c.prog.code)})
	}
	c.link()
	return &c.prog, nil
}

// link renumbers operands: parameters, then constants, then temporaries.
func (c *compiler) link() {
	nc := int32(len(c.prog.consts))
	fix := func(r *int32) {
		switch {
		case *r < 0:
			*r = 2 + (-*r - 1)
		case *r >= 2:
			*r += nc
		}
	}
	for i := range c.prog.code {
		in := &c.prog.code[i]
		fix(&in.dst)
		fix(&in.a)
		fix(&in.b)
		fix(&in.c)
		fix(&in.d)
	}
	c.prog.nregs = int(2 + nc + c.ntemp)
}

func (c *compiler) constant(v float64) operand {
	k, ok := c.consts[v]
	if !ok || math.IsNaN(v) {
		k = int32(len(c.prog.consts))
		c.prog.consts = append(c.prog.consts, v)
		c.consts[v] = k
	}
	return operand{reg: -(k + 1), isConst: true, val: v}
}

func (c *compiler) expr(n *node) (operand, error) {
	switch n.op {
	case opConst:
		return c.constant(n.val), nil
	case opParam:
		return operand{reg: int32(n.val)}, nil
	}
	saved := c.top
	args := make([]operand, len(n.args))
	allConst := true
	for i, a := range n.args {
		o, err := c.expr(a)
		if err != nil {
			return operand{}, err
		}
		args[i], allConst = o, allConst && o.isConst
	}
	c.top = saved
	in := instr{op: n.op}
	if shape := shapeOperands(n.op); shape != nil {
		if err := c.checkShape(n, args, shape, &in); err != nil {
			return operand{}, err
		}
	}
	if n.op == opPow && args[1].isConst {
		switch e := args[1].val; e {
		case 1:
			return args[0], nil
		case 2:
			in.op = opSquare
		case 0.5:
			in.op = opSqrt
		default:
			in.op, in.k = opPowC, e
		}
	}
	if allConst {
		v := fold(in, args)
		if math.IsNaN(v) {
			return operand{}, errorAt(c.src, n.pos, "this is NaN (not a number) whatever the parameters")
		}
		return c.constant(v), nil
	}
	regs := [4]*int32{&in.a, &in.b, &in.c, &in.d}
	for i, a := range args {
		*regs[i] = a.reg
	}
	in.dst = 2 + c.top
	c.top++
	c.ntemp = max(c.ntemp, c.top)
	c.prog.code = append(c.prog.code, in)
	return operand{reg: in.dst}, nil
}

// checkShape rejects a distribution whose constant scale or shape is not
// positive, pointing at it, and gives the instruction its normaliser when
// all of them are constants.
func (c *compiler) checkShape(n *node, args []operand, shape []int, in *instr) error {
	d := distributionOf(n.op)
	var s [2]float64
	in.kc = true
	for i, j := range shape {
		o := args[j]
		if !o.isConst {
			in.kc = false
			continue
		}
		if !(o.val > 0) {
			return errorAt(c.src, n.args[j].pos, "%s's %s must be positive; here it is %v", d.name, d.params[j-1], o.val)
		}
		s[i] = o.val
	}
	if in.kc {
		in.k = normaliser(n.op, s[0], s[1])
	}
	return nil
}

func distributionOf(op opcode) distribution {
	for _, d := range distributions {
		if d.op == op {
			return d
		}
	}
	panic(fmt.Sprintf("stan: opcode %d is not a distribution", op))
}

// fold evaluates an instruction whose operands are all constants, by the
// same code that runs it at a point.
func fold(in instr, args []operand) float64 {
	p := program{nregs: 2 + len(args) + 1}
	for i, a := range args {
		p.consts = append(p.consts, a.val)
		*[4]*int32{&in.a, &in.b, &in.c, &in.d}[i] = int32(2 + i)
	}
	in.dst = int32(2 + len(args))
	var regs [7]dual
	p.eval(regs[:], [2]float64{}, []instr{in})
	return regs[in.dst].v
}
