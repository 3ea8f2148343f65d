package fbnn

import (
	"math"
	"slices"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
)

// Predict draws samples functions f_W on xs with W ~ q, without observation
// noise. Draws come from the evaluation stream, so calling Predict never
// changes the training trajectory.
func (m *Method) Predict(xs []float64, samples int) sim.Predictive {
	p := sim.Predictive{X: slices.Clone(xs)}
	if !m.ready || samples < 1 || len(xs) == 0 {
		return p
	}
	if m.pred == nil || !m.pred.SameInputs(xs) {
		m.pred = model.NewNet(m.layers, xs, false)
	}
	for i, l := range m.ls {
		m.std[i] = math.Exp(l)
	}
	p.Samples = make([][]float64, samples)
	for s := range p.Samples {
		numeric.FillNormal(m.pe, m.evalRng)
		m.sampleWeights(m.pw, m.pe)
		m.pred.Forward(m.layers, m.pw)
		p.Samples[s] = slices.Clone(m.pred.Out)
	}
	return p
}
