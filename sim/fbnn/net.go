package fbnn

import "github.com/posterior-playground/playground/sim/model"

// net evaluates k networks (one per particle, each with its own weights) on
// the same n inputs: one model.Net per particle, because every particle's
// activations must be kept until the gradient with respect to f is known,
// which needs all of them (SSGE). out gathers the outputs as the k × n
// matrix of function samples.
type net struct {
	n, k int
	nets []*model.Net
	out  []float64 // k × n: f_i(x_j)
}

func newNet(layers []model.Layer, n, k int) *net {
	t := &net{n: n, k: k, out: make([]float64, k*n)}
	xs := make([]float64, n)
	for range k {
		t.nets = append(t.nets, model.NewNet(layers, xs, true))
	}
	return t
}

// setInputs writes xs (length n) into every particle's inputs.
func (t *net) setInputs(xs []float64) {
	for _, nt := range t.nets {
		nt.SetInputs(xs)
	}
}

// forward evaluates particle i's network with weights w into row i of out.
func (t *net) forward(layers []model.Layer, i int, w []float64) {
	t.nets[i].Forward(layers, w)
	copy(t.out[i*t.n:(i+1)*t.n], t.nets[i].Out)
}

// backward takes gf = d loss / d f_i for particle i, evaluated by forward
// with the same w, and writes d loss / d w into dw (overwriting it).
func (t *net) backward(layers []model.Layer, i int, w, gf, dw []float64) {
	copy(t.nets[i].OutGrad(), gf)
	t.nets[i].Backward(layers, w, dw)
}
