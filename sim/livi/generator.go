package livi

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
)

// generator is g(z) = W₂·elu(W₁z + b₁) + b₂, from noise z ∈ ℝᵈ through h
// hidden ELU units to the D weights of the network.
//
// Storage is chosen so that every long loop runs along D: W₁ is h×d
// row-major, but W₂ is stored transposed as w2t (h×D), and the Jacobian as
// jt = Jᵀ (d×D). The D×h×d products of the Jacobian term are then GEMMs
// whose long side is the columns of a row-major result (Jᵀ = Mᵀ·W₂ᵀ) or the
// inner dimension (W₂ᵀJ = w2t·jtᵀ), cut into blocks by gemm; matrix–vector
// products along D stay axpys and dot products.
type generator struct {
	d, h, out       int
	w1, b1, w2t, b2 []float64
}

// genGrad holds gradients with the generator's shapes. w2t is only
// accumulated with more than one sample per step: with one, Adam takes
// ∇W₂ᵀ as backward's low-rank factors.
type genGrad struct {
	w1, b1, w2t, b2 []float64
}

func newGenGrad(d, h, out int) *genGrad {
	return &genGrad{w1: make([]float64, h*d), b1: make([]float64, h), w2t: make([]float64, h*out), b2: make([]float64, out)}
}

// genWork holds one sample's forward values, its Jacobian and the buffers of
// the Jacobian term's backward pass; everything is sized once per d.
type genWork struct {
	z  []float64 // d
	a  []float64 // h: W₁z + b₁
	hv []float64 // h: elu(a)
	s  []float64 // h: elu'(a)
	ga []float64 // h: d loss / d a, accumulated over both paths
	mt []float64 // (d+1)×h: Mᵀ, M = diag(s)·W₁, then hᵀ (training only)
	jt []float64 // (d+1)×D: Jᵀ, J = W₂·M, then W₂h, then dθ (training only)
	p  []float64 // h×d: ∇M
	pq []float64 // h×(d+1): W₂ᵀ·fbᵀ, W₂ᵀ against the rows of the factor fb
	b  []float64 // d×d: B with d loss/dJ = J·B
	fa []float64 // h×k: ∇W₂ᵀ = fa·fb, k ≤ d+1 (training)
	f2 []float64 // 2×D: fb of the singular-value bound
	fb []float64 // k×D: w.jt or w.f2
	k  int       // rank of ∇W₂ᵀ = fa·fb
	kw *symWork  // d×d: JᵀJ + σ²I and its factorisations

	// Singular-value bound: d loss/dJ = c·(Jv)vᵀ, rank one.
	rankOne bool
	c       float64
}

func newGenWork(d, h, out int) *genWork {
	return &genWork{
		z: make([]float64, d), a: make([]float64, h), hv: make([]float64, h),
		s: make([]float64, h), ga: make([]float64, h),
		mt: make([]float64, (d+1)*h), jt: make([]float64, (d+1)*out),
		p: make([]float64, h*d), pq: make([]float64, h*(d+1)), b: make([]float64, d*d),
		fa: make([]float64, h*(d+1)), f2: make([]float64, 2*out),
		kw: newSymWork(d),
	}
}

func elu(a float64) (v, d1 float64) {
	if a > 0 {
		return a, 1
	}
	e := math.Exp(a)
	return e - 1, e
}

// chunk is the number of columns of a D-long row handled per pass of the
// axpy loop, so the pieces of all rows in play stay in the L1/L2 caches.
const chunk = 512

// gemm's blocks of C. gonum's Dgemm (the purego and non-amd64 fallback)
// runs serially and allocates nothing when C spans fewer than four of its
// 64×64 blocks; 64×192 blocks keep it there. fastblas takes any size, and
// 192 columns are 24 of its 8-wide panels.
const (
	gemmRows = 64
	gemmCols = 192
)

