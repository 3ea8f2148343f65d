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
