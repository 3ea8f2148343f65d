// Command asmgen writes the amd64 AVX2/FMA kernels and their Go
// declarations with avo: with -set blas fastblas's (GEMM, TRSM, transpose, row scaling),
// with -set model numeric/internal/kernels's (Adam, the ReLU layers' row
// loops, the reparameterisation, exp, NUTS's dot products). It is its own
// module so that avo never enters the playground's build; run it through
// `go generate ./numeric/fastblas`, which writes both.
//
// Both kernels keep a 6×8 tile of the result in twelve YMM accumulators (two
// per row), the register tile BLIS uses on Haswell-class cores: 12 of the 16
// YMM registers accumulate, two hold a row of B, two take broadcasts of A,
// so each k step is two loads, six broadcasts and twelve independent FMAs.
// kernel6x8 (GEMM) reads A and B through strides, packed or in place;
// trsm6x8 (triangular solve) reads the triangle through strides and the
// solution packed, and then solves the tile against a 6×6 diagonal block in
// registers. kernel6x8n runs kernel6x8 down a column panel in one call,
// kernel4x8 takes edge tiles of at most four rows, kernel12x4 and
// kernel4x12t last column panels of at most four columns, and copySteps8
// and copySteps6 copy edge panels (pack.go). adam4 is Adam's elementwise
// update, four lanes at a time, whose square roots and divisions are what
// bound it.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"

	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/gotypes"
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
	set := flag.String("set", "blas", "the kernels to write: blas (fastblas's GEMM, TRSM and transpose) or model (numeric/internal/kernels's elementwise and row loops)")
	flag.Parse() // before Generate, which parses avo's own flags only when nothing has
	ConstraintExpr("!purego")
	switch *set {
	case "blas":
		gemmKernel()
		trsmKernel()
		transposeKernel()
		narrowKernel()
		rowScaleKernel() // Dgemm's outer products too
		packKernels()
		gemmColumnKernel()
		gemmShortKernel()
		narrowTransKernel()
	case "model":
		adamKernel()
		reluKernels()
		reluDotKernel()
		adamScaledKernel()
		sumDotsKernel("sumDots4", sumDotsPlain)
		sumDotsKernel("sumDotsSet4", sumDotsSet)
		sumDotsKernel("sumDotsAdd4", sumDotsAdd)
		expKernel()
		adamRank2Kernel()
		reparamKernels()
		reluTapeKernels()
		rowScaleDotKernel()
	default:
		fmt.Fprintf(os.Stderr, "asmgen: -set %q: want blas or model\n", *set)
		os.Exit(2)
	}
	Generate()
}

func gemmKernel() {
	TEXT("kernel6x8", NOSPLIT, "func(k int, a *float64, ars, aps int, b *float64, bps int, c *float64, ldc, rows int, alpha, beta float64)")
	Pragma("noescape")
	Doc(
		"kernel6x8 sets the first rows (1 to 6) rows of the 6×8 tile at c (row",
		"stride ldc elements) to alpha·Ã·B̃ + beta·c over k steps (k may be",
		"zero); rows below are neither read nor written. Element (i, p) of the",
		"6×k matrix Ã is at a[i·ars + p·aps]: ars = 1, aps = 6 for a packed",
		"panel, or the strides of op(A) read in place. Row p of the k×8 matrix",
		"B̃ is the 8 values at b[p·bps]. When beta is zero, c is written",
		"without being read, so NaN in c is ignored.",
	)
	acc := [][2]VecPhysical{{Y0, Y1}, {Y2, Y3}, {Y4, Y5}, {Y6, Y7}, {Y8, Y9}, {Y10, Y11}}
	gemmTileBody(acc, "gemm_", "accumulate", "gemm_ret", "gemm_scaled")
}

// gemmShortKernel writes kernel4x8, kernel6x8 for an edge tile of at most
// four rows (m = 100 leaves four, n = 51 three): eight accumulators, so a
// step is two loads, four broadcasts and eight FMAs, where kernel6x8 spends
// twelve FMAs on a tile padded to six rows. Eight independent chains of
// FMA still fill both pipes.
func gemmShortKernel() {
	TEXT("kernel4x8", NOSPLIT, "func(k int, a *float64, ars, aps int, b *float64, bps int, c *float64, ldc, rows int, alpha, beta float64)")
	Pragma("noescape")
	Doc(
		"kernel4x8 is kernel6x8 for rows from 1 to 4: rows of Ã past the fourth",
		"are not read.",
	)
	acc := [][2]VecPhysical{{Y0, Y1}, {Y2, Y3}, {Y4, Y5}, {Y6, Y7}}
	gemmTileBody(acc, "g4_", "g4_accumulate", "g4_ret", "g4_scaled")
}

// gemmTileBody emits the body of kernel6x8 for len(acc) rows, with the
// given labels.
func gemmTileBody(acc [][2]VecPhysical, prefix, accumulate, ret, scaled string) {
	k := Load(Param("k"), GP64())
	a := Load(Param("a"), GP64())
	ars := Load(Param("ars"), GP64())
	aps := Load(Param("aps"), GP64())
	b := Load(Param("b"), GP64())
	bps := Load(Param("bps"), GP64())
	SHLQ(U8(3), ars)
	SHLQ(U8(3), aps)
	SHLQ(U8(3), bps)

	accumulateStrided(k, a, ars, aps, b, bps, acc, prefix)

	var flat []VecPhysical
	for i := range acc {
		flat = append(flat, acc[i][0], acc[i][1])
	}
	scaleByAlpha(flat, Y14, scaled)
	c := Load(Param("c"), GP64())
	ldc := Load(Param("ldc"), GP64())
	rows := Load(Param("rows"), GP64())
	SHLQ(U8(3), ldc)
	VMOVSD(argAddr(Param("beta")), X15)
	VXORPD(X14, X14, X14)
	VUCOMISD(X14, X15)
	JNE(LabelRef(accumulate))
	JP(LabelRef(accumulate)) // beta is NaN

	// An edge tile of fewer rows stores only those: a compare per row,
	// where a stack tile and a copy cost more.
	Comment("beta == 0: overwrite c without reading it.")
	for i := range acc {
		if i > 0 {
			CMPQ(rows, U8(i))
			JLE(LabelRef(ret))
		}
		VMOVUPD(acc[i][0], Mem{Base: c})
		VMOVUPD(acc[i][1], Mem{Base: c, Disp: 32})
		if i < len(acc)-1 {
			ADDQ(ldc, c)
		}
	}
	Label(ret)
	VZEROUPPER()
	RET()

	Label(accumulate)
	VBROADCASTSD(X15, Y15)
	for i := range acc {
		if i > 0 {
			CMPQ(rows, U8(i))
			JLE(LabelRef(ret))
		}
		VFMADD231PD(Mem{Base: c}, Y15, acc[i][0])
		VFMADD231PD(Mem{Base: c, Disp: 32}, Y15, acc[i][1])
		VMOVUPD(acc[i][0], Mem{Base: c})
		VMOVUPD(acc[i][1], Mem{Base: c, Disp: 32})
		if i < len(acc)-1 {
			ADDQ(ldc, c)
		}
	}
	VZEROUPPER()
	RET()
}

// scaleByAlpha multiplies the accumulators by the argument alpha (through
// tmp), unless alpha is exactly 1: the products of a step are almost all
// unscaled, and twelve multiplications by one, which change nothing, cost
// a tile about as much as a k step. The label ends the skip.
func scaleByAlpha(acc []VecPhysical, tmp VecPhysical, label string) {
	alpha, one := GP64(), GP64()
	MOVQ(argAddr(Param("alpha")), alpha)
	MOVQ(U64(math.Float64bits(1)), one)
	CMPQ(alpha, one)
	JEQ(LabelRef(label))
	VBROADCASTSD(argAddr(Param("alpha")), tmp)
	for _, r := range acc {
		VMULPD(tmp, r, r)
	}
	Label(label)
}

