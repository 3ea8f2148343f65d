//go:build !purego

package kernels

import "golang.org/x/sys/cpu"

// hasKernels reports whether the CPU runs the AVX2/FMA kernels. It is set
// once at program start and never written again.
var hasKernels = cpu.X86.HasAVX2 && cpu.X86.HasFMA
