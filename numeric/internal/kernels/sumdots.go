package kernels

// SumDots returns su = Σ u[i]·r[i] and sw = Σ w[i]·r[i] for r = a + b
// (all of a's length), and writes r into set, or adds it into add, when
// that is not nil (at most one may be). It is NUTS's U-turn criterion, a
// pass over every coordinate several times per leapfrog step, whose two
// chains of dependent additions bounded the plain loop. The kernel sums in
// eight partial sums with FMA, so su and sw differ from the plain loop's in
// the last bits; r, set and add are exact.
func SumDots(u, w, a, b, set, add []float64) (su, sw float64) {
	n := len(a)
	u, w, b = u[:n], w[:n], b[:n]
	if set != nil && add != nil {
		panic("numeric: SumDots with both set and add")
	}
	if set != nil {
		set = set[:n]
	}
	if add != nil {
		add = add[:n]
	}
	k := 0
	if hasKernels && n >= 4 {
		k = n &^ 3
		switch {
		case set != nil:
			su, sw = sumDotsSet4(k, &u[0], &w[0], &a[0], &b[0], &set[0])
		case add != nil:
			su, sw = sumDotsAdd4(k, &u[0], &w[0], &a[0], &b[0], &add[0])
		default:
			su, sw = sumDots4(k, &u[0], &w[0], &a[0], &b[0], nil)
		}
	}
	for i := k; i < n; i++ {
		r := a[i] + b[i]
		switch {
		case set != nil:
			set[i] = r
		case add != nil:
			add[i] += r
		}
		su += u[i] * r
		sw += w[i] * r
	}
	return su, sw
}
