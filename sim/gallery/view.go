package gallery

import (
	"math"

	"github.com/posterior-playground/playground/sim/family"
	"github.com/posterior-playground/playground/sim/sampler"
	"github.com/posterior-playground/playground/sim/target"
)

// ContourSize is the cells per axis of q's density in a View: enough for
// smooth contours over the exact answer's, 4,096 evaluations of log q.
const ContourSize = 64

// QDraws is the number of q's draws a View holds for a family.
const QDraws = 500

// View is what the plane shows of a run, all in the shown coordinates
// unless said otherwise, and bounded: a Run fills it reusing its slices.
type View struct {
	Params [2]string  // the shown coordinates' names
	Box    target.Box // the shown box (the exact answer's contours: Exact().Shown)

	// A sampler's kept draws, chain by chain, each chain's oldest first
	// (its latest are the end of its block), with each draw's chain.
	Draws []target.Point
	Chain []uint8
	// Record is the latest recorded transition, mapped to the shown
	// coordinates, of chain RecordChain; nil before any or for a family.
	Record      *sampler.Record
	RecordChain int

	// A family's density q on a ContourSize² grid over QBox, row by row
	// from QBox.YMin (nil for SVGD). QBox is the box of the coordinates
	// the family is fitted in: the shown box unless the target is
	// target.Displayed (the non-centred funnel's q lives in (v, z)).
	QBox     target.Box
	QDensity []float64
	// QDraws are QDraws draws from q, or SVGD's particles.
	QDraws []target.Point

	rec sampler.Record // the mapped copy Record points to
}

// View fills v with what the plane shows now.
func (r *Run) View(v *View) {
	v.Params, v.Box = r.ex.Shown.Params, r.ex.Shown.Box
	v.Draws, v.Chain = v.Draws[:0], v.Chain[:0]
	v.Record, v.RecordChain = nil, 0
	v.QDensity, v.QDraws = v.QDensity[:0], v.QDraws[:0]
	if r.fit != nil {
		r.viewFamily(v)
		return
	}
	for c := range r.rings {
		rg := &r.rings[c]
		for i := range rg.n {
			v.Draws = append(v.Draws, rg.at(i))
			v.Chain = append(v.Chain, uint8(c))
		}
	}
	if r.recorded {
		r.mapRecord(&v.rec)
		v.Record, v.RecordChain = &v.rec, r.recChain
	}
}

// mapRecord copies the latest Record into dst, its points mapped to the
// shown coordinates.
func (r *Run) mapRecord(dst *sampler.Record) {
	path, dbl, sub := dst.Path[:0], dst.Doublings[:0], dst.Subtrees[:0]
	*dst = *r.rec
	dst.Start, dst.Proposal = r.ex.ToShown(r.rec.Start), r.ex.ToShown(r.rec.Proposal)
	for _, p := range r.rec.Path {
		path = append(path, r.ex.ToShown(p))
	}
	dst.Path = path
	dst.Doublings = append(dbl, r.rec.Doublings...)
	dst.Subtrees = append(sub, r.rec.Subtrees...)
}

func (r *Run) viewFamily(v *View) {
	v.QBox = r.ex.Target.Box()
	v.QDraws = append(v.QDraws, r.qPoints()...)
	if _, ok := r.fit.(*family.SVGD); !ok {
		v.QDraws = v.QDraws[:QDraws]
	}
	if r.dens == nil {
		return
	}
	v.QDensity = r.qDensity(v.QDensity)
}

// qDensity appends q's density on the ContourSize² grid over the
// target's box to dst. It draws nothing from q, so a plane paced by the
// clock leaves q's draws, and the measures taken from them, as the steps
// alone make them (a replay's are the original's).
func (r *Run) qDensity(dst []float64) []float64 {
	b := r.ex.Target.Box()
	hx, hy := (b.XMax-b.XMin)/ContourSize, (b.YMax-b.YMin)/ContourSize
	for j := range ContourSize {
		for i := range ContourSize {
			p := target.Point{b.XMin + (float64(i)+0.5)*hx, b.YMin + (float64(j)+0.5)*hy}
			dst = append(dst, math.Exp(r.dens.LogDensity(p)))
		}
	}
	return dst
}