// gemm sets c = a·op(b) + beta·c block by block of C: a is r×k, op(b) is
// k×n (b itself k×n, or n×k when tb), c is r×n, all row-major and
// contiguous.
func gemm(tb bool, c, a, b []float64, r, k, n int, beta float64) {
	tB := blas.NoTrans
	if tb {
		tB = blas.Trans
	}
	for i0 := 0; i0 < r; i0 += gemmRows {
		rb := min(gemmRows, r-i0)
		A := blas64.General{Rows: rb, Cols: k, Stride: k, Data: a[i0*k:]}
		for j0 := 0; j0 < n; j0 += gemmCols {
			nb := min(gemmCols, n-j0)
			B := blas64.General{Rows: k, Cols: nb, Stride: n, Data: b[j0:]}
			if tb {
				B = blas64.General{Rows: nb, Cols: k, Stride: k, Data: b[j0*k:]}
			}
			blas64.Gemm(blas.NoTrans, tB, 1, A, B, beta, blas64.General{Rows: rb, Cols: nb, Stride: n, Data: c[i0*n+j0:]})
		}
	}
}

// mulAxpy sets c = a·b (or adds it, with add), a r×k, b k×n, c r×n, all
// row-major: a GEMM, or for one row of c axpys along n.
func mulAxpy(c, a, b []float64, r, k, n int, add bool) {
	if r > 1 {
		beta := 0.0
		if add {
			beta = 1
		}
		gemm(false, c, a, b, r, k, n, beta)
		return
	}
	if !add {
		clear(c[:r*n])
	}
	for c0 := 0; c0 < n; c0 += chunk {
		c1 := min(c0+chunk, n)
		for i := range r {
			ci := c[i*n+c0 : i*n+c1]
			for l, al := range a[i*k : (i+1)*k] {
				if al != 0 {
					floats.AddScaled(ci, al, b[l*n+c0:l*n+c1])
				}
			}
		}
	}
}

// mulDot sets c = a·bᵀ, a r×n, b s×n, c r×s (r ≤ 64, s small): a GEMM
// whose inner dimension n is long (fastblas reads a's rows where they lie,
// a kc-long slice at a time, and packs only b's).
func mulDot(c, a, b []float64, r, s, n int) {
	A := blas64.General{Rows: r, Cols: n, Stride: n, Data: a}
	B := blas64.General{Rows: s, Cols: n, Stride: n, Data: b}
	blas64.Gemm(blas.NoTrans, blas.Trans, 1, A, B, 0, blas64.General{Rows: r, Cols: s, Stride: s, Data: c})
}

// forward sets w.a, w.hv, w.s from w.z and writes g(z) into theta.
func (g *generator) forward(w *genWork, theta []float64) {
	for i := range g.h {
		w.a[i] = g.b1[i] + floats.Dot(g.w1[i*g.d:(i+1)*g.d], w.z)
		w.hv[i], w.s[i] = elu(w.a[i])
	}
	copy(theta, g.b2)
	mulAxpy(theta, w.hv, g.w2t, 1, g.h, g.out, true)
}

// jacobian sets w.jt = Jᵀ = Mᵀ W₂ᵀ at the last forward, J = ∂g/∂z =
// W₂·diag(elu'(a))·W₁.
func (g *generator) jacobian(w *genWork) {
	for i := range g.h {
		si := w.s[i]
		for k, v := range g.w1[i*g.d : (i+1)*g.d] {
			w.mt[k*g.h+i] = si * v
		}
	}
	mulAxpy(w.jt, w.mt, g.w2t, g.d, g.h, g.out, false)
}

// Objectives for the entropy term.
const (
	objJacobian = "jacobian" // ½ log det(JᵀJ + σ²I)
	objSVBound  = "sv-bound" // (d/2) log(s_min² + σ²), a lower bound of it
)

// gram sets w.kw.a = JᵀJ + σ²I from w.jt.
func (g *generator) gram(w *genWork, sigma2 float64) {
	// JᵀJ = jt·jtᵀ as a GEMM, then made exactly symmetric from its lower
	// triangle (the two triangles may differ in the last bit).
	mulDot(w.kw.a, w.jt, w.jt, g.d, g.d, g.out)
	symmetrize(w.kw.a, g.d, sigma2)
}

// symmetrize copies the lower triangle of the d×d k onto the upper and adds
// sigma2 to the diagonal.
func symmetrize(k []float64, d int, sigma2 float64) {
	for i := range d {
		for j := i + 1; j < d; j++ {
			k[i*d+j] = k[j*d+i]
		}
		k[i*d+i] += sigma2
	}
}

