package kernels

// The row loops of a ReLU network's thin layers, for model.Net: its first
// layer (one input and a bias, so a GEMM with k = 2 would be all overhead)
// and a one-output last layer. The kernels run four hidden units at a time;
// each lane does the scalar loop's operations in its order without FMA and
// sums over rows stay in row order, so results are those of the loops below
// bit for bit (a masked entry adds +0 where the loop skips, which changes no
// sum). The loops take the units the kernels leave (c mod 4) and everything
// without them.

// ReLUAffine sets h[i·hs + j] = max(x[i·xs]·w0[j] + w1[j], 0) for i < n and
// j < len(w0), NaN and −0 kept as `if v < 0 { v = 0 }` keeps them.
func ReLUAffine(n int, x []float64, xs int, w0, w1, h []float64, hs int) {
	c := len(w0)
	if n <= 0 || c == 0 {
		return
	}
	checkRows("ReLUAffine", n, 1, x, xs)
	checkRows("ReLUAffine", n, c, h, hs)
	w1 = w1[:c]
	c4 := 0
	if hasKernels {
		c4 = c &^ 3
		if c4 > 0 {
			reluAffine4(n, c4, &x[0], xs, &w0[0], &w1[0], &h[0], hs)
		}
	}
	if c4 == c {
		return
	}
	for i := range n {
		xi := x[i*xs]
		row := h[i*hs+c4 : i*hs+c]
		for j := range row {
			v := xi*w0[c4+j] + w1[c4+j]
			if v < 0 {
				v = 0
			}
			row[j] = v
		}
	}
}

// ReLUOutputBackward is the backward pass of a one-output layer with
// weights w on ReLU activations h (n rows, len(w) units): for each row i in
// order, dw[j] += g[i]·h[i·hs + j] and gp[i·gs + j] = g[i]·w[j] where
// h[i·hs + j] > 0, else 0.
func ReLUOutputBackward(n int, g, h []float64, hs int, w, dw, gp []float64, gs int) {
	c := len(w)
	if n <= 0 || c == 0 {
		return
	}
	g = g[:n]
	checkRows("ReLUOutputBackward", n, c, h, hs)
	checkRows("ReLUOutputBackward", n, c, gp, gs)
	dw = dw[:c]
	c4 := 0
	if hasKernels {
		c4 = c &^ 3
		if c4 > 0 {
			reluOutBack4(n, c4, &g[0], &h[0], hs, &w[0], &dw[0], &gp[0], gs)
		}
	}
	if c4 == c {
		return
	}
	for i, gi := range g {
		hr := h[i*hs+c4 : i*hs+c]
		gr := gp[i*gs+c4 : i*gs+c]
		dr, wr := dw[c4:], w[c4:]
		for j, v := range hr {
			dr[j] += gi * v
			if v > 0 {
				gr[j] = gi * wr[j]
			} else {
				gr[j] = 0
			}
		}
	}
}

// ReLUInputBackward sums the weight gradient of a layer with inputs x and 1
// through its ReLU (activations h, n rows, len(d0) units): for each row i in
// order, where h[i·hs + j] > 0, d0[j] += x[i·xs]·g[i·gs + j] and
// d1[j] += g[i·gs + j].
func ReLUInputBackward(n int, x []float64, xs int, h []float64, hs int, g []float64, gs int, d0, d1 []float64) {
	c := len(d0)
	if n <= 0 || c == 0 {
		return
	}
	checkRows("ReLUInputBackward", n, 1, x, xs)
	checkRows("ReLUInputBackward", n, c, h, hs)
	checkRows("ReLUInputBackward", n, c, g, gs)
	d1 = d1[:c]
	c4 := 0
	if hasKernels {
		c4 = c &^ 3
		if c4 > 0 {
			reluInBack4(n, c4, &x[0], xs, &h[0], hs, &g[0], gs, &d0[0], &d1[0])
		}
	}
	if c4 == c {
		return
	}
	for i := range n {
		xi := x[i*xs]
		hr := h[i*hs+c4 : i*hs+c]
		gr := g[i*gs+c4 : i*gs+c]
		e0, e1 := d0[c4:], d1[c4:]
		for j, v := range hr {
			if v > 0 {
				gv := gr[j]
				e0[j] += xi * gv
				e1[j] += gv
			}
		}
	}
}

// ReLUMatVec is a one-output layer's forward pass on the activations a of
// the layer below (len(dst) rows, stride as; len(v) columns, the last the
// bias's ones): it applies the ReLU in place to every column but the last
// and sets dst[i] = Σ_{j<c} a[i·as + j]·v[j] + a[i·as + c]·v[c], c =
// len(v) − 1, each row's sum from +0 in column order. The kernel takes
// four rows and four columns at a time; the loop below finishes the
// columns and rows it leaves, continuing the same sums.
func ReLUMatVec(dst, a []float64, as int, v []float64) {
	n, c := len(dst), len(v)-1
	if n == 0 || c < 0 {
		return
	}
	checkRows("ReLUMatVec", n, c+1, a, as)
	n4, c4 := 0, 0
	if hasKernels {
		n4, c4 = n&^3, c&^3
		if n4 > 0 && c4 > 0 {
			reluDot4(n4, c4, &a[0], as, &v[0], &dst[0])
		} else {
			n4, c4 = 0, 0
		}
	}
	for i := range dst {
		row := a[i*as : i*as+c+1]
		var s float64
		j0 := 0
		if i < n4 {
			s, j0 = dst[i], c4
		}
		for j := j0; j < c; j++ {
			x := row[j]
			if x < 0 {
				x = 0
				row[j] = 0
			}
			s += x * v[j]
		}
		dst[i] = s + row[c]*v[c]
	}
}

// checkRows panics unless s holds n rows of c values, stride ld ≥ c (the
// kernels read and write without bounds checks).
func checkRows(name string, n, c int, s []float64, ld int) {
	if ld < c || len(s) < (n-1)*ld+c {
		panic("numeric: " + name + ": slice too short for its rows")
	}
}
