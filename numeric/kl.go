package numeric

import (
	"errors"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// ErrSingularFactor reports a triangular factor with a zero on its diagonal
// (a singular covariance) or a result that is not finite.
var ErrSingularFactor = errors.New("numeric: singular or non-finite covariance factor")

// KLDiagNormal returns KL(N(mu, diag sigma²) ‖ N(0, priorSigma² I)), the
// mean-field VI's KL term:
// ½ Σᵢ [σᵢ²/s² + μᵢ²/s² − 1 + log s² − log σᵢ²].
// It panics if mu and sigma differ in length.
func KLDiagNormal(mu, sigma []float64, priorSigma float64) float64 {
	if len(mu) != len(sigma) {
		panic("numeric: KLDiagNormal length mismatch")
	}
	inv := 1 / (priorSigma * priorSigma)
	logP := math.Log(priorSigma)
	var kl float64
	for i, m := range mu {
		s := sigma[i]
		kl += 0.5*(s*s+m*m)*inv - 0.5 + logP - math.Log(s)
	}
	return kl
}

// KLDiagNormals returns KL(N(mu0, diag s0²) ‖ N(mu1, diag s1²)), the sum over
// coordinates of log(s1/s0) + (s0² + (mu0−mu1)²)/(2 s1²) − ½.
// It panics if the slices differ in length.
func KLDiagNormals(mu0, s0, mu1, s1 []float64) float64 {
	n := len(mu0)
	if len(s0) != n || len(mu1) != n || len(s1) != n {
		panic("numeric: KLDiagNormals length mismatch")
	}
	var kl float64
	for i := range n {
		d := mu0[i] - mu1[i]
		r := s0[i] / s1[i]
		kl += 0.5*(r*r+d*d/(s1[i]*s1[i])) - 0.5 - math.Log(r)
	}
	return kl
}

// KLMVN returns KL(N(mu0, L0 L0ᵀ) ‖ N(mu1, L1 L1ᵀ)) from triangular factors
// (normally the lower factors from mat.Cholesky.LTo):
//
//	½ [‖L1⁻¹L0‖²_F + ‖L1⁻¹(mu1−mu0)‖² − n] + Σ log|L1ᵢᵢ| − Σ log|L0ᵢᵢ|,
//
// using triangular solves only. It allocates an n×n and an n-vector workspace.
// It returns ErrSingularFactor if either factor has a zero diagonal entry or
// the result is not finite, and panics on mismatched sizes.
func KLMVN(mu0 []float64, L0 *mat.TriDense, mu1 []float64, L1 *mat.TriDense) (float64, error) {
	n := len(mu0)
	if len(mu1) != n || mvnOrder(L0) != n || mvnOrder(L1) != n {
		panic("numeric: KLMVN size mismatch")
	}
	var logDet float64 // Σ log|L1ᵢᵢ| − Σ log|L0ᵢᵢ| = ½ log(|Σ1|/|Σ0|)
	for i := range n {
		a, b := L0.At(i, i), L1.At(i, i)
		if a == 0 || b == 0 {
			return math.NaN(), ErrSingularFactor
		}
		logDet += math.Log(math.Abs(b)) - math.Log(math.Abs(a))
	}
	l1 := L1.RawTriangular()

	// tr(Σ1⁻¹Σ0) = ‖L1⁻¹L0‖²_F.
	m := mat.NewDense(n, n, nil)
	m.Copy(L0)
	blas64.Trsm(blas.Left, blas.NoTrans, 1, l1, m.RawMatrix())
	tr := mat.Norm(m, 2)
	tr *= tr

	// Mahalanobis term ‖L1⁻¹(mu1−mu0)‖².
	d := make([]float64, n)
	for i := range d {
		d[i] = mu1[i] - mu0[i]
	}
	blas64.Trsv(blas.NoTrans, l1, blas64.Vector{N: n, Inc: 1, Data: d})
	q := mvnDot(d, d)

	kl := 0.5*(tr+q-float64(n)) + logDet
	if math.IsNaN(kl) || math.IsInf(kl, 0) {
		return kl, ErrSingularFactor
	}
	return kl, nil
}

// mvnOrder returns the order of t (0 for an empty TriDense).
func mvnOrder(t *mat.TriDense) int {
	if t.IsEmpty() {
		return 0
	}
	n, _ := t.Dims()
	return n
}
