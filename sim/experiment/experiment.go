// Package experiment runs a method headless: it trains for a number of steps,
// then evaluates the fit into the summary that `playground run` prints, and
// runs sweeps of one control across cores for `playground sweep`.
package experiment

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"time"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/catalog"
	"github.com/posterior-playground/playground/sim/datasets"
	"github.com/posterior-playground/playground/sim/model"
)

// Limits on what one experiment may ask for.
const (
	MaxSteps       = 10_000_000
	MaxBudget      = 1_000_000_000 // BudgetEvals: minutes of the cheapest step
	MaxEvalReps    = 1000
	MaxIWBOSamples = 100_000
)

// Config is one training run.
type Config struct {
	Data     string // a built-in data set, or empty when DataFile is set
	DataFile string // a CSV file with header x,y
	Method   string
	Model    string // "" for the data set's default
	Seed     uint64 // the training seed
	DataSeed int64  // the data set's seed; negative: the same as Seed
	Steps    int
	// BudgetEvals, when positive, replaces Steps: the run steps until it
	// has spent this many evaluations (sim.StepStats.Evals), so runs of
	// different methods given the same budget end within one step's cost
	// of each other. A step that spends nothing (a closed form with
	// nothing to iterate) ends the run, as do MaxSteps steps.
	BudgetEvals int64
	Controls    sim.Controls // overrides of the method's defaults

	EvalReps    int // R: ELBO evaluations and IWBO repetitions
	IWBOSamples int // K: importance samples per IWBO estimate

	// Grid, when GridN > 0, replaces the data set's plotting grid by GridN
	// evenly spaced points from GridLo to GridHi, in the summary's units.
	GridLo, GridHi float64
	GridN          int

	// DrawsFile, when set, receives the draws table (WriteDraws).
	DrawsFile string

	// NoDiagnostics leaves out a sampler's per-parameter and per-grid-point
	// summaries (Summary.Params, GridDiagnostics and ESSPerSec stay nil): a
	// report that prints none of them need not pay for them, and on a
	// small model they cost several times the sampling (R-hat and ESS at
	// each of 201 grid points).
	NoDiagnostics bool
}

// Limits of a chosen grid.
const (
	MinGridPoints = 2
	MaxGridPoints = 2001
)

// DefaultConfig returns the GIP notebook's evaluation settings.
func DefaultConfig() Config {
	return Config{Seed: 1, DataSeed: -1, Steps: 10_000, EvalReps: 10, IWBOSamples: 1000}
}

// Progress is called from the training goroutine with the steps done so far.
type Progress func(done, total int)

// Prepared is a configuration resolved against the catalog: the data set,
// the model and the full set of controls, ready to initialise.
type Prepared struct {
	Config
	// Dataset may be shared with other Prepared (a sweep's runs share one):
	// treat it as read-only. Every method copies what it keeps at Init.
	Dataset *sim.Dataset
	Spec    sim.MethodSpec
	// Controls are the resolved controls in model units, as Init takes
	// them; ReportControls the same in the summary's units (they differ
	// for a user's file in the controls measured in the data's units).
	Controls       sim.Controls
	ReportControls sim.Controls
	method         sim.Method
	gridReport     []float64 // the chosen grid in report units, or nil
}

// Prepare validates cfg and loads its data. Every error is a *sim.FieldError
// naming the offending field and what is allowed.
func Prepare(cfg Config) (*Prepared, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	d, err := cfg.load()
	if err != nil {
		return nil, err
	}
	return prepare(cfg, d)
}

// load reads cfg's data set: its CSV file, or the built-in set for its data
// seed.
func (c Config) load() (*sim.Dataset, error) {
	if c.DataFile != "" {
		return datasets.LoadCSVFile(c.DataFile)
	}
	return datasets.Load(c.Data, c.DataSeedUsed())
}

