package stan

import "math"

// dual is a value with its two tangents, ∂/∂θ₁ and ∂/∂θ₂: forward-mode
// differentiation with one tangent per parameter gives the value and the
// whole gradient of a two-parameter density in one pass, exactly.
type dual struct{ v, dx, dy float64 }

// instr is one instruction. Operands a…d index the register file, which
// holds the two parameters, then the program's constants, then
// temporaries; an instruction writes register dst, or adds its result to
// the log density if acc is set.
type instr struct {
	op         opcode
	acc        bool
	kc         bool // a distribution's shape operands are constants and k is its normaliser
	dst        int32
	a, b, c, d int32
	k          float64 // opPowC: the exponent; a distribution with kc: its normaliser
}

// program is a compiled density.
type program struct {
	code   []instr
	consts []float64 // registers 2 … 2+len(consts)-1
	offset float64   // the sum of the statements that are constants
	nregs  int
	spans  [][2]int // code[span[0]:span[1]] computes statement i
}

// eval runs code on regs, which must hold at least p.nregs registers,
// and returns the sum of the accumulated results.
func (p *program) eval(regs []dual, at [2]float64, code []instr) dual {
	regs = regs[:p.nregs]
	regs[0] = dual{at[0], 1, 0}
	regs[1] = dual{at[1], 0, 1}
	for i, c := range p.consts {
		regs[2+i] = dual{v: c}
	}
	var acc dual
	for i := range code {
		in := &code[i]
		var r dual
		switch in.op {
		case opID:
			r = regs[in.a]
		case opAdd:
			a, b := regs[in.a], regs[in.b]
			r = dual{a.v + b.v, a.dx + b.dx, a.dy + b.dy}
		case opSub:
			a, b := regs[in.a], regs[in.b]
			r = dual{a.v - b.v, a.dx - b.dx, a.dy - b.dy}
		case opMul:
			a, b := regs[in.a], regs[in.b]
			r = dual{a.v * b.v, a.dx*b.v + a.v*b.dx, a.dy*b.v + a.v*b.dy}
		case opDiv:
			a, b := regs[in.a], regs[in.b]
			q := a.v / b.v
			r = dual{q, (a.dx - q*b.dx) / b.v, (a.dy - q*b.dy) / b.v}
		case opPow:
			r = pow(regs[in.a], regs[in.b])
		case opPowC:
			a := regs[in.a]
			r = chain(a, math.Pow(a.v, in.k), in.k*math.Pow(a.v, in.k-1))
		case opSquare:
			a := regs[in.a]
			r = dual{a.v * a.v, 2 * a.v * a.dx, 2 * a.v * a.dy}
		case opNeg:
			a := regs[in.a]
			r = dual{-a.v, -a.dx, -a.dy}
		case opExp:
			a := regs[in.a]
			e := math.Exp(a.v)
			r = chain(a, e, e)
		case opLog:
			a := regs[in.a]
			r = chain(a, math.Log(a.v), 1/a.v)
		case opLog1p:
			a := regs[in.a]
			r = chain(a, math.Log1p(a.v), 1/(1+a.v))
		case opExpm1:
			a := regs[in.a]
			r = chain(a, math.Expm1(a.v), math.Exp(a.v))
		case opSqrt:
			a := regs[in.a]
			s := math.Sqrt(a.v)
			r = chain(a, s, 0.5/s)
		case opAbs:
			a := regs[in.a]
			r = chain(a, math.Abs(a.v), sign(a.v))
		case opSin:
			a := regs[in.a]
			s, c := math.Sincos(a.v)
			r = chain(a, s, c)
		case opCos:
			a := regs[in.a]
			s, c := math.Sincos(a.v)
			r = chain(a, c, -s)
		case opTanh:
			a := regs[in.a]
			t := math.Tanh(a.v)
			r = chain(a, t, 1-t*t)
		case opInvLogit:
			a := regs[in.a]
			s := invLogit(a.v)
			r = chain(a, s, s*(1-s))
		case opLogSumExp:
			r = logSumExp(regs[in.a], regs[in.b])
		case opNormal:
			r = normalLPDF(regs[in.a], regs[in.b], regs[in.c], in)
		case opStudentT:
			r = studentTLPDF(regs[in.a], regs[in.b], regs[in.c], regs[in.d], in)
		case opCauchy:
			r = cauchyLPDF(regs[in.a], regs[in.b], regs[in.c], in)
		case opLognormal:
			r = lognormalLPDF(regs[in.a], regs[in.b], regs[in.c], in)
		case opExponential:
			r = exponentialLPDF(regs[in.a], regs[in.b], in)
		case opGamma:
			r = gammaLPDF(regs[in.a], regs[in.b], regs[in.c], in)
		case opBeta:
			r = betaLPDF(regs[in.a], regs[in.b], regs[in.c], in)
		}
		if in.acc {
			acc = dual{acc.v + r.v, acc.dx + r.dx, acc.dy + r.dy}
		} else {
			regs[in.dst] = r
		}
	}
	return acc
}

// chain is f(a) with tangents f′(a)·a′.
func chain(a dual, f, df float64) dual { return dual{f, df * a.dx, df * a.dy} }

func sign(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// invLogit is 1/(1+e^{−x}), written so neither branch overflows.
func invLogit(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// pow is a^b with both varying: ∂/∂a = b a^{b−1}, ∂/∂b = a^b log a (zero
// where a^b is zero, the limit along b at a = 0).
func pow(a, b dual) dual {
	v := math.Pow(a.v, b.v)
	da := b.v * math.Pow(a.v, b.v-1)
	db := 0.0
	if v != 0 {
		db = v * math.Log(a.v)
	}
	return dual{v, da*a.dx + db*b.dx, da*a.dy + db*b.dy}
}

// logSumExp is log(e^a + e^b) with weights e^{a−v}, e^{b−v} as its
// partials; both −Inf gives −Inf with zero tangents.
func logSumExp(a, b dual) dual {
	m := math.Max(a.v, b.v)
	if math.IsInf(m, -1) {
		return negInf
	}
	if math.IsInf(m, 1) {
		return dual{v: m}
	}
	v := m + math.Log(math.Exp(a.v-m)+math.Exp(b.v-m))
	wa, wb := math.Exp(a.v-v), math.Exp(b.v-v)
	return dual{v, wa*a.dx + wb*b.dx, wa*a.dy + wb*b.dy}
}
