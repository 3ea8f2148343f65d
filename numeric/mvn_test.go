package numeric_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distmv"

	"github.com/posterior-playground/playground/numeric"
)

var (
	nxMu = []float64{0.5, -1, 2}
	nxL  = nxLower([]float64{1.2}, []float64{0.4, 0.8}, []float64{-0.3, 0.5, 0.6})
)

// nxPrecisionFactor returns the lower Cholesky factor of Σ⁻¹ and Σ itself.
func nxPrecisionFactor(t *testing.T) (*mat.TriDense, *mat.SymDense) {
	t.Helper()
	prec := mat.NewSymDense(3, []float64{
		2, 0.6, -0.4,
		0.6, 1.5, 0.3,
		-0.4, 0.3, 0.8,
	})
	var ch mat.Cholesky
	if !ch.Factorize(prec) {
		t.Fatal("test precision not positive definite")
	}
	var Lp mat.TriDense
	ch.LTo(&Lp)
	var cov mat.SymDense
	if err := ch.InverseTo(&cov); err != nil {
		t.Fatal(err)
	}
	return &Lp, &cov
}

// The sample is exactly mu + L z for the z the same stream gives FillNormal.
func TestSampleMVNExact(t *testing.T) {
	x, z := make([]float64, 3), make([]float64, 3)
	numeric.SampleMVN(x, nxMu, nxL, numeric.NewRand(9))
	numeric.FillNormal(z, numeric.NewRand(9))
	var lz mat.VecDense
	lz.MulVec(nxL, mat.NewVecDense(3, z))
	for i := range x {
		if want := nxMu[i] + lz.AtVec(i); math.Abs(x[i]-want) > 1e-14 {
			t.Errorf("x[%d] = %.17g, want %.17g", i, x[i], want)
		}
	}
}

// The precision sample solves Lpᵀ (x − mu) = z.
func TestSampleMVNPrecisionExact(t *testing.T) {
	Lp, _ := nxPrecisionFactor(t)
	x, z := make([]float64, 3), make([]float64, 3)
	numeric.SampleMVNPrecision(x, nxMu, Lp, numeric.NewRand(10))
	numeric.FillNormal(z, numeric.NewRand(10))
	d := make([]float64, 3)
	for i := range d {
		d[i] = x[i] - nxMu[i]
	}
	var lz mat.VecDense
	lz.MulVec(Lp.T(), mat.NewVecDense(3, d))
	for i := range z {
		if math.Abs(lz.AtVec(i)-z[i]) > 1e-13 {
			t.Errorf("(Lpᵀ(x−mu))[%d] = %.17g, want z = %.17g", i, lz.AtVec(i), z[i])
		}
	}
}

// nxCheckMoments draws n samples and compares the sample mean and covariance
// with mu and cov. Standard errors for Gaussian data: mean_i √(Σᵢᵢ/n),
// covariance_ij √((ΣᵢᵢΣⱼⱼ + Σᵢⱼ²)/n); each is allowed 4 SE.
func nxCheckMoments(t *testing.T, draw func(dst []float64, r *rand.Rand), cov mat.Symmetric) {
	t.Helper()
	const n = 20000
	d := len(nxMu)
	r := numeric.NewRand(12)
	xs := mat.NewDense(n, d, nil)
	for k := range n {
		draw(xs.RawRowView(k), r)
	}
	for i := range d {
		m, _ := numeric.MeanStd(mat.Col(nil, i, xs))
		if se := math.Sqrt(cov.At(i, i) / n); math.Abs(m-nxMu[i]) > 4*se {
			t.Errorf("mean[%d] = %.4f, want %.4f ± %.4f", i, m, nxMu[i], 4*se)
		}
	}
	var s mat.SymDense
	nxSampleCov(&s, xs)
	for i := range d {
		for j := i; j < d; j++ {
			sij := cov.At(i, j)
			se := math.Sqrt((cov.At(i, i)*cov.At(j, j) + sij*sij) / n)
			if math.Abs(s.At(i, j)-sij) > 4*se {
				t.Errorf("cov[%d,%d] = %.4f, want %.4f ± %.4f", i, j, s.At(i, j), sij, 4*se)
			}
		}
	}
}

