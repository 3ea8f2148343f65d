package fastblas

// Transpose writes the c×r transpose of the r×c matrix src (row stride lds)
// into dst (row stride ldd), by 4×4 register blocks where the kernels run.
// A product C = A·Bᵀ repeated over row blocks of A (numeric's lower-triangle
// GEMMs) transposes B once and reads it in place, where Dgemm would pack it
// again for every block.
func Transpose(dst []float64, ldd int, src []float64, lds, r, c int) {
	if r <= 0 || c <= 0 {
		return
	}
	checkRows("Transpose", r, c, src, lds)
	checkRows("Transpose", c, r, dst, ldd)
	if hasKernels {
		transpose(dst, ldd, src, lds, r, c)
		return
	}
	for i := range r {
		for j, v := range src[i*lds : i*lds+c] {
			dst[j*ldd+i] = v
		}
	}
}
