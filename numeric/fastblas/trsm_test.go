package fastblas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// triCase is one Dtrsm or Dtrmm call, with its operands.
type triCase struct {
	s        blas.Side
	ul       blas.Uplo
	tA       blas.Transpose
	d        blas.Diag
	m, n     int
	alpha    float64
	a, b     []float64
	lda, ldb int
}

func (c triCase) String() string {
	return fmt.Sprintf("side=%c uplo=%c trans=%c diag=%c m=%d n=%d α=%v lda=%d ldb=%d",
		c.s, c.ul, c.tA, c.d, c.m, c.n, c.alpha, c.lda, c.ldb)
}

// newTriCase draws a k×k triangular A whose off-diagonal entries are
// uniform on [-1, 1)/k and whose diagonal is ±[1, 2), so A = D(I + N) with
// ‖N‖ < 1 and the solve is well conditioned. The triangle that must not be
// read (and the diagonal when it is unit) holds NaN.
func newTriCase(rng *rand.Rand, s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, pad int) triCase {
	c := triCase{s: s, ul: ul, tA: tA, d: d, m: m, n: n, alpha: alpha}
	k := n
	if s == blas.Left {
		k = m
	}
	c.lda, c.ldb = max(k, 1)+rng.IntN(pad+1), max(n, 1)+rng.IntN(pad+1)
	c.a = strided(rng, k, k, c.lda)
	for i := range k {
		for j := range k {
			v := &c.a[i*c.lda+j]
			switch {
			case i == j && d == blas.Unit:
				*v = math.NaN()
			case i == j:
				*v = math.Copysign(1+math.Abs(*v), *v)
			case (i > j) != (ul == blas.Lower):
				*v = math.NaN()
			default:
				*v /= float64(k)
			}
		}
	}
	c.b = strided(rng, m, n, c.ldb)
	return c
}

// op returns op(A) as a dense k×k matrix with zeros outside the triangle
// and the unit diagonal filled in.
func (c triCase) op() []float64 {
	k := c.n
	if c.s == blas.Left {
		k = c.m
	}
	t := make([]float64, k*k)
	for i := range k {
		for j := range k {
			r, col := i, j
			if isTrans(c.tA) {
				r, col = j, i
			}
			switch {
			case r == col && c.d == blas.Unit:
				t[i*k+j] = 1
			case r == col || (r > col) == (c.ul == blas.Lower):
				t[i*k+j] = c.a[r*c.lda+col]
			}
		}
	}
	return t
}

// checkTrsm runs the case through impl and gonum's reference and compares.
//
// Substitution, blocked or not, is componentwise backward stable: the
// computed X solves (T + ΔT)·X = α·B + ΔB with |ΔT| ≤ γ_j|T| and
// |ΔB| ≤ γ_j|α·B| (Higham, Accuracy and Stability, Lemma 8.2, Thm 8.5 and
// §13.2), where j counts the roundings along one element: at most k − 1
// products and sums (fused or not), α·b, and the reciprocal of the diagonal
// and the product by it (both implementations scale by reciprocals), so
// j = k + 3. To first order |X̂ − X| ≤ γ_j·|T⁻¹|·(|T|·|X| + |α·B|), and two
// such solutions differ by at most twice that (for side Right, the same
// with the products on the other side).
func (c triCase) checkTrsm(t testing.TB, impl blas.Float64) {
	t.Helper()
	got := append([]float64(nil), c.b...)
	want := append([]float64(nil), c.b...)
	impl.Dtrsm(c.s, c.ul, c.tA, c.d, c.m, c.n, c.alpha, c.a, c.lda, got, c.ldb)
	ref.Dtrsm(c.s, c.ul, c.tA, c.d, c.m, c.n, c.alpha, c.a, c.lda, want, c.ldb)
	if c.m == 0 || c.n == 0 {
		return
	}
	k := c.n
	if c.s == blas.Left {
		k = c.m
	}
	top := c.op()
	// |T⁻¹| from the reference solve of T·Y = I.
	inv := make([]float64, k*k)
	for i := range k {
		inv[i*k+i] = 1
	}
	opUplo := blas.Upper
	if (c.ul == blas.Lower) != isTrans(c.tA) {
		opUplo = blas.Lower
	}
	ref.Dtrsm(blas.Left, opUplo, blas.NoTrans, blas.NonUnit, k, k, 1, top, k, inv, k)
	// r = |T|·|X| + |α·B| (Left) or |X|·|T| + |α·B| (Right), then the bound.
	x := dense(want, c.m, c.n, c.ldb)
	r := dense(c.b, c.m, c.n, c.ldb)
	for i := range r {
		r[i] = math.Abs(c.alpha * r[i])
	}
	bound := make([]float64, c.m*c.n)
	if c.s == blas.Left {
		ref.Dgemm(blas.NoTrans, blas.NoTrans, c.m, c.n, k, 1, abs(top), k, abs(x), c.n, 1, r, c.n)
		ref.Dgemm(blas.NoTrans, blas.NoTrans, c.m, c.n, k, 1, abs(inv), k, r, c.n, 0, bound, c.n)
	} else {
		ref.Dgemm(blas.NoTrans, blas.NoTrans, c.m, c.n, k, 1, abs(x), c.n, abs(top), k, 1, r, c.n)
		ref.Dgemm(blas.NoTrans, blas.NoTrans, c.m, c.n, k, 1, r, c.n, abs(inv), k, 0, bound, c.n)
	}
	j := float64(k + 3)
	gamma := j * u / (1 - j*u)
	for i := range c.m {
		for jj := range c.ldb {
			idx := i*c.ldb + jj
			if idx >= len(got) {
				break
			}
			if jj >= c.n {
				if got[idx] != sentinel {
					t.Fatalf("%v: padding element %d of B changed to %v", c, idx, got[idx])
				}
				continue
			}
			tol := 2 * gamma * bound[i*c.n+jj]
			if d := math.Abs(got[idx] - want[idx]); !(d <= tol) {
				t.Fatalf("%v: X[%d,%d] = %v, reference %v, |diff| %.3g > bound %.3g", c, i, jj, got[idx], want[idx], d, tol)
			}
		}
	}
}

