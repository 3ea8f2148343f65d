package fastblas

// RowScale sets y[i·ys + j] = x[i·xs + j]·z[i·zs] for i < m, j < c (zs may
// be 0): the rows of x scaled by a column, four columns at a time. One
// product per value, so the same values as the scalar loop.
func RowScale(m, c int, x []float64, xs int, z []float64, zs int, y []float64, ys int) {
	if m <= 0 || c <= 0 {
		return
	}
	checkRows("RowScale", m, c, x, xs)
	checkRows("RowScale", m, c, y, ys)
	if zs < 0 || len(z) < (m-1)*zs+1 {
		panic("fastblas: RowScale: slice too short for its rows")
	}
	c4 := 0
	if hasKernels {
		c4 = c &^ 3
		if c4 > 0 {
			rowScale4(m, c4, &x[0], xs, &z[0], zs, &y[0], ys)
		}
	}
	if c4 == c {
		return
	}
	for i := range m {
		zi := z[i*zs]
		yr := y[i*ys+c4 : i*ys+c]
		for j, v := range x[i*xs+c4 : i*xs+c] {
			yr[j] = v * zi
		}
	}
}
