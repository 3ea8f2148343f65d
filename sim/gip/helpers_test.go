package gip

import (
	"maps"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
)

// gapData builds a standardised gap-like data set (as datasets' gap) with n points.
func gapData(seed uint64, n int) *sim.Dataset {
	r := rand.New(rand.NewPCG(seed, 1))
	x := make([]float64, n)
	y := make([]float64, n)
	for i := range x {
		x[i] = 2 + 2*r.Float64()
		if i < n/2 {
			x[i] = -x[i]
		}
		y[i] = x[i]*x[i]*x[i] + 3*r.NormFloat64()
	}
	standardiseInPlace(x)
	standardiseInPlace(y)
	return &sim.Dataset{Name: "gap-test", Task: sim.Regression, X: x, Y: y, HasGap: true, DefaultModel: model.BNN}
}

func standardiseInPlace(v []float64) {
	var mu, s2 float64
	for _, x := range v {
		mu += x
	}
	mu /= float64(len(v))
	for _, x := range v {
		s2 += (x - mu) * (x - mu)
	}
	sd := math.Sqrt(s2 / float64(len(v)))
	for i := range v {
		v[i] = (v[i] - mu) / sd
	}
}

// newTest returns a method on arch initialised on d with controls c.
func newTest(t testing.TB, arch model.Arch, d *sim.Dataset, c sim.Controls, seed uint64) *Method {
	t.Helper()
	m := &Method{requested: model.BNN, modelName: model.BNN, arch: arch}
	if len(arch.Widths) == 2 {
		m.requested, m.modelName = model.Linear, model.Linear
	} else { // the network comes from the controls
		c = maps.Clone(c)
		if c == nil {
			c = sim.Controls{}
		}
		c[model.ControlArch], c[model.ControlActivation] = sim.Choice(arch.Hidden()), sim.Choice(arch.Act.String())
	}
	if _, err := sim.Init(m, d, c, rand.New(rand.NewPCG(seed, 2))); err != nil {
		t.Fatal(err)
	}
	return m
}