// argAddr is the memory operand of a scalar argument or result (Param or
// ReturnIndex), for the VEX-encoded moves (VMOVSD, VBROADCASTSD) a kernel
// uses instead of avo's Load and Store, which emit legacy-SSE MOVSD. A
// legacy-SSE instruction while the upper halves of the YMM registers are
// dirty (after any 256-bit write, a VBROADCASTSD into a YMM included)
// costs a state transition: about 120 ns a call on the project's 2-core
// EPYC machines, more than a 6×8 tile's 50 k steps or a 100-lane Adam
// update.
func argAddr(c gotypes.Component) Mem {
	b, err := c.Resolve()
	if err != nil {
		panic(err)
	}
	return b.Addr
}

// accumulateStrided emits acc += Ã·B̃ over k steps (k may be zero) with
// strides in bytes: Ã(i, p) at a + i·ars + p·aps, row p of B̃ at b + p·bps.
// Rows 0–2 of Ã are addressed from a and rows 3–5 from a + 3·ars, each
// as base + index·{0, 1, 2}. The strides may be negative. bps is a register
// or a constant; labels start with prefix.
func accumulateStrided(k, a, ars, aps, b Register, bps Op, acc [][2]VecPhysical, prefix string) {
	a3 := GP64()
	if len(acc) > 3 {
		LEAQ(Mem{Base: a, Index: ars, Scale: 2}, a3)
		ADDQ(ars, a3)
	}
	bv := [2]VecPhysical{Y12, Y13}
	av := [2]VecPhysical{Y14, Y15}
	rows := [mr]Mem{
		{Base: a}, {Base: a, Index: ars, Scale: 1}, {Base: a, Index: ars, Scale: 2},
		{Base: a3}, {Base: a3, Index: ars, Scale: 1}, {Base: a3, Index: ars, Scale: 2},
	}
	step := func() {
		VMOVUPD(Mem{Base: b}, bv[0])
		VMOVUPD(Mem{Base: b, Disp: 32}, bv[1])
		for i := range acc {
			x := av[i%2]
			VBROADCASTSD(rows[i], x)
			VFMADD231PD(bv[0], x, acc[i][0])
			VFMADD231PD(bv[1], x, acc[i][1])
		}
		ADDQ(aps, a)
		if len(acc) > 3 {
			ADDQ(aps, a3)
		}
		ADDQ(bps, b)
	}
	for i := range acc {
		for _, r := range acc[i] {
			VXORPD(r, r, r)
		}
	}
	Comment("Main loop: unroll k steps at a time.")
	kLoop(k, prefix, step)
}

// kLoop emits step k times (k in a register, may be zero; clobbered): the
// main loop unrolled by unroll, then the rest one at a time. Labels are
// prefix + "loop", "tail", "tailloop" and "done".
func kLoop(k Register, prefix string, step func()) {
	n := GP64()
	MOVQ(k, n)
	SHRQ(U8(2), n)
	JZ(LabelRef(prefix + "tail"))
	Label(prefix + "loop")
	for range unroll {
		step()
	}
	DECQ(n)
	JNZ(LabelRef(prefix + "loop"))

	Label(prefix + "tail")
	ANDQ(U32(unroll-1), k)
	JZ(LabelRef(prefix + "done"))
	Label(prefix + "tailloop")
	step()
	DECQ(k)
	JNZ(LabelRef(prefix + "tailloop"))
	Label(prefix + "done")
}

// trsmKernel is the fused tile step of the triangular solve: the product of
// the solved rows, then substitution on the 6×6 diagonal block in registers.
func trsmKernel() {
	TEXT("trsm6x8", NOSPLIT, "func(k int, a *float64, ars, aps int, b, x *float64, ldx int, alpha float64, d, xp *float64)")
	Pragma("noescape")
	Doc(
		"trsm6x8 solves one full 6×8 tile of a triangular solve in solving order.",
		"It forms T = alpha·X − Ã·B̃, where X is the tile at x (rows ldx elements",
		"apart, ldx may be negative), element (s, q) of the 6×k matrix Ã is at",
		"a[s·ars + q·aps] (strides may be negative: the triangle read in place in",
		"solving order, or ars = 1, aps = 6 for a packed panel) and B̃ is k×8",
		"packed at b (k may be zero); then, for s = 0..5,",
		"T_s = (T_s − Σ_{l<s} d[6s+l]·T_l)·d[7s] (d holds the diagonal block in",
		"solving order with reciprocals on its diagonal). The result is stored",
		"into the tile at x and, packed, at xp.",
	)
	k := Load(Param("k"), GP64())
	a := Load(Param("a"), GP64())
	ars := Load(Param("ars"), GP64())
	aps := Load(Param("aps"), GP64())
	b := Load(Param("b"), GP64())
	SHLQ(U8(3), ars)
	SHLQ(U8(3), aps)
	acc := [mr][2]VecPhysical{{Y0, Y1}, {Y2, Y3}, {Y4, Y5}, {Y6, Y7}, {Y8, Y9}, {Y10, Y11}}
	accumulateStrided(k, a, ars, aps, b, U32(8*nr), acc[:], "trsm_")

	x := Load(Param("x"), GP64())
	ldx := Load(Param("ldx"), GP64())
	SHLQ(U8(3), ldx)
	VBROADCASTSD(argAddr(Param("alpha")), Y14)
	row := GP64()
	MOVQ(x, row)
	for s := range acc {
		VFMSUB231PD(Mem{Base: row}, Y14, acc[s][0])
		VFMSUB231PD(Mem{Base: row, Disp: 32}, Y14, acc[s][1])
		if s < mr-1 {
			ADDQ(ldx, row)
		}
	}
	d := Load(Param("d"), GP64())
	for s := range acc {
		for l := range s {
			VBROADCASTSD(Mem{Base: d, Disp: 8 * (mr*s + l)}, Y14)
			VFNMADD231PD(acc[l][0], Y14, acc[s][0])
			VFNMADD231PD(acc[l][1], Y14, acc[s][1])
		}
		VBROADCASTSD(Mem{Base: d, Disp: 8 * (mr + 1) * s}, Y15)
		VMULPD(Y15, acc[s][0], acc[s][0])
		VMULPD(Y15, acc[s][1], acc[s][1])
	}
	xp := Load(Param("xp"), GP64())
	for s := range acc {
		VMOVUPD(acc[s][0], Mem{Base: x})
		VMOVUPD(acc[s][1], Mem{Base: x, Disp: 32})
		VMOVUPD(acc[s][0], Mem{Base: xp, Disp: 8 * nr * s})
		VMOVUPD(acc[s][1], Mem{Base: xp, Disp: 8*nr*s + 32})
		if s < mr-1 {
			ADDQ(ldx, x)
		}
	}
	VZEROUPPER()
	RET()
}

