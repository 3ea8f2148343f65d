package fbnn

import "github.com/posterior-playground/playground/numeric"

// The output layer's weights (the last layer's block of the parameter slab,
// the hidden units' weights and the output bias) are Gaussian with a full
// covariance, w_out = μ_out + L ε_out with L lower triangular: its diagonal
// is exp ρ, as for every other weight, and its strictly lower part is the
// parameter m.lo (row-major, n×n; the diagonal and upper part stay zero).
// The other layers stay mean-field. See the package documentation
// ("The band") for why.

// sampleWeights sets w = μ + std∘e and then adds the strictly lower part of
// L times e's output block (unless m.meanField). m.std must hold exp ρ.
func (m *Method) sampleWeights(w, e []float64) {
	numeric.AxpyElem(w, m.mu, m.std, e)
	if m.meanField {
		return
	}
	n := m.nOut
	eo, wo := e[m.outOff:m.outOff+n], w[m.outOff:m.outOff+n]
	for a := 1; a < n; a++ {
		var s float64
		for b, l := range m.lo[a*n : a*n+a] {
			s += l * eo[b]
		}
		wo[a] += s
	}
}

// addOutCovGrad adds to m.glo the gradient through w_out = … + L ε of the
// loss whose gradient with respect to the weights is dw: dL_ab = dw_a·ε_b
// for b < a.
func (m *Method) addOutCovGrad(dw, e []float64) {
	if m.meanField {
		return
	}
	n := m.nOut
	eo, dwo := e[m.outOff:m.outOff+n], dw[m.outOff:m.outOff+n]
	for a := 1; a < n; a++ {
		da := dwo[a]
		row := m.glo[a*n : a*n+a]
		for b, v := range eo[:a] {
			row[b] += da * v
		}
	}
}
