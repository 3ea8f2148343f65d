package sim

// Task says what kind of targets a data set has.
type Task string

const (
	Regression     Task = "regression"
	Classification Task = "classification" // targets are 0 or 1
)

// Dataset is a one-dimensional data set in model units.
//
// Inputs and targets are stored as the models see them (standardised where
// the data set says so). XScale and YScale map model units back to the
// user's units: x_user = XScale.Mean + XScale.Std·x_model.
type Dataset struct {
	Name  string
	Label string // short human name for the UI
	Task  Task

	X, Y []float64 // training data, model units

	// Truth is the noiseless truth in model units (for classification, the
	// probability p(y=1|x)); nil when unknown, as for a user's CSV.
	Truth func(x float64) float64

	Grid []float64 // plotting grid, model units, wider than the data

	// HasGap reports whether the inputs leave an interval without data;
	// GapCentre is then its centre, in model units.
	HasGap    bool
	GapCentre float64

	XScale, YScale Affine

	DefaultModel string // "bnn" or "linear" (GP methods ignore it)

	// FromFile marks a user's data file: results are reported in its units.
	FromFile bool
}

// Affine is a standardisation: user = Mean + Std·model.
type Affine struct{ Mean, Std float64 }

// Identity is the affine map that changes nothing.
var Identity = Affine{Mean: 0, Std: 1}

// ToUser maps a model-unit value to user units.
func (a Affine) ToUser(v float64) float64 { return a.Mean + a.Std*v }

// ToModel maps a user-unit value to model units.
func (a Affine) ToModel(v float64) float64 { return (v - a.Mean) / a.Std }

// N is the number of training points.
func (d *Dataset) N() int { return len(d.X) }

// ReportScales returns the maps from model units to the units results are
// reported in. Built-in data sets are defined in their standardised units
// (as the seeds plot them), so they report in model units; a user's file
// reports in the file's own units.
func (d *Dataset) ReportScales() (x, y Affine) {
	if d.FromFile {
		return d.XScale, d.YScale
	}
	return Identity, Identity
}