// prepare resolves a validated cfg against d, which cfg.load returned (for
// this cfg or one with the same data and data seed). d is not copied, so a
// sweep's runs share it: no method writes to its data set (they copy X and
// Y at Init and only read the rest), and NewMethod's change of units makes a
// copy.
//
// cfg's controls are read in the summary's units: for a user's file, a
// control measured in the data (a GP's noise, lengthscale) in the file's
// units, validated against the ranges mapped to them.
func prepare(cfg Config, d *sim.Dataset) (*Prepared, error) {
	m, d, modelName, defaults, err := NewMethod(d, cfg.Method, cfg.Model, nil, cfg.DataFile != "")
	if err != nil {
		return nil, err
	}
	spec := sim.SpecFor(m, d)
	report, err := spec.InUnits(d).Resolve(cfg.Controls)
	if err != nil {
		return nil, err
	}
	controls := defaults
	maps.Copy(controls, spec.ToModelUnits(d, cfg.Controls))
	cfg.Model = modelName
	p := &Prepared{Config: cfg, Dataset: d, Spec: m.Spec(), Controls: controls, ReportControls: report, method: m}
	if cfg.GridN > 0 {
		xs, _ := d.ReportScales()
		p.gridReport = linspace(cfg.GridLo, cfg.GridHi, cfg.GridN)
		grid := make([]float64, cfg.GridN)
		for i, x := range p.gridReport {
			grid[i] = xs.ToModel(x)
		}
		dc := *d // d may be shared: a copy with its own grid
		dc.Grid = grid
		p.Dataset = &dc
	}
	return p, nil
}

// linspace returns n ≥ 2 evenly spaced points from a to b, both exact, and
// 0 exactly when it is midway in a symmetric range.
func linspace(a, b float64, n int) []float64 {
	out := make([]float64, n)
	k := float64(n - 1)
	for i := range out {
		out[i] = (a*(k-float64(i)) + b*float64(i)) / k
	}
	return out
}

// Instance is the uninitialised method Run will train (to see what it
// offers, such as sim.Extras's IWBO; do not step it).
func (p *Prepared) Instance() sim.Method { return p.method }

// NewMethod builds the named method for data set d: modelName "" takes d's
// default, the model must be one the method supports, and given overrides
// the method's default controls. userUnits says d came from the user's
// file, whose coefficients the linear model reads in the file's units (d is
// then replaced by a copy in those units). Every error is a *sim.FieldError.
// The live runs' factory (handlers) and Prepare share it.
func NewMethod(d *sim.Dataset, method, modelName string, given sim.Controls, userUnits bool) (sim.Method, *sim.Dataset, string, sim.Controls, error) {
	if modelName == "" {
		modelName = d.DefaultModel
	}
	m, err := catalog.NewMethod(method, modelName)
	if err != nil {
		if _, ok := errors.AsType[*sim.FieldError](err); !ok {
			err = &sim.FieldError{Field: "model", Message: err.Error()}
		}
		return nil, nil, "", nil, err
	}
	spec := m.Spec()
	if len(spec.Models) > 0 && !slices.Contains(spec.Models, modelName) {
		return nil, nil, "", nil, &sim.FieldError{Field: "model", Message: fmt.Sprintf("method %s does not support model %q (allowed: %v)", spec.Name, modelName, spec.Models)}
	}
	if len(spec.Models) == 0 { // a GP: its model is the GP, not d's default
		modelName = model.GP
	}
	if modelName == model.Linear && userUnits {
		d = datasets.InUserUnits(d)
	}
	controls, err := sim.Resolve(m, d, given)
	if err != nil {
		return nil, nil, "", nil, err
	}
	return m, d, modelName, controls, nil
}

// DataSeedUsed is the data set's seed: DataSeed, or Seed when DataSeed is
// negative.
func (c Config) DataSeedUsed() uint64 {
	if c.DataSeed < 0 {
		return c.Seed
	}
	return uint64(c.DataSeed)
}

func (c Config) validate() error {
	switch {
	case c.Data == "" && c.DataFile == "":
		return &sim.FieldError{Field: "data", Message: fmt.Sprintf("give --data (one of %v) or --data-file", datasets.Names())}
	case c.Data != "" && c.DataFile != "":
		return &sim.FieldError{Field: "data", Message: "give either --data or --data-file, not both"}
	case c.Steps < 0 || c.Steps > MaxSteps:
		return &sim.FieldError{Field: "steps", Message: fmt.Sprintf("%d is outside [0, %d]", c.Steps, MaxSteps)}
	case c.BudgetEvals < 0 || c.BudgetEvals > MaxBudget:
		return &sim.FieldError{Field: "budget-grads", Message: fmt.Sprintf("%d is outside [1, %d]", c.BudgetEvals, MaxBudget)}
	case c.EvalReps < 1 || c.EvalReps > MaxEvalReps:
		return &sim.FieldError{Field: "eval-reps", Message: fmt.Sprintf("%d is outside [1, %d]", c.EvalReps, MaxEvalReps)}
	case c.IWBOSamples < 1 || c.IWBOSamples > MaxIWBOSamples:
		return &sim.FieldError{Field: "iwbo-samples", Message: fmt.Sprintf("%d is outside [1, %d]", c.IWBOSamples, MaxIWBOSamples)}
	}
	return c.validateGrid()
}

