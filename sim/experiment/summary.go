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
type Summary struct {
	Method   string       `json:"method"`
	Model    string       `json:"model"`
	Data     string       `json:"data"`
	Seed     uint64       `json:"seed"`
	DataSeed uint64       `json:"data_seed"`
	Steps    int          `json:"steps"`
	Controls sim.Controls `json:"controls"`

	// ELBO over EvalReps single-sample evaluations (for livi, of its
	// linearised approximation of the ELBO) and IWBO over EvalReps
	// repetitions of IWBOSamples importance samples; *_se is the population
	// std over the repetitions divided by √reps (the GIP notebook's ± is 2·se).
	ELBOMean *float64 `json:"elbo_mean"`
	ELBOSE   *float64 `json:"elbo_se"`
	IWBOMean *float64 `json:"iwbo_mean"`
	IWBOSE   *float64 `json:"iwbo_se"`

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
}

// Grid is the predictive distribution of f(x) (observation noise excluded)
// on the data set's plotting grid: mean and std over posterior samples, and
// the 2.5% and 97.5% quantiles.
type Grid struct {
	X    []float64 `json:"x"`
	Mean []float64 `json:"mean"`
	Std  []float64 `json:"std"`
	Lo   []float64 `json:"lo"`
	Hi   []float64 `json:"hi"`
}

func (p *Prepared) evaluate() *Summary {
	d, m := p.Dataset, p.method
	s := &Summary{
		Method: p.Method, Model: p.Model, Data: p.dataName(),
		Seed: p.Seed, DataSeed: p.DataSeedUsed(), Steps: p.Steps, Controls: p.Controls,
	}
	if e, ok := m.(sim.ELBOEstimator); ok {
		elbos := make([]float64, p.EvalReps)
		for i := range elbos {
			elbos[i] = e.ELBO()
		}
		s.ELBOMean, s.ELBOSE = meanSE(elbos)
	}
	if b, ok := m.(sim.Bounds); ok {
		iwbos := make([]float64, p.EvalReps)
		for i := range iwbos {
			iwbos[i] = b.IWBO(p.IWBOSamples)
		}
		s.IWBOMean, s.IWBOSE = meanSE(iwbos)
	}
	xs, ys := d.ReportScales()
	if n, ok := m.(sim.NoiseModel); ok {
		s.NoiseStd = ptr(n.NoiseStd() * ys.Std)
	}

	band := summarise(m.Predict(d.Grid, predictiveSamples))
	if d.Truth != nil {
		lo, hi := slices.Min(d.X), slices.Max(d.X)
		var all, outside rmse
		for i, x := range d.Grid {
			e := ys.Std * (band.Mean[i] - d.Truth(x))
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
	s.Grid = band.to(xs, ys)
	if c, ok := m.(sim.Chains); ok {
		summariseChains(s, c, ys)
	}
	return s
}

// summariseChains fills the sampler keys; ESSPerSec is completed by the
// caller, who knows the wall time. Parameters are reported as sampled,
// except that sigma, a noise std, is mapped to report units.
func summariseChains(s *Summary, c sim.Chains, ys sim.Affine) {
	s.AcceptanceRate = ptr(c.AcceptanceRate())
	div := c.Divergences()
	s.Divergences = &div
	s.Params = make(map[string]wire.ParamSummary)
	minESS := math.Inf(1)
	for _, name := range c.Params() {
		draws := c.Draws(name)
		if name == "sigma" && ys.Std != 1 {
			for _, ch := range draws {
				for i := range ch {
					ch[i] *= ys.Std
				}
			}
		}
		ps := numeric.Summarize(draws)
		s.Params[name] = wire.ParamSummary(ps)
		minESS = math.Min(minESS, ps.ESSBulk)
	}
	if !math.IsInf(minESS, 1) && !math.IsNaN(minESS) {
		s.ESSPerSec = ptr(minESS) // per second once Run divides by the wall time
	}
}

// inbetweenRatio is sim.InbetweenRatio with f's stds at the training inputs
// and the gap's centre from the same posterior samples.
func inbetweenRatio(m sim.Method, d *sim.Dataset) float64 {
	xs := append(slices.Clone(d.X), d.GapCentre)
	band := summarise(m.Predict(xs, predictiveSamples))
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