// transposeKernel writes 4×4 block transposes: side-Right triangular solves
// run on the transpose of B.
func transposeKernel() {
	TEXT("transpose4", NOSPLIT, "func(n int, src *float64, lds int, dst *float64, ldd int)")
	Pragma("noescape")
	Doc(
		"transpose4 writes the transpose of the 4×4n strip at src (rows lds",
		"elements apart) into the 4n×4 strip at dst (rows ldd elements apart),",
		"one 4×4 block per step: unpack pairs of rows, then swap 128-bit halves.",
	)
	n := Load(Param("n"), GP64())
	s0 := Load(Param("src"), GP64())
	lds := Load(Param("lds"), GP64())
	d0 := Load(Param("dst"), GP64())
	ldd := Load(Param("ldd"), GP64())
	SHLQ(U8(3), lds)
	SHLQ(U8(3), ldd)
	s3 := GP64()
	LEAQ(Mem{Base: s0, Index: lds, Scale: 2}, s3)
	ADDQ(lds, s3)
	d3 := GP64()
	LEAQ(Mem{Base: d0, Index: ldd, Scale: 2}, d3)
	ADDQ(ldd, d3)
	step := GP64() // four rows of dst
	LEAQ(Mem{Base: ldd, Index: ldd, Scale: 2}, step)
	ADDQ(ldd, step)
	TESTQ(n, n)
	JZ(LabelRef("transpose_done"))
	Label("transpose_loop")
	VMOVUPD(Mem{Base: s0}, Y0)                       // a0 a1 a2 a3
	VMOVUPD(Mem{Base: s0, Index: lds, Scale: 1}, Y1) // b0 b1 b2 b3
	VMOVUPD(Mem{Base: s0, Index: lds, Scale: 2}, Y2) // c0 c1 c2 c3
	VMOVUPD(Mem{Base: s3}, Y3)                       // d0 d1 d2 d3
	VUNPCKLPD(Y1, Y0, Y4)                            // a0 b0 a2 b2
	VUNPCKHPD(Y1, Y0, Y5)                            // a1 b1 a3 b3
	VUNPCKLPD(Y3, Y2, Y6)                            // c0 d0 c2 d2
	VUNPCKHPD(Y3, Y2, Y7)                            // c1 d1 c3 d3
	VPERM2F128(U8(0x20), Y6, Y4, Y0)                 // a0 b0 c0 d0
	VPERM2F128(U8(0x20), Y7, Y5, Y1)                 // a1 b1 c1 d1
	VPERM2F128(U8(0x31), Y6, Y4, Y2)                 // a2 b2 c2 d2
	VPERM2F128(U8(0x31), Y7, Y5, Y3)                 // a3 b3 c3 d3
	VMOVUPD(Y0, Mem{Base: d0})
	VMOVUPD(Y1, Mem{Base: d0, Index: ldd, Scale: 1})
	VMOVUPD(Y2, Mem{Base: d0, Index: ldd, Scale: 2})
	VMOVUPD(Y3, Mem{Base: d3})
	ADDQ(U32(32), s0)
	ADDQ(U32(32), s3)
	ADDQ(step, d0)
	ADDQ(step, d3)
	DECQ(n)
	JNZ(LabelRef("transpose_loop"))
	Label("transpose_done")
	VZEROUPPER()
	RET()
}

// adamKernel writes adam4: Keras's Adam update on n (a multiple of 4)
// parameters, in the operation order of numeric.Adam's Go loop, without
// FMA, so that each lane rounds exactly as the scalar code does.
func adamKernel() {
	TEXT("adam4", NOSPLIT, "func(n int, p, grad, m, v *float64, b1, c1, b2, c2, alpha, eps float64)")
	Pragma("noescape")
	Doc(
		"adam4 updates n parameters p (n a multiple of 4) with gradients grad,",
		"four at a time:",
		"m = b1·m + c1·grad; v = b2·v + (c2·grad)·grad;",
		"p = p − (alpha·m)/(√v + eps),",
		"each operation rounded as in the scalar Go loop (no FMA).",
	)
	adamBody(false)
}

// adamScaledKernel writes adamScaled4: adam4 for parameters V of a product
// W = V ⊙ u, fused with the two products around it: the gradient is
// grad ⊙ u on the way in, and W is written on the way out, so the step is
// one pass over V's four arrays and W instead of three passes.
func adamScaledKernel() {
	TEXT("adamScaled4", NOSPLIT, "func(n int, p, grad, m, v, u, w *float64, b1, c1, b2, c2, alpha, eps float64)")
	Pragma("noescape")
	Doc(
		"adamScaled4 is adam4 with gradient grad[j]·u[j], followed by",
		"w[j] = p[j]·u[j] (n a multiple of 4), rounded as the scalar loop.",
	)
	adamBody(true)
}

// adamBody emits the update loop; scaled adds u and w (adamScaledKernel).
func adamBody(scaled bool) {
	n := Load(Param("n"), GP64())
	p := Load(Param("p"), GP64())
	g := Load(Param("grad"), GP64())
	m := Load(Param("m"), GP64())
	v := Load(Param("v"), GP64())
	var u, w Register
	if scaled {
		u = Load(Param("u"), GP64())
		w = Load(Param("w"), GP64())
	}
	consts := []VecPhysical{Y8, Y9, Y10, Y11, Y12, Y13}
	for i, name := range []string{"b1", "c1", "b2", "c2", "alpha", "eps"} {
		VBROADCASTSD(argAddr(Param(name)), consts[i])
	}
	b1, c1, b2, c2, alpha, eps := Y8, Y9, Y10, Y11, Y12, Y13
	pre := "adam_"
	if scaled {
		pre = "adams_"
	}
	ptrs := []Register{p, g, m, v}
	if scaled {
		ptrs = append([]Register{u, w}, ptrs...)
	}
	lanes4(pre, n, ptrs, func() {
		VMOVUPD(Mem{Base: g}, Y0)
		if scaled {
			VMOVUPD(Mem{Base: u}, Y14)
			VMULPD(Y14, Y0, Y0) // grad·u
		}
		adamCore(p, m, v, b1, c1, b2, c2, alpha, eps)
		if scaled {
			VMULPD(Y14, Y7, Y7) // p·u
			VMOVUPD(Y7, Mem{Base: w})
		}
	})
}

// lanes4 emits a loop over the n/4 blocks of four lanes (n in a register,
// a multiple of 4): body once per block, then each of ptrs advanced by 32
// bytes in order; then the function returns. Labels are pre + "loop" and
// pre + "done".
func lanes4(pre string, n Register, ptrs []Register, body func()) {
	SHRQ(U8(2), n)
	JZ(LabelRef(pre + "done"))
	Label(pre + "loop")
	body()
	for _, r := range ptrs {
		ADDQ(U8(32), r)
	}
	DECQ(n)
	JNZ(LabelRef(pre + "loop"))
	Label(pre + "done")
	VZEROUPPER()
	RET()
}

// adamCore emits the update of one 4-lane block whose gradient is in Y0:
// m and v are updated in memory, then p, whose new value stays in Y7 (Y1–Y7
// are clobbered). Each operation rounds as the scalar loop's, no FMA.
func adamCore(p, m, v Register, b1, c1, b2, c2, alpha, eps VecPhysical) {
	VMOVUPD(Mem{Base: m}, Y1)
	VMULPD(b1, Y1, Y1) // b1·m
	VMULPD(c1, Y0, Y2) // c1·g
	VADDPD(Y2, Y1, Y1) // m
	VMOVUPD(Y1, Mem{Base: m})
	VMOVUPD(Mem{Base: v}, Y3)
	VMULPD(b2, Y3, Y3) // b2·v
	VMULPD(c2, Y0, Y4) // c2·g
	VMULPD(Y0, Y4, Y4) // (c2·g)·g
	VADDPD(Y4, Y3, Y3) // v
	VMOVUPD(Y3, Mem{Base: v})
	VSQRTPD(Y3, Y5)
	VADDPD(eps, Y5, Y5)   // √v + eps
	VMULPD(alpha, Y1, Y6) // alpha·m
	VDIVPD(Y5, Y6, Y6)    // (alpha·m)/(√v + eps)
	VMOVUPD(Mem{Base: p}, Y7)
	VSUBPD(Y6, Y7, Y7)
	VMOVUPD(Y7, Mem{Base: p})
}

