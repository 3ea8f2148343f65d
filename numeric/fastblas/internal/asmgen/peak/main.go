// Command peak writes fmaPeak, fastblas's probe of one core's
// double-precision FMA throughput, with avo; run it through `go generate
// ./numeric/fastblas`. The probe is the ceiling the GEMM kernels are
// measured against, so it does nothing but FMAs: twelve independent YMM
// accumulators (as many as kernel6x8 keeps), enough to cover the FMA
// latency on two pipes, and no memory operands in the loop.
package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

func main() {
	ConstraintExpr("!purego")
	TEXT("fmaPeak", NOSPLIT, "func(n int, a, b float64, out *[4]float64)")
	Pragma("noescape")
	Doc(
		"fmaPeak runs n rounds of twelve independent 4-lane FMAs acc += a·b",
		"(96 floating-point operations a round) from zero accumulators and",
		"stores the four lanes of their sum to out, each 12·n·a·b rounded",
		"as the sums go. n must be at least 1.",
	)
	n := Load(Param("n"), GP64())
	acc := []VecPhysical{Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11}
	for _, y := range acc {
		VXORPD(y, y, y)
	}
	// Broadcasts from memory: a legacy-SSE MOVSD after the first
	// broadcast has dirtied the YMM upper halves would cost an SSE/AVX
	// state transition (about 120 ns on the project's EPYC machines).
	VBROADCASTSD(paramAddr("a"), Y12)
	VBROADCASTSD(paramAddr("b"), Y13)

	Label("loop")
	for _, y := range acc {
		VFMADD231PD(Y12, Y13, y)
	}
	DECQ(n)
	JNZ(LabelRef("loop"))

	for len(acc) > 1 { // pairwise: 12 → 6 → 3 → 1
		h := len(acc) / 2
		for i := range h {
			VADDPD(acc[i+h], acc[i], acc[i])
		}
		if len(acc)%2 == 1 {
			VADDPD(acc[len(acc)-1], acc[0], acc[0])
		}
		acc = acc[:h]
	}
	out := Load(Param("out"), GP64())
	VMOVUPD(acc[0], Mem{Base: out})
	VZEROUPPER()
	RET()
	Generate()
}

// paramAddr is the memory operand of the scalar parameter name.
func paramAddr(name string) Mem {
	b, err := Param(name).Resolve()
	if err != nil {
		panic(err)
	}
	return b.Addr
}
