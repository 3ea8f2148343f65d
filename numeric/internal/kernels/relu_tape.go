package kernels

// The elementwise passes of the tape's fused ReLU node (numeric's
// ReLUAppendOnes), vectorised: a layer's pre-activations change sign
// nearly at random from row to row, so the scalar loops' comparisons
// mispredict about half the time. Both are exact (the same values as the
// loops below, bit for bit, NaN and signed zeros included).

// ReLURows sets y[i·ys + j] = max(x[i·xs + j], 0) for i < n, j < c, with
// Go's max: NaN is kept and −0 becomes +0.
func ReLURows(n, c int, x []float64, xs int, y []float64, ys int) {
	if n <= 0 || c <= 0 {
		return
	}
	checkRows("ReLURows", n, c, x, xs)
	checkRows("ReLURows", n, c, y, ys)
	c4 := 0
	if hasKernels {
		c4 = c &^ 3
		if c4 > 0 {
			reluRows4(n, c4, &x[0], xs, &y[0], ys)
		}
	}
	if c4 == c {
		return
	}
	for i := range n {
		yr := y[i*ys+c4 : i*ys+c]
		for j, v := range x[i*xs+c4 : i*xs+c] {
			yr[j] = max(v, 0)
		}
	}
}

// ReLUMaskAdd sets d[i·ds + j] += g[i·gs + j] where x[i·xs + j] > 0, for
// i < n, j < c, and leaves d as it was elsewhere: the gradient of a ReLU
// with pre-activations x.
func ReLUMaskAdd(n, c int, g []float64, gs int, x []float64, xs int, d []float64, ds int) {
	reluMask("ReLUMaskAdd", false, n, c, g, gs, x, xs, d, ds)
}

// ReLUMaskSet is ReLUMaskAdd on a d that holds nothing yet: it sets
// d[i·ds + j] = +0 + g[i·gs + j] where x[i·xs + j] > 0 and +0 elsewhere,
// the values ReLUMaskAdd leaves in a cleared d, without reading d.
func ReLUMaskSet(n, c int, g []float64, gs int, x []float64, xs int, d []float64, ds int) {
	reluMask("ReLUMaskSet", true, n, c, g, gs, x, xs, d, ds)
}

// reluMask is ReLUMaskSet (set) or ReLUMaskAdd.
func reluMask(name string, set bool, n, c int, g []float64, gs int, x []float64, xs int, d []float64, ds int) {
	if n <= 0 || c <= 0 {
		return
	}
	checkRows(name, n, c, g, gs)
	checkRows(name, n, c, x, xs)
	checkRows(name, n, c, d, ds)
	c4 := 0
	if hasKernels {
		c4 = c &^ 3
		if c4 > 0 && set {
			reluMaskSet4(n, c4, &g[0], gs, &x[0], xs, &d[0], ds)
		} else if c4 > 0 {
			reluMaskAdd4(n, c4, &g[0], gs, &x[0], xs, &d[0], ds)
		}
	}
	if c4 == c {
		return
	}
	for i := range n {
		dr := d[i*ds+c4 : i*ds+c]
		gr := g[i*gs+c4 : i*gs+c]
		for j, v := range x[i*xs+c4 : i*xs+c] {
			if set {
				dr[j] = 0
			}
			if v > 0 {
				dr[j] += gr[j]
			}
		}
	}
}
