package fastblas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// spanCase is an m×k matrix A (stride lda, sentinel padding) that is zero
// outside random column spans, as a ReLU layer on sorted inputs is, with
// some spans empty, full or reaching past the rows.
func spanCase(rng *rand.Rand, m, k int) (a []float64, lda int, lo, hi []int) {
	lda = k + rng.IntN(3)
	a = strided(rng, m, k, lda)
	lo, hi = make([]int, k), make([]int, k)
	for p := range k {
		switch rng.IntN(6) {
		case 0: // empty
			lo[p], hi[p] = rng.IntN(m+1), 0
		case 1: // all rows, loosely
			lo[p], hi[p] = -1, m+2
		case 2: // a prefix
			lo[p], hi[p] = 0, rng.IntN(m+1)
		case 3: // a suffix
			lo[p], hi[p] = rng.IntN(m+1), m
		default:
			lo[p] = rng.IntN(m + 1)
			hi[p] = lo[p] + rng.IntN(m+1-lo[p])
		}
		for i := range m {
			if i < lo[p] || i >= hi[p] {
				a[i*lda+p] = 0
			}
		}
	}
	return a, lda, lo, hi
}

// checkProduct compares got (r×c, stride ld) with the reference want,
// within γ_kk·|A||B| (kk summands, each product and sum rounded once:
// |error| ≤ kk·u·Σ|a||b| to first order), and checks the padding of got
// still holds the sentinel.
func checkProduct(t *testing.T, name string, got, want, bound []float64, r, c, ld, kk int) {
	t.Helper()
	for i := range r {
		for j := range ld {
			if i*ld+j >= len(got) {
				break
			}
			v := got[i*ld+j]
			if j >= c {
				if v != sentinel {
					t.Fatalf("%s: padding (%d, %d) changed to %v", name, i, j, v)
				}
				continue
			}
			w := want[i*c+j]
			if tol := float64(kk+1) * u * bound[i*c+j]; math.Abs(v-w) > tol {
				t.Fatalf("%s: (%d, %d) = %v, want %v ± %v", name, i, j, v, w, tol)
			}
		}
	}
}

// refProduct returns op(X)·op(Y) and op(|X|)·op(|Y|) (r×c, dense) by
// gonum's reference Dgemm.
func refProduct(tX, tY bool, r, c, k int, x []float64, ldx int, y []float64, ldy int) (want, bound []float64) {
	want, bound = make([]float64, r*c), make([]float64, r*c)
	if r == 0 || c == 0 {
		return
	}
	ref.Dgemm(trans(tX), trans(tY), r, c, k, 1, x, ldx, y, ldy, 0, want, max(c, 1))
	ref.Dgemm(trans(tX), trans(tY), r, c, k, 1, abs(x), ldx, abs(y), ldy, 0, bound, max(c, 1))
	return
}

func TestGemmSpans(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 15))
	dims := []int{1, 2, 3, 5, 6, 7, 8, 9, 12, 13, 17, 50, 51, 97, 100}
	for range 400 {
		m, n, k := dims[rng.IntN(len(dims))], dims[rng.IntN(len(dims))], dims[rng.IntN(len(dims))]
		a, lda, lo, hi := spanCase(rng, m, k)
		name := fmt.Sprintf("m=%d n=%d k=%d", m, n, k)

		// C = A·B.
		ldb, ldc := n+rng.IntN(3), n+rng.IntN(3)
		b := strided(rng, k, n, ldb)
		c := strided(rng, m, n, ldc)
		for i := range m { // NaN in C must be ignored
			c[i*ldc] = math.NaN()
		}
		GemmSpanNN(m, n, k, a, lda, lo, hi, b, ldb, c, ldc)
		want, bound := refProduct(false, false, m, n, k, a, lda, b, ldb)
		checkProduct(t, "NN "+name, c, want, bound, m, n, ldc, k)

		// C = Aᵀ·G.
		g := strided(rng, m, n, ldb)
		c = strided(rng, k, n, ldc)
		GemmSpanTN(m, n, k, a, lda, lo, hi, g, ldb, c, ldc)
		want, bound = refProduct(true, false, k, n, m, a, lda, g, ldb)
		checkProduct(t, "TN "+name, c, want, bound, k, n, ldc, m)
	}
}

func TestGemmSpansNoAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	m, n, k := 100, 50, 51
	a, lda, lo, hi := spanCase(rng, m, k)
	b, g, c, c2 := strided(rng, k, n, n), strided(rng, m, n, n), make([]float64, m*n), make([]float64, k*n)
	allocs := testing.AllocsPerRun(20, func() {
		GemmSpanNN(m, n, k, a, lda, lo, hi, b, n, c, n)
		GemmSpanTN(m, n, k, a, lda, lo, hi, g, n, c2, n)
	})
	if allocs != 0 {
		t.Errorf("%v allocations per call, want 0", allocs)
	}
}