// nxSampleCov writes the sample covariance (divisor n) of the rows of x.
func nxSampleCov(dst *mat.SymDense, x *mat.Dense) {
	n, d := x.Dims()
	var c mat.Dense
	c.CloneFrom(x)
	for j := range d {
		m, _ := numeric.MeanStd(mat.Col(nil, j, x))
		for i := range n {
			c.Set(i, j, c.At(i, j)-m)
		}
	}
	dst.SymOuterK(1/float64(n), c.T())
}

func TestSampleMVNMoments(t *testing.T) {
	nxCheckMoments(t, func(dst []float64, r *rand.Rand) { numeric.SampleMVN(dst, nxMu, nxL, r) }, nxCov(nxL))
}

func TestSampleMVNPrecisionMoments(t *testing.T) {
	Lp, cov := nxPrecisionFactor(t)
	nxCheckMoments(t, func(dst []float64, r *rand.Rand) { numeric.SampleMVNPrecision(dst, nxMu, Lp, r) }, cov)
}

func TestMVNLogPDFMatchesDistmv(t *testing.T) {
	Lp, cov := nxPrecisionFactor(t)
	ref, ok := distmv.NewNormal(nxMu, nxCov(nxL), nil)
	refP, okP := distmv.NewNormal(nxMu, cov, nil)
	if !ok || !okP {
		t.Fatal("test covariance not positive definite")
	}
	r := numeric.NewRand(13)
	x, scratch := make([]float64, 3), make([]float64, 3)
	for range 20 {
		for i := range x {
			x[i] = nxMu[i] + 3*r.NormFloat64()
		}
		if got, want := numeric.MVNLogPDF(x, nxMu, nxL), ref.LogProb(x); !nxClose(got, want, 1e-13) {
			t.Errorf("MVNLogPDF(%v) = %.17g, distmv %.17g", x, got, want)
		}
		if got, want := numeric.MVNLogPDFPrecision(x, nxMu, Lp, scratch), refP.LogProb(x); !nxClose(got, want, 1e-13) {
			t.Errorf("MVNLogPDFPrecision(%v) = %.17g, distmv %.17g", x, got, want)
		}
	}
}

func TestMVNAllocs(t *testing.T) {
	Lp, _ := nxPrecisionFactor(t)
	r := numeric.NewRand(14)
	x, s := make([]float64, 3), make([]float64, 3)
	cases := map[string]func(){
		"SampleMVN":          func() { numeric.SampleMVN(x, nxMu, nxL, r) },
		"SampleMVNPrecision": func() { numeric.SampleMVNPrecision(x, nxMu, Lp, r) },
		"MVNLogPDFScratch":   func() { numeric.MVNLogPDFScratch(x, nxMu, nxL, s) },
		"MVNLogPDFPrecision": func() { numeric.MVNLogPDFPrecision(x, nxMu, Lp, s) },
	}
	for name, f := range cases {
		if a := testing.AllocsPerRun(100, f); a != 0 {
			t.Errorf("%s allocates %v per call", name, a)
		}
	}
}

// nxFactor100 returns a well-conditioned lower factor of order 100, the GIP
// notebook's number of inducing points.
func nxFactor100() (*mat.TriDense, []float64) {
	const n = 100
	r := numeric.NewRand(15)
	L := mat.NewTriDense(n, mat.Lower, nil)
	for i := range n {
		for j := range i {
			L.SetTri(i, j, 0.1*r.NormFloat64())
		}
		L.SetTri(i, i, 1+r.Float64())
	}
	return L, make([]float64, n)
}

func BenchmarkSampleMVN100(b *testing.B) {
	L, mu := nxFactor100()
	x := make([]float64, len(mu))
	r := numeric.NewRand(16)
	b.ReportAllocs()
	for b.Loop() {
		numeric.SampleMVN(x, mu, L, r)
	}
}

func BenchmarkSampleMVNPrecision100(b *testing.B) {
	L, mu := nxFactor100()
	x := make([]float64, len(mu))
	r := numeric.NewRand(16)
	b.ReportAllocs()
	for b.Loop() {
		numeric.SampleMVNPrecision(x, mu, L, r)
	}
}
