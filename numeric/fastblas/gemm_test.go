package fastblas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

var ref gonum.Implementation

// u is the unit roundoff of float64.
const u = 0x1p-53

// shapeDims are the sizes the randomised tests draw m, n and k from: every
// size up to two tiles in each direction, primes, tile and block edges.
var shapeDims = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 31, 47, 61, 97, 101, 127, 151, 257, 300}

var scalars = []float64{0, 1, -1, 0.37}

// strided returns an r×c matrix with row stride ld ≥ c holding uniform
// values in [-1, 1); the padding holds a sentinel that no call may change.
func strided(rng *rand.Rand, r, c, ld int) []float64 {
	if r == 0 {
		return nil
	}
	m := make([]float64, (r-1)*ld+c)
	for i := range m {
		if i%ld < c {
			m[i] = 2*rng.Float64() - 1
		} else {
			m[i] = sentinel
		}
	}
	return m
}

const sentinel = -12345.678

func abs(x []float64) []float64 {
	y := make([]float64, len(x))
	for i, v := range x {
		y[i] = math.Abs(v)
	}
	return y
}

func trans(t bool) blas.Transpose {
	if t {
		return blas.Trans
	}
	return blas.NoTrans
}

// gemmCase is one Dgemm call, with its operands.
type gemmCase struct {
	tA, tB        bool
	m, n, k       int
	alpha, beta   float64
	a, b, c       []float64
	lda, ldb, ldc int
}

func newGemmCase(rng *rand.Rand, tA, tB bool, m, n, k int, alpha, beta float64, pad int) gemmCase {
	g := gemmCase{tA: tA, tB: tB, m: m, n: n, k: k, alpha: alpha, beta: beta}
	ra, ca := m, k
	if tA {
		ra, ca = k, m
	}
	rb, cb := k, n
	if tB {
		rb, cb = n, k
	}
	g.lda, g.ldb, g.ldc = max(ca, 1)+rng.IntN(pad+1), max(cb, 1)+rng.IntN(pad+1), max(n, 1)+rng.IntN(pad+1)
	g.a, g.b, g.c = strided(rng, ra, ca, g.lda), strided(rng, rb, cb, g.ldb), strided(rng, m, n, g.ldc)
	return g
}

func (g gemmCase) String() string {
	return fmt.Sprintf("tA=%v tB=%v m=%d n=%d k=%d α=%v β=%v lda=%d ldb=%d ldc=%d",
		g.tA, g.tB, g.m, g.n, g.k, g.alpha, g.beta, g.lda, g.ldb, g.ldc)
}

// check runs the case through impl and gonum's reference and compares.
//
// Both compute each element as a sum of k products, scaled by α and added to
// β·c; in any order of summation the rounding error of such an element is
// at most γ_{k+2}·(|α|·Σ_p|a_ip||b_pj| + |β|·|c_ij|) with γ_j = j·u/(1−j·u)
// (Higham, Accuracy and Stability, §3.1), so the two results differ by at
// most twice that. NaN in C is replaced by the reference when β = 0, and
// must not reach the result.
func (g gemmCase) check(t testing.TB, impl blas.Float64) {
	t.Helper()
	got := append([]float64(nil), g.c...)
	want := append([]float64(nil), g.c...)
	if g.beta == 0 {
		for i := range got {
			if i%g.ldc < g.n && i%3 == 0 {
				got[i], want[i] = math.NaN(), math.Inf(1)
			}
		}
	}
	impl.Dgemm(trans(g.tA), trans(g.tB), g.m, g.n, g.k, g.alpha, g.a, g.lda, g.b, g.ldb, g.beta, got, g.ldc)
	ref.Dgemm(trans(g.tA), trans(g.tB), g.m, g.n, g.k, g.alpha, g.a, g.lda, g.b, g.ldb, g.beta, want, g.ldc)
	bound := abs(g.c)
	ref.Dgemm(trans(g.tA), trans(g.tB), g.m, g.n, g.k, math.Abs(g.alpha), abs(g.a), g.lda, abs(g.b), g.ldb, math.Abs(g.beta), bound, g.ldc)
	j := float64(g.k + 2)
	gamma := j * u / (1 - j*u)
	for i := range got {
		if i%g.ldc >= g.n {
			if got[i] != sentinel {
				t.Fatalf("%v: padding element %d of C changed to %v", g, i, got[i])
			}
			continue
		}
		if d := math.Abs(got[i] - want[i]); !(d <= 2*gamma*bound[i]) {
			t.Fatalf("%v: C[%d,%d] = %v, reference %v, |diff| %.3g > bound %.3g",
				g, i/g.ldc, i%g.ldc, got[i], want[i], d, 2*gamma*bound[i])
		}
	}
}

