package gip

import (
	"math"
	"slices"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// evaluator runs plain float64 forward passes of the inducing rows stacked
// on r extra input rows (the data, or a prediction grid), with buffers sized
// once for the current M and r.
type evaluator struct {
	m, r   int
	layers []evalLayer
	out    []float64 // final outputs of the extra rows
}

type evalLayer struct {
	n, d    int
	a       blas64.General // Ã: (M+r)×n, ones in the last column
	z       blas64.General // Ã W: (M+r)×d
	b       blas64.General // √λ ⊙ Φ, M×n
	cv      blas64.General // √λ ⊙ V, M×d
	p       blas64.General // P, then its Cholesky factor in the lower triangle
	half    blas64.General // L⁻¹ΦᵀΛV, n×d
	mean    blas64.General // M_l, n×d
	w       blas64.General // W_l, n×d
	e       blas64.General // E, n×d
	linv    blas64.General // L⁻¹, n×n
	sqrtLam []float64
}

func newGeneral(r, c int) blas64.General {
	return blas64.General{Rows: r, Cols: c, Stride: c, Data: make([]float64, r*c)}
}

func newEvaluator(m *Method, r int) *evaluator {
	ev := &evaluator{m: m.m, r: r, out: make([]float64, r)}
	for l := range m.arch.Layers() {
		n, d := m.arch.InDim(l), m.arch.OutDim(l)
		ev.layers = append(ev.layers, evalLayer{
			n: n, d: d,
			a: newGeneral(m.m+r, n), z: newGeneral(m.m+r, d),
			b: newGeneral(m.m, n), cv: newGeneral(m.m, d),
			p: newGeneral(n, n), half: newGeneral(n, d), mean: newGeneral(n, d),
			w: newGeneral(n, d), e: newGeneral(n, d), linv: newGeneral(n, n),
			sqrtLam: make([]float64, m.m),
		})
	}
	return ev
}

// passResult is what one forward pass can report; KL needs wantKL.
type passResult struct {
	kl, logP, logQ float64
	ok             bool
}

// pass draws one weight sample and pushes the inducing inputs and xs through
// it, leaving the outputs for xs in ev.out. The noise E of each layer is
// drawn from m.erng, unless eps is non-nil (eps[l] holds layer l's E,
// row-major), as tests use to compare with the tape. It allocates nothing.
func (m *Method) pass(ev *evaluator, xs []float64, eps [][]float64, wantKL bool) passResult {
	res := passResult{ok: true}
	M := m.m
	u0 := m.u0.RawMatrix().Data
	const log2pi = 2 * model.HalfLog2Pi
	act := m.arch.Act
	for l := range ev.layers {
		ly := &ev.layers[l]
		n, d := ly.n, ly.d
		sd := m.priorStd(l)
		prec := 1 / (sd * sd)

		// Ã = [φ(Z_{l−1}) 1].
		a := ly.a
		if l == 0 {
			for i := range M + len(xs) {
				x := 0.0
				if i < M {
					x = u0[i]
				} else {
					x = xs[i-M]
				}
				a.Data[i*a.Stride] = x
				a.Data[i*a.Stride+1] = 1
			}
		} else {
			z := ev.layers[l-1].z
			for i := range a.Rows {
				row := a.Data[i*a.Stride : i*a.Stride+n]
				for j, x := range z.Data[i*z.Stride : i*z.Stride+n-1] {
					row[j] = act.Apply(x)
				}
				row[n-1] = 1
			}
		}
		// B = √λ ⊙ Φ, C = √λ ⊙ V, so P = σ⁻²I + BᵀB and ΦᵀΛV = BᵀC.
		lam := m.logLam[l].RawMatrix().Data
		vr := m.v[l].RawMatrix()
		for i := range M {
			s := math.Exp(0.5 * lam[i])
			ly.sqrtLam[i] = s
			for j := range n {
				ly.b.Data[i*n+j] = s * a.Data[i*a.Stride+j]
			}
			for j := range d {
				ly.cv.Data[i*d+j] = s * vr.Data[i*vr.Stride+j]
			}
		}
		clear(ly.p.Data)
		for i := range n {
			ly.p.Data[i*n+i] = prec
		}
		// Gemm rather than Syrk: gonum's Gemm kernels are several times faster here.
		blas64.Gemm(blas.Trans, blas.NoTrans, 1, ly.b, ly.b, 1, ly.p)
		// P ≥ σ⁻²I, so no jitter is needed; a failure here means non-finite parameters.
		chol, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Lower, N: n, Stride: n, Data: ly.p.Data})
		if !ok {
			res.ok = false
		}
		blas64.Gemm(blas.Trans, blas.NoTrans, 1, ly.b, ly.cv, 0, ly.half)
		blas64.Trsm(blas.Left, blas.NoTrans, 1, chol, ly.half)

		// E, then W = L⁻ᵀ(L⁻¹ΦᵀΛV + E) = M_l + L⁻ᵀE.
		if eps != nil {
			copy(ly.e.Data, eps[l])
		} else {
			numeric.FillNormal(ly.e.Data, m.erng)
		}
		var sumLogDiag, ee float64
		for i := range n {
			sumLogDiag += math.Log(ly.p.Data[i*n+i])
		}
		for _, x := range ly.e.Data {
			ee += x * x
		}
		for i, x := range ly.half.Data {
			ly.w.Data[i] = x + ly.e.Data[i]
		}
		blas64.Trsm(blas.Left, blas.Trans, 1, chol, ly.w)

		// log q: per column −n/2 log 2π + Σ log L_ii − ½‖e_d‖²; log p: i.i.d. N(0, σ²).
		res.logQ += float64(d)*(-0.5*float64(n)*log2pi+sumLogDiag) - 0.5*ee
		var ww float64
		for _, x := range ly.w.Data {
			ww += x * x
		}
		res.logP += -0.5*float64(n*d)*(log2pi+math.Log(sd*sd)) - 0.5*prec*ww

		if wantKL {
			copy(ly.mean.Data, ly.half.Data)
			blas64.Trsm(blas.Left, blas.Trans, 1, chol, ly.mean)
			clear(ly.linv.Data)
			for i := range n {
				ly.linv.Data[i*n+i] = 1
			}
			blas64.Trsm(blas.Left, blas.NoTrans, 1, chol, ly.linv)
			var trS, mm float64
			for _, x := range ly.linv.Data {
				trS += x * x
			}
			for _, x := range ly.mean.Data {
				mm += x * x
			}
			res.kl += 0.5 * (float64(d)*(trS*prec-float64(n)+float64(n)*math.Log(sd*sd)+2*sumLogDiag) + mm*prec)
		}

		// Two products of at most max(M, r) rows each keep gonum's Dgemm serial
		// (it spawns goroutines from 4 blocks of 64 rows/columns).
		for _, rows := range [2][2]int{{0, M}, {M, M + len(xs)}} {
			if rows[1] == rows[0] {
				continue
			}
			ar := blas64.General{Rows: rows[1] - rows[0], Cols: n, Stride: a.Stride, Data: a.Data[rows[0]*a.Stride:]}
			zr := blas64.General{Rows: rows[1] - rows[0], Cols: d, Stride: ly.z.Stride, Data: ly.z.Data[rows[0]*ly.z.Stride:]}
			blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, ar, ly.w, 0, zr)
		}
	}
	z := ev.layers[len(ev.layers)-1].z
	for i := range xs {
		ev.out[i] = z.Data[(M+i)*z.Stride]
	}
	return res
}

