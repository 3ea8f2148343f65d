package numeric_test

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distmv"

	"github.com/posterior-playground/playground/numeric"
)

// nxLower returns the lower triangular n×n matrix with the given rows
// (row i holds i+1 entries).
func nxLower(rows ...[]float64) *mat.TriDense {
	n := len(rows)
	L := mat.NewTriDense(n, mat.Lower, nil)
	for i, r := range rows {
		for j, v := range r {
			L.SetTri(i, j, v)
		}
	}
	return L
}

// nxCov returns L Lᵀ.
func nxCov(L *mat.TriDense) *mat.SymDense {
	n, _ := L.Dims()
	s := mat.NewSymDense(n, nil)
	s.SymOuterK(1, L)
	return s
}

// nxCheckMC compares a closed-form KL with the Monte Carlo mean of
// log q(x) − log p(x), x ~ q, allowing 4 standard errors of that mean
// (sample std/√n).
func nxCheckMC(t *testing.T, name string, kl float64, terms []float64) {
	t.Helper()
	m, se := numeric.MeanSE(terms)
	if math.Abs(m-kl) > 4*se {
		t.Errorf("%s: closed form %.5f, Monte Carlo %.5f ± %.5f (4 SE)", name, kl, m, 4*se)
	}
	t.Logf("%s: closed form %.5f, Monte Carlo %.5f, SE %.5f", name, kl, m, se)
}

const nxMC = 20000

func TestKLDiagNormalMonteCarlo(t *testing.T) {
	mu := []float64{0.3, -1, 2, 0.1}
	sigma := []float64{0.5, 1.2, 0.9, 2}
	const prior = 1.5
	r := numeric.NewRand(3)
	terms := make([]float64, nxMC)
	for k := range terms {
		for i := range mu {
			x := mu[i] + sigma[i]*r.NormFloat64()
			terms[k] += numeric.NormalLogPDF(x, mu[i], sigma[i]) - numeric.NormalLogPDF(x, 0, prior)
		}
	}
	nxCheckMC(t, "KLDiagNormal", numeric.KLDiagNormal(mu, sigma, prior), terms)
}

func TestKLDiagNormalsMonteCarlo(t *testing.T) {
	mu0, s0 := []float64{0.3, -1, 2}, []float64{0.5, 1.2, 0.9}
	mu1, s1 := []float64{1, 0, 1.5}, []float64{1, 0.7, 2}
	r := numeric.NewRand(4)
	terms := make([]float64, nxMC)
	for k := range terms {
		for i := range mu0 {
			x := mu0[i] + s0[i]*r.NormFloat64()
			terms[k] += numeric.NormalLogPDF(x, mu0[i], s0[i]) - numeric.NormalLogPDF(x, mu1[i], s1[i])
		}
	}
	nxCheckMC(t, "KLDiagNormals", numeric.KLDiagNormals(mu0, s0, mu1, s1), terms)
}

// KLMVN against Monte Carlo with gonum's distmv for sampling and densities,
// and against distmv's closed form.
func TestKLMVN(t *testing.T) {
	mu0, mu1 := []float64{0.5, -1, 0.2}, []float64{0, 0.3, 1}
	L0 := nxLower([]float64{1.2}, []float64{0.4, 0.8}, []float64{-0.3, 0.5, 0.6})
	L1 := nxLower([]float64{0.9}, []float64{-0.2, 1.5}, []float64{0.7, 0.1, 1.1})
	kl, err := numeric.KLMVN(mu0, L0, mu1, L1)
	if err != nil {
		t.Fatal(err)
	}
	q, ok := distmv.NewNormal(mu0, nxCov(L0), numeric.NewRand(5))
	p, ok1 := distmv.NewNormal(mu1, nxCov(L1), nil)
	if !ok || !ok1 {
		t.Fatal("test covariance not positive definite")
	}
	if want := (distmv.KullbackLeibler{}).DistNormal(q, p); !nxClose(kl, want, 1e-12) {
		t.Errorf("KLMVN = %.17g, distmv %.17g", kl, want)
	}
	terms := make([]float64, nxMC)
	x := make([]float64, 3)
	for k := range terms {
		q.Rand(x)
		terms[k] = q.LogProb(x) - p.LogProb(x)
	}
	nxCheckMC(t, "KLMVN", kl, terms)
}

func TestKLSpecialCases(t *testing.T) {
	mu0, s0 := []float64{0.3, -1, 2}, []float64{0.5, 1.2, 0.9}
	mu1, s1 := []float64{1, 0, 1.5}, []float64{1, 0.7, 2}
	diag := func(s []float64) *mat.TriDense {
		L := mat.NewTriDense(len(s), mat.Lower, nil)
		for i, v := range s {
			L.SetTri(i, i, v)
		}
		return L
	}
	got, err := numeric.KLMVN(mu0, diag(s0), mu1, diag(s1))
	if want := numeric.KLDiagNormals(mu0, s0, mu1, s1); err != nil || !nxClose(got, want, 1e-14) {
		t.Errorf("diagonal KLMVN = %.17g (%v), KLDiagNormals %.17g", got, err, want)
	}
	if a, b := numeric.KLDiagNormal(mu0, s0, 1.7), numeric.KLDiagNormals(mu0, s0, make([]float64, 3), []float64{1.7, 1.7, 1.7}); !nxClose(a, b, 1e-14) {
		t.Errorf("KLDiagNormal %.17g != KLDiagNormals with zero mean %.17g", a, b)
	}
	if kl := numeric.KLDiagNormals(mu0, s0, mu0, s0); kl != 0 {
		t.Errorf("KL of identical diagonal normals = %g", kl)
	}
	L := nxLower([]float64{1.2}, []float64{0.4, 0.8}, []float64{-0.3, 0.5, 0.6})
	if kl, err := numeric.KLMVN(mu0, L, mu0, L); err != nil || math.Abs(kl) > 1e-15 {
		t.Errorf("KL of identical normals = %g (%v)", kl, err)
	}
	// Standard normal against N(0, s²): ½ n (1/s² − 1 + log s²).
	id := diag([]float64{1, 1, 1})
	s := diag([]float64{2, 2, 2})
	if kl, _ := numeric.KLMVN(make([]float64, 3), id, make([]float64, 3), s); !nxClose(kl, 1.5*(0.25-1+math.Log(4)), 1e-15) {
		t.Errorf("KL(N(0,I) ‖ N(0,4I)) = %.17g", kl)
	}
	sing := nxLower([]float64{1}, []float64{0.5, 0}, []float64{0.1, 0.2, 1})
	if _, err := numeric.KLMVN(mu0, L, mu1, sing); !errors.Is(err, numeric.ErrSingularFactor) {
		t.Errorf("singular factor: error %v", err)
	}
}
