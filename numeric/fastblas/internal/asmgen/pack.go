package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// packKernels writes copySteps8 and copySteps6, the GEMM's panel copies:
// n steps of 8 (or 6) consecutive values, rows lds elements apart in the
// source, packed back to back. One step is two vector loads and two
// stores; the Go loop they replace spilled its registers around a memmove
// call per step (the compiler cannot prove the array copy does not
// overlap), several times the kernel's own time on an edge panel.
func packKernels() {
	for _, w := range []int{nr, mr} {
		name := fmt.Sprintf("copySteps%d", w)
		TEXT(name, NOSPLIT, "func(n int, src *float64, lds int, dst *float64)")
		Pragma("noescape")
		Doc(
			fmt.Sprintf("%s copies n steps of %d values, step p from src[p·lds:], to", name, w),
			fmt.Sprintf("dst[%d·p:] (n may be zero).", w),
		)
		n := Load(Param("n"), GP64())
		src := Load(Param("src"), GP64())
		lds := Load(Param("lds"), GP64())
		dst := Load(Param("dst"), GP64())
		SHLQ(U8(3), lds)
		pre := fmt.Sprintf("cs%d_", w)
		TESTQ(n, n)
		JZ(LabelRef(pre + "done"))
		Label(pre + "loop")
		VMOVUPD(Mem{Base: src}, Y0)
		if w == nr {
			VMOVUPD(Mem{Base: src, Disp: 32}, Y1)
		} else {
			VMOVUPD(Mem{Base: src, Disp: 32}, X1)
		}
		VMOVUPD(Y0, Mem{Base: dst})
		if w == nr {
			VMOVUPD(Y1, Mem{Base: dst, Disp: 32})
		} else {
			VMOVUPD(X1, Mem{Base: dst, Disp: 32})
		}
		ADDQ(lds, src)
		ADDQ(U8(8*w), dst)
		DECQ(n)
		JNZ(LabelRef(pre + "loop"))
		Label(pre + "done")
		VZEROUPPER()
		RET()
	}
}

// gemmColumnKernel writes kernel6x8n: kernel6x8 over nt whole 6×8 tiles
// down a column panel of C, in one call. A GIP product's tiles are 50 to
// 100 k steps, short enough to feel a fixed cost per tile (kernel6x8 alone
// on L1-resident panels runs at about 80% of the FMA peak over 50 steps
// and 93% over 256); this one drops the Go call, its frame and the
// argument loads from all but the first.
func gemmColumnKernel() {
	TEXT("kernel6x8n", NOSPLIT, "func(nt, k int, a *float64, ars, aps, pas int, b *float64, bps int, c *float64, ldc int, alpha, beta float64)")
	Pragma("noescape")
	Doc(
		"kernel6x8n does kernel6x8(k, a + t·pas, ars, aps, b, bps, c + 6t·ldc,",
		"ldc, 6, alpha, beta) for t < nt (nt may be zero): nt whole tiles down",
		"a column panel, whose row panels of Ã are pas elements apart.",
	)
	nt := Load(Param("nt"), GP64())
	TESTQ(nt, nt)
	JZ(LabelRef("mt_exit"))
	ars := Load(Param("ars"), GP64())
	aps := Load(Param("aps"), GP64())
	bps := Load(Param("bps"), GP64())
	SHLQ(U8(3), ars)
	SHLQ(U8(3), aps)
	SHLQ(U8(3), bps)
	aT := Load(Param("a"), GP64())
	cT := Load(Param("c"), GP64())
	acc := [mr][2]VecPhysical{{Y0, Y1}, {Y2, Y3}, {Y4, Y5}, {Y6, Y7}, {Y8, Y9}, {Y10, Y11}}
	var flat []VecPhysical
	for i := range acc {
		flat = append(flat, acc[i][0], acc[i][1])
	}

	Label("mt_tile")
	k := Load(Param("k"), GP64())
	b := Load(Param("b"), GP64())
	a := GP64()
	MOVQ(aT, a)
	accumulateStrided(k, a, ars, aps, b, bps, acc[:], "mt_")
	scaleByAlpha(flat, Y14, "mt_scaled")
	c := GP64()
	MOVQ(cT, c)
	ldc := Load(Param("ldc"), GP64())
	SHLQ(U8(3), ldc)
	VMOVSD(argAddr(Param("beta")), X15)
	VXORPD(X14, X14, X14)
	VUCOMISD(X14, X15)
	JNE(LabelRef("mt_accumulate"))
	JP(LabelRef("mt_accumulate")) // beta is NaN
	for i := range acc {
		VMOVUPD(acc[i][0], Mem{Base: c})
		VMOVUPD(acc[i][1], Mem{Base: c, Disp: 32})
		ADDQ(ldc, c)
	}
	JMP(LabelRef("mt_next"))
	Label("mt_accumulate")
	VBROADCASTSD(X15, Y15)
	for i := range acc {
		VFMADD231PD(Mem{Base: c}, Y15, acc[i][0])
		VFMADD231PD(Mem{Base: c, Disp: 32}, Y15, acc[i][1])
		VMOVUPD(acc[i][0], Mem{Base: c})
		VMOVUPD(acc[i][1], Mem{Base: c, Disp: 32})
		ADDQ(ldc, c)
	}
	Label("mt_next")
	MOVQ(c, cT) // c has passed the tile's six rows
	pas := Load(Param("pas"), GP64())
	SHLQ(U8(3), pas)
	ADDQ(pas, aT)
	DECQ(nt)
	JNZ(LabelRef("mt_tile"))
	Label("mt_exit")
	VZEROUPPER()
	RET()
}