func TestDgemmSmallShapes(t *testing.T) {
	impl := kernelImpl(t)
	rng := rand.New(rand.NewPCG(1, 2))
	ks := []int{1, 2, 3, 4, 5, 7, 8, 9, 17}
	for _, tA := range []bool{false, true} {
		for _, tB := range []bool{false, true} {
			for m := 1; m <= 17; m++ {
				for n := 1; n <= 17; n++ {
					for ik, k := range ks {
						alpha := scalars[(m+ik)%len(scalars)]
						beta := scalars[(n+2*ik)%len(scalars)]
						newGemmCase(rng, tA, tB, m, n, k, alpha, beta, 3).check(t, impl)
					}
				}
			}
		}
	}
}

func TestDgemmLargeShapes(t *testing.T) {
	impl := kernelImpl(t)
	rng := rand.New(rand.NewPCG(3, 4))
	// Every transpose pair and every (α, β) pair meets sizes from each end
	// of shapeDims; the rest are drawn at random.
	n := 256
	if testing.Short() {
		n = 64
	}
	for i := range n {
		tA, tB := i%2 == 1, (i/2)%2 == 1
		alpha, beta := scalars[(i/4)%4], scalars[(i/16)%4]
		pick := func() int { return shapeDims[rng.IntN(len(shapeDims))] }
		newGemmCase(rng, tA, tB, pick(), pick(), pick(), alpha, beta, 9).check(t, impl)
	}
}

// TestDgemmZeroSizes covers m, n or k = 0 and α = 0, where C is only scaled.
func TestDgemmZeroSizes(t *testing.T) {
	impl := kernelImpl(t)
	rng := rand.New(rand.NewPCG(5, 6))
	for _, s := range [][3]int{{0, 5, 3}, {4, 0, 3}, {4, 5, 0}, {0, 0, 0}, {7, 9, 4}} {
		for _, alpha := range scalars {
			for _, beta := range scalars {
				g := newGemmCase(rng, false, true, s[0], s[1], s[2], alpha, beta, 2)
				g.check(t, impl)
			}
		}
	}
}

func TestDgemmBadArgsPanicLikeGonum(t *testing.T) {
	impl := kernelImpl(t)
	msg := func(f func()) (s string) {
		defer func() { s = fmt.Sprint(recover()) }()
		f()
		return ""
	}
	a := make([]float64, 12)
	for _, tc := range []struct {
		name string
		call func(blas.Float64)
	}{
		{"negative m", func(b blas.Float64) { b.Dgemm(blas.NoTrans, blas.NoTrans, -1, 2, 2, 1, a, 2, a, 2, 0, a, 2) }},
		{"short lda", func(b blas.Float64) { b.Dgemm(blas.NoTrans, blas.NoTrans, 2, 2, 3, 1, a, 2, a, 2, 0, a, 2) }},
		{"short C", func(b blas.Float64) { b.Dgemm(blas.NoTrans, blas.NoTrans, 4, 3, 3, 1, a, 3, a, 3, 0, a[:10], 3) }},
		{"bad transpose", func(b blas.Float64) { b.Dgemm('x', blas.NoTrans, 2, 2, 2, 1, a, 2, a, 2, 0, a, 2) }},
	} {
		got, want := msg(func() { tc.call(impl) }), msg(func() { tc.call(ref) })
		if want == "" || got != want {
			t.Errorf("%s: panic %q, gonum panics %q", tc.name, got, want)
		}
	}
}

// TestDgemmConcurrent runs products from several goroutines at once; under
// -race it shows the packing scratch is not shared.
func TestDgemmConcurrent(t *testing.T) {
	impl := kernelImpl(t)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(7, uint64(w)))
			for i := range 8 {
				newGemmCase(rng, i%2 == 0, w%2 == 0, 30+w*7, 40+i, 50+w, 1, 0.37, 2).check(t, impl)
			}
		})
	}
	wg.Wait()
}

