package gallery

import (
	"fmt"
	"slices"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/family"
	"github.com/posterior-playground/playground/sim/sampler"
)

// MethodSpec describes a gallery method for a command line's --help and
// a page's menu.
type MethodSpec struct {
	Name     string            `json:"name"`
	Label    string            `json:"label"`
	Help     string            `json:"help"`
	Sampler  bool              `json:"sampler"`  // a Markov chain; otherwise a variational family
	Gradient bool              `json:"gradient"` // its budget is gradient evaluations (by default)
	Controls []sim.ControlSpec `json:"controls"`
}

// Methods lists the samplers, then the families, in the gallery's order.
// The slice is new on every call.
func Methods() []MethodSpec {
	var ms []MethodSpec
	for _, s := range sampler.Specs() {
		ms = append(ms, MethodSpec{Name: s.Name, Label: s.Label, Help: s.Help, Sampler: true, Gradient: s.Gradient, Controls: s.Controls})
	}
	div := sim.ControlSpec{Name: "divergence", Label: "divergence", Help: "what the fit minimises: reverse KL (the ELBO), forward KL (self-normalised weights of q's own draws) or the Rényi α bound",
		Options:      []string{"reverse_kl", "forward_kl", "renyi"},
		OptionLabels: []string{"reverse KL (ELBO)", "forward KL", "Rényi α"}, Default: sim.Choice("reverse_kl")}
	alpha := num("alpha", "Rényi α", "the Rényi bound's α, read under renyi: 0 the importance-weighted bound, 1 the ELBO", 0, 2, 0.5, false, false)
	samples := num("samples", "draws per step K", "q's draws per step, each one target evaluation; 0: 32, or 256 under forward KL", 0, 4096, 0, false, true)
	lr := num("lr", "learning rate", "Adam's learning rate in the target's standardised units, live between steps; 0, at the start only: the family's default", 0, 1, 0, true, false)
	lr.Live = true
	gauss := []sim.ControlSpec{div, alpha, samples, lr}
	ms = append(ms,
		MethodSpec{Name: family.MeanFieldName, Label: "Mean-field Gaussian", Help: "a Gaussian with independent coordinates", Gradient: true, Controls: gauss},
		MethodSpec{Name: family.FullRankName, Label: "Full-rank Gaussian", Help: "a Gaussian with a full covariance (its Cholesky factor)", Gradient: true, Controls: gauss},
		MethodSpec{Name: family.FlowName, Label: "Normalizing flow", Help: "affine coupling layers (RealNVP) on a Gaussian", Gradient: true,
			Controls: append(slices.Clone(gauss),
				num("layers", "coupling layers", "the flow's coupling layers", 1, 16, family.DefaultLayers, false, true),
				num("hidden", "hidden units", "each layer's network's tanh units", 1, 128, family.DefaultHidden, false, true))},
		MethodSpec{Name: family.SVGDName, Label: "SVGD", Help: "Stein variational gradient descent: particles pulled up the density and pushed apart", Gradient: true,
			Controls: []sim.ControlSpec{num("particles", "particles n", "the number of particles", 2, 2000, family.DefaultParticles, true, true), lr}},
	)
	return ms
}

func num(name, label, help string, lo, hi, def float64, log, integer bool) sim.ControlSpec {
	c := sim.ControlSpec{Name: name, Label: label, Help: help, Min: lo, Max: hi, Default: sim.Num(def), Log: log, Integer: integer, Step: (hi - lo) / 100}
	if integer {
		c.Step = 1
	}
	return c
}

// LookupMethod returns the spec of the named method.
func LookupMethod(name string) (MethodSpec, bool) {
	ms := Methods()
	i := slices.IndexFunc(ms, func(m MethodSpec) bool { return m.Name == name })
	if i < 0 {
		return MethodSpec{}, false
	}
	return ms[i], true
}

// methodSpec returns the named method's spec after checking controls
// against it: an unknown method is a *sim.FieldError on "method", an
// unknown or out-of-range control one naming the control.
func methodSpec(name string, controls sim.Controls) (MethodSpec, error) {
	m, ok := LookupMethod(name)
	if !ok {
		names := make([]string, 0, 9)
		for _, m := range Methods() {
			names = append(names, m.Name)
		}
		return m, &sim.FieldError{Field: "method", Message: fmt.Sprintf("%q is not one of %v", name, names)}
	}
	for k, v := range controls {
		i := slices.IndexFunc(m.Controls, func(c sim.ControlSpec) bool { return c.Name == k })
		if i < 0 {
			return m, &sim.FieldError{Field: k, Message: fmt.Sprintf("%s has no control %q", name, k)}
		}
		if err := m.Controls[i].Validate(v); err != nil {
			return m, err
		}
	}
	return m, nil
}

// familyConfig reads a family's controls (already validated) into its
// Config.
func familyConfig(controls sim.Controls, seed uint64) family.Config {
	c := family.Config{Seed: seed}
	if v, ok := controls["divergence"]; ok {
		c.Divergence = map[string]family.Divergence{"reverse_kl": family.ReverseKL, "forward_kl": family.ForwardKL, "renyi": family.Renyi}[v.Choice]
	}
	c.Alpha = 0.5
	if v, ok := controls["alpha"]; ok {
		c.Alpha = v.Num
	}
	c.Samples = int(controls["samples"].Num)
	c.LR = controls["lr"].Num
	c.Layers = int(controls["layers"].Num)
	c.Hidden = int(controls["hidden"].Num)
	c.Particles = int(controls["particles"].Num)
	return c
}
