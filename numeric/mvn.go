package numeric

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// Multivariate normals held by a triangular factor, never by a covariance or
// its inverse. A covariance factor L means Σ = L Lᵀ, a
// precision factor Lp means Σ⁻¹ = Lp Lpᵀ; both are normally lower triangular
// (mat.Cholesky.LTo), though any triangular factor with that product works.
// Note that mat.Cholesky.UTo returns U with Σ = UᵀU, which is the factor Uᵀ
// here, not U. Size mismatches panic.

// SampleMVN writes x = mu + L z, z ~ N(0, I), into dst: a draw from
// N(mu, L Lᵀ). dst holds z first, so the call does not allocate.
func SampleMVN(dst, mu []float64, L *mat.TriDense, r *rand.Rand) {
	n := mvnCheck("SampleMVN", dst, mu, L)
	FillNormal(dst, r)
	blas64.Trmv(blas.NoTrans, L.RawTriangular(), blas64.Vector{N: n, Inc: 1, Data: dst})
	for i, m := range mu {
		dst[i] += m
	}
}

// SampleMVNPrecision writes x = mu + Lp⁻ᵀ z, z ~ N(0, I), into dst: a draw
// from N(mu, (Lp Lpᵀ)⁻¹) by one back substitution, without forming the
// covariance. It does not allocate.
func SampleMVNPrecision(dst, mu []float64, Lp *mat.TriDense, r *rand.Rand) {
	n := mvnCheck("SampleMVNPrecision", dst, mu, Lp)
	FillNormal(dst, r)
	blas64.Trsv(blas.Trans, Lp.RawTriangular(), blas64.Vector{N: n, Inc: 1, Data: dst})
	for i, m := range mu {
		dst[i] += m
	}
}

// MVNLogPDF returns log N(x; mu, L Lᵀ) =
// −(n/2) log 2π − Σ log|Lᵢᵢ| − ½ ‖L⁻¹(x−mu)‖², with one forward solve.
// It allocates one n-vector; MVNLogPDFScratch does not.
func MVNLogPDF(x, mu []float64, L *mat.TriDense) float64 {
	return MVNLogPDFScratch(x, mu, L, make([]float64, len(x)))
}

// MVNLogPDFScratch is MVNLogPDF using scratch (length n) as workspace.
// A singular L gives a non-finite result.
func MVNLogPDFScratch(x, mu []float64, L *mat.TriDense, scratch []float64) float64 {
	n := mvnCheck("MVNLogPDF", x, mu, L)
	d := mvnDiff(scratch, x, mu)
	blas64.Trsv(blas.NoTrans, L.RawTriangular(), blas64.Vector{N: n, Inc: 1, Data: d})
	return -float64(n)*distHalfLog2Pi - mvnLogAbsDiag(L) - 0.5*mvnDot(d, d)
}

// MVNLogPDFPrecision returns log N(x; mu, (Lp Lpᵀ)⁻¹) =
// −(n/2) log 2π + Σ log|Lpᵢᵢ| − ½ ‖Lpᵀ(x−mu)‖², using scratch (length n)
// as workspace; it does not allocate.
func MVNLogPDFPrecision(x, mu []float64, Lp *mat.TriDense, scratch []float64) float64 {
	n := mvnCheck("MVNLogPDFPrecision", x, mu, Lp)
	d := mvnDiff(scratch, x, mu)
	blas64.Trmv(blas.Trans, Lp.RawTriangular(), blas64.Vector{N: n, Inc: 1, Data: d})
	return -float64(n)*distHalfLog2Pi + mvnLogAbsDiag(Lp) - 0.5*mvnDot(d, d)
}

func mvnCheck(name string, x, mu []float64, L *mat.TriDense) int {
	n := len(mu)
	if len(x) != n || mvnOrder(L) != n {
		panic("numeric: " + name + " size mismatch")
	}
	return n
}

func mvnDiff(dst, x, mu []float64) []float64 {
	if len(dst) != len(x) {
		panic("numeric: scratch length mismatch")
	}
	for i := range x {
		dst[i] = x[i] - mu[i]
	}
	return dst
}

func mvnLogAbsDiag(L *mat.TriDense) float64 {
	n := mvnOrder(L)
	var s float64
	for i := range n {
		s += math.Log(math.Abs(L.At(i, i)))
	}
	return s
}

func mvnDot(a, b []float64) float64 {
	var s float64
	for i, v := range a {
		s += v * b[i]
	}
	return s
}
