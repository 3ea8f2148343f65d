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

// genGrad holds gradients with the generator's shapes.
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
	gh []float64 // h: d loss / d elu(a) from θ
	mt []float64 // d×h: Mᵀ, M = diag(s)·W₁
	jt []float64 // d×D: Jᵀ, J = W₂·M
	p  []float64 // h×d: W₂ᵀJ, then ∇M
	r  []float64 // h×d: M·B
	b  []float64 // d×d: B with d loss/dJ = J·B
	jv []float64 // D: J·v (singular-value bound)
	mv []float64 // h: M·v, then W₂ᵀJv
	k  *symWork  // d×d: JᵀJ + σ²I and its factorisations

	// Singular-value bound: d loss/dJ = c·(Jv)vᵀ, rank one.
	rankOne bool
	c       float64
}

func newGenWork(d, h, out int) *genWork {
	return &genWork{
		z: make([]float64, d), a: make([]float64, h), hv: make([]float64, h),
		s: make([]float64, h), ga: make([]float64, h), gh: make([]float64, h),
		mt: make([]float64, d*h), jt: make([]float64, d*out),
		p: make([]float64, h*d), r: make([]float64, h*d), b: make([]float64, d*d),
		jv: make([]float64, out), mv: make([]float64, h), k: newSymWork(d),
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

// mulDot sets c = a·bᵀ, a r×n, b s×n, c r×s: a GEMM whose inner dimension
// is n.
func mulDot(c, a, b []float64, r, s, n int) {
	gemm(true, c, a, b, r, n, s, 0)
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

// gram sets w.k.a = JᵀJ + σ²I.
func (g *generator) gram(w *genWork, sigma2 float64) {
	k, d := w.k.a, g.d
	// JᵀJ = jt·jtᵀ as a GEMM, then made exactly symmetric from its lower
	// triangle (the two triangles may differ in the last bit).
	mulDot(k, w.jt, w.jt, d, d, g.out)
	for i := range d {
		for j := i + 1; j < d; j++ {
			k[i*d+j] = k[j*d+i]
		}
		k[i*d+i] += sigma2
	}
}

// entropyTerm returns the objective's entropy term at the Jacobian in w.jt
// (½ log det(JᵀJ + σ²I_d), or the bound (d/2) log(s_min² + σ²)) and sets up
// d loss/dJ = coef·∂term/∂J for backJ. ok is false when the factorisation
// fails (non-finite J); backJ must then not be called.
//
//	∂ ½ log det(JᵀJ + σ²I)/∂J = J(JᵀJ + σ²I)⁻¹,
//	∂ (d/2) log(s² + σ²)/∂J = d·s/(s² + σ²)·u vᵀ = d/(s² + σ²)·(Jv)vᵀ,
//
// the second because s·u = Jv for the right singular vector v of s_min.
func (g *generator) entropyTerm(w *genWork, sigma2 float64, objective string, coef float64) (term float64, ok bool) {
	g.gram(w, sigma2)
	d := g.d
	if objective == objSVBound {
		if !w.k.eigen() {
			return math.NaN(), false
		}
		lam := w.k.eval[0] // s_min² + σ²
		for k := range d { // column 0 of the eigenvectors is v_min
			w.b[k] = w.k.a[k*d]
		}
		w.rankOne, w.c = true, coef*float64(d)/lam
		return 0.5 * float64(d) * math.Log(lam), true
	}
	logDet, ok := w.k.cholInverse()
	if !ok {
		return math.NaN(), false
	}
	for i, v := range w.k.a {
		w.b[i] = coef * v
	}
	w.rankOne = false
	return 0.5 * logDet, true
}

// backJ adds the gradient that flows from d loss/dJ = J·B (or c·(Jv)vᵀ) into
// gr and w.ga (package documentation): with J = W₂M, M = diag(s)W₁, s = elu'(a),
//
//	∇W₂ += (JB)Mᵀ, i.e. ∇W₂ᵀ += (MBᵀ)Jᵀ,  ∇M = W₂ᵀ(JB) = (W₂ᵀJ)B,
//	∇W₁ += diag(s)∇M,  ∇a += elu''(a) ⊙ rowsum(∇M ⊙ W₁).
//
// (b₂ does not enter J; the ∇a zᵀ part is added by backA.)
func (g *generator) backJ(w *genWork, gr *genGrad) {
	d, h, D := g.d, g.h, g.out
	if w.rankOne {
		v := w.b[:d]
		// Jv = Jᵀᵀv: axpys of the rows of Jᵀ.
		mulAxpy(w.jv, v, w.jt, 1, d, D, false)
		for i := range h { // M·v
			var s float64
			for k, x := range v {
				s += w.mt[k*h+i] * x
			}
			w.mv[i] = w.c * s
		}
		// ∇W₂ᵀ += (c·Mv)(Jv)ᵀ
		for i, x := range w.mv {
			if x != 0 {
				floats.AddScaled(gr.w2t[i*D:(i+1)*D], x, w.jv)
			}
		}
		// ∇M = c·(W₂ᵀJv)vᵀ
		for i := range h {
			u := w.c * floats.Dot(g.w2t[i*D:(i+1)*D], w.jv)
			for k, x := range v {
				w.p[i*d+k] = u * x
			}
		}
	} else {
		// R = M·Bᵀ (h×d; B is symmetric), then ∇W₂ᵀ += R·Jᵀ.
		for i := range h {
			for k := range d {
				var s float64
				for l := range d {
					s += w.mt[l*h+i] * w.b[k*d+l]
				}
				w.r[i*d+k] = s
			}
		}
		mulAxpy(gr.w2t, w.r, w.jt, h, d, D, true)
		// ∇M = (W₂ᵀJ)·B: W₂ᵀJ = w2t·(Jᵀ)ᵀ by dots along D, into r, then ·B.
		mulDot(w.r, g.w2t, w.jt, h, d, D)
		for i := range h {
			for k := range d {
				var s float64
				for l := range d {
					s += w.r[i*d+l] * w.b[l*d+k]
				}
				w.p[i*d+k] = s
			}
		}
	}
	for i := range h {
		si := w.s[i]
		w1 := g.w1[i*d : (i+1)*d]
		gm := w.p[i*d : (i+1)*d]
		gw1 := gr.w1[i*d : (i+1)*d]
		var r float64
		for k, x := range gm {
			gw1[k] += si * x
			r += x * w1[k]
		}
		if w.a[i] <= 0 { // elu''(a) = e^a = elu'(a) there, 0 for a > 0
			w.ga[i] += si * r
		}
	}
}

// backTheta adds the gradient that flows from dtheta = d loss/dθ through
// θ = g(z) + σε into gr and w.ga.
func (g *generator) backTheta(w *genWork, dtheta []float64, gr *genGrad) {
	floats.Add(gr.b2, dtheta)
	D := g.out
	for i := range g.h {
		// ∇W₂ᵀ += h·dθᵀ (rank one); ∇h = W₂ᵀdθ.
		floats.AddScaled(gr.w2t[i*D:(i+1)*D], w.hv[i], dtheta)
		w.gh[i] = floats.Dot(g.w2t[i*D:(i+1)*D], dtheta)
		w.ga[i] += w.gh[i] * w.s[i]
	}
}

// backA adds ∇W₁ += ∇a zᵀ and ∇b₁ += ∇a, the last step of both paths.
func (g *generator) backA(w *genWork, gr *genGrad) {
	for i, ga := range w.ga {
		gr.b1[i] += ga
		if ga == 0 {
			continue
		}
		floats.AddScaled(gr.w1[i*g.d:(i+1)*g.d], ga, w.z)
	}
}
