package numeric

import (
	"math"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/posterior-playground/playground/numeric/fastblas"
)

// AdamConfig holds Adam's hyperparameters.
type AdamConfig struct {
	LR    float64 // learning rate α
	Beta1 float64 // decay of the first moment
	Beta2 float64 // decay of the second moment
	Eps   float64 // added to √v (Keras's placement, see Adam)
}

// DefaultAdam returns Keras's defaults (β₁ = 0.9, β₂ = 0.999, ε = 1e-7),
// which the GIP seed uses through tf.keras.optimizers.Adam, with learning
// rate lr.
func DefaultAdam(lr float64) AdamConfig {
	return AdamConfig{LR: lr, Beta1: 0.9, Beta2: 0.999, Eps: 1e-7}
}

// Adam is the Adam optimiser (Kingma & Ba 2015) over a list of matrices,
// with the update as Keras computes it:
//
//	m ← β₁m + (1−β₁)g,  v ← β₂v + (1−β₂)g²,
//	θ ← θ − α·√(1−β₂ᵗ)/(1−β₁ᵗ) · m/(√v + ε),
//
// that is, bias-corrected, with ε added before the correction (the paper's
// ε̂ form). With ε = 0 the first step of every parameter is exactly
// α·sign(g).
//
// Moments belong to positions in the parameter list. Each position counts
// its own steps t, so when a parameter's shape changes between steps (a live
// control adds or drops inducing points, say) its moments and count restart
// from zero, exactly as a fresh optimiser would, while the other parameters
// keep theirs. A shorter list drops the state of the missing tail.
//
// The elementwise update is fastblas.AdamUpdate: four lanes at a time on
// AVX2, rounded exactly as the scalar loop.
//
// Step allocates nothing once every parameter has been seen at its current
// shape. An Adam is not safe for concurrent use.
type Adam struct {
	cfg   AdamConfig
	state []adamState
}

type adamState struct {
	r, c int
	t    int
	m, v []float64 // row-major r×c
}

// NewAdam returns an optimiser with no state.
func NewAdam(cfg AdamConfig) *Adam { return &Adam{cfg: cfg} }

// Config returns the current hyperparameters.
func (a *Adam) Config() AdamConfig { return a.cfg }

// SetLR changes the learning rate from the next step on; moments are kept.
func (a *Adam) SetLR(lr float64) { a.cfg.LR = lr }

// Reset zeroes every moment and step count, keeping the buffers, so the next
// Step behaves like the first step of a new optimiser.
func (a *Adam) Reset() {
	for i := range a.state {
		s := &a.state[i]
		s.t = 0
		clear(s.m)
		clear(s.v)
	}
}

// Step applies one update θ ← θ − Δ to each params[i] using grads[i], in
// place. It panics if the lists differ in length or a gradient's shape
// differs from its parameter's.
func (a *Adam) Step(params, grads []*mat.Dense) {
	a.StepProduct(params, grads, -1, nil, nil)
}

// StepProduct is Step for a list in which params[i] is V of a product
// W = V ⊙ u (W[r, c] = V[r, c]·u[c]) and grads[i] is the gradient with
// respect to W: it steps V with gradient grads[i] ⊙ u, and sets w to the
// new V ⊙ u. The result is that of forming grads[i] ⊙ u, calling Step and
// forming V ⊙ u, bit for bit, in one pass over V instead of three (LIVI's
// output layer, the largest parameter of its step). With i < 0 it is Step.
func (a *Adam) StepProduct(params, grads []*mat.Dense, i int, u []float64, w *mat.Dense) {
	if len(params) != len(grads) {
		panic("numeric: Adam.Step params and grads differ in length")
	}
	if len(a.state) < len(params) {
		a.state = append(a.state, make([]adamState, len(params)-len(a.state))...)
	}
	a.state = a.state[:len(params)]
	b1, b2, eps := a.cfg.Beta1, a.cfg.Beta2, a.cfg.Eps
	for k, p := range params {
		g := grads[k]
		r, c := p.Dims()
		if gr, gc := g.Dims(); gr != r || gc != c {
			panic("numeric: Adam.Step gradient shape differs from parameter")
		}
		var wr blas64.General
		if k == i {
			if len(u) != c {
				panic("numeric: Adam.StepProduct scale length differs from the parameter's columns")
			}
			if wr0, wc := w.Dims(); wr0 != r || wc != c {
				panic("numeric: Adam.StepProduct product shape differs from parameter")
			}
			wr = w.RawMatrix()
		}
		s := &a.state[k]
		if s.r != r || s.c != c || s.m == nil {
			s.reshape(r, c)
		}
		s.t++
		t := float64(s.t)
		alpha := a.cfg.LR * math.Sqrt(1-math.Pow(b2, t)) / (1 - math.Pow(b1, t))
		pr, gr := p.RawMatrix(), g.RawMatrix()
		for row := range r {
			pd := pr.Data[row*pr.Stride : row*pr.Stride+c]
			gd := gr.Data[row*gr.Stride : row*gr.Stride+c]
			m, v := s.m[row*c:row*c+c], s.v[row*c:row*c+c]
			if k == i {
				fastblas.AdamUpdateScaled(pd, gd, m, v, u, wr.Data[row*wr.Stride:row*wr.Stride+c], b1, b2, alpha, eps)
				continue
			}
			fastblas.AdamUpdate(pd, gd, m, v, b1, b2, alpha, eps)
		}
	}
}

// reshape restarts the state at shape r×c, reusing the buffers when large
// enough.
func (s *adamState) reshape(r, c int) {
	n := r * c
	if cap(s.m) < n {
		s.m = make([]float64, n)
		s.v = make([]float64, n)
	}
	s.m, s.v = s.m[:n], s.v[:n]
	clear(s.m)
	clear(s.v)
	s.r, s.c, s.t = r, c, 0
}
