package kernels

// ColumnSums adds Σ_i x[i·xs]·g[i·gs + j] into s0[j] and Σ_i g[i·gs + j]
// into s1[j] for rows i < n in order and columns j < len(s0). Each product
// and sum is rounded as written (no FMA).
func ColumnSums(n int, x []float64, xs int, g []float64, gs int, s0, s1 []float64) {
	c := len(s0)
	if n <= 0 || c == 0 {
		return
	}
	checkRows("ColumnSums", n, 1, x, xs)
	checkRows("ColumnSums", n, c, g, gs)
	s1 = s1[:c]
	c4 := 0
	if hasKernels {
		// reluInBack4 with every activation 1 (a row of ones read with
		// stride 0) masks nothing.
		c4 = c &^ 3
		for j := 0; j < c4; j += len(onesRow) {
			w := min(len(onesRow), c4-j)
			reluInBack4(n, w, &x[0], xs, &onesRow[0], 0, &g[j], gs, &s0[j], &s1[j])
		}
	}
	if c4 == c {
		return
	}
	for i := range n {
		xi := x[i*xs]
		gr := g[i*gs+c4 : i*gs+c]
		e0, e1 := s0[c4:], s1[c4:]
		for j, v := range gr {
			e0[j] += xi * v
			e1[j] += v
		}
	}
}

// onesRow is read, never written: ColumnSums' mask.
var onesRow = func() (r [64]float64) {
	for i := range r {
		r[i] = 1
	}
	return
}()
