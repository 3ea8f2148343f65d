package numeric

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// SSGEBandwidth selects how the spectral Stein gradient estimator chooses
// its RBF kernel's bandwidth from the samples (the median heuristic).
type SSGEBandwidth int

const (
	// BandwidthPerDim is the FBNN variant (the default): one bandwidth per
	// dimension j, w_j = median over all M² ordered pairs of |x_aj − x_bj|,
	// times √p.
	BandwidthPerDim SSGEBandwidth = iota
	// BandwidthEuclidean is the original SSGE: one bandwidth, the median
	// over all M² ordered pairs of the Euclidean distance ‖x_a − x_b‖.
	BandwidthEuclidean
)

// DefaultSSGEThreshold is FBNN's eigenvalue-ratio threshold.
const DefaultSSGEThreshold = 0.99

// ssgeEigenFloor drops eigenpairs with λ_j < ssgeEigenFloor·λ_max even when a
// fixed J asks for them: their eigenvectors are rounding noise and 1/λ_j
// would amplify it without bound.
const ssgeEigenFloor = 1e-10

// SSGEOptions configures one Score call.
type SSGEOptions struct {
	Bandwidth SSGEBandwidth
	// NumEigen fixes J, the number of eigenfunctions, when positive.
	// Otherwise J is chosen by Threshold.
	NumEigen int
	// Threshold picks J as the number of leading eigenvalues whose
	// normalised cumulative sum stays strictly below it (at least 1);
	// 0 means DefaultSSGEThreshold.
	Threshold float64
	// Eta is a ridge η added to the kernel matrix's diagonal (FBNN uses 0).
	Eta float64
}

// SSGE is the spectral Stein gradient estimator (Shi, Sun & Zhu 2018): it
// estimates the score ∇ log q at M samples of an unknown density q on R^p
// from the samples alone, by expanding the score in the leading Nyström
// eigenfunctions of an RBF kernel (steps: Score).
//
// An SSGE holds reusable buffers: after the first call at a given (M, p),
// Score allocates nothing (the eigendecomposition goes through
// lapack64.Syev with a preallocated workspace). It is not safe for
// concurrent use.
type SSGE struct {
	m, p   int
	width  []float64 // p bandwidths (all equal for BandwidthEuclidean)
	z      []float64 // M×p samples divided by the bandwidths
	k      []float64 // M×M kernel matrix, then its eigenvectors (columns)
	lambda []float64 // M eigenvalues, ascending
	work   []float64 // Syev workspace
	grad   []float64 // M×p: G_m = (1/M) Σ_a ∇₁k(x_a, x_m)
	coef   []float64 // J×p: U_Jᵀ G, then scaled by 1/λ
	rs     []float64 // M row sums of K
	dists  []float64 // M(M−1)/2 pairwise distances, for the median
	j      int
}

// NumEigen returns J, the number of eigenfunctions used by the last Score.
func (s *SSGE) NumEigen() int { return s.j }

// Bandwidths returns the p bandwidths used by the last Score. The slice is
// owned by s and overwritten by the next call.
func (s *SSGE) Bandwidths() []float64 { return s.width }

// resize sizes the buffers for M samples in p dimensions, reallocating only
// on a change of shape.
func (s *SSGE) resize(m, p int) {
	if s.m == m && s.p == p && s.work != nil {
		return
	}
	s.m, s.p = m, p
	s.width = grow(s.width, p)
	s.z = grow(s.z, m*p)
	s.k = grow(s.k, m*m)
	s.lambda = grow(s.lambda, m)
	s.grad = grow(s.grad, m*p)
	s.coef = grow(s.coef, m*p)
	s.rs = grow(s.rs, m)
	s.dists = grow(s.dists, m*(m-1)/2)
	// Workspace query: Dsyev reports its optimal size in work[0].
	var q [1]float64
	lapack64.Syev(lapack.EVCompute, blas64.Symmetric{Uplo: blas.Upper, N: m, Stride: m, Data: s.k}, s.lambda, q[:], -1)
	s.work = make([]float64, max(int(q[0]), 3*m))
}