// dense copies the r×c matrix with stride ld into a packed one.
func dense(x []float64, r, c, ld int) []float64 {
	y := make([]float64, r*c)
	for i := range r {
		copy(y[i*c:(i+1)*c], x[i*ld:i*ld+c])
	}
	return y
}

var (
	sides  = []blas.Side{blas.Left, blas.Right}
	uplos  = []blas.Uplo{blas.Lower, blas.Upper}
	transs = []blas.Transpose{blas.NoTrans, blas.Trans}
	diags  = []blas.Diag{blas.NonUnit, blas.Unit}
)

func TestDtrsm(t *testing.T) {
	testDtrsm(t, kernelImpl(t))
}

// blockedImpl routes every Dtrsm to the blocked algorithm that large
// systems take.
type blockedImpl struct{ Impl }

func (b blockedImpl) Dtrsm(s blas.Side, ul blas.Uplo, tA blas.Transpose, d blas.Diag, m, n int, alpha float64, a []float64, lda int, x []float64, ldb int) {
	if alpha == 0 || m == 0 || n == 0 {
		b.Impl.Dtrsm(s, ul, tA, d, m, n, alpha, a, lda, x, ldb)
		return
	}
	b.trsmBlocked(s, ul, tA, d, m, n, alpha, a, lda, x, ldb)
}

func TestDtrsmBlocked(t *testing.T) {
	if !Accelerated() {
		t.Skip("no kernels: the blocked algorithm calls Dgemm's kernels")
	}
	testDtrsm(t, blockedImpl{})
}

func testDtrsm(t *testing.T, impl blas.Float64) {
	rng := rand.New(rand.NewPCG(11, 12))
	sizes := []int{1, 5, 23, 24, 25, 31, 47, 50, 51, 61, 100, 101, 151}
	if !testing.Short() {
		sizes = append(sizes, 257)
	}
	i := 0
	for _, s := range sides {
		for _, ul := range uplos {
			for _, tA := range transs {
				for _, d := range diags {
					for _, k := range sizes {
						// The other dimension and α cycle through their classes.
						other := []int{1, 7, 50, 100, 0}[i%5]
						alpha := []float64{1, -1, 0.37, 0}[(i/4)%4]
						i++
						m, n := k, other
						if s == blas.Right {
							m, n = other, k
						}
						newTriCase(rng, s, ul, tA, d, m, n, alpha, 5).checkTrsm(t, impl)
					}
				}
			}
		}
	}
}

func TestDtrsmNoAllocs(t *testing.T) {
	if !Accelerated() {
		t.Skip("no kernels: the budget is for them (gonum's parallel Dgemm allocates)")
	}
	impl := kernelImpl(t)
	rng := rand.New(rand.NewPCG(13, 14))
	for _, s := range sides {
		c := newTriCase(rng, s, blas.Lower, blas.Trans, blas.NonUnit, 100, 50, 1, 0)
		allocs := testing.AllocsPerRun(20, func() {
			impl.Dtrsm(c.s, c.ul, c.tA, c.d, c.m, c.n, 1, c.a, c.lda, c.b, c.ldb)
		})
		if allocs != 0 {
			t.Errorf("%v: Dtrsm allocates %v times per call, want 0", c, allocs)
		}
	}
}

// TestDtrsmConcurrent solves from several goroutines at once; under -race
// it shows the solves share no scratch.
func TestDtrsmConcurrent(t *testing.T) {
	impl := kernelImpl(t)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(15, uint64(w)))
			for i := range 6 {
				s := sides[(w+i)%2]
				newTriCase(rng, s, uplos[i%2], transs[w%2], blas.NonUnit, 40+w*13, 30+i*7, 0.37, 2).checkTrsm(t, impl)
			}
		})
	}
	wg.Wait()
}

// TestDtrsmRandomShapes draws shapes from 1 to 300 (primes included by
// chance and by the sizes above), every side, triangle, transpose and
// diagonal, α from {0, 1, −1, 0.37} and strides up to 7 beyond the width.
func TestDtrsmRandomShapes(t *testing.T) {
	impl := kernelImpl(t)
	rng := rand.New(rand.NewPCG(17, 18))
	cases := 60
	if testing.Short() {
		cases = 15
	}
	for range cases {
		m, n := 1+rng.IntN(300), 1+rng.IntN(300)
		alpha := []float64{0, 1, -1, 0.37}[rng.IntN(4)]
		newTriCase(rng, sides[rng.IntN(2)], uplos[rng.IntN(2)], transs[rng.IntN(2)], diags[rng.IntN(2)], m, n, alpha, 7).checkTrsm(t, impl)
	}
}
