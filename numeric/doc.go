// Package numeric is the mathematics of Posterior Playground: a small
// reverse-mode automatic differentiation tape over dense float64 matrices,
// probability distributions, a seeded random number source, the Adam
// optimiser and the statistics used by the diagnostics.
//
// It knows nothing about models, data sets or the web.
//
// # The tape
//
// A Tape records operations on matrices as they run. Each operation returns a
// Var, a handle to a node on the tape. After the forward pass, Backward(v)
// propagates d v / d x into every node, and Grad(x) returns it.
//
// A training loop records the same sequence of operations every step. Reset
// rewinds the tape but keeps every node's value and gradient buffers, so the
// second and later passes of the same sequence allocate nothing. Parameters
// and constants are recorded with Param and Const, which alias the caller's
// matrix instead of copying it.
//
// Operations never panic on numerical failure: a failed Cholesky
// factorisation records an error on the tape, returned by Err, and later
// operations carry on with whatever values they have. Shape mismatches are
// programming errors and panic, as they do in gonum/mat.
//
// Values are row-major *mat.Dense. A 1×1 matrix is a scalar; Scalar reads it.
//
// # Broadcasting
//
// Add, Sub, Mul and Div accept operands of equal shape, or one operand that
// is a 1×c row (repeated down the rows of the other), an r×1 column (repeated
// across its columns) or a 1×1 scalar. The result has the larger shape, and
// the gradient of a broadcast operand is summed over the repeated axis.
//
// # BLAS
//
// Importing numeric installs fastblas.Implementation() as gonum's blas64
// implementation (in an init function), so the tape, gonum's mat and lapack
// and every package above run their matrix products and triangular solves on
// the AVX2/FMA kernels where the CPU has them, and on gonum's code otherwise
// or when built with the purego tag.
package numeric