func (c Config) validateGrid() error {
	if c.GridN == 0 && c.GridLo == 0 && c.GridHi == 0 {
		return nil
	}
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	switch {
	case c.GridN < MinGridPoints || c.GridN > MaxGridPoints:
		return &sim.FieldError{Field: "grid", Message: fmt.Sprintf("%d points is outside [%d, %d]", c.GridN, MinGridPoints, MaxGridPoints)}
	case !finite(c.GridLo) || !finite(c.GridHi) || !(c.GridLo < c.GridHi):
		return &sim.FieldError{Field: "grid", Message: fmt.Sprintf("want finite a < b, got a = %g, b = %g", c.GridLo, c.GridHi)}
	}
	return nil
}

// Run trains and evaluates one configuration.
func Run(ctx context.Context, cfg Config, progress Progress) (*Summary, error) {
	p, err := Prepare(cfg)
	if err != nil {
		return nil, err
	}
	return p.Run(ctx, progress)
}

// ErrDiverged reports a run whose objective became NaN or infinite.
var ErrDiverged = errors.New("diverged")

// Run trains and evaluates the prepared configuration, and writes the
// draws file when DrawsFile is set (created before training, so a path that
// cannot be written fails at once; removed again when the run fails). It
// returns ctx.Err() when cancelled.
func (p *Prepared) Run(ctx context.Context, progress Progress) (s *Summary, err error) {
	var out *os.File
	if p.DrawsFile != "" {
		if out, err = os.Create(p.DrawsFile); err != nil {
			return nil, &sim.FieldError{Field: "draws", Message: err.Error()}
		}
		defer func() {
			if cerr := out.Close(); err == nil && cerr != nil {
				err = fmt.Errorf("draws file: %w", cerr)
			}
			if err != nil {
				os.Remove(p.DrawsFile)
				s = nil
			}
		}()
	}
	m := p.method
	if c, ok := m.(io.Closer); ok {
		defer c.Close() // samplers stop their chain goroutines
	}
	if err := m.Init(p.Dataset, p.Controls, numeric.NewStream(p.Seed, sim.StreamRun)); err != nil {
		return nil, err
	}
	start := time.Now()
	done, spent, err := p.train(ctx, m, progress)
	if err != nil {
		return nil, err
	}
	elapsed := time.Since(start).Seconds()
	ev := p.evaluate()
	s = ev.summary
	s.Steps, s.Evals = done, spent
	if elapsed > 0 && done > 0 {
		s.StepsPerSec = float64(done) / elapsed
		if s.ESSPerSec != nil {
			*s.ESSPerSec /= elapsed
		}
	}
	if out != nil {
		if err := writeDraws(out, ev, s.Grid.X); err != nil {
			return nil, fmt.Errorf("draws file: %w", err)
		}
	}
	return s, nil
}

// train steps m for p.Steps steps or, with a budget, until it has spent
// p.BudgetEvals evaluations, and returns the steps taken and the
// evaluations spent. progress counts steps, or evaluations with a budget.
func (p *Prepared) train(ctx context.Context, m sim.Method, progress Progress) (done int, spent int64, err error) {
	const chunk = 250 // steps between cancellation checks and progress calls
	byBudget := p.BudgetEvals > 0
	more := func() bool {
		if byBudget {
			return spent < p.BudgetEvals && done < MaxSteps
		}
		return done < p.Steps
	}
	for more() {
		if err := ctx.Err(); err != nil {
			return done, spent, err
		}
		for i := 0; i < chunk && more(); i++ {
			st := m.Step()
			done++
			if math.IsNaN(st.Objective) || math.IsInf(st.Objective, 0) {
				return done, spent, fmt.Errorf("%s on %s: %w at step %d (objective %v); try a smaller lr", p.Method, p.dataName(), ErrDiverged, done, st.Objective)
			}
			spent += st.Evals
			if byBudget && st.Evals == 0 {
				return done, spent, nil // nothing to iterate: more steps spend nothing
			}
		}
		if progress != nil {
			if byBudget {
				progress(int(min(spent, p.BudgetEvals)), int(p.BudgetEvals))
			} else {
				progress(done, p.Steps)
			}
		}
	}
	return done, spent, nil
}

func (p *Prepared) dataName() string {
	if p.DataFile != "" {
		return p.DataFile
	}
	return p.Data
}
