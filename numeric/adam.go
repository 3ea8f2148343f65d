package numeric

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/posterior-playground/playground/numeric/internal/kernels"
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
// The elementwise update is kernels.AdamUpdate: four lanes at a time on
// AVX2, rounded exactly as the scalar loop.
//
// Step allocates nothing once every parameter has been seen at its current
// shape. An Adam is not safe for concurrent use.
type Adam struct {
	cfg     AdamConfig
	state   []adamState
	scratch []float64 // StepProductLowRank's rows of the gradient
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
	a.step(params, grads, i, u, w, false, blas64.General{}, blas64.General{})
}

// step is StepProduct, taking the gradient of params[i] as fa·fb when
// lowRank.
func (a *Adam) step(params, grads []*mat.Dense, i int, u []float64, w *mat.Dense, lowRank bool, fa, fb blas64.General) {
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
		if !lowRank || k != i {
			if gr, gc := g.Dims(); gr != r || gc != c {
				panic("numeric: Adam.Step gradient shape differs from parameter")
			}
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
		pr := p.RawMatrix()
		if lowRank && k == i {
			a.stepLowRank(pr, wr, s, u, alpha, fa, fb)
			continue
		}
		gr := g.RawMatrix()
		if k != i && pr.Stride == c && gr.Stride == c {
			// Contiguous: one pass, so only the last few values miss the
			// kernel's four lanes rather than a few in every row.
			kernels.AdamUpdate(pr.Data[:r*c], gr.Data[:r*c], s.m, s.v, b1, b2, alpha, eps)
			continue
		}
		for row := range r {
			pd := pr.Data[row*pr.Stride : row*pr.Stride+c]
			gd := gr.Data[row*gr.Stride : row*gr.Stride+c]
			m, v := s.m[row*c:row*c+c], s.v[row*c:row*c+c]
			if k == i {
				kernels.AdamUpdateScaled(pd, gd, m, v, u, wr.Data[row*wr.Stride:row*wr.Stride+c], b1, b2, alpha, eps)
				continue
			}
			kernels.AdamUpdate(pd, gd, m, v, b1, b2, alpha, eps)
		}
	}
}

// StepProductLowRank forms its gradient lowRankRows rows at a time, by GEMMs
// of lowRankCols columns each (fewer than four of gonum's 64×64 blocks, below
// which its Dgemm, the purego fallback, runs serially and allocates
// nothing), and then updates those rows whole: long contiguous runs of V,
// its moments and W, which the hardware prefetcher follows, where blocks of
// many short row pieces left the update waiting on memory.
const (
	lowRankRows = 12
	lowRankCols = 192
)

// StepProductLowRank is StepProduct for a parameter params[i] whose gradient
// with respect to W is the product fa·fb of an r×k and a k×c matrix, k small,
// instead of a stored matrix (grads[i] is not read and may be nil). The
// product is formed block by block into scratch and each block is consumed
// by the update at once, so the step makes one pass over V, its moments and
// W and none over a stored r×c gradient. The update is StepProduct's for the
// gradient fa·fb, whose entries round as the BLAS's GEMM rounds them, or
// for k ≤ 2 as fa[r,0]·fb[0,c] + fa[r,1]·fb[1,c] (kernels.AdamUpdateRank2,
// which forms them in its own pass).
func (a *Adam) StepProductLowRank(params, grads []*mat.Dense, i int, u []float64, w *mat.Dense, fa, fb blas64.General) {
	if i < 0 || i >= len(params) {
		panic("numeric: Adam.StepProductLowRank index out of range")
	}
	r, c := params[i].Dims()
	if fa.Rows != r || fb.Cols != c || fa.Cols != fb.Rows {
		panic("numeric: Adam.StepProductLowRank factor shapes differ from the parameter")
	}
	a.step(params, grads, i, u, w, true, fa, fb)
}

// stepLowRank updates the r×c parameter p (state s, step size alpha) with
// gradient (fa·fb) ⊙ u, setting w = p ⊙ u.
func (a *Adam) stepLowRank(p, w blas64.General, s *adamState, u []float64, alpha float64, fa, fb blas64.General) {
	r, c := p.Rows, p.Cols
	b1, b2, eps := a.cfg.Beta1, a.cfg.Beta2, a.cfg.Eps
	if fa.Cols <= 2 {
		// Rank one or two: the update forms a0·x + a1·y itself.
		x, y := fb.Data[:c], fb.Data[:c]
		if fa.Cols == 2 {
			y = fb.Data[fb.Stride : fb.Stride+c]
		}
		for row := range r {
			a0, a1 := fa.Data[row*fa.Stride], 0.0
			if fa.Cols == 2 {
				a1 = fa.Data[row*fa.Stride+1]
			}
			o := row * c
			kernels.AdamUpdateRank2(p.Data[row*p.Stride:row*p.Stride+c], x, y, a0, a1, s.m[o:o+c], s.v[o:o+c], u, w.Data[row*w.Stride:row*w.Stride+c], b1, b2, alpha, eps)
		}
		return
	}
	if cap(a.scratch) < lowRankRows*c {
		a.scratch = make([]float64, lowRankRows*c)
	}
	for r0 := 0; r0 < r; r0 += lowRankRows {
		rb := min(lowRankRows, r-r0)
		A := blas64.General{Rows: rb, Cols: fa.Cols, Stride: fa.Stride, Data: fa.Data[r0*fa.Stride:]}
		for c0 := 0; c0 < c; c0 += lowRankCols {
			nb := min(lowRankCols, c-c0)
			g := blas64.General{Rows: rb, Cols: nb, Stride: c, Data: a.scratch[c0:]}
			blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, A, blas64.General{Rows: fb.Rows, Cols: nb, Stride: fb.Stride, Data: fb.Data[c0:]}, 0, g)
		}
		for i := range rb {
			row, o := r0+i, (r0+i)*c
			kernels.AdamUpdateScaled(p.Data[row*p.Stride:row*p.Stride+c], a.scratch[i*c:i*c+c], s.m[o:o+c], s.v[o:o+c], u, w.Data[row*w.Stride:row*w.Stride+c], b1, b2, alpha, eps)
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