// adamRank2Kernel writes adamRank2_4: adamScaled4 for a row of a parameter
// whose gradient has rank two, a0·x + a1·y, formed in the pass instead of
// read from a stored gradient (numeric.Adam.StepProductLowRank). Six
// broadcast constants and a0, a1 take eight registers; u is read from
// memory by the two products that use it, leaving eight temporaries.
func adamRank2Kernel() {
	TEXT("adamRank2_4", NOSPLIT, "func(n int, p, x, y, m, v, u, w *float64, a0, a1, b1, c1, b2, c2, alpha, eps float64)")
	Pragma("noescape")
	Doc(
		"adamRank2_4 is adamScaled4 with gradient (a0·x[j] + a1·y[j])·u[j]",
		"(n a multiple of 4), rounded as the scalar loop (no FMA).",
	)
	n := Load(Param("n"), GP64())
	p := Load(Param("p"), GP64())
	x := Load(Param("x"), GP64())
	y := Load(Param("y"), GP64())
	m := Load(Param("m"), GP64())
	v := Load(Param("v"), GP64())
	u := Load(Param("u"), GP64())
	w := Load(Param("w"), GP64())
	consts := []VecPhysical{Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15}
	for i, name := range []string{"b1", "c1", "b2", "c2", "alpha", "eps", "a0", "a1"} {
		VBROADCASTSD(argAddr(Param(name)), consts[i])
	}
	b1, c1, b2, c2, alpha, eps, a0, a1 := Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15
	lanes4("adamr2_", n, []Register{p, x, y, m, v, u, w}, func() {
		VMOVUPD(Mem{Base: x}, Y0)
		VMULPD(a0, Y0, Y0) // a0·x
		VMOVUPD(Mem{Base: y}, Y2)
		VMULPD(a1, Y2, Y2) // a1·y
		VADDPD(Y2, Y0, Y0)
		VMULPD(Mem{Base: u}, Y0, Y0) // (a0·x + a1·y)·u
		adamCore(p, m, v, b1, c1, b2, c2, alpha, eps)
		VMULPD(Mem{Base: u}, Y7, Y7) // p·u
		VMOVUPD(Y7, Mem{Base: w})
	})
}

// reluKernels writes the row loops of a ReLU network's thin layers (one
// input and a bias; one output), vectorised along the hidden units: each
// lane does the scalar loop's operations in its order without FMA, and
// sums over rows stay in row order, so results are the scalar loop's bit
// for bit. c (the units handled) is a multiple of 4; the callers do the
// rest in Go.
func reluKernels() {
	zero := Y15

	TEXT("reluAffine4", NOSPLIT, "func(n, c int, x *float64, xs int, w0, w1, h *float64, hs int)")
	Pragma("noescape")
	Doc(
		"reluAffine4 sets h[i·hs + j] = max(x[i·xs]·w0[j] + w1[j], 0) for i < n,",
		"j < c (c a multiple of 4), keeping NaN and −0 as `if v < 0 { v = 0 }` does.",
	)
	{
		n := Load(Param("n"), GP64())
		c := Load(Param("c"), GP64())
		x := Load(Param("x"), GP64())
		xs := Load(Param("xs"), GP64())
		w0 := Load(Param("w0"), GP64())
		w1 := Load(Param("w1"), GP64())
		h := Load(Param("h"), GP64())
		hs := Load(Param("hs"), GP64())
		SHLQ(U8(3), xs)
		SHLQ(U8(3), hs)
		SHRQ(U8(2), c)
		VXORPD(zero, zero, zero)
		TESTQ(n, n)
		JZ(LabelRef("ra_done"))
		TESTQ(c, c)
		JZ(LabelRef("ra_done"))
		Label("ra_row")
		VBROADCASTSD(Mem{Base: x}, Y0)
		j := GP64()
		XORQ(j, j)
		k := GP64()
		MOVQ(c, k)
		Label("ra_col")
		VMULPD(Mem{Base: w0, Index: j, Scale: 8}, Y0, Y1)
		VADDPD(Mem{Base: w1, Index: j, Scale: 8}, Y1, Y1)
		VMAXPD(Y1, zero, Y1) // max(0, v) with v second: NaN and −0 pass
		VMOVUPD(Y1, Mem{Base: h, Index: j, Scale: 8})
		ADDQ(U8(4), j)
		DECQ(k)
		JNZ(LabelRef("ra_col"))
		ADDQ(xs, x)
		ADDQ(hs, h)
		DECQ(n)
		JNZ(LabelRef("ra_row"))
		Label("ra_done")
		VZEROUPPER()
		RET()
	}

	TEXT("reluOutBack4", NOSPLIT, "func(n, c int, grad, h *float64, hs int, w, dw, gp *float64, gs int)")
	Pragma("noescape")
	Doc(
		"reluOutBack4 is the backward pass of a one-output layer on ReLU",
		"activations h, for units j < c (c a multiple of 4), row after row:",
		"dw[j] += grad[i]·h[i·hs + j], and gp[i·gs + j] = grad[i]·w[j] where",
		"h[i·hs + j] > 0, else +0.",
	)
	{
		n := Load(Param("n"), GP64())
		c := Load(Param("c"), GP64())
		g := Load(Param("grad"), GP64())
		h := Load(Param("h"), GP64())
		hs := Load(Param("hs"), GP64())
		w := Load(Param("w"), GP64())
		dw := Load(Param("dw"), GP64())
		gp := Load(Param("gp"), GP64())
		gs := Load(Param("gs"), GP64())
		SHLQ(U8(3), hs)
		SHLQ(U8(3), gs)
		SHRQ(U8(2), c)
		VXORPD(zero, zero, zero)
		TESTQ(n, n)
		JZ(LabelRef("ro_done"))
		TESTQ(c, c)
		JZ(LabelRef("ro_done"))
		Label("ro_row")
		VBROADCASTSD(Mem{Base: g}, Y0)
		j := GP64()
		XORQ(j, j)
		k := GP64()
		MOVQ(c, k)
		Label("ro_col")
		VMOVUPD(Mem{Base: h, Index: j, Scale: 8}, Y1)
		VMULPD(Y1, Y0, Y2) // g·h
		VADDPD(Mem{Base: dw, Index: j, Scale: 8}, Y2, Y2)
		VMOVUPD(Y2, Mem{Base: dw, Index: j, Scale: 8})
		VMULPD(Mem{Base: w, Index: j, Scale: 8}, Y0, Y3) // g·w
		VCMPPD(U8(0x1e), zero, Y1, Y4)                   // h > 0 (ordered)
		VANDPD(Y4, Y3, Y3)
		VMOVUPD(Y3, Mem{Base: gp, Index: j, Scale: 8})
		ADDQ(U8(4), j)
		DECQ(k)
		JNZ(LabelRef("ro_col"))
		ADDQ(U8(8), g)
		ADDQ(hs, h)
		ADDQ(gs, gp)
		DECQ(n)
		JNZ(LabelRef("ro_row"))
		Label("ro_done")
		VZEROUPPER()
		RET()
	}

	TEXT("reluInBack4", NOSPLIT, "func(n, c int, x *float64, xs int, h *float64, hs int, grad *float64, gs int, d0, d1 *float64)")
	Pragma("noescape")
	Doc(
		"reluInBack4 sums the weight gradient of a layer with inputs x and 1",
		"through its ReLU, for units j < c (c a multiple of 4), row after row:",
		"where h[i·hs + j] > 0, d0[j] += x[i·xs]·grad[i·gs + j] and",
		"d1[j] += grad[i·gs + j]",
		"(elsewhere +0 is added, which leaves every sum as it was).",
	)
	{
		n := Load(Param("n"), GP64())
		c := Load(Param("c"), GP64())
		x := Load(Param("x"), GP64())
		xs := Load(Param("xs"), GP64())
		h := Load(Param("h"), GP64())
		hs := Load(Param("hs"), GP64())
		g := Load(Param("grad"), GP64())
		gs := Load(Param("gs"), GP64())
		d0 := Load(Param("d0"), GP64())
		d1 := Load(Param("d1"), GP64())
		SHLQ(U8(3), xs)
		SHLQ(U8(3), hs)
		SHLQ(U8(3), gs)
		SHRQ(U8(2), c)
		VXORPD(zero, zero, zero)
		TESTQ(n, n)
		JZ(LabelRef("ri_done"))
		TESTQ(c, c)
		JZ(LabelRef("ri_done"))
		Label("ri_row")
		VBROADCASTSD(Mem{Base: x}, Y0)
		j := GP64()
		XORQ(j, j)
		k := GP64()
		MOVQ(c, k)
		Label("ri_col")
		VMOVUPD(Mem{Base: h, Index: j, Scale: 8}, Y1)
		VCMPPD(U8(0x1e), zero, Y1, Y4) // h > 0 (ordered)
		VANDPD(Mem{Base: g, Index: j, Scale: 8}, Y4, Y2)
		VMULPD(Y2, Y0, Y3) // x·g
		VADDPD(Mem{Base: d0, Index: j, Scale: 8}, Y3, Y3)
		VMOVUPD(Y3, Mem{Base: d0, Index: j, Scale: 8})
		VADDPD(Mem{Base: d1, Index: j, Scale: 8}, Y2, Y2)
		VMOVUPD(Y2, Mem{Base: d1, Index: j, Scale: 8})
		ADDQ(U8(4), j)
		DECQ(k)
		JNZ(LabelRef("ri_col"))
		ADDQ(xs, x)
		ADDQ(hs, h)
		ADDQ(gs, g)
		DECQ(n)
		JNZ(LabelRef("ri_row"))
		Label("ri_done")
		VZEROUPPER()
		RET()
	}
}