// narrowPrefetch is how many k steps ahead kernel4x12t prefetches A.
const narrowPrefetch = 8

// narrowTransKernel writes kernel4x12t, the last column panel (at most
// four columns) of a product whose op(A) = Aᵀ is read in place: twelve
// rows of op(A) are twelve consecutive values of a row of A, so a step is
// three vector loads of A, four broadcasts of B and twelve FMAs, where
// kernel12x4 broadcasts each of the twelve rows (a broadcast takes a
// floating-point pipe beside the FMAs on these cores, and kernel12x4 ran
// at about a third of the FMA peak inside a product). Each element is the
// same chain of FMAs in k order as in the other kernels, so the same
// value.
func narrowTransKernel() {
	TEXT("kernel4x12t", NOSPLIT, "func(k int, a *float64, aps int, b *float64, bps int, t *float64, alpha float64)")
	Pragma("noescape")
	Doc(
		"kernel4x12t sets t[12j + i] = alpha·Σ_p a[p·aps + i]·b[p·bps + j] for",
		"i < 12, j < 4 over k steps (k may be zero): the transpose of a 12×4",
		"tile of C, row p of B̃ the 4 values at b[p·bps].",
	)
	k := Load(Param("k"), GP64())
	a := Load(Param("a"), GP64())
	aps := Load(Param("aps"), GP64())
	b := Load(Param("b"), GP64())
	bps := Load(Param("bps"), GP64())
	SHLQ(U8(3), aps)
	SHLQ(U8(3), bps)
	acc := [4][3]VecPhysical{{Y0, Y1, Y2}, {Y3, Y4, Y5}, {Y6, Y7, Y8}, {Y9, Y10, Y11}}
	av := [3]VecPhysical{Y12, Y13, Y14}
	// The twelve values of a step span two or three cache lines that the
	// column panels before left in L2 at best; they are prefetched
	// narrowPrefetch steps ahead: the hardware did not keep up with the
	// stride (the four narrow calls of GIP's 51×51×100 Aᵀ·B took a fifth
	// less time, medians of five alternated runs). Prefetches past the end
	// of A do not fault.
	pfa := GP64()
	IMUL3Q(U32(narrowPrefetch), aps, pfa)
	ADDQ(a, pfa)
	pre := "n4t_"
	step := func() {
		PREFETCHT0(Mem{Base: pfa})
		PREFETCHT0(Mem{Base: pfa, Disp: 64})
		PREFETCHT0(Mem{Base: pfa, Disp: 95})
		ADDQ(aps, pfa)
		for v, r := range av {
			VMOVUPD(Mem{Base: a, Disp: 32 * v}, r)
		}
		for j := range acc {
			VBROADCASTSD(Mem{Base: b, Disp: 8 * j}, Y15)
			for v := range av {
				VFMADD231PD(av[v], Y15, acc[j][v])
			}
		}
		ADDQ(aps, a)
		ADDQ(bps, b)
	}
	var flat []VecPhysical
	for j := range acc {
		for _, r := range acc[j] {
			VXORPD(r, r, r)
			flat = append(flat, r)
		}
	}
	kLoop(k, pre, step)
	scaleByAlpha(flat, Y12, pre+"scaled")
	t := Load(Param("t"), GP64())
	for j := range acc {
		for v, r := range acc[j] {
			VMOVUPD(r, Mem{Base: t, Disp: 8 * (12*j + 4*v)})
		}
	}
	VZEROUPPER()
	RET()
}
