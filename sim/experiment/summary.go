package experiment

import (
	"math"
	"slices"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/wire"
)

// predictiveSamples is the number of posterior function samples behind the
// grid band and the in-between ratio. The band's quantiles at 2.5% and 97.5%
// then rest on about 12 samples in each tail.
const predictiveSamples = 500

// Summary is the result of one run, as `playground run --json` prints it.
// Keys that do not apply to a method or data set are null.
//
// Every number is in the units Units names: "file" for a user's CSV (its x
// and y as written, bounds of log p(y) in those units), "model" for a
// built-in data set (its model units, standardised where the data set is,
// as the seeds plot them).
type Summary struct {
	Method   string `json:"method"`
	Model    string `json:"model"` // "gp" for the GP methods
	Data     string `json:"data"`
	Units    string `json:"units"`
	Seed     uint64 `json:"seed"`
	DataSeed uint64 `json:"data_seed"`
	Steps    int    `json:"steps"`
	// Evals is the evaluations the steps spent (sim.StepStats.Evals): the
	// budget of an equal-budget comparison.
	Evals int64 `json:"evals"`
	// Controls are the resolved controls, data-unit ones (sim.ControlSpec's
	// Unit) in Units.
	Controls sim.Controls `json:"controls"`

	// ELBO over EvalReps single-sample evaluations (for livi, of its
	// linearised approximation of the ELBO) and IWBO over EvalReps
	// repetitions of IWBOSamples importance samples; *_se is the population
	// std over the repetitions divided by √reps (the GIP notebook's ± is 2·se).
	// LogMarginal is log p(y) in closed form (gp-exact). For a CSV all three
	// include the standardisation's log-Jacobian, −N·log(y scale).
	ELBOMean    *float64 `json:"elbo_mean"`
	ELBOSE      *float64 `json:"elbo_se"`
	IWBOMean    *float64 `json:"iwbo_mean"`
	IWBOSE      *float64 `json:"iwbo_se"`
	LogMarginal *float64 `json:"log_marginal"`

	StepsPerSec float64  `json:"steps_per_sec"`
	NoiseStd    *float64 `json:"noise_std"`
	RMSETruth   *float64 `json:"rmse_truth"`
	// RMSETruthOutside is RMSETruth over the grid points outside the
	// training inputs' range: extrapolation.
	RMSETruthOutside *float64 `json:"rmse_truth_outside"`
	InbetweenRatio   *float64 `json:"inbetween_ratio"`
	Grid             Grid     `json:"grid"`

	// Samplers only (null otherwise): the mean acceptance statistic and the
	// divergent transitions after warm-up, the smallest bulk ESS over the
	// parameters per second of sampling, and a summary per parameter.
	AcceptanceRate *float64                     `json:"acceptance_rate"`
	Divergences    *int                         `json:"divergences"`
	ESSPerSec      *float64                     `json:"ess_per_sec"`
	Params         map[string]wire.ParamSummary `json:"params"`
	// The samplers' work: the chains' mean final step size, the mean NUTS
	// tree depth after warm-up (Stan's treedepth__), and leapfrog steps and
	// gradient evaluations over all chains, warm-up included.
	StepSize      *float64 `json:"step_size"`
	TreeDepthMean *float64 `json:"tree_depth_mean"`
	Leapfrogs     *int64   `json:"leapfrogs"`
	GradEvals     *int64   `json:"grad_evals"`
	// GridDiagnostics summarises f at each grid point over the chains
	// (mean, sd, quantiles in Units; R̂, bulk and tail ESS), from at most
	// GridDiagnosticsDraws evenly spaced draws per chain of those the
	// sampler keeps whole (a BNN keeps about 200 per chain, thinned evenly
	// over the run): diagnostics of the thinned chains.
	GridDiagnostics      []wire.ParamSummary `json:"grid_diagnostics"`
	GridDiagnosticsDraws *int                `json:"grid_diagnostics_draws"`
}

