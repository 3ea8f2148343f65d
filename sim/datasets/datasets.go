package datasets

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/posterior-playground/playground/sim"
)

// GridPoints is the number of points on every plotting grid: enough for a
// band's edges to look smooth (issue 14 asked for at least 200), and odd, so
// a grid symmetric about 0 has 0 on it.
const GridPoints = 201

// Info describes a built-in data set for GET /api/datasets.
type Info struct {
	Name         string   `json:"name"`
	Label        string   `json:"label"`
	Description  string   `json:"description"`
	N            int      `json:"n"`
	Task         sim.Task `json:"task"`
	DefaultModel string   `json:"default_model"`
}

// builtin is one entry of the table: its description, its PCG stream
// constant and its generator.
type builtin struct {
	info   Info
	stream uint64
	gen    func(r *rand.Rand) (*sim.Dataset, error)
}

// builtins returns the table afresh, so no package state can be mutated.
// The stream constants are arbitrary but fixed: changing one changes that
// data set for every seed.
func builtins() []builtin {
	return []builtin{
		{Info{"gap", "Cubic with a gap",
			"50 points from U(−4,−2) and 50 from U(2,4), y = x³ + 3ε; x and y standardised (GIP notebook).",
			100, sim.Regression, "bnn"}, 0x6761702d63756265, gap},
		{Info{"sinusoid-gap", "Sinusoid with a gap",
			"38 + 32 evenly spaced points on [−1.28,−0.61] ∪ [0.61,1.28], y = x + 0.8 sin 2πx + 0.8 sin 4πx + 0.3ε; x divided by 1.28 (LIVI toy).",
			70, sim.Regression, "bnn"}, 0x73696e7573676170, sinusoidGap},
		{Info{"linreg", "Linear regression",
			"30 points from U(−1,1), y = −1 + 2x + 0.5ε; not rescaled (MCMC blog).",
			30, sim.Regression, "linear"}, 0x6c696e7265677231, linreg},
		{Info{"linreg-offset", "Linear regression, off-centre inputs",
			"30 points from U(0,2), y = −1 + 2x + 0.5ε; not rescaled. Inputs away from 0 make intercept and slope strongly correlated a posteriori (VI vs MCMC).",
			30, sim.Regression, "linear"}, 0x6c696e7265676f66, linregOffset},
		{Info{"gp-cauchy", "GP sample, Cauchy noise",
			"20 of 400 grid points on [−5,5], z a GP sample (EQ, variance 1, lengthscale 1), y ~ Cauchy(z, e^−2) (Opper–Archambeau notebook).",
			20, sim.Regression, "bnn"}, 0x67702d6361756368, gpCauchy},
		{Info{"gp-classification", "GP classification",
			"50 of 400 grid points on [−5,5], z a GP sample (EQ, variance e², lengthscale 1), y ~ Bernoulli(sigmoid z) (Opper–Archambeau notebook).",
			50, sim.Classification, "bnn"}, 0x67702d636c617373, gpClassification},
		{Info{"periodic", "Periodic extrapolation",
			"10 points from U(−2,−0.5) and 10 from U(0.5,2), y = 2 sin 4x + 0.2ε; x and y standardised; wide grid (fBNN sine toy).",
			20, sim.Regression, "bnn"}, 0x706572696f646963, periodic},
	}
}

// Names returns the built-in data sets' names in display order.
func Names() []string {
	b := builtins()
	out := make([]string, len(b))
	for i, e := range b {
		out[i] = e.info.Name
	}
	return out
}

// Infos describes the built-in data sets in display order.
func Infos() []Info {
	b := builtins()
	out := make([]Info, len(b))
	for i, e := range b {
		out[i] = e.info
	}
	return out
}

// Load generates the named built-in data set for seed. An unknown name gives
// a *sim.FieldError for the field "data" that lists the allowed names.
func Load(name string, seed uint64) (*sim.Dataset, error) {
	for _, e := range builtins() {
		if e.info.Name != name {
			continue
		}
		d, err := e.gen(rand.New(rand.NewPCG(seed, e.stream)))
		if err != nil {
			return nil, fmt.Errorf("data set %s: %w", name, err)
		}
		d.Name, d.Label, d.Task, d.DefaultModel = e.info.Name, e.info.Label, e.info.Task, e.info.DefaultModel
		return d, nil
	}
	return nil, &sim.FieldError{
		Field:   "data",
		Message: fmt.Sprintf("unknown data set %q (allowed: %s)", name, strings.Join(Names(), ", ")),
	}
}

// InUserUnits returns a copy of d with X, Y, Grid, GapCentre and Truth mapped
// back to the user's units and identity scales, for models (the linear one)
// that work in the data's own units.
func InUserUnits(d *sim.Dataset) *sim.Dataset {
	out := *d
	xs, ys := d.XScale, d.YScale
	out.X = mapped(d.X, xs)
	out.Y = mapped(d.Y, ys)
	out.Grid = mapped(d.Grid, xs)
	out.GapCentre = xs.ToUser(d.GapCentre)
	if t := d.Truth; t != nil {
		out.Truth = func(x float64) float64 { return ys.ToUser(t(xs.ToModel(x))) }
	}
	out.XScale, out.YScale = sim.Identity, sim.Identity
	return &out
}

func mapped(v []float64, a sim.Affine) []float64 {
	if v == nil {
		return nil
	}
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = a.ToUser(x)
	}
	return out
}