// reluDotKernel writes reluDot4, a one-output layer's forward pass on the
// activations of the layer below, applying their ReLU in place: four rows
// at a time, each lane one row whose sum runs in column order without FMA
// (the scalar loop's sum bit for bit). Four columns of the four rows are
// loaded, rectified, stored back and transposed in registers, so each
// column is one broadcast weight times one vector of rows.
func reluDotKernel() {
	TEXT("reluDot4", NOSPLIT, "func(n, c int, a *float64, as int, v, dst *float64)")
	Pragma("noescape")
	Doc(
		"reluDot4 sets, for rows i < n (n a multiple of 4), a[i·as + j] =",
		"max(a[i·as + j], 0) for j < c (c a multiple of 4; NaN and −0 kept as",
		"`if x < 0 { x = 0 }` keeps them) and dst[i] = Σ_{j<c} a[i·as + j]·v[j],",
		"summed from +0 in column order.",
	)
	n := Load(Param("n"), GP64())
	c := Load(Param("c"), GP64())
	a := Load(Param("a"), GP64())
	as := Load(Param("as"), GP64())
	v := Load(Param("v"), GP64())
	dst := Load(Param("dst"), GP64())
	SHLQ(U8(3), as)
	SHRQ(U8(2), n)
	SHRQ(U8(2), c)
	zero := Y15
	acc := Y8
	VXORPD(zero, zero, zero)
	TESTQ(n, n)
	JZ(LabelRef("rd_done"))
	TESTQ(c, c)
	JZ(LabelRef("rd_done"))
	step := GP64() // four rows of a
	LEAQ(Mem{Base: as, Index: as, Scale: 2}, step)
	ADDQ(as, step)
	a3 := GP64()
	Label("rd_rows")
	LEAQ(Mem{Base: a, Index: as, Scale: 2}, a3)
	ADDQ(as, a3)
	VXORPD(acc, acc, acc)
	j := GP64()
	XORQ(j, j)
	k := GP64()
	MOVQ(c, k)
	Label("rd_col")
	// Rows 1 and 2 are at a + as and a + 2·as: address them through a
	// second index register.
	p := GP64()
	LEAQ(Mem{Base: a, Index: j, Scale: 8}, p)
	r := [4]Mem{{Base: p}, {Base: p, Index: as, Scale: 1}, {Base: p, Index: as, Scale: 2}, {Base: a3, Index: j, Scale: 8}}
	y := [4]VecPhysical{Y0, Y1, Y2, Y3}
	for i := range y {
		VMOVUPD(r[i], y[i])
		VMAXPD(y[i], zero, y[i]) // max(0, x) with x second: NaN and −0 pass
		VMOVUPD(y[i], r[i])
	}
	VUNPCKLPD(Y1, Y0, Y4)            // a0 b0 a2 b2
	VUNPCKHPD(Y1, Y0, Y5)            // a1 b1 a3 b3
	VUNPCKLPD(Y3, Y2, Y6)            // c0 d0 c2 d2
	VUNPCKHPD(Y3, Y2, Y7)            // c1 d1 c3 d3
	VPERM2F128(U8(0x20), Y6, Y4, Y0) // column 0
	VPERM2F128(U8(0x20), Y7, Y5, Y1) // column 1
	VPERM2F128(U8(0x31), Y6, Y4, Y2) // column 2
	VPERM2F128(U8(0x31), Y7, Y5, Y3) // column 3
	for t := range y {
		VBROADCASTSD(Mem{Base: v, Index: j, Scale: 8, Disp: 8 * t}, Y9)
		VMULPD(Y9, y[t], y[t])
		VADDPD(y[t], acc, acc)
	}
	ADDQ(U8(4), j)
	DECQ(k)
	JNZ(LabelRef("rd_col"))
	VMOVUPD(acc, Mem{Base: dst})
	ADDQ(U8(32), dst)
	ADDQ(step, a)
	DECQ(n)
	JNZ(LabelRef("rd_rows"))
	Label("rd_done")
	VZEROUPPER()
	RET()
}

// narrowKernel writes kernel12x4, the GEMM kernel for a last column panel
// of at most four columns (n = 50 leaves 2, n = 51 leaves 3, n = 100
// leaves 4): twelve rows of one YMM each, so a step is one load of B,
// twelve broadcasts and twelve FMAs for 48 useful products, where
// kernel6x8 spends twelve FMAs on six rows of a panel padded to 8 columns.
// A panel narrower than four columns goes through a stack tile: AMD's
// masked stores (VMASKMOVPD) cost more than the copy.
func narrowKernel() {
	TEXT("kernel12x4", NOSPLIT, "func(k int, a *float64, ars, aps int, b *float64, bps int, c *float64, ldc, cols int, alpha, beta float64)")
	Pragma("noescape")
	Doc(
		"kernel12x4 sets the first cols (1 to 4) columns of the 12×4 tile at c",
		"(row stride ldc elements) to alpha·Ã·B̃ + beta·c over k steps (k may",
		"be zero); columns past them are neither read nor written. Element",
		"(i, p) of the 12×k matrix Ã is at a[i·ars + p·aps]; row p of the k×4",
		"matrix B̃ is the 4 values at b[p·bps]. When beta is zero, c is",
		"written without being read.",
	)
	k := Load(Param("k"), GP64())
	a := Load(Param("a"), GP64())
	ars := Load(Param("ars"), GP64())
	aps := Load(Param("aps"), GP64())
	b := Load(Param("b"), GP64())
	bps := Load(Param("bps"), GP64())
	SHLQ(U8(3), ars)
	SHLQ(U8(3), aps)
	SHLQ(U8(3), bps)
	three := GP64() // 3·ars
	LEAQ(Mem{Base: ars, Index: ars, Scale: 2}, three)
	a3, a6, a9 := GP64(), GP64(), GP64()
	LEAQ(Mem{Base: a, Index: three, Scale: 1}, a3)
	LEAQ(Mem{Base: a3, Index: three, Scale: 1}, a6)
	LEAQ(Mem{Base: a6, Index: three, Scale: 1}, a9)
	var rows [12]Mem
	for q, base := range []Register{a, a3, a6, a9} {
		rows[3*q] = Mem{Base: base}
		rows[3*q+1] = Mem{Base: base, Index: ars, Scale: 1}
		rows[3*q+2] = Mem{Base: base, Index: ars, Scale: 2}
	}
	acc := []VecPhysical{Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11}
	bv := Y12
	av := [2]VecPhysical{Y13, Y14}
	step := func() {
		VMOVUPD(Mem{Base: b}, bv)
		for i := range acc {
			x := av[i%2]
			VBROADCASTSD(rows[i], x)
			VFMADD231PD(bv, x, acc[i])
		}
		ADDQ(aps, a)
		ADDQ(aps, a3)
		ADDQ(aps, a6)
		ADDQ(aps, a9)
		ADDQ(bps, b)
	}
	for _, r := range acc {
		VXORPD(r, r, r)
	}
	kLoop(k, "n12_", step)

	scaleByAlpha(acc, Y13, "n12_scaled")
	c := Load(Param("c"), GP64())
	ldc := Load(Param("ldc"), GP64())
	cols := Load(Param("cols"), GP64())
	SHLQ(U8(3), ldc)
	VMOVSD(argAddr(Param("beta")), X15)
	VXORPD(X14, X14, X14)
	VUCOMISD(X14, X15)
	JNE(LabelRef("n12_accumulate"))
	JP(LabelRef("n12_accumulate")) // beta is NaN

	// A last panel of fewer than four columns (n = 51 leaves three) stores
	// only those, lane by lane, where a stack tile and a copy in Go cost a
	// 50-step call a fifth more.
	Comment("beta == 0: overwrite c without reading it.")
	narrowColumns(cols, "n12_set")
	for w := 4; w >= 1; w-- {
		Label(fmt.Sprintf("n12_set%d", w))
		for i, r := range acc {
			storeLanes(r, Mem{Base: c}, w)
			if i < len(acc)-1 {
				ADDQ(ldc, c)
			}
		}
		VZEROUPPER()
		RET()
	}

	Label("n12_accumulate")
	VBROADCASTSD(X15, Y15)
	narrowColumns(cols, "n12_add")
	for w := 4; w >= 1; w-- {
		Label(fmt.Sprintf("n12_add%d", w))
		for i, r := range acc {
			if w == 4 {
				VFMADD231PD(Mem{Base: c}, Y15, r)
			} else {
				loadLanes(Mem{Base: c}, Y13, X12, w)
				VFMADD231PD(Y13, Y15, r)
			}
			storeLanes(r, Mem{Base: c}, w)
			if i < len(acc)-1 {
				ADDQ(ldc, c)
			}
		}
		VZEROUPPER()
		RET()
	}
}