// Grid is the predictive distribution of f(x) (observation noise excluded)
// on the plotting grid: mean and std, and the 2.5% and 97.5% quantiles,
// over posterior samples, or for a method with analytic Gaussian moments
// (the GP methods) those moments, with mean ∓ 1.96 std as the quantiles.
type Grid struct {
	X    []float64 `json:"x"`
	Mean []float64 `json:"mean"`
	Std  []float64 `json:"std"`
	Lo   []float64 `json:"lo"`
	Hi   []float64 `json:"hi"`
}

// maxGridDiagDraws bounds the draws per chain behind GridDiagnostics.
const maxGridDiagDraws = 1000

// Units of a Summary.
const (
	UnitsFile  = "file"
	UnitsModel = "model"
)

// evaluation is a summary and the draws behind it, for the draws file.
type evaluation struct {
	summary *Summary
	// gridSamples are the function samples on the grid, report units
	// (nil for a sampler, whose draws are its chains').
	gridSamples [][]float64
	chains      *ChainTable
}

func (p *Prepared) evaluate() evaluation {
	d, m := p.Dataset, p.method
	s := &Summary{
		Method: p.Method, Model: p.Model, Data: p.dataName(), Units: UnitsModel,
		Seed: p.Seed, DataSeed: p.DataSeedUsed(), Steps: p.Steps, Controls: p.ReportControls,
	}
	if d.FromFile {
		s.Units = UnitsFile
	}
	xs, ys := d.ReportScales()
	// log p(y_report) = log p(y_model) − N·log(y scale): the Jacobian of
	// y_model = (y_report − mean)/scale over N independent targets.
	jac := -float64(d.N()) * math.Log(ys.Std)
	shift := func(v *float64) *float64 {
		if v != nil {
			*v += jac
		}
		return v
	}
	x := sim.ExtrasOf(m)
	if x.ELBO != nil {
		elbos := make([]float64, p.EvalReps)
		for i := range elbos {
			elbos[i] = x.ELBO()
		}
		s.ELBOMean, s.ELBOSE = meanSE(elbos)
		shift(s.ELBOMean)
	}
	if x.IWBO != nil {
		iwbos := make([]float64, p.EvalReps)
		for i := range iwbos {
			iwbos[i] = x.IWBO(p.IWBOSamples)
		}
		s.IWBOMean, s.IWBOSE = meanSE(iwbos)
		shift(s.IWBOMean)
	}
	if x.LogMarginal != nil {
		s.LogMarginal = shift(ptr(x.LogMarginal()))
	}
	if x.NoiseStd != nil {
		s.NoiseStd = ptr(x.NoiseStd() * ys.Std)
	}

	ev := evaluation{summary: s}
	analytic := x.PredictMoments != nil
	var band Grid
	if analytic {
		band, analytic = moments(x.PredictMoments, d.Grid)
		band = band.to(xs, ys)
	}
	// Function samples on the grid: the band's (unless analytic) and the
	// draws file's, the same ones.
	if !analytic || p.DrawsFile != "" {
		pred := m.Predict(d.Grid, predictiveSamples)
		for _, f := range pred.Samples {
			for i, v := range f {
				f[i] = ys.ToUser(v)
			}
		}
		if !analytic {
			band = summarise(pred)
		}
		ev.gridSamples = pred.Samples
	}
	band.X = p.gridX()
	if d.Truth != nil {
		lo, hi := slices.Min(d.X), slices.Max(d.X)
		var all, outside rmse
		for i, x := range d.Grid {
			e := band.Mean[i] - ys.ToUser(d.Truth(x))
			all.add(e)
			if x < lo || x > hi {
				outside.add(e)
			}
		}
		s.RMSETruth, s.RMSETruthOutside = all.value(), outside.value()
	}
	if d.HasGap {
		if r := inbetweenRatio(m, d); !math.IsNaN(r) && !math.IsInf(r, 0) {
			s.InbetweenRatio = ptr(r)
		}
	}
	s.Grid = band
	if c, ok := m.(sim.Chains); ok {
		ev.chains = chainDraws(c, ys)
		summariseChains(s, c, ev.chains, !p.NoDiagnostics)
		ev.gridSamples = nil
		if x.Work != nil {
			w := x.Work()
			s.StepSize, s.Leapfrogs = finite(w.StepSize), ptrTo(w.Leapfrogs)
			s.TreeDepthMean = finite(w.MeanTreeDepth)
		}
		if x.FunctionDraws != nil && !p.NoDiagnostics {
			s.GridDiagnostics, s.GridDiagnosticsDraws = gridDiagnostics(x.FunctionDraws, d.Grid, ys)
		}
	}
	return ev
}

