package stan

import (
	"math"

	"github.com/posterior-playground/playground/sim/target"
)

// Density is a compiled typed density. It implements target.Target and,
// like every Target, is immutable and safe for concurrent use.
type Density struct {
	src    string
	params [2]string
	box    target.Box
	prog   *program
}

var _ target.Target = (*Density)(nil)

// Parse compiles a log density over two parameters written in Stan's
// notation. A returned error is an *Error that points at the character
// it is about.
func Parse(src string) (*Density, error) {
	s, err := parse(src)
	if err != nil {
		return nil, err
	}
	prog, err := compile(src, s)
	if err != nil {
		return nil, err
	}
	d := &Density{src: src, params: s.params, prog: prog}
	if prog.nregs > maxRegs {
		// Unreachable within MaxNodes: every register but the two
		// parameters holds a constant or a node's result.
		return nil, errorAt(src, 0, "the density needs %d registers; at most %d are allowed", prog.nregs, maxRegs)
	}
	if d.box, err = findBox(d, s); err != nil {
		return nil, err
	}
	return d, nil
}

// Name is "typed".
func (d *Density) Name() string { return "typed" }

// Params names the parameters in the order the text first uses them.
func (d *Density) Params() [2]string { return d.params }

// Box is the box the text gives, or the one found by Parse (see findBox).
func (d *Density) Box() target.Box { return d.box }

// Source is the text the density was compiled from.
func (d *Density) Source() string { return d.src }

// LogDensity is the sum of the statements at p; −Inf outside the
// support, and where any term is NaN.
func (d *Density) LogDensity(p target.Point) float64 {
	v, _ := d.LogDensityGrad(p)
	return v
}

// LogDensityGrad is the log density and its gradient at p, by one forward
// pass. Where the value is −Inf or NaN it returns −Inf and a zero
// gradient.
func (d *Density) LogDensityGrad(p target.Point) (float64, target.Point) {
	r := d.run(p, d.prog.code)
	v := r.v + d.prog.offset
	if math.IsNaN(v) || math.IsInf(v, -1) {
		return math.Inf(-1), target.Point{}
	}
	return v, target.Point{r.dx, r.dy}
}

// maxRegs bounds a program's registers: the two parameters and at most
// one per node.
const maxRegs = 2 + MaxNodes

// run evaluates code at p on a register file on the stack, sized to the
// program so a small density does not clear a large array every call.
func (d *Density) run(p target.Point, code []instr) dual {
	switch n := d.prog.nregs; {
	case n <= 16:
		return d.run16(p, code)
	case n <= 64:
		return d.run64(p, code)
	}
	return d.runMax(p, code)
}

func (d *Density) run16(p target.Point, code []instr) dual {
	var regs [16]dual
	return d.prog.eval(regs[:], p, code)
}

func (d *Density) run64(p target.Point, code []instr) dual {
	var regs [64]dual
	return d.prog.eval(regs[:], p, code)
}

func (d *Density) runMax(p target.Point, code []instr) dual {
	var regs [maxRegs]dual
	return d.prog.eval(regs[:], p, code)
}
