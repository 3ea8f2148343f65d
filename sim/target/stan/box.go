package stan

import (
	"fmt"
	"math"

	"github.com/posterior-playground/playground/sim/target"
)

// The default box. Without "x in [lo, hi];" a parameter's range is where
// the density is within levelDrop nats of its largest value on a grid:
// for a Gaussian that is 4.5 standard deviations about the mode, and the
// region holds all but e^−10 ≈ 5·10⁻⁵ of a 2-D Gaussian's mass. The grid
// first spans ±8, then ±64, then ±512 until that region stops touching
// its edge, and is then refined three times on the region found (so a
// narrow peak between two coarse points is still framed), ending one
// grid step outside it. A heavy tail gives a wide box (a Cauchy's is
// about ±150); the text's own box is the remedy.
const (
	gridN     = 65
	levelDrop = 10
	refines   = 3
)

var searchRadii = [...]float64{8, 64, 512}

type ranges [2][2]float64 // [param][lo, hi]

func (r ranges) box() target.Box {
	return target.Box{XMin: r[0][0], XMax: r[0][1], YMin: r[1][0], YMax: r[1][1]}
}

func (r ranges) String() string {
	return fmt.Sprintf("[%g, %g] × [%g, %g]", r[0][0], r[0][1], r[1][0], r[1][1])
}

// findBox reads the text's boxes and searches for the rest, and rejects a
// density that is −∞ or NaN on the whole of its box.
func findBox(d *Density, s *syntax) (target.Box, error) {
	var r ranges
	var fixed [2]bool
	for _, b := range s.boxes {
		if fixed[b.param] {
			return target.Box{}, errorAt(d.src, b.pos, "a second box for %s", d.params[b.param])
		}
		lo, err := boxBound(d.src, b.lo)
		if err != nil {
			return target.Box{}, err
		}
		hi, err := boxBound(d.src, b.hi)
		if err != nil {
			return target.Box{}, err
		}
		if !(lo < hi) {
			return target.Box{}, errorAt(d.src, b.lo.pos, "a box needs lo < hi; here [%g, %g]", lo, hi)
		}
		fixed[b.param], r[b.param] = true, [2]float64{lo, hi}
	}
	var g grid
	for i, R := range searchRadii {
		for a := range 2 {
			if !fixed[a] {
				r[a] = [2]float64{-R, R}
			}
		}
		g = evalGrid(d, r, d.prog.code)
		if !g.any {
			if i < len(searchRadii)-1 && !(fixed[0] && fixed[1]) {
				continue
			}
			return target.Box{}, diagnose(d, s, r)
		}
		a, touches := g.touching(fixed)
		if !touches {
			break
		}
		if i == len(searchRadii)-1 {
			return target.Box{}, errorAt(d.src, s.stmts[0].pos,
				"the density does not fall off within ±%g in %s; give its box, e.g. %s in [-10, 10];", R, d.params[a], d.params[a])
		}
	}
	for range refines {
		next := g.region(r, fixed)
		ng := evalGrid(d, next, d.prog.code)
		if !ng.any {
			break
		}
		r, g = next, ng
	}
	return g.region(r, fixed).box(), nil
}

func boxBound(src string, n *node) (float64, error) {
	c := &compiler{src: src, consts: map[float64]int32{}}
	o, err := c.expr(n)
	if err != nil {
		return 0, err
	}
	if !o.isConst || math.IsInf(o.val, 0) {
		return 0, errorAt(src, n.pos, "a box's bounds must be finite numbers")
	}
	return o.val, nil
}

// grid is the log density on a gridN × gridN grid over a box: the largest
// finite value and, per parameter, the first and last grid index within
// levelDrop of it.
type grid struct {
	any        bool
	max        float64
	kmin, kmax [2]int
}

func evalGrid(d *Density, r ranges, code []instr) grid {
	var vals [gridN * gridN]float64
	g := grid{max: math.Inf(-1)}
	for i := range gridN {
		for j := range gridN {
			p := target.Point{at(r[0], i), at(r[1], j)}
			v := d.run(p, code).v
			vals[i*gridN+j] = v
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				g.any, g.max = true, math.Max(g.max, v)
			}
		}
	}
	g.kmin, g.kmax = [2]int{gridN, gridN}, [2]int{-1, -1}
	for i := range gridN {
		for j := range gridN {
			if v := vals[i*gridN+j]; v >= g.max-levelDrop && !math.IsInf(v, 1) {
				g.kmin = [2]int{min(g.kmin[0], i), min(g.kmin[1], j)}
				g.kmax = [2]int{max(g.kmax[0], i), max(g.kmax[1], j)}
			}
		}
	}
	return g
}

// at is grid point i of the range r.
func at(r [2]float64, i int) float64 {
	return r[0] + (r[1]-r[0])*float64(i)/(gridN-1)
}

// touching reports a searched parameter whose region reaches the grid's edge.
func (g grid) touching(fixed [2]bool) (int, bool) {
	for a := range 2 {
		if !fixed[a] && (g.kmin[a] == 0 || g.kmax[a] == gridN-1) {
			return a, true
		}
	}
	return 0, false
}

// region is the searched parameters' region, one grid step wider each way
// and within r.
func (g grid) region(r ranges, fixed [2]bool) ranges {
	for a := range 2 {
		if fixed[a] {
			continue
		}
		r[a] = [2]float64{at(r[a], max(g.kmin[a]-1, 0)), at(r[a], min(g.kmax[a]+1, gridN-1))}
	}
	return r
}

// diagnose explains a density that is −∞ or NaN everywhere on r: the
// first statement that is so on its own, or else that their supports do
// not meet.
func diagnose(d *Density, s *syntax, r ranges) error {
	for i, sp := range d.prog.spans {
		if sp[0] < sp[1] && !evalGrid(d, r, d.prog.code[sp[0]:sp[1]]).any {
			return errorAt(d.src, s.stmts[i].pos, "this statement is −∞ or NaN everywhere on the box %v", r)
		}
	}
	return errorAt(d.src, s.stmts[0].pos, "the density is −∞ or NaN everywhere on the box %v: its statements' supports do not meet there", r)
}