// narrowColumns jumps to label+"1" to label+"4" by cols (1 to 4).
func narrowColumns(cols Register, label string) {
	CMPQ(cols, U8(3))
	JEQ(LabelRef(label + "3"))
	JGT(LabelRef(label + "4"))
	CMPQ(cols, U8(1))
	JEQ(LabelRef(label + "1"))
	JMP(LabelRef(label + "2"))
}

// storeLanes stores the first w (1 to 4) lanes of r at m.
func storeLanes(r VecPhysical, m Mem, w int) {
	switch w {
	case 4:
		VMOVUPD(r, m)
	case 3:
		VMOVUPD(r.AsX(), m)
		VEXTRACTF128(U8(1), r, X13)
		VMOVSD(X13, m.Offset(16))
	case 2:
		VMOVUPD(r.AsX(), m)
	case 1:
		VMOVSD(r.AsX(), m)
	}
}

// loadLanes loads the first w (1 to 3) values at m into the low lanes of
// r (tmp's X register a scratch); the other lanes are zero.
func loadLanes(m Mem, r VecPhysical, tmp VecPhysical, w int) {
	switch w {
	case 3:
		VMOVUPD(m, r.AsX())
		VMOVSD(m.Offset(16), tmp)
		VINSERTF128(U8(1), tmp, r, r)
	case 2:
		VMOVUPD(m, r.AsX())
	case 1:
		VMOVSD(m, r.AsX())
	}
}

// What sumDotsKernel does with r = a + b besides its two dot products.
const (
	sumDotsPlain = iota
	sumDotsSet   // dst = r
	sumDotsAdd   // dst += r
)

// sumDotsKernel writes a kernel for NUTS's U-turn criterion: with
// r = a + b, the dot products Σ u·r and Σ w·r in one pass, eight
// coordinates a step in two accumulators each (FMA), r stored or added
// into dst by mode.
func sumDotsKernel(name string, mode int) {
	TEXT(name, NOSPLIT, "func(n int, u, w, a, b, dst *float64) (su, sw float64)")
	Pragma("noescape")
	what := map[int]string{sumDotsPlain: "", sumDotsSet: "; dst = r", sumDotsAdd: "; dst += r"}[mode]
	Doc(
		name+" returns Σ u·r and Σ w·r for r = a + b over n coordinates (n a",
		"multiple of 4)"+what+". The sums are taken in eight partial sums",
		"with FMA, so they differ from a plain loop's in the last bits.",
	)
	n := Load(Param("n"), GP64())
	u := Load(Param("u"), GP64())
	w := Load(Param("w"), GP64())
	a := Load(Param("a"), GP64())
	b := Load(Param("b"), GP64())
	var dst Register
	if mode != sumDotsPlain {
		dst = Load(Param("dst"), GP64())
	}
	for _, r := range []VecPhysical{Y0, Y1, Y2, Y3} {
		VXORPD(r, r, r)
	}
	i := GP64()
	XORQ(i, i)
	body := func(disp int, su, sw VecPhysical, r VecPhysical) {
		VMOVUPD(Mem{Base: a, Index: i, Scale: 8, Disp: disp}, r)
		VADDPD(Mem{Base: b, Index: i, Scale: 8, Disp: disp}, r, r)
		switch mode {
		case sumDotsSet:
			VMOVUPD(r, Mem{Base: dst, Index: i, Scale: 8, Disp: disp})
		case sumDotsAdd:
			VADDPD(Mem{Base: dst, Index: i, Scale: 8, Disp: disp}, r, Y8)
			VMOVUPD(Y8, Mem{Base: dst, Index: i, Scale: 8, Disp: disp})
		}
		VFMADD231PD(Mem{Base: u, Index: i, Scale: 8, Disp: disp}, r, su)
		VFMADD231PD(Mem{Base: w, Index: i, Scale: 8, Disp: disp}, r, sw)
	}
	pre := name + "_"
	m := GP64()
	MOVQ(n, m)
	SHRQ(U8(3), m)
	JZ(LabelRef(pre + "tail"))
	Label(pre + "loop")
	body(0, Y0, Y1, Y4)
	body(32, Y2, Y3, Y5)
	ADDQ(U8(8), i)
	DECQ(m)
	JNZ(LabelRef(pre + "loop"))
	Label(pre + "tail")
	TESTQ(U32(4), n)
	JZ(LabelRef(pre + "sum"))
	body(0, Y0, Y1, Y4)
	Label(pre + "sum")
	VADDPD(Y2, Y0, Y0)
	VADDPD(Y3, Y1, Y1)
	for _, r := range []VecPhysical{Y0, Y1} {
		VEXTRACTF128(U8(1), r, X6)
		VADDPD(X6, r.AsX(), r.AsX())
		VUNPCKHPD(r.AsX(), r.AsX(), X6)
		VADDSD(X6, r.AsX(), r.AsX())
	}
	VMOVSD(X0, argAddr(ReturnIndex(0)))
	VMOVSD(X1, argAddr(ReturnIndex(1)))
	VZEROUPPER()
	RET()
}