// entropyTerm returns the objective's entropy term at the Jacobian in w.jt
// (½ log det(JᵀJ + σ²I_d), or the bound (d/2) log(s_min² + σ²)) and sets up
// d loss/dJ = coef·∂term/∂J in w.b (w.rankOne, w.c). ok is false when the
// factorisation fails (non-finite J).
//
//	∂ ½ log det(JᵀJ + σ²I)/∂J = J(JᵀJ + σ²I)⁻¹,
//	∂ (d/2) log(s² + σ²)/∂J = d·s/(s² + σ²)·u vᵀ = d/(s² + σ²)·(Jv)vᵀ,
//
// the second because s·u = Jv for the right singular vector v of s_min.
func (g *generator) entropyTerm(w *genWork, sigma2 float64, objective string, coef float64) (term float64, ok bool) {
	g.gram(w, sigma2)
	return g.entropyOfGram(w, objective, coef)
}

// entropyOfGram is entropyTerm with JᵀJ + σ²I already in w.kw.a.
func (g *generator) entropyOfGram(w *genWork, objective string, coef float64) (term float64, ok bool) {
	d := g.d
	if objective == objSVBound {
		if !w.kw.eigen() {
			return math.NaN(), false
		}
		lam := w.kw.eval[0] // s_min² + σ²
		for k := range d {  // column 0 of the eigenvectors is v_min
			w.b[k] = w.kw.a[k*d]
		}
		w.rankOne, w.c = true, coef*float64(d)/lam
		return 0.5 * float64(d) * math.Log(lam), true
	}
	logDet, ok := w.kw.cholInverse()
	if !ok {
		return math.NaN(), false
	}
	for i, v := range w.kw.a {
		w.b[i] = coef * v
	}
	w.rankOne = false
	return 0.5 * logDet, true
}

// forwardTrain is forward and jacobian in one pass over W₂: with Mᵀ and
// h = elu(a) stacked as the (d+1)×h matrix w.mt, one GEMM gives Jᵀ = MᵀW₂ᵀ
// in the first d rows of w.jt and (W₂h)ᵀ in the last, and theta = W₂h + b₂.
func (g *generator) forwardTrain(w *genWork, theta []float64) {
	d, h, D := g.d, g.h, g.out
	for i := range h {
		w.a[i] = g.b1[i] + floats.Dot(g.w1[i*d:(i+1)*d], w.z)
		w.hv[i], w.s[i] = elu(w.a[i])
		si := w.s[i]
		for k, v := range g.w1[i*d : (i+1)*d] {
			w.mt[k*h+i] = si * v
		}
		w.mt[d*h+i] = w.hv[i]
	}
	mulAxpy(w.jt, w.mt, g.w2t, d+1, h, D, false)
	floats.AddTo(theta, w.jt[d*D:(d+1)*D], g.b2)
}

