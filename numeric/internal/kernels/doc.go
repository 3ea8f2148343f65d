// Package kernels holds the model kernels that are not BLAS: the loops of
// the methods' optimiser steps that bound them, run on AVX2/FMA kernels in
// Go assembly where the CPU has them. numeric calls them, and exports those
// the methods call (numeric.ReLUAffine, numeric.ExpTo, …).
//
// [AdamUpdate] is Adam's elementwise update, four lanes at a time (its
// square roots and divisions bound an optimiser step), [AdamUpdateScaled]
// the same for parameters of a product W = V ⊙ u, and [AdamUpdateRank2]
// that with a gradient of rank two formed in the pass; [ReLUAffine], [ReLUOutputBackward],
// [ReLUInputBackward] and [ReLUMatVec] are the row loops of a ReLU
// network's thin first and last layers (model.Net's), and [ColumnSums] the
// running sums that replace a product there; [AxpyElem] and [GradReparam]
// are the weight draws and gradient sums of a reparameterised Gaussian
// (fBNN's k·P a step); [ReLURows], [ReLUMaskAdd] and [ReLUMaskSet] are the
// forward and backward passes of the tape's fused ReLU node, and
// [RowScaleDot] the backward pass of a matrix scaled by a column (GIP's
// Λ·Φ and ΦᵀΛΦ).
//
// Each is rounded exactly as the scalar loop it replaces (no FMA, sums in
// the same order), so results do not depend on the CPU. Two are not:
// [SumDots] (NUTS's U-turn criterion) sums in eight partial sums with FMA,
// and [ExpTo] is within 2 ulp of math.Exp.
//
// The kernels are used when golang.org/x/sys/cpu reports AVX2 and FMA;
// otherwise, on other architectures, and when built with the purego tag,
// every call runs its scalar loop. Slices too short for the rows a call
// names panic: the kernels read and write without bounds checks.
//
// The assembly (kernel_amd64.s) and its Go declarations (kernel_amd64.go)
// are generated, with fastblas's, by `go generate ./numeric/fastblas`
// (numeric/fastblas/internal/asmgen, -set model).
package kernels