// expKernel writes exp4, e^x four lanes at a time: x = n·ln 2 + r with n
// the integer nearest x·log₂e and |r| ≤ ½ln 2 (two FMA steps with ln 2
// split in a high and a low part), e^r by its Taylor polynomial of degree
// 13 in Horner form (truncation below 5·10⁻¹⁸ relative on that interval),
// and 2ⁿ put into the exponent bits. It stops at the first block with a
// lane outside |x| ≤ 700 (or NaN), where 2ⁿ would leave the normal range,
// and leaves that block to the caller's scalar exp.
func expKernel() {
	const lanes = 4
	c := GLOBL("expconst", RODATA|NOPTR)
	consts := []uint64{
		math.Float64bits(math.Log2E),
		math.Float64bits(math.Ln2),
		math.Float64bits(2.319046813846299558e-17), // ln 2 − float64(ln 2)
		math.Float64bits(700),
		0x7fffffffffffffff, // |x| mask
		1023,               // exponent bias
	}
	fact := 1.0
	for k := 0; k <= 13; k++ { // 1/k!
		if k > 0 {
			fact *= float64(k)
		}
		consts = append(consts, math.Float64bits(1/fact))
	}
	for i, v := range consts {
		for l := range lanes {
			DATA(8*(lanes*i+l), U64(v))
		}
	}
	at := func(i int) Mem { return c.Offset(8 * lanes * i) }
	log2e, ln2hi, ln2lo, limit, absMask, bias := at(0), at(1), at(2), at(3), at(4), at(5)
	coef := func(k int) Mem { return at(6 + k) }

	TEXT("exp4", NOSPLIT, "func(n int, x, y *float64) int")
	Pragma("noescape")
	Doc(
		"exp4 sets y[i] = e^x[i] for i < n (n a multiple of 4), four at a",
		"time, within about 1 ulp. It stops before the first block of four with",
		"a lane outside |x| ≤ 700 or NaN and returns how many it set.",
	)
	n := Load(Param("n"), GP64())
	x := Load(Param("x"), GP64())
	y := Load(Param("y"), GP64())
	done := GP64()
	XORQ(done, done)
	SHRQ(U8(2), n)
	JZ(LabelRef("exp_done"))
	Label("exp_loop")
	VMOVUPD(Mem{Base: x}, Y0)
	VANDPD(absMask, Y0, Y1)
	VCMPPD(U8(6), limit, Y1, Y1) // !(|x| <= 700): too large, or NaN
	mask := GP32()
	VMOVMSKPD(Y1, mask)
	TESTL(mask, mask)
	JNZ(LabelRef("exp_done"))
	VMULPD(log2e, Y0, Y2)
	VROUNDPD(U8(0), Y2, Y2) // n, to nearest
	VMOVAPD(Y0, Y3)
	VFNMADD231PD(ln2hi, Y2, Y3) // x − n·ln2hi
	VFNMADD231PD(ln2lo, Y2, Y3) // r
	VMOVUPD(coef(13), Y4)
	for k := 12; k >= 0; k-- {
		VFMADD213PD(coef(k), Y3, Y4) // p·r + 1/k!
	}
	VCVTPD2DQY(Y2, X5)
	VPMOVSXDQ(X5, Y5)
	VPADDQ(bias, Y5, Y5)
	VPSLLQ(U8(52), Y5, Y5) // 2ⁿ
	VMULPD(Y5, Y4, Y4)
	VMOVUPD(Y4, Mem{Base: y})
	ADDQ(U8(32), x)
	ADDQ(U8(32), y)
	ADDQ(U8(lanes), done)
	DECQ(n)
	JNZ(LabelRef("exp_loop"))
	Label("exp_done")
	Store(done, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// reluTapeKernels writes the elementwise loops of the tape's fused ReLU
// node (numeric's ReLUAppendOnes), four entries at a time over rows of c
// entries (c a multiple of 4; the callers do the rest in Go). Both are
// exact: the forward pass is Go's max(x, 0) (NaN kept, −0 made +0), the
// backward pass selects rather than adds a masked zero, so a −0 gradient
// stays −0 as under the scalar loop's branch. The signs of a layer's
// pre-activations are close to random from row to row, so the scalar
// loop's branch mispredicts about half the time.
func reluTapeKernels() {
	zero := Y15

	TEXT("reluRows4", NOSPLIT, "func(n, c int, x *float64, xs int, y *float64, ys int)")
	Pragma("noescape")
	Doc(
		"reluRows4 sets y[i·ys + j] = max(x[i·xs + j], 0) for i < n, j < c (c a",
		"multiple of 4), as Go's max: NaN kept, −0 made +0.",
	)
	{
		n := Load(Param("n"), GP64())
		c := Load(Param("c"), GP64())
		x := Load(Param("x"), GP64())
		xs := Load(Param("xs"), GP64())
		y := Load(Param("y"), GP64())
		ys := Load(Param("ys"), GP64())
		SHLQ(U8(3), xs)
		SHLQ(U8(3), ys)
		SHRQ(U8(2), c)
		VXORPD(zero, zero, zero)
		TESTQ(n, n)
		JZ(LabelRef("rr_done"))
		TESTQ(c, c)
		JZ(LabelRef("rr_done"))
		Label("rr_row")
		j := GP64()
		XORQ(j, j)
		k := GP64()
		MOVQ(c, k)
		Label("rr_col")
		VMOVUPD(Mem{Base: x, Index: j, Scale: 8}, Y0)
		VMAXPD(Y0, zero, Y0) // 0 > x ? 0 : x: NaN and −0 pass
		VADDPD(zero, Y0, Y0) // −0 + +0 = +0; every other x unchanged
		VMOVUPD(Y0, Mem{Base: y, Index: j, Scale: 8})
		ADDQ(U8(4), j)
		DECQ(k)
		JNZ(LabelRef("rr_col"))
		ADDQ(xs, x)
		ADDQ(ys, y)
		DECQ(n)
		JNZ(LabelRef("rr_row"))
		Label("rr_done")
		VZEROUPPER()
		RET()
	}

	reluMaskKernel(false)
	reluMaskKernel(true)
}

// reluMaskKernel writes reluMaskAdd4, or with set reluMaskSet4, which
// writes over a gradient that holds nothing yet (numeric's fresh buffers):
// +0 + grad where x > 0 and +0 elsewhere, the values reluMaskAdd4 leaves
// in a cleared dst.
func reluMaskKernel(set bool) {
	zero := Y15
	name, pre := "reluMaskAdd4", "rm_"
	doc := []string{
		"reluMaskAdd4 sets dst[i·ds + j] += grad[i·gs + j] where x[i·xs + j] > 0,",
		"for i < n, j < c (c a multiple of 4), leaving dst as it was elsewhere.",
	}
	if set {
		name, pre = "reluMaskSet4", "rms_"
		doc = []string{
			"reluMaskSet4 sets dst[i·ds + j] = +0 + grad[i·gs + j] where",
			"x[i·xs + j] > 0 and +0 elsewhere, for i < n, j < c (c a multiple of",
			"4), without reading dst.",
		}
	}
	TEXT(name, NOSPLIT, "func(n, c int, grad *float64, gs int, x *float64, xs int, dst *float64, ds int)")
	Pragma("noescape")
	Doc(doc...)
	n := Load(Param("n"), GP64())
	c := Load(Param("c"), GP64())
	g := Load(Param("grad"), GP64())
	gs := Load(Param("gs"), GP64())
	x := Load(Param("x"), GP64())
	xs := Load(Param("xs"), GP64())
	d := Load(Param("dst"), GP64())
	ds := Load(Param("ds"), GP64())
	SHLQ(U8(3), gs)
	SHLQ(U8(3), xs)
	SHLQ(U8(3), ds)
	SHRQ(U8(2), c)
	VXORPD(zero, zero, zero)
	TESTQ(n, n)
	JZ(LabelRef(pre + "done"))
	TESTQ(c, c)
	JZ(LabelRef(pre + "done"))
	Label(pre + "row")
	j := GP64()
	XORQ(j, j)
	k := GP64()
	MOVQ(c, k)
	Label(pre + "col")
	VCMPPD(U8(1), Mem{Base: x, Index: j, Scale: 8}, zero, Y0) // 0 < x (false for NaN)
	if set {
		VADDPD(Mem{Base: g, Index: j, Scale: 8}, zero, Y2)
		VANDPD(Y0, Y2, Y1) // +0 + g where 0 < x, else +0
	} else {
		VMOVUPD(Mem{Base: d, Index: j, Scale: 8}, Y1)
		VADDPD(Mem{Base: g, Index: j, Scale: 8}, Y1, Y2)
		VBLENDVPD(Y0, Y2, Y1, Y1) // d + g where 0 < x, else d
	}
	VMOVUPD(Y1, Mem{Base: d, Index: j, Scale: 8})
	ADDQ(U8(4), j)
	DECQ(k)
	JNZ(LabelRef(pre + "col"))
	ADDQ(gs, g)
	ADDQ(xs, x)
	ADDQ(ds, d)
	DECQ(n)
	JNZ(LabelRef(pre + "row"))
	Label(pre + "done")
	VZEROUPPER()
	RET()
}

// rowScaleDotKernel writes rowScaleDot4, the row loop of two backward
// passes on a matrix scaled by a column (numeric's WeightedGram and the
// product of a matrix and a column): an update ga += g·z_i and a dot
// product g·a per row, four lanes at a time, each lane's operations in the
// scalar loop's order without FMA.
func rowScaleDotKernel() {
	TEXT("rowScaleDot4", NOSPLIT, "func(m, c int, grad *float64, gs int, a *float64, as int, z *float64, zs int, ga *float64, gas int, lanes *float64)")
	Pragma("noescape")
	Doc(
		"rowScaleDot4 sets, for rows i < m and j < c (c a multiple of 4),",
		"ga[i·gas + j] += grad[i·gs + j]·z[i·zs], and lanes[4i + l] to the sum",
		"over j ≡ l (mod 4) of grad[i·gs + j]·a[i·as + j], from +0 in column",
		"order.",
	)
	m := Load(Param("m"), GP64())
	c := Load(Param("c"), GP64())
	g := Load(Param("grad"), GP64())
	gs := Load(Param("gs"), GP64())
	a := Load(Param("a"), GP64())
	as := Load(Param("as"), GP64())
	z := Load(Param("z"), GP64())
	zs := Load(Param("zs"), GP64())
	ga := Load(Param("ga"), GP64())
	gas := Load(Param("gas"), GP64())
	lanes := Load(Param("lanes"), GP64())
	for _, r := range []Register{gs, as, zs, gas} {
		SHLQ(U8(3), r)
	}
	SHRQ(U8(2), c)
	TESTQ(m, m)
	JZ(LabelRef("rs_done"))
	Label("rs_row")
	VBROADCASTSD(Mem{Base: z}, Y0)
	VXORPD(Y1, Y1, Y1)
	j := GP64()
	XORQ(j, j)
	k := GP64()
	MOVQ(c, k)
	TESTQ(k, k)
	JZ(LabelRef("rs_store"))
	Label("rs_col")
	VMOVUPD(Mem{Base: g, Index: j, Scale: 8}, Y2)
	VMULPD(Y0, Y2, Y3) // grad·z
	VADDPD(Mem{Base: ga, Index: j, Scale: 8}, Y3, Y3)
	VMOVUPD(Y3, Mem{Base: ga, Index: j, Scale: 8})
	VMULPD(Mem{Base: a, Index: j, Scale: 8}, Y2, Y4) // grad·a
	VADDPD(Y4, Y1, Y1)
	ADDQ(U8(4), j)
	DECQ(k)
	JNZ(LabelRef("rs_col"))
	Label("rs_store")
	VMOVUPD(Y1, Mem{Base: lanes})
	ADDQ(U8(32), lanes)
	ADDQ(gs, g)
	ADDQ(as, a)
	ADDQ(zs, z)
	ADDQ(gas, ga)
	DECQ(m)
	JNZ(LabelRef("rs_row"))
	Label("rs_done")
	VZEROUPPER()
	RET()
}

// rowScaleKernel writes rowScale4, the forward pass of a matrix scaled by a
// column (numeric's Mul by a column, WeightedGram's Φ·diag(w)).
func rowScaleKernel() {
	TEXT("rowScale4", NOSPLIT, "func(m, c int, x *float64, xs int, z *float64, zs int, y *float64, ys int)")
	Pragma("noescape")
	Doc(
		"rowScale4 sets y[i·ys + j] = x[i·xs + j]·z[i·zs] for i < m, j < c (c a",
		"multiple of 4).",
	)
	m := Load(Param("m"), GP64())
	c := Load(Param("c"), GP64())
	x := Load(Param("x"), GP64())
	xs := Load(Param("xs"), GP64())
	z := Load(Param("z"), GP64())
	zs := Load(Param("zs"), GP64())
	y := Load(Param("y"), GP64())
	ys := Load(Param("ys"), GP64())
	for _, r := range []Register{xs, zs, ys} {
		SHLQ(U8(3), r)
	}
	SHRQ(U8(2), c)
	TESTQ(m, m)
	JZ(LabelRef("rsc_done"))
	TESTQ(c, c)
	JZ(LabelRef("rsc_done"))
	Label("rsc_row")
	VBROADCASTSD(Mem{Base: z}, Y0)
	j := GP64()
	XORQ(j, j)
	k := GP64()
	MOVQ(c, k)
	Label("rsc_col")
	VMULPD(Mem{Base: x, Index: j, Scale: 8}, Y0, Y1)
	VMOVUPD(Y1, Mem{Base: y, Index: j, Scale: 8})
	ADDQ(U8(4), j)
	DECQ(k)
	JNZ(LabelRef("rsc_col"))
	ADDQ(xs, x)
	ADDQ(zs, z)
	ADDQ(ys, y)
	DECQ(m)
	JNZ(LabelRef("rsc_row"))
	Label("rsc_done")
	VZEROUPPER()
	RET()
}

// reparamKernels writes axpyElem4 and gradReparam4, the elementwise passes
// of a reparameterised Gaussian's step (fBNN's k·P weight draws and
// gradient sums), in the scalar loops' operation order without FMA, so
// each lane rounds as the Go loop does.
func reparamKernels() {
	TEXT("axpyElem4", NOSPLIT, "func(n int, dst, mu, s, e *float64)")
	Pragma("noescape")
	Doc("axpyElem4 sets dst[j] = mu[j] + s[j]·e[j] for j < n (n a multiple of 4),",
		"rounded as the scalar loop.")
	{
		n := Load(Param("n"), GP64())
		dst := Load(Param("dst"), GP64())
		mu := Load(Param("mu"), GP64())
		sp := Load(Param("s"), GP64())
		e := Load(Param("e"), GP64())
		lanes4("axpye_", n, []Register{dst, mu, sp, e}, func() {
			VMOVUPD(Mem{Base: sp}, Y0)
			VMULPD(Mem{Base: e}, Y0, Y0)  // s·e
			VADDPD(Mem{Base: mu}, Y0, Y0) // mu + s·e
			VMOVUPD(Y0, Mem{Base: dst})
		})
	}

	TEXT("gradReparam4", NOSPLIT, "func(n int, gmu, gls, d, e, s *float64)")
	Pragma("noescape")
	Doc("gradReparam4 adds, for j < n (n a multiple of 4), gmu[j] += d[j] and",
		"gls[j] += (d[j]·e[j])·s[j], rounded as the scalar loop.")
	{
		n := Load(Param("n"), GP64())
		gmu := Load(Param("gmu"), GP64())
		gls := Load(Param("gls"), GP64())
		d := Load(Param("d"), GP64())
		e := Load(Param("e"), GP64())
		sp := Load(Param("s"), GP64())
		lanes4("gradrp_", n, []Register{gmu, gls, d, e, sp}, func() {
			VMOVUPD(Mem{Base: d}, Y0)
			VADDPD(Mem{Base: gmu}, Y0, Y1) // gmu + d
			VMOVUPD(Y1, Mem{Base: gmu})
			VMULPD(Mem{Base: e}, Y0, Y2)   // d·e
			VMULPD(Mem{Base: sp}, Y2, Y2)  // (d·e)·s
			VADDPD(Mem{Base: gls}, Y2, Y2) // gls + (d·e)·s
			VMOVUPD(Y2, Mem{Base: gls})
		})
	}
}