// Score writes into dst (M×p) the estimate of ∇ log q at each of the M
// samples (rows of samples, M×p). It returns an error, leaving dst
// unspecified, when there are fewer than two samples or the
// eigendecomposition fails; it panics if dst's shape differs from
// samples'.
//
// Steps: bandwidths by the median heuristic; K_ab =
// exp(−½ Σ_j (x_aj − x_bj)²/w_j²) (+ηI); K = U diag(λ) Uᵀ; keep the top J
// eigenpairs; at the samples ψ_j(x_a) = √M·(λ_j − η)/λ_j·U_aj (√M U_aj for
// η = 0) and β_j = −(√M/λ_j) Σ_m U_mj G_m with G_m = (1/M) Σ_a ∇₁k(x_a, x_m),
// so
//
//	ĝ = Σ_j ψ_j β_jᵀ = −M · U_J diag((λ_J − η)/λ_J²) U_Jᵀ G.
func (s *SSGE) Score(dst, samples *mat.Dense, opts SSGEOptions) error {
	m, p := samples.Dims()
	if r, c := dst.Dims(); r != m || c != p {
		panic(fmt.Sprintf("numeric: SSGE.Score dst is %d×%d, samples %d×%d", r, c, m, p))
	}
	if m < 2 || p < 1 {
		return fmt.Errorf("numeric: SSGE needs at least 2 samples in at least 1 dimension, got %d×%d", m, p)
	}
	s.resize(m, p)
	x := samples.RawMatrix()
	s.bandwidths(x, opts.Bandwidth)

	// Scaled samples z = x/w make the kernel an isotropic RBF of width 1.
	for a := range m {
		row := x.Data[a*x.Stride : a*x.Stride+p]
		for j, v := range row {
			s.z[a*p+j] = v / s.width[j]
		}
	}
	for a := range m {
		za := s.z[a*p : (a+1)*p]
		s.k[a*m+a] = 1
		for b := range a {
			zb := s.z[b*p : (b+1)*p]
			var d2 float64
			for j, v := range za {
				d := v - zb[j]
				d2 += d * d
			}
			v := math.Exp(-0.5 * d2)
			s.k[a*m+b], s.k[b*m+a] = v, v
		}
	}

	// G_m = −(1/M) Σ_a K_am (x_a − x_m)/w² = −(1/(M·w)) [(K z)_m − r_m z_m],
	// with r_m = Σ_a K_am; computed from the kernel itself, before the ridge
	// is added and before Syev overwrites K.
	for a := range m {
		var r float64
		for _, v := range s.k[a*m : (a+1)*m] {
			r += v
		}
		s.rs[a] = r
	}
	kz := general(m, p, s.grad)
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, general(m, m, s.k), general(m, p, s.z), 0, kz)
	inv := 1 / float64(m)
	for a := range m {
		za := s.z[a*p : (a+1)*p]
		ga := s.grad[a*p : (a+1)*p]
		for j := range ga {
			ga[j] = -inv * (ga[j] - s.rs[a]*za[j]) / s.width[j]
		}
	}
	for a := range m {
		s.k[a*m+a] += opts.Eta // the ridge enters the eigendecomposition only
	}

	if !lapack64.Syev(lapack.EVCompute, blas64.Symmetric{Uplo: blas.Upper, N: m, Stride: m, Data: s.k}, s.lambda, s.work, len(s.work)) {
		return errors.New("numeric: SSGE eigendecomposition did not converge")
	}
	s.j = s.pickJ(opts)
	if s.j == 0 {
		return errors.New("numeric: SSGE kernel matrix has no positive eigenvalue")
	}

	// The top J eigenvectors are the last J columns of the row-major M×M
	// eigenvector matrix.
	j := s.j
	uj := blas64.General{Rows: m, Cols: j, Stride: m, Data: s.k[m-j:]}
	c := general(j, p, s.coef[:j*p])
	blas64.Gemm(blas.Trans, blas.NoTrans, 1, uj, general(m, p, s.grad), 0, c)
	for i := range j {
		// ψ_j(x_a) = (√M/λ_j) Σ_m k(x_a, x_m) U_mj = √M·(λ_j − η)/λ_j·U_aj,
		// because the ridge is not part of the kernel k.
		l := s.lambda[m-j+i]
		f := (l - opts.Eta) / (l * l)
		row := s.coef[i*p : (i+1)*p]
		for q := range row {
			row[q] *= f
		}
	}
	out := dst.RawMatrix()
	blas64.Gemm(blas.NoTrans, blas.NoTrans, -float64(m), uj, c, 0, out)
	return nil
}

