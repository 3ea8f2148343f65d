// Package fastblas is a float64 BLAS for gonum's blas64 interface whose
// level-3 calls on the project's hot paths run on AVX2/FMA kernels written in
// Go assembly.
//
// # What is accelerated
//
// [Implementation] returns a [blas.Float64]. On amd64 CPUs with AVX2 and FMA
// it is an [Impl]: gonum's pure-Go implementation (gonum.org/v1/gonum/blas/gonum)
// with these methods replaced:
//
//   - Dgemm, every transpose pair, any α and β, any shape and stride. It is
//     Goto's blocked algorithm: op(B) is packed into k×8 panels and op(A)
//     into 6×k panels, and a 6×8 register-tile micro-kernel accumulates
//     each tile of C in YMM registers with FMA. Past the edge of a matrix
//     a panel's lanes are not zeroed: they hold what follows in memory
//     (steps are copied whole, two vector moves each) or what an earlier
//     call left, and feed only accumulators whose results are discarded
//     (each lane's arithmetic is its own). Where a k-slice of op(A) (at
//     most 256 steps) fits one packed block (m·k ≤ 120·256: all of the
//     project's products) the packing of whole panels is skipped: the
//     kernel reads op(A), and B unless transposed, where they lie, and
//     computes the whole tiles down a column panel in one call; a last
//     column panel of at most four columns takes a 12×4 kernel instead of
//     6×8 tiles padded from 2–4 columns (for op(A) = Aᵀ, the twelve rows
//     are three YMM loads of a row of A against four broadcasts of B;
//     otherwise twelve broadcasts against one YMM of B, storing only the
//     panel's columns), and an edge tile of at most four rows a 4×8
//     kernel. Other edge tiles narrower than eight columns are computed
//     into a stack tile and copied, so no element outside C is touched. With β = 0, C is written without being read
//     (NaN or Inf already in C is ignored), as the BLAS specification asks.
//     A product with one row or one column of C is a matrix–vector product
//     and goes to gonum's Dgemv, which is several times faster there than
//     a tile padded to 6×8 (and than gonum's Dgemm).
//   - Dtrsm, every side, triangle, transpose and diagonal. Rows of X are
//     solved six at a time in 6×8 tiles by a fused kernel: the product of
//     the triangle, read in place in solving order, and the already-solved
//     rows (kept packed as they are solved), and then
//     substitution on the 6×6 diagonal block, all in registers. Side Right
//     is solved as side Left on the transpose of B. Systems of order above
//     5120, and side Right with B above 131,072 elements, are solved by
//     blocks, their off-diagonal updates by Dgemm and their diagonal blocks
//     by gonum.
//   - Dsyrk and Dtrmm of order above 24: by blocks of 24, the off-diagonal
//     blocks by Dgemm and the diagonal blocks by gonum.
//
// Outside the BLAS interface, two BLAS-shaped routines: [GemmSpanNN] and
// [GemmSpanTN] are products with a matrix whose columns are zero outside
// given row spans (a ReLU layer on one sorted input): the same 6×8 kernel
// over the hull of the spans each tile meets, skipping zero tiles; and
// [Transpose] transposes by 4×4 register blocks. The model's kernels that
// are not BLAS (Adam's update, the ReLU layers' row loops, the
// reparameterisation, exp, NUTS's dot products) are numeric's, in
// numeric/internal/kernels.
//
// Every other call is gonum's, so results are those of gonum up to the
// rounding of a different summation order. Bad arguments panic with gonum's
// messages: each method hands anything it does not accept to gonum's.
//
// Calls run on the calling goroutine (gonum's Dgemm splits large products
// across goroutines; the playground already runs one method per core).
// Each call takes its packing scratch from a small free list (a one-slot
// atomic cache in front of a buffered channel) and returns it, so
// concurrent calls share no scratch, and once
// warm a call allocates nothing. Scratch grows to the largest call it has
// served, bounded by the cache blocking (about 1.3 MiB for Dgemm, and for
// Dtrsm a kc·nc-value packed solution and an m·n transpose).
//
// # The ceiling
//
// BenchmarkFMAPeak measures one core's double-precision FMA throughput
// (GFLOP/s per thread CPU-second), the ceiling every GEMM benchmark is
// read against; BenchmarkGIPGemmPeak times the products of a GIP step at
// its defaults and reports each as GFLOP/s and as a percentage of that
// ceiling measured in the same run.
//
// # CPU detection and fallback
//
// The kernels are used when golang.org/x/sys/cpu reports AVX2 and FMA.
// Otherwise, on other architectures, and when built with the purego tag,
// [Implementation] returns gonum's implementation itself.
//
// # Generated code
//
// The assembly (kernel_amd64.s) and its Go declarations (kernel_amd64.go)
// are written by the avo program in internal/asmgen, a separate module so
// that avo stays out of the playground's build; so are those of
// numeric/internal/kernels. `go generate ./numeric/fastblas` rewrites all
// four, byte for byte as committed; `make lint` checks that it does.
package fastblas

//go:generate go run -C internal/asmgen . -set blas -out ../../kernel_amd64.s -stubs ../../kernel_amd64.go -pkg fastblas
//go:generate go run -C internal/asmgen . -set model -out ../../../internal/kernels/kernel_amd64.s -stubs ../../../internal/kernels/kernel_amd64.go -pkg kernels
