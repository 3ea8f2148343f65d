package catalog

import (
	"errors"
	"slices"
	"testing"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/datasets"
	"github.com/posterior-playground/playground/sim/simtest"
)

// conformance says how each entry is put through simtest: on which data
// for model "" and for each model, and with what options. Data and steps
// are the smallest that exercise a method: model "" runs on linreg, whose
// default model is the cheap linear one; "bnn" on periodic (20 points);
// samplers with two chains and a short warm-up so the retained draws and
// the chain goroutines are both exercised.
type conformance struct {
	data  map[string]string // model → data set; "" is the default model
	steps int
	ctl   sim.Controls
}

func plans() map[string]conformance {
	vi := func(steps int) conformance {
		return conformance{data: map[string]string{"": "linreg", "linear": "linreg", "bnn": "periodic"}, steps: steps}
	}
	sampler := func(c sim.Controls) conformance {
		p := vi(4)
		p.ctl = c
		return p
	}
	chains := sim.Controls{"chains": sim.Num(2), "warmup": sim.Num(2)}
	return map[string]conformance{
		"mfvi":     vi(5),
		"livi":     vi(5),
		"gip":      vi(4),
		"map":      vi(5),
		"ensemble": vi(5),
		"fbnn":     {data: map[string]string{"": "periodic", "bnn": "periodic"}, steps: 3},
		// gpvi with model "" on classification data (its Bernoulli
		// likelihood); TestGPVIOnRegressionConforms adds regression data.
		"gp-exact":   {data: map[string]string{"": "linreg"}, steps: 5},
		"gpvi":       {data: map[string]string{"": "gp-classification"}, steps: 5},
		"metropolis": sampler(chains),
		"sgld":       sampler(chains),
		"hmc":        sampler(sim.Controls{"chains": sim.Num(2), "warmup": sim.Num(2), "leapfrog_steps": sim.Num(5)}),
		"nuts":       sampler(sim.Controls{"chains": sim.Num(2), "warmup": sim.Num(2), "max_depth": sim.Num(4)}),
	}
}

// Every catalog entry constructs for its default model and each model its
// spec lists, under the name it is filed by, and keeps the contract.
func TestCatalogConforms(t *testing.T) {
	ps := plans()
	for _, name := range MethodNames() {
		t.Run(name, func(t *testing.T) {
			p, ok := ps[name]
			if !ok {
				t.Fatalf("no conformance plan for %s: add one to plans()", name)
			}
			m, err := NewMethod(name, "")
			if err != nil {
				t.Fatalf("NewMethod(%q, \"\"): %v", name, err)
			}
			spec := m.Spec()
			if spec.Name != name {
				t.Fatalf("filed as %q, Spec().Name is %q", name, spec.Name)
			}
			for _, model := range append([]string{""}, spec.Models...) {
				t.Run("model="+model, func(t *testing.T) {
					mm, err := NewMethod(name, model)
					if err != nil {
						t.Fatalf("NewMethod(%q, %q): %v", name, model, err)
					}
					if got := mm.Spec().Name; got != name {
						t.Fatalf("filed as %q, Spec().Name for model %q is %q", name, model, got)
					}
					dname, ok := p.data[model]
					if !ok {
						t.Fatalf("no data set for model %q in %s's plan", model, name)
					}
					d, err := datasets.Load(dname, 1)
					if err != nil {
						t.Fatal(err)
					}
					simtest.TestMethod(t, func() (sim.Method, error) { return NewMethod(name, model) }, d,
						simtest.Options{Steps: p.steps, Controls: p.ctl})
				})
			}
		})
	}
}

// gpvi also on regression data, where its likelihood control refuses
// bernoulli in its Set.
func TestGPVIOnRegressionConforms(t *testing.T) {
	d, err := datasets.Load("linreg", 1)
	if err != nil {
		t.Fatal(err)
	}
	simtest.TestMethod(t, func() (sim.Method, error) { return NewMethod("gpvi", "") }, d, simtest.Options{Steps: 5})
}

func TestSpecs(t *testing.T) {
	specs, err := Specs()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range specs {
		names = append(names, s.Name)
	}
	if want := MethodNames(); !slices.Equal(names, want) {
		t.Fatalf("Specs names %v, want %v", names, want)
	}
}

func TestUnknownNamesAreFieldErrors(t *testing.T) {
	_, err := NewMethod("no-such-method", "")
	if fe, ok := errors.AsType[*sim.FieldError](err); !ok || fe.Field != "method" {
		t.Fatalf("NewMethod of an unknown name: %v, want a *sim.FieldError for method", err)
	}
	for _, name := range MethodNames() {
		if _, err := NewMethod(name, "no-such-model"); err == nil {
			t.Errorf("NewMethod(%q, \"no-such-model\") succeeded", name)
		}
	}
}