// pickJ returns the number of eigenpairs to keep, given eigenvalues in
// ascending order.
func (s *SSGE) pickJ(opts SSGEOptions) int {
	m := s.m
	lmax := s.lambda[m-1]
	if !(lmax > 0) {
		return 0
	}
	usable := 0 // eigenvalues above the floor, counted from the top
	for i := m - 1; i >= 0 && s.lambda[i] > ssgeEigenFloor*lmax; i-- {
		usable++
	}
	if opts.NumEigen > 0 {
		return min(opts.NumEigen, usable)
	}
	thr := opts.Threshold
	if thr == 0 {
		thr = DefaultSSGEThreshold
	}
	var total float64
	for _, l := range s.lambda[:m] {
		total += l
	}
	j := 0
	var cum float64
	for i := m - 1; i >= 0; i-- {
		cum += s.lambda[i] / total
		if !(cum < thr) {
			break
		}
		j++
	}
	return min(max(j, 1), usable)
}

// bandwidths sets s.width by the median heuristic. The median over all M²
// ordered pairs, taken (as FBNN and SSGE do with top_k) as the ⌊M²/2⌋-th
// largest value, counts every unordered pair twice and the M zero
// self-distances once; for M ≥ 2 it is therefore the ⌈⌊M²/2⌋/2⌉-th largest
// of the M(M−1)/2 distinct pairs. A bandwidth below 1e-6 (all samples equal
// in that dimension) gets 1 added, as in FBNN.
func (s *SSGE) bandwidths(x blas64.General, rule SSGEBandwidth) {
	m, p := s.m, s.p
	rank := (m*m/2 + 1) / 2 // 1-based rank from the top among distinct pairs
	median := func() float64 { return selectKth(s.dists, len(s.dists)-rank) }
	fix := func(w float64) float64 {
		if w < 1e-6 {
			w++
		}
		return w
	}
	if rule == BandwidthEuclidean {
		n := 0
		for a := range m {
			xa := x.Data[a*x.Stride : a*x.Stride+p]
			for b := range a {
				xb := x.Data[b*x.Stride : b*x.Stride+p]
				var d2 float64
				for j, v := range xa {
					d := v - xb[j]
					d2 += d * d
				}
				s.dists[n] = math.Sqrt(d2)
				n++
			}
		}
		w := fix(median())
		for j := range s.width {
			s.width[j] = w
		}
		return
	}
	sp := math.Sqrt(float64(p))
	for j := range p {
		n := 0
		for a := range m {
			v := x.Data[a*x.Stride+j]
			for b := range a {
				s.dists[n] = math.Abs(v - x.Data[b*x.Stride+j])
				n++
			}
		}
		s.width[j] = fix(median() * sp)
	}
}

// selectKth returns the k-th smallest (0-based) of v, reordering v
// (Hoare's quickselect with a median-of-three pivot: linear time on
// average, no allocation).
func selectKth(v []float64, k int) float64 {
	lo, hi := 0, len(v)-1
	for lo < hi {
		mid := lo + (hi-lo)/2
		if v[mid] < v[lo] {
			v[mid], v[lo] = v[lo], v[mid]
		}
		if v[hi] < v[lo] {
			v[hi], v[lo] = v[lo], v[hi]
		}
		if v[hi] < v[mid] {
			v[hi], v[mid] = v[mid], v[hi]
		}
		pivot := v[mid]
		i, j := lo, hi
		for i <= j {
			for v[i] < pivot {
				i++
			}
			for v[j] > pivot {
				j--
			}
			if i <= j {
				v[i], v[j] = v[j], v[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return v[k]
		}
	}
	return v[k]
}