func TestDgemmNoAllocs(t *testing.T) {
	if !Accelerated() {
		t.Skip("no kernels: the budget is for them (gonum's parallel Dgemm allocates)")
	}
	impl := kernelImpl(t)
	rng := rand.New(rand.NewPCG(8, 9))
	// In place (one cache block), transposed B packed, and blocked.
	for _, g := range []gemmCase{
		newGemmCase(rng, false, false, 100, 50, 51, 1, 0, 0),
		newGemmCase(rng, true, true, 100, 50, 51, 1, 0, 0),
		newGemmCase(rng, false, true, 300, 257, 300, 1, 0, 0),
	} {
		allocs := testing.AllocsPerRun(10, func() {
			impl.Dgemm(trans(g.tA), trans(g.tB), g.m, g.n, g.k, 1, g.a, g.lda, g.b, g.ldb, 0, g.c, g.ldc)
		})
		if allocs != 0 {
			t.Errorf("%v: Dgemm allocates %v times per call, want 0", g, allocs)
		}
	}
}

func FuzzDgemm(f *testing.F) {
	f.Add(uint8(6), uint8(8), uint8(4), false, false, 1.0, 0.0, uint64(1))
	f.Add(uint8(13), uint8(17), uint8(1), true, false, -1.0, 0.37, uint64(2))
	f.Add(uint8(100), uint8(51), uint8(50), false, true, 0.37, 1.0, uint64(3))
	f.Add(uint8(1), uint8(1), uint8(0), true, true, 0.0, -1.0, uint64(4))
	impl := kernelImpl(f)
	f.Fuzz(func(t *testing.T, m, n, k uint8, tA, tB bool, alpha, beta float64, seed uint64) {
		// Keep α and β finite and moderate so the rounding bound is finite.
		if math.IsNaN(alpha) || math.IsInf(alpha, 0) || math.Abs(alpha) > 1e3 ||
			math.IsNaN(beta) || math.IsInf(beta, 0) || math.Abs(beta) > 1e3 {
			t.Skip("α or β not finite and moderate")
		}
		rng := rand.New(rand.NewPCG(seed, 10))
		newGemmCase(rng, tA, tB, int(m), int(n), int(k), alpha, beta, int(seed%5)).check(t, impl)
	})
}

// kernelImpl returns the implementation under test: the kernel-backed Impl
// when the CPU has the kernels, gonum's otherwise (the comparison then
// checks nothing new, so the test says so).
func kernelImpl(t testing.TB) blas.Float64 {
	if !Accelerated() {
		t.Log("no AVX2/FMA kernels in this build or on this CPU: comparing gonum with itself")
	}
	return Implementation()
}

// TestDgemmIgnoresPadding: the edge panels are packed with whatever
// follows each step in memory (the stride padding, the next row) and
// with what earlier calls left in the scratch, in lanes whose results the
// kernels discard. Here the padding holds NaN and ±Inf, and a call on
// all-NaN operands runs first to leave NaN in the scratch: every element
// of C must still be the reference's (lanes are independent, so a NaN
// that reached a kept lane would show).
func TestDgemmIgnoresPadding(t *testing.T) {
	impl := kernelImpl(t)
	rng := rand.New(rand.NewPCG(11, 12))
	poison := []float64{math.NaN(), math.Inf(1), math.Inf(-1)}
	for _, tA := range []bool{false, true} {
		for _, tB := range []bool{false, true} {
			for _, s := range [][3]int{{3, 3, 51}, {13, 10, 7}, {51, 50, 100}, {100, 51, 50}, {7, 2, 9}, {2, 13, 5}, {20, 19, 300}} {
				m, n, k := s[0], s[1], s[2]
				nan := newGemmCase(rng, tA, tB, m, n, k, 1, 0, 3)
				for i := range nan.a {
					nan.a[i] = math.NaN()
				}
				for i := range nan.b {
					nan.b[i] = math.NaN()
				}
				impl.Dgemm(trans(tA), trans(tB), m, n, k, 1, nan.a, nan.lda, nan.b, nan.ldb, 0, nan.c, nan.ldc)
				g := newGemmCase(rng, tA, tB, m, n, k, 0.37, 1, 3)
				for _, x := range [][]float64{g.a, g.b} {
					for i := range x {
						if x[i] == sentinel {
							x[i] = poison[i%len(poison)]
						}
					}
				}
				g.check(t, impl)
			}
		}
	}
}
