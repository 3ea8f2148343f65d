package sampler

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/target"
)

// Spec describes a sampler for a command line's --help and a page's menu.
type Spec struct {
	Name     string            `json:"name"`
	Label    string            `json:"label"`
	Help     string            `json:"help"`
	Gradient bool              `json:"gradient"` // its budget is counted in gradient evaluations
	Controls []sim.ControlSpec `json:"controls"`
}

func ctl(name, label, help string, lo, hi, def float64, log, integer bool) sim.ControlSpec {
	c := sim.ControlSpec{Name: name, Label: label, Help: help, Min: lo, Max: hi, Default: sim.Num(def),
		Log: log, Integer: integer, Live: true, Step: (hi - lo) / 100}
	if integer {
		c.Step = 1
	}
	return c
}

// Specs lists the samplers with their controls; the slice is new on every
// call. The ranges and defaults are the Configs'.
func Specs() []Spec {
	step := func(def float64) sim.ControlSpec {
		return ctl("step", "step ε", "the step size", 0.001, 5, def, true, false)
	}
	nutsStep := step(1)
	nutsStep.Help = "the step size warm-up starts from"
	return []Spec{
		{Name: "metropolis", Label: "Random-walk Metropolis", Help: "Gaussian proposals around the current point, accepted by the density ratio",
			Controls: []sim.ControlSpec{ctl("scale", "proposal scale σ", "the proposal's standard deviation", 0.01, 20, 1, true, false)}},
		{Name: "mala", Label: "MALA", Gradient: true, Help: "a Langevin step along the gradient plus noise, Metropolis-corrected",
			Controls: []sim.ControlSpec{step(0.5)}},
		{Name: "hmc", Label: "HMC", Gradient: true, Help: "L leapfrog steps of size ε along Hamiltonian dynamics, Metropolis-corrected",
			Controls: []sim.ControlSpec{step(0.2), ctl("leapfrogs", "leapfrog steps L", "the trajectory's number of steps", 1, MaxLeapfrogs, 20, true, true)}},
		{Name: "nuts", Label: "NUTS", Gradient: true, Help: "trajectories that double until they turn back (Stan's multinomial NUTS), ε adapted in warm-up",
			Controls: []sim.ControlSpec{nutsStep, ctl("max_depth", "max tree depth", "the most doublings a tree may make", 1, MaxTreeDepth, 10, false, true),
				ctl("warmup", "warm-up", "transitions adapting ε towards acceptance 0.8 (and the metric), whose draws are discarded", 1, 100000, 1000, true, true),
				{Name: "metric", Label: "metric", Help: "diag: a diagonal metric adapted to the draws' variances in warm-up, as Stan's default; unit: the identity",
					Options: []string{MetricDiag, MetricUnit}, OptionLabels: []string{"diagonal, adapted", "unit (identity)"}, Default: sim.Choice(MetricDiag)}}},
		{Name: "langevin", Label: "Unadjusted Langevin", Gradient: true, Help: "the Langevin step without a correction: biased by O(ε²)",
			Controls: []sim.ControlSpec{step(0.5)}},
	}
}

// New starts the named sampler on t at start, drawing from r; controls not
// given take their defaults. An unknown sampler is a *sim.FieldError on
// "method", a bad control one naming it.
func New(name string, t target.Target, controls sim.Controls, r *rand.Rand, start Point) (Sampler, error) {
	vs, err := values(name, controls)
	if err != nil {
		return nil, err
	}
	v := func(k string) float64 { return vs[k].Num }
	switch name {
	case "metropolis":
		return NewMetropolis(t, MetropolisConfig{Scale: v("scale")}, r, start)
	case "mala":
		return NewMALA(t, LangevinConfig{Step: v("step")}, r, start)
	case "hmc":
		return NewHMC(t, HMCConfig{Step: v("step"), Leapfrogs: int(v("leapfrogs"))}, r, start)
	case "nuts":
		return NewNUTS(t, NUTSConfig{Step: v("step"), MaxDepth: int(v("max_depth")), Warmup: int(v("warmup")), Metric: vs["metric"].Choice}, r, start)
	default:
		return NewULA(t, LangevinConfig{Step: v("step")}, r, start)
	}
}

// values returns the named sampler's controls: the defaults, overridden
// by controls after checking each against its spec.
func values(name string, controls sim.Controls) (map[string]sim.Value, error) {
	specs := Specs()
	i := slices.IndexFunc(specs, func(s Spec) bool { return s.Name == name })
	if i < 0 {
		return nil, &sim.FieldError{Field: "method", Message: fmt.Sprintf("%q is not a sampler", name)}
	}
	v := map[string]sim.Value{}
	for _, c := range specs[i].Controls {
		v[c.Name] = c.Default
	}
	for k, x := range controls {
		j := slices.IndexFunc(specs[i].Controls, func(c sim.ControlSpec) bool { return c.Name == k })
		if j < 0 {
			return nil, &sim.FieldError{Field: k, Message: fmt.Sprintf("%s has no control %q", name, k)}
		}
		if err := specs[i].Controls[j].Validate(x); err != nil {
			return nil, err
		}
		v[k] = x
	}
	return v, nil
}

// Set changes one control of a running sampler built by New (a live
// control), checked against its spec; the others keep their values.
// Setting NUTS's step restarts nothing: it is the step warm-up starts
// from, read only by a new chain. NUTS's metric is not live: setting it
// is a *sim.FieldError.
func Set(s Sampler, name string, x sim.Value) error {
	var kind string
	switch s := s.(type) {
	case *Metropolis:
		kind = "metropolis"
	case *Langevin:
		kind = map[bool]string{true: "mala", false: "langevin"}[s.adjusted]
	case *HMC:
		kind = "hmc"
	case *NUTS:
		kind = "nuts"
	default:
		return &sim.FieldError{Field: "method", Message: fmt.Sprintf("%T is not a sampler of this package", s)}
	}
	vs, err := values(kind, sim.Controls{name: x})
	if err != nil {
		return err
	}
	v := func(k string) float64 { return vs[k].Num }
	switch s := s.(type) {
	case *Metropolis:
		return s.SetConfig(MetropolisConfig{Scale: v("scale")})
	case *Langevin:
		return s.SetConfig(LangevinConfig{Step: v("step")})
	case *HMC:
		c := s.cfg
		switch name {
		case "step":
			c.Step = v("step")
		case "leapfrogs":
			c.Leapfrogs = int(v("leapfrogs"))
		}
		return s.SetConfig(c)
	default:
		n := s.(*NUTS)
		c := n.cfg
		switch name {
		case "max_depth":
			c.MaxDepth = int(v("max_depth"))
		case "warmup":
			c.Warmup = int(v("warmup"))
		case "step":
			c.Step = v("step")
		case "metric":
			return &sim.FieldError{Field: name, Message: "nuts's metric is not live: start a new run"}
		}
		return n.SetConfig(c)
	}
}
