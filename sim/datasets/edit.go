package datasets

import (
	"fmt"
	"math"
	"slices"

	"github.com/posterior-playground/playground/sim"
)

// Limits on edited data (Edit): the upload's.
const (
	MinEditPoints = 2          // an upload's fewest rows
	MaxEditPoints = MaxCSVRows // an upload's most rows
	// MaxEditY bounds a target, in standard deviations of the base data
	// set's targets from their mean: far off any plot.
	MaxEditY = 50
)

// editField is the field edit errors carry.
const editField = "data"

func editErr(format string, args ...any) error {
	return &sim.FieldError{Field: editField, Message: fmt.Sprintf(format, args...)}
}

// Edit returns base with its training points replaced by (xu[i], yu[i]),
// given in the user's units (as plotted), standardised the way base is:
// the same scales, grid, truth and task, so the plot's axes stay put. The
// gap is found again (base's centre kept while it still lies in the widest
// empty interval). It refuses, with a *sim.FieldError naming "data", fewer
// than MinEditPoints or more than MaxEditPoints points, a NaN or infinite
// value, an input outside the plot's x-range (base's grid), a target beyond
// MaxEditY standard deviations (a class label other than 0 or 1), and
// inputs that are all equal.
func Edit(base *sim.Dataset, xu, yu []float64) (*sim.Dataset, error) {
	if base == nil || len(base.Grid) < 2 {
		return nil, editErr("the run's data set has no plot range to edit in")
	}
	n := len(xu)
	switch {
	case n != len(yu):
		return nil, editErr("%d inputs x and %d targets y; want as many of each", n, len(yu))
	case n < MinEditPoints:
		return nil, editErr("%d points; want at least %d", n, MinEditPoints)
	case n > MaxEditPoints:
		return nil, editErr("%d points; want at most %d (the upload limit)", n, MaxEditPoints)
	}
	glo, ghi := base.XScale.ToUser(base.Grid[0]), base.XScale.ToUser(base.Grid[len(base.Grid)-1])
	glo, ghi = min(glo, ghi), max(glo, ghi)
	x, y := make([]float64, n), make([]float64, n)
	for i := range n {
		xv, yv := xu[i], yu[i]
		if math.IsNaN(xv) || math.IsInf(xv, 0) || math.IsNaN(yv) || math.IsInf(yv, 0) {
			return nil, editErr("point %d (%g, %g) is not finite; want finite numbers", i, xv, yv)
		}
		if xv < glo || xv > ghi {
			return nil, editErr("point %d has x = %g, outside the plot's x-range [%.4g, %.4g]", i, xv, glo, ghi)
		}
		x[i] = base.XScale.ToModel(xv)
		if base.Task == sim.Classification {
			if yv != 0 && yv != 1 {
				return nil, editErr("point %d has y = %g; a class label is 0 or 1", i, yv)
			}
			y[i] = yv
			continue
		}
		y[i] = base.YScale.ToModel(yv)
		if math.Abs(y[i]) > MaxEditY {
			lo, hi := base.YScale.ToUser(-MaxEditY), base.YScale.ToUser(MaxEditY)
			return nil, editErr("point %d has y = %g, outside the range [%.4g, %.4g] (%d standard deviations of the data)", i, yv, min(lo, hi), max(lo, hi), MaxEditY)
		}
	}
	if lo, hi := span(x); lo == hi {
		return nil, editErr("all %d x values equal %g; x must vary", n, xu[0])
	}
	out := *base
	out.X, out.Y = x, y
	lo, hi, ok := widestInterval(x)
	switch {
	case base.HasGap && ok && lo < base.GapCentre && base.GapCentre < hi:
		out.HasGap, out.GapCentre = true, base.GapCentre
	case ok:
		out.HasGap, out.GapCentre = true, (lo+hi)/2
	default:
		out.HasGap, out.GapCentre = false, 0
	}
	return &out, nil
}

// widestInterval returns the widest interval between consecutive sorted
// values of x, and whether it spans more than a fifth of x's range (the
// rule of widestGap).
func widestInterval(x []float64) (lo, hi float64, ok bool) {
	c, ok := widestGap(x)
	if !ok {
		return 0, 0, false
	}
	s := slices.Clone(x)
	slices.Sort(s)
	i, _ := slices.BinarySearch(s, c) // s[i-1] < c ≤ s[i]
	if i == 0 || i == len(s) {
		return 0, 0, false
	}
	return s[i-1], s[i], true
}