// logLik returns Σ_k log N(y_k; ev.out_k, σ_n²).
func (m *Method) logLik(ev *evaluator) float64 {
	ll, _ := model.LogLikAt(ev.out, nil, sim.Regression, m.d.Y, m.logSig.At(0, 0), 0)
	return ll
}

// evaluatorFor returns *cache if it fits the current M and r extra rows,
// else a new one stored there.
func (m *Method) evaluatorFor(cache **evaluator, r int) *evaluator {
	if *cache == nil || (*cache).m != m.m || (*cache).r != r {
		*cache = newEvaluator(m, r)
	}
	return *cache
}

func (m *Method) dataEvaluator() *evaluator { return m.evaluatorFor(&m.ev, m.d.N()) }

// ELBO returns a fresh single-sample estimate of the ELBO with analytic KL
// (package documentation), whole data set, nats.
func (m *Method) ELBO() float64 {
	ev := m.dataEvaluator()
	r := m.pass(ev, m.d.X, nil, true)
	if !r.ok {
		return math.NaN()
	}
	return m.logLik(ev) - r.kl
}

// IWBO returns one estimate of the importance-weighted bound with k samples
// logsumexp_k(log p(Y|W_k) + log p(W_k) − log q(W_k)) − log k.
func (m *Method) IWBO(k int) float64 {
	if k < 1 {
		return math.NaN()
	}
	ev := m.dataEvaluator()
	m.iw = slices.Grow(m.iw[:0], k)
	for range k {
		r := m.pass(ev, m.d.X, nil, false)
		if !r.ok {
			return math.NaN()
		}
		m.iw = append(m.iw, m.logLik(ev)+r.logP-r.logQ)
	}
	return numeric.LogSumExp(m.iw) - math.Log(float64(k))
}

// Predict draws samples functions f (no observation noise) on xs, pushing
// xs and the inducing inputs through each weight sample together.
func (m *Method) Predict(xs []float64, samples int) sim.Predictive {
	p := sim.Predictive{X: append([]float64(nil), xs...), Samples: make([][]float64, samples)}
	ev := m.evaluatorFor(&m.pev, len(xs))
	for s := range samples {
		m.pass(ev, xs, nil, false)
		p.Samples[s] = append([]float64(nil), ev.out...)
	}
	return p
}
