package fastblas

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// checkTrmm compares Dtrmm with gonum's. Each element of op(A)·B is a sum of
// at most k products, so each result is within γ_{k+2}·|α|·(|op(A)|·|B|)
// of the exact product elementwise (Higham §3.5), and two results within
// twice that.
func (c triCase) checkTrmm(t testing.TB, impl blas.Float64) {
	t.Helper()
	got := append([]float64(nil), c.b...)
	want := append([]float64(nil), c.b...)
	impl.Dtrmm(c.s, c.ul, c.tA, c.d, c.m, c.n, c.alpha, c.a, c.lda, got, c.ldb)
	ref.Dtrmm(c.s, c.ul, c.tA, c.d, c.m, c.n, c.alpha, c.a, c.lda, want, c.ldb)
	if c.m == 0 || c.n == 0 {
		return
	}
	k := c.n
	if c.s == blas.Left {
		k = c.m
	}
	top := abs(c.op())
	x := abs(dense(c.b, c.m, c.n, c.ldb))
	bound := make([]float64, c.m*c.n)
	if c.s == blas.Left {
		ref.Dgemm(blas.NoTrans, blas.NoTrans, c.m, c.n, k, math.Abs(c.alpha), top, k, x, c.n, 0, bound, c.n)
	} else {
		ref.Dgemm(blas.NoTrans, blas.NoTrans, c.m, c.n, k, math.Abs(c.alpha), x, c.n, top, k, 0, bound, c.n)
	}
	j := float64(k + 2)
	tol := 2 * j * u / (1 - j*u)
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
			if d := math.Abs(got[idx] - want[idx]); !(d <= tol*bound[i*c.n+jj]) {
				t.Fatalf("%v: B[%d,%d] = %v, reference %v, |diff| %.3g > bound %.3g", c, i, jj, got[idx], want[idx], d, tol*bound[i*c.n+jj])
			}
		}
	}
}

func TestDtrmm(t *testing.T) {
	impl := kernelImpl(t)
	rng := rand.New(rand.NewPCG(21, 22))
	i := 0
	for _, s := range sides {
		for _, ul := range uplos {
			for _, tA := range transs {
				for _, d := range diags {
					for _, k := range []int{1, 23, 24, 25, 47, 51, 100, 151} {
						other := []int{1, 7, 50, 100, 0}[i%5]
						alpha := []float64{1, -1, 0.37, 0}[(i/4)%4]
						i++
						m, n := k, other
						if s == blas.Right {
							m, n = other, k
						}
						newTriCase(rng, s, ul, tA, d, m, n, alpha, 5).checkTrmm(t, impl)
					}
				}
			}
		}
	}
}

// TestDsyrk compares Dsyrk with gonum's under the Dgemm rounding bound
// (each element is a Dgemm element with op(B) = op(A)ᵀ). The other triangle
// of C holds NaN, which must be neither read nor changed.
func TestDsyrk(t *testing.T) {
	impl := kernelImpl(t)
	rng := rand.New(rand.NewPCG(23, 24))
	i := 0
	for _, ul := range uplos {
		for _, tA := range transs {
			for _, n := range []int{0, 1, 7, 24, 25, 50, 51, 101, 151} {
				for _, k := range []int{0, 1, 13, 50, 100} {
					alpha, beta := scalars[i%4], scalars[(i/4)%4]
					i++
					row, col := n, k
					if tA == blas.Trans {
						row, col = k, n
					}
					lda, ldc := max(col, 1)+rng.IntN(4), max(n, 1)+rng.IntN(4)
					a := strided(rng, row, col, lda)
					c := strided(rng, n, n, ldc)
					for r := range n {
						for cc := range n {
							if (cc > r) == (ul == blas.Lower) && cc != r {
								c[r*ldc+cc] = math.NaN()
							}
						}
					}
					got := append([]float64(nil), c...)
					want := append([]float64(nil), c...)
					impl.Dsyrk(ul, tA, n, k, alpha, a, lda, beta, got, ldc)
					ref.Dsyrk(ul, tA, n, k, alpha, a, lda, beta, want, ldc)
					if n == 0 {
						continue
					}
					bound := make([]float64, n*n)
					for r := range n {
						for cc := range n {
							bound[r*n+cc] = math.Abs(beta * c[r*ldc+cc])
						}
					}
					tB := blas.Trans
					if tA == blas.Trans {
						tB = blas.NoTrans
					}
					ref.Dgemm(tA, tB, n, n, k, math.Abs(alpha), abs(a), lda, abs(a), lda, 1, bound, n)
					j := float64(k + 2)
					tol := 2 * j * u / (1 - j*u)
					for idx := range got {
						r, cc := idx/ldc, idx%ldc
						inTri := cc < n && (cc == r || (cc > r) == (ul == blas.Upper))
						switch {
						case !inTri && !(got[idx] == c[idx] || math.IsNaN(got[idx]) && math.IsNaN(c[idx])):
							t.Fatalf("ul=%c tA=%c n=%d k=%d: element (%d,%d) outside the triangle changed", ul, tA, n, k, r, cc)
						case inTri && !(math.Abs(got[idx]-want[idx]) <= tol*bound[r*n+cc]):
							t.Fatalf("ul=%c tA=%c n=%d k=%d α=%v β=%v: C[%d,%d] = %v, reference %v, bound %.3g",
								ul, tA, n, k, alpha, beta, r, cc, got[idx], want[idx], tol*bound[r*n+cc])
						}
					}
				}
			}
		}
	}
}
