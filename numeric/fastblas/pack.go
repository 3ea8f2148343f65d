package fastblas

// Packing of Dgemm's operands into the kernels' panels: whole panels for
// the blocked path, edge panels for products read in place.

// packA copies the mb×kb block of op(A) at (i0, p0) into dst as ⌈mb/mr⌉
// panels, each kb steps of mr values. The last panel's rows past mb are
// not written (see packEdge): the kernels discard them.
func packA(dst []float64, trans bool, a []float64, lda, i0, p0, mb, kb int) {
	for ir := 0; ir < mb; ir += mr {
		d := dst[ir*kb : ir*kb+mr*kb]
		rows := min(mr, mb-ir)
		if trans { // op(A)[i][p] = a[p*lda+i]
			if rows < mr {
				packEdge(d, mr, a[p0*lda+i0+ir:], lda, kb, rows)
				continue
			}
			copySteps(mr, kb, a[p0*lda+i0+ir:], lda, d)
			continue
		}
		if rows == mr {
			off := (i0+ir)*lda + p0
			r0 := a[off : off+kb]
			r1 := a[off+lda : off+lda+kb]
			r2 := a[off+2*lda : off+2*lda+kb]
			r3 := a[off+3*lda : off+3*lda+kb]
			r4 := a[off+4*lda : off+4*lda+kb]
			r5 := a[off+5*lda : off+5*lda+kb]
			for p := range kb {
				dp := d[p*mr : p*mr+mr : p*mr+mr]
				dp[0], dp[1], dp[2], dp[3], dp[4], dp[5] = r0[p], r1[p], r2[p], r3[p], r4[p], r5[p]
			}
			continue
		}
		for i := range rows {
			r := a[(i0+ir+i)*lda+p0:]
			r = r[:kb]
			for p, v := range r {
				d[p*mr+i] = v
			}
		}
	}
}

// packEdge copies kb steps of w < width values, step p from src[p·ld:],
// into the edge panel d (kb steps of width values, width mr or nr). The
// lanes from w on are left as they are, or hold the values that follow
// the step's in src: they feed only the accumulators of the rows or
// columns past the edge, which the kernels compute and discard (lanes are
// independent), so they need not be zero. Whole steps are copied by
// copySteps while src holds width values from the step's start, and only
// the last by element. (Clearing the panel and copying each step by
// element made a 3×3×51 product's time mostly packing.)
func packEdge(d []float64, width int, src []float64, ld, kb, w int) {
	whole := 0 // steps p < whole have width values in src from p·ld
	if n := len(src); n >= width {
		whole = min(kb, (n-width)/ld+1)
	}
	copySteps(width, whole, src, ld, d)
	for p := whole; p < kb; p++ {
		s := src[p*ld:]
		s = s[:w]
		dp := d[p*width : p*width+w]
		//lint:ignore S1001 a copy call per step of 1-7 values costs more than the loop
		for j, v := range s {
			dp[j] = v
		}
	}
}

// copySteps copies n whole steps of width (mr or nr) values, step p from
// src[p·ld:], to d[p·width:], checking the bounds the kernel does not.
func copySteps(width, n int, src []float64, ld int, d []float64) {
	if n <= 0 {
		return
	}
	_ = src[(n-1)*ld+width-1]
	_ = d[n*width-1]
	if width == nr {
		copySteps8(n, &src[0], ld, &d[0])
		return
	}
	copySteps6(n, &src[0], ld, &d[0])
}

// packB copies the kb×nb block of op(B) at (p0, j0) into dst as ⌈nb/nr⌉
// panels, each kb rows of nr values. The last panel's columns past nb are
// not written (see packEdge): the kernels discard them.
func packB(dst []float64, trans bool, b []float64, ldb, p0, j0, kb, nb int) {
	for jr := 0; jr < nb; jr += nr {
		d := dst[jr*kb : jr*kb+nr*kb]
		cols := min(nr, nb-jr)
		if !trans { // op(B)[p][j] = b[p*ldb+j]
			if cols < nr {
				packEdge(d, nr, b[p0*ldb+j0+jr:], ldb, kb, cols)
				continue
			}
			copySteps(nr, kb, b[p0*ldb+j0+jr:], ldb, d)
			continue
		}
		if cols == nr {
			off := (j0+jr)*ldb + p0
			// Steps in fours as two 4×4 block transposes per step group,
			// the rest by element.
			k4 := kb / 4 * 4
			if k4 > 0 {
				transpose4(k4/4, &b[off], ldb, &d[0], nr)
				transpose4(k4/4, &b[off+4*ldb], ldb, &d[4], nr)
			}
			r0 := b[off : off+kb]
			r1 := b[off+ldb : off+ldb+kb]
			r2 := b[off+2*ldb : off+2*ldb+kb]
			r3 := b[off+3*ldb : off+3*ldb+kb]
			r4 := b[off+4*ldb : off+4*ldb+kb]
			r5 := b[off+5*ldb : off+5*ldb+kb]
			r6 := b[off+6*ldb : off+6*ldb+kb]
			r7 := b[off+7*ldb : off+7*ldb+kb]
			for p := k4; p < kb; p++ {
				dp := d[p*nr : p*nr+nr : p*nr+nr]
				dp[0], dp[1], dp[2], dp[3] = r0[p], r1[p], r2[p], r3[p]
				dp[4], dp[5], dp[6], dp[7] = r4[p], r5[p], r6[p], r7[p]
			}
			continue
		}
		packEdgeT(d, b[(j0+jr)*ldb+p0:], ldb, kb, cols)
	}
}

// packEdgeT fills the first w < nr lanes of kb steps of the edge panel d
// from the rows of src (ld elements apart) as columns: lane j of step p is
// src[j·ld + p]. Four rows go by block transposes when there are four,
// and the rest step by step, a step's lanes in one statement: a loop over
// steps inside one over lanes, its stores scattered, took twice as long on
// the 3×50 edge of GIP's dU·Wᵀ (about 190 ns against 85).
func packEdgeT(d, src []float64, ld, kb, w int) {
	j := 0
	if w >= 4 {
		if k4 := kb / 4 * 4; k4 > 0 {
			transpose4(k4/4, &src[0], ld, &d[0], nr)
		}
		for p := kb / 4 * 4; p < kb; p++ {
			dp := d[p*nr : p*nr+4 : p*nr+4]
			dp[0], dp[1], dp[2], dp[3] = src[p], src[ld+p], src[2*ld+p], src[3*ld+p]
		}
		j = 4
	}
	if j == w {
		return
	}
	r0 := src[j*ld : j*ld+kb]
	switch w - j {
	case 1:
		for p, v := range r0 {
			d[p*nr+j] = v
		}
	case 2:
		r1 := src[(j+1)*ld : (j+1)*ld+kb]
		for p := range r0 {
			dp := d[p*nr+j : p*nr+j+2 : p*nr+j+2]
			dp[0], dp[1] = r0[p], r1[p]
		}
	case 3:
		r1 := src[(j+1)*ld : (j+1)*ld+kb]
		r2 := src[(j+2)*ld : (j+2)*ld+kb]
		for p := range r0 {
			dp := d[p*nr+j : p*nr+j+3 : p*nr+j+3]
			dp[0], dp[1], dp[2] = r0[p], r1[p], r2[p]
		}
	}
}