// gridX is the report-unit grid: the one asked for, exactly, or the data
// set's mapped to report units.
func (p *Prepared) gridX() []float64 {
	if p.gridReport != nil {
		return slices.Clone(p.gridReport)
	}
	xs, _ := p.Dataset.ReportScales()
	out := make([]float64, len(p.Dataset.Grid))
	for i, x := range p.Dataset.Grid {
		out[i] = xs.ToUser(x)
	}
	return out
}

// moments is the analytic band on xs in model units (sim.Extras's
// PredictMoments); false when the method has none here.
func moments(predict func(xs, mean, std []float64) bool, xs []float64) (Grid, bool) {
	n := len(xs)
	g := Grid{X: slices.Clone(xs), Mean: make([]float64, n), Std: make([]float64, n), Lo: make([]float64, n), Hi: make([]float64, n)}
	if !predict(xs, g.Mean, g.Std) {
		return Grid{}, false
	}
	const z = 1.959963984540054 // Φ⁻¹(0.975)
	for i := range xs {
		g.Lo[i] = g.Mean[i] - z*g.Std[i]
		g.Hi[i] = g.Mean[i] + z*g.Std[i]
	}
	return g, true
}

// ChainTable is a sampler's kept draws of its parameters in report units:
// draws[j][c][i] is parameter names[j] in chain c at kept draw i.
type ChainTable struct {
	names []string
	draws [][][]float64
}

// chainDraws reads c's draws in report units: a noise std (sigma, noise)
// scaled by the y scale, f_mid mapped to y units, the rest (weights, and
// the linear model's coefficients, which work in the data's units) as
// sampled.
func chainDraws(c sim.Chains, ys sim.Affine) *ChainTable {
	t := &ChainTable{names: c.Params()}
	for _, name := range t.names {
		draws := c.Draws(name)
		var f func(float64) float64
		switch name {
		case "sigma", "noise":
			f = func(v float64) float64 { return v * ys.Std }
		case "f_mid":
			f = ys.ToUser
		}
		if f != nil && ys != sim.Identity {
			for _, ch := range draws {
				for i := range ch {
					ch[i] = f(ch[i])
				}
			}
		}
		t.draws = append(t.draws, draws)
	}
	return t
}

// summariseChains fills the sampler keys from t, the parameters' summaries
// when diag is set; ESSPerSec is completed by the caller, who knows the
// wall time.
func summariseChains(s *Summary, c sim.Chains, t *ChainTable, diag bool) {
	s.AcceptanceRate = ptr(c.AcceptanceRate())
	div := c.Divergences()
	s.Divergences = &div
	s.GradEvals = ptrTo(c.GradEvals())
	if !diag {
		return
	}
	s.Params = make(map[string]wire.ParamSummary)
	minESS := math.Inf(1)
	var sz numeric.Summarizer // the parameters' chains share one shape
	for j, name := range t.names {
		ps := sz.Summarize(t.draws[j])
		s.Params[name] = wire.ParamSummary(ps)
		minESS = math.Min(minESS, ps.ESSBulk)
	}
	if !math.IsInf(minESS, 1) && !math.IsNaN(minESS) {
		s.ESSPerSec = ptr(minESS) // per second once Run divides by the wall time
	}
}

