package kernels

// RowScaleDot is the row loop of the backward passes of a matrix scaled by
// a column (numeric's WeightedGram, and Λ·Φ in GIP): for rows i < m it sets
// ga[i·gas + j] += g[i·gs + j]·z[i·zs] for j < c, and dot[i] to
// Σ_j g[i·gs + j]·a[i·as + j] (zs may be 0) in four partial sums s_l over j ≡ l (mod 4)
// for j < c − c mod 4, the rest added to s_0 in order, returned as
// (s_0 + s_1) + (s_2 + s_3). lanes is scratch of at least 4m values. The
// kernel runs four columns at a time, each lane rounding as the scalar
// loop below (no FMA), so results do not depend on it.
func RowScaleDot(m, c int, g []float64, gs int, a []float64, as int, z []float64, zs int, ga []float64, gas int, dot, lanes []float64) {
	if m <= 0 {
		return
	}
	checkRows("RowScaleDot", m, c, g, gs)
	checkRows("RowScaleDot", m, c, a, as)
	if zs < 0 || len(z) < (m-1)*zs+1 { // zs = 0 broadcasts one value
		panic("numeric: RowScaleDot: slice too short for its rows")
	}
	checkRows("RowScaleDot", m, c, ga, gas)
	dot, lanes = dot[:m], lanes[:4*m]
	c4 := c &^ 3
	if hasKernels && c4 > 0 {
		rowScaleDot4(m, c4, &g[0], gs, &a[0], as, &z[0], zs, &ga[0], gas, &lanes[0])
	} else {
		c4 = 0
		clear(lanes)
	}
	for i := range m {
		gi, ai, gai := g[i*gs:i*gs+c], a[i*as:i*as+c], ga[i*gas:i*gas+c]
		zi := z[i*zs]
		s0, s1, s2, s3 := lanes[4*i], lanes[4*i+1], lanes[4*i+2], lanes[4*i+3]
		j := 0
		if c4 == 0 {
			for ; j+4 <= c; j += 4 {
				gai[j] += gi[j] * zi
				gai[j+1] += gi[j+1] * zi
				gai[j+2] += gi[j+2] * zi
				gai[j+3] += gi[j+3] * zi
				s0 += gi[j] * ai[j]
				s1 += gi[j+1] * ai[j+1]
				s2 += gi[j+2] * ai[j+2]
				s3 += gi[j+3] * ai[j+3]
			}
		} else {
			j = c4
		}
		for ; j < c; j++ {
			gai[j] += gi[j] * zi
			s0 += gi[j] * ai[j]
		}
		dot[i] = (s0 + s1) + (s2 + s3)
	}
}