// backward follows forwardTrain once dtheta = d loss/dθ is known: it
// evaluates the entropy term (objective; coef scales its gradient, NaN and
// no entropy gradient when the factorisation fails) and adds the gradients
// of W₁, b₁ and b₂ into gr. The gradient of W₂ᵀ, which has rank at most
// d+1, is left as the factors w.fa·w.fb (w.k columns and rows):
//
//	∇W₂ᵀ = h·dθᵀ + R·Jᵀ with R = M·B (jacobian),
//	∇W₂ᵀ = h·dθᵀ + c(Mv)(Jv)ᵀ (sv-bound),
//
// and the products with W₂ᵀ that ∇a needs, W₂ᵀdθ and W₂ᵀJ (or W₂ᵀJv), are
// one GEMM against the rows of w.fb. For the jacobian the Gram matrix is
// then JᵀJ = Mᵀ(W₂ᵀJ), from that GEMM's result, instead of a product over
// D. With J = W₂M, M = diag(s)W₁, s = elu'(a) (package documentation):
//
//	∇M = (W₂ᵀJ)·B (or c(W₂ᵀJv)vᵀ),  ∇W₁ += diag(s)∇M + ∇a zᵀ,  ∇b₁ += ∇a,
//	∇a = s ⊙ W₂ᵀdθ + elu''(a) ⊙ rowsum(∇M ⊙ W₁);
//
// b₂ does not enter J.
func (g *generator) backward(w *genWork, dtheta []float64, sigma2 float64, objective string, coef float64, gr *genGrad) (term float64) {
	d, h, D := g.d, g.h, g.out
	floats.Add(gr.b2, dtheta)
	ok := false
	if objective == objSVBound {
		term, ok = g.entropyTerm(w, sigma2, objective, coef)
		w.fb, w.k = w.f2[:D], 1
		if ok { // fb = [Jv; dθ], Jv = (Jᵀ)ᵀv by axpys of the rows of Jᵀ
			mulAxpy(w.f2[:D], w.b[:d], w.jt, 1, d, D, false)
			w.fb, w.k = w.f2[:2*D], 2
		}
		copy(w.fb[(w.k-1)*D:], dtheta)
		mulDot(w.pq, g.w2t, w.fb, h, w.k, D)
	} else {
		// fb = [Jᵀ; dθ]: dθ replaces W₂h in the last row of w.jt.
		copy(w.jt[d*D:(d+1)*D], dtheta)
		w.fb, w.k = w.jt[:(d+1)*D], d+1
		mulDot(w.pq, g.w2t, w.fb, h, d+1, D)
		// JᵀJ = Mᵀ·(W₂ᵀJ), then symmetrised from its lower triangle.
		mt := blas64.General{Rows: d, Cols: h, Stride: h, Data: w.mt}
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, mt, blas64.General{Rows: h, Cols: d, Stride: d + 1, Data: w.pq}, 0, blas64.General{Rows: d, Cols: d, Stride: d, Data: w.kw.a})
		symmetrize(w.kw.a, d, sigma2)
		term, ok = g.entropyOfGram(w, objective, coef)
		if !ok { // only the θ path: fb = dθ
			w.fb, w.k = w.jt[d*D:(d+1)*D], 1
			mulDot(w.pq, g.w2t, w.fb, h, 1, D)
		}
	}
	k := w.k
	fa := w.fa[:h*k]
	for i := range h {
		fa[i*k+k-1] = w.hv[i]
		w.ga[i] = w.pq[i*k+k-1] * w.s[i]
	}
	if ok {
		if w.rankOne {
			v := w.b[:d]
			for i := range h { // fa's first column c·Mv, ∇M = c(W₂ᵀJv)vᵀ
				var s float64
				for l, x := range v {
					s += w.mt[l*h+i] * x
				}
				fa[i*k] = w.c * s
				u := w.c * w.pq[i*k]
				for l, x := range v {
					w.p[i*d+l] = u * x
				}
			}
		} else {
			// R = M·B = (Mᵀ)ᵀB into fa's first d columns and ∇M =
			// (W₂ᵀJ)·B, both h×d·d×d.
			B := blas64.General{Rows: d, Cols: d, Stride: d, Data: w.b}
			blas64.Gemm(blas.Trans, blas.NoTrans, 1, blas64.General{Rows: d, Cols: h, Stride: h, Data: w.mt}, B, 0, blas64.General{Rows: h, Cols: d, Stride: k, Data: fa})
			blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, blas64.General{Rows: h, Cols: d, Stride: k, Data: w.pq}, B, 0, blas64.General{Rows: h, Cols: d, Stride: d, Data: w.p})
		}
		for i := range h {
			si := w.s[i]
			w1 := g.w1[i*d : (i+1)*d]
			gm := w.p[i*d : (i+1)*d]
			gw1 := gr.w1[i*d : (i+1)*d]
			var r float64
			for c, x := range gm {
				gw1[c] += si * x
				r += x * w1[c]
			}
			if w.a[i] <= 0 { // elu''(a) = e^a = elu'(a) there, 0 for a > 0
				w.ga[i] += si * r
			}
		}
	}
	// ∇W₁ += ∇a zᵀ, ∇b₁ += ∇a.
	for i, ga := range w.ga {
		gr.b1[i] += ga
		if ga != 0 {
			floats.AddScaled(gr.w1[i*d:(i+1)*d], ga, w.z)
		}
	}
	return term
}

// addW2t adds ∇W₂ᵀ = w.fa·w.fb, the last backward's, into dst (h×D).
func (g *generator) addW2t(dst []float64, w *genWork) {
	mulAxpy(dst, w.fa[:g.h*w.k], w.fb, g.h, w.k, g.out, true)
}