// gridDiagnostics summarises f at each of xs over f's per-chain draws, in
// report units, and says how many draws per chain it used.
func gridDiagnostics(functionDraws func(xs []float64, perChain int) [][][]float64, xs []float64, ys sim.Affine) ([]wire.ParamSummary, *int) {
	fd := functionDraws(xs, maxGridDiagDraws)
	if len(fd) == 0 || len(fd[0]) == 0 {
		return nil, nil
	}
	n := len(fd[0])
	col := make([][]float64, len(fd))
	for c := range col {
		col[c] = make([]float64, n)
	}
	out := make([]wire.ParamSummary, len(xs))
	// One Summarizer for every point: their arrays share a shape, so the
	// buffers, FFT plan and normal scores are built once, not per point.
	var sz numeric.Summarizer
	for i := range xs {
		for c, ch := range fd {
			for k, fk := range ch {
				col[c][k] = ys.ToUser(fk[i])
			}
		}
		out[i] = wire.ParamSummary(sz.Summarize(col))
	}
	return out, &n
}

// inbetweenRatio is sim.InbetweenRatio with f's stds at the training inputs
// and the gap's centre, analytic where the method has them, else from the
// same posterior samples.
func inbetweenRatio(m sim.Method, d *sim.Dataset) float64 {
	xs := append(slices.Clone(d.X), d.GapCentre)
	band, ok := Grid{}, false
	if predict := sim.ExtrasOf(m).PredictMoments; predict != nil {
		band, ok = moments(predict, xs)
	}
	if !ok {
		band = summarise(m.Predict(xs, predictiveSamples))
	}
	return sim.InbetweenRatio(band.Std[:len(d.X)], band.Std[len(d.X)])
}

// summarise reduces function samples to a Grid in model units.
func summarise(p sim.Predictive) Grid {
	n := len(p.X)
	g := Grid{
		X: slices.Clone(p.X), Mean: make([]float64, n), Std: make([]float64, n),
		Lo: make([]float64, n), Hi: make([]float64, n),
	}
	col := make([]float64, len(p.Samples))
	for i := range n {
		for s, f := range p.Samples {
			col[s] = f[i]
		}
		g.Mean[i], g.Std[i] = numeric.MeanStd(col)
		slices.Sort(col)
		g.Lo[i] = numeric.Quantile(col, 0.025)
		g.Hi[i] = numeric.Quantile(col, 0.975)
	}
	return g
}

// to maps a model-unit grid to report units.
func (g Grid) to(xs, ys sim.Affine) Grid {
	out := Grid{X: make([]float64, len(g.X)), Mean: make([]float64, len(g.X)),
		Std: make([]float64, len(g.X)), Lo: make([]float64, len(g.X)), Hi: make([]float64, len(g.X))}
	for i := range g.X {
		out.X[i] = xs.ToUser(g.X[i])
		out.Mean[i] = ys.ToUser(g.Mean[i])
		out.Std[i] = ys.Std * g.Std[i]
		out.Lo[i] = ys.ToUser(g.Lo[i])
		out.Hi[i] = ys.ToUser(g.Hi[i])
	}
	return out
}

func meanSE(xs []float64) (mean, se *float64) {
	m, s := numeric.MeanSE(xs)
	return ptr(m), ptr(s)
}

func ptr(v float64) *float64 { return &v }

func ptrTo[T any](v T) *T { return &v }

// finite is v's pointer, or nil for NaN or ±Inf (written as null).
func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// rmse accumulates a root mean square error; value is nil with no terms.
type rmse struct {
	sq float64
	n  int
}

func (r *rmse) add(e float64) { r.sq += e * e; r.n++ }

func (r rmse) value() *float64 {
	if r.n == 0 {
		return nil
	}
	return ptr(math.Sqrt(r.sq / float64(r.n)))
}
