// Command asmgen writes fastblas's amd64 AVX2/FMA kernels and their Go
// declarations with avo. It is its own module so that avo never enters the
// playground's build; run it through `go generate ./numeric/fastblas`.
//
// The GEMM micro-kernel multiplies a packed 6×k panel of A by a packed k×8
// panel of B into a 6×8 tile held in twelve YMM accumulators (two per row),
// the register tile BLIS uses on Haswell-class cores: 12 of the 16 YMM
// registers accumulate, two hold the row of B, two take broadcasts of A, so
// each k step is two loads, six broadcasts and twelve independent FMAs.
package main

import (

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// Tile shape; fastblas's Go driver uses the same constants (mr, nr).
const (
	mr = 6
	nr = 8
	// unroll is the k-loop unroll factor of the micro-kernel.
	unroll = 4
)

func main() {
	ConstraintExpr("!purego")
	gemmKernel()
	axpyKernel()
	Generate()
}

func gemmKernel() {
	TEXT("kernel6x8", NOSPLIT, "func(k int, a, b, c *float64, ldc int, alpha, beta float64)")
	Pragma("noescape")
	Doc(
		"kernel6x8 sets the 6×8 tile at c (row stride ldc elements) to",
		"alpha·Ã·B̃ + beta·c, where Ã is 6×k packed k-major at a (6 values a",
		"step) and B̃ is k×8 packed row by row at b. k must be at least 1. When",
		"beta is zero, c is written without being read, so NaN in c is ignored.",
	)
	k := Load(Param("k"), GP64())
	a := Load(Param("a"), GP64())
	b := Load(Param("b"), GP64())

	acc := [mr][2]VecPhysical{{Y0, Y1}, {Y2, Y3}, {Y4, Y5}, {Y6, Y7}, {Y8, Y9}, {Y10, Y11}}
	for i := range acc {
		for _, r := range acc[i] {
			VXORPD(r, r, r)
		}
	}
	bv := [2]VecPhysical{Y12, Y13}
	av := [2]VecPhysical{Y14, Y15}
	step := func(u int) {
		VMOVUPD(Mem{Base: b, Disp: 8 * nr * u}, bv[0])
		VMOVUPD(Mem{Base: b, Disp: 8*nr*u + 32}, bv[1])
		for i := 0; i < mr; i++ {
			x := av[i%2]
			VBROADCASTSD(Mem{Base: a, Disp: 8 * (mr*u + i)}, x)
			VFMADD231PD(bv[0], x, acc[i][0])
			VFMADD231PD(bv[1], x, acc[i][1])
		}
	}

	Comment("Main loop: unroll k steps at a time.")
	n := GP64()
	MOVQ(k, n)
	SHRQ(U8(2), n)
	JZ(LabelRef("tail"))
	Label("loop")
	for u := 0; u < unroll; u++ {
		step(u)
	}
	ADDQ(U32(8*mr*unroll), a)
	ADDQ(U32(8*nr*unroll), b)
	DECQ(n)
	JNZ(LabelRef("loop"))

	Label("tail")
	ANDQ(U32(unroll-1), k)
	JZ(LabelRef("scale"))
	Label("tailloop")
	step(0)
	ADDQ(U32(8*mr), a)
	ADDQ(U32(8*nr), b)
	DECQ(k)
	JNZ(LabelRef("tailloop"))

	Label("scale")
	Load(Param("alpha"), X14)
	VBROADCASTSD(X14, Y14)
	for i := range acc {
		for _, r := range acc[i] {
			VMULPD(Y14, r, r)
		}
	}
	c := Load(Param("c"), GP64())
	ldc := Load(Param("ldc"), GP64())
	SHLQ(U8(3), ldc)
	Load(Param("beta"), X15)
	VXORPD(X14, X14, X14)
	UCOMISD(X14, X15)
	JNE(LabelRef("accumulate"))
	JP(LabelRef("accumulate")) // beta is NaN

	Comment("beta == 0: overwrite c without reading it.")
	for i := range acc {
		VMOVUPD(acc[i][0], Mem{Base: c})
		VMOVUPD(acc[i][1], Mem{Base: c, Disp: 32})
		if i < mr-1 {
			ADDQ(ldc, c)
		}
	}
	VZEROUPPER()
	RET()

	Label("accumulate")
	VBROADCASTSD(X15, Y15)
	for i := range acc {
		VFMADD231PD(Mem{Base: c}, Y15, acc[i][0])
		VFMADD231PD(Mem{Base: c, Disp: 32}, Y15, acc[i][1])
		VMOVUPD(acc[i][0], Mem{Base: c})
		VMOVUPD(acc[i][1], Mem{Base: c, Disp: 32})
		if i < mr-1 {
			ADDQ(ldc, c)
		}
	}
	VZEROUPPER()
	RET()
}

// axpyKernel writes y += alpha·x over n elements, the row update of the
// triangular solves' diagonal blocks.
func axpyKernel() {
	TEXT("axpy", NOSPLIT, "func(n int, alpha float64, x, y *float64)")
	Pragma("noescape")
	Doc("axpy sets y[i] += alpha·x[i] for i < n.")
	n := Load(Param("n"), GP64())
	x := Load(Param("x"), GP64())
	y := Load(Param("y"), GP64())
	al := YMM()
	ax := XMM()
	Load(Param("alpha"), ax)
	VBROADCASTSD(ax, al)

	const w = 4 // ymm registers per iteration
	Label("axpyloop")
	CMPQ(n, U32(4*w))
	JL(LabelRef("axpyvec"))
	for u := 0; u < w; u++ {
		t := YMM()
		VMOVUPD(Mem{Base: y, Disp: 32 * u}, t)
		VFMADD231PD(Mem{Base: x, Disp: 32 * u}, al, t)
		VMOVUPD(t, Mem{Base: y, Disp: 32 * u})
	}
	ADDQ(U32(32*w), x)
	ADDQ(U32(32*w), y)
	SUBQ(U32(4*w), n)
	JMP(LabelRef("axpyloop"))

	Label("axpyvec")
	CMPQ(n, U32(4))
	JL(LabelRef("axpyscalar"))
	t := YMM()
	VMOVUPD(Mem{Base: y}, t)
	VFMADD231PD(Mem{Base: x}, al, t)
	VMOVUPD(t, Mem{Base: y})
	ADDQ(U32(32), x)
	ADDQ(U32(32), y)
	SUBQ(U32(4), n)
	JMP(LabelRef("axpyvec"))

	Label("axpyscalar")
	TESTQ(n, n)
	JZ(LabelRef("axpydone"))
	s := XMM()
	VMOVSD(Mem{Base: y}, s)
	VFMADD231SD(Mem{Base: x}, ax, s)
	VMOVSD(s, Mem{Base: y})
	ADDQ(U32(8), x)
	ADDQ(U32(8), y)
	DECQ(n)
	JMP(LabelRef("axpyscalar"))

	Label("axpydone")
	VZEROUPPER()
	RET()
}

