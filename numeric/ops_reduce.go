package numeric

import "math"

// Reductions. Sum and Mean give 1×1; RowSums and RowMeans give r×1 (one
// value per row); ColSums and ColMeans give 1×c (one value per column).

// Sum returns Σ a_ij as 1×1.
func (t *Tape) Sum(a Var) Var { return t.reduce(opSum, a) }

// SumSquares returns Σ a_ij² as 1×1: Sum(Square(a)) in one pass, with no
// intermediate node (and the same value and gradient, bit for bit).
func (t *Tape) SumSquares(a Var) Var { return t.reduce(opSumSquares, a) }

// Mean returns the mean of all entries as 1×1.
func (t *Tape) Mean(a Var) Var { return t.reduce(opMean, a) }

// RowSums returns Σ_j a_ij as r×1.
func (t *Tape) RowSums(a Var) Var { return t.reduce(opRowSums, a) }

// RowMeans returns the mean of each row as r×1.
func (t *Tape) RowMeans(a Var) Var { return t.reduce(opRowMeans, a) }

// ColSums returns Σ_i a_ij as 1×c.
func (t *Tape) ColSums(a Var) Var { return t.reduce(opColSums, a) }

// ColMeans returns the mean of each column as 1×c.
func (t *Tape) ColMeans(a Var) Var { return t.reduce(opColMeans, a) }

// LogSumExp returns log Σ exp(a_ij) over all entries as 1×1, computed stably.
func (t *Tape) LogSumExp(a Var) Var { return t.reduce(opLogSumExp, a) }

// ColLogSumExp returns, for each column, log Σ_i exp(a_ij), as 1×c.
func (t *Tape) ColLogSumExp(a Var) Var { return t.reduce(opColLogSumExp, a) }

func (t *Tape) reduce(op opKind, a Var) Var {
	an := t.node(a)
	r, c := 1, 1
	switch op {
	case opRowSums, opRowMeans:
		r = an.r
	case opColSums, opColMeans, opColLogSumExp:
		c = an.c
	}
	v, nd, an := t.push1(op, a, r, c)
	x, y := an.v, nd.v
	ar, ac := an.r, an.c
	switch op {
	case opSum, opMean:
		s := 0.0
		for _, xi := range x {
			s += xi
		}
		if op == opMean {
			s /= float64(len(x))
		}
		y[0] = s
	case opRowSums, opRowMeans:
		for i := 0; i < ar; i++ {
			s := 0.0
			for _, xi := range x[i*ac : (i+1)*ac] {
				s += xi
			}
			if op == opRowMeans {
				s /= float64(ac)
			}
			y[i] = s
		}
	case opColSums, opColMeans:
		clear(y)
		for i := 0; i < ar; i++ {
			for j, xi := range x[i*ac : (i+1)*ac] {
				y[j] += xi
			}
		}
		if op == opColMeans {
			for j := range y {
				y[j] /= float64(ar)
			}
		}
	case opSumSquares:
		s := 0.0
		for _, xi := range x {
			s += xi * xi
		}
		y[0] = s
	case opLogSumExp:
		y[0] = logSumExp(x, 0, 1, len(x))
	case opColLogSumExp:
		for j := 0; j < ac; j++ {
			y[j] = logSumExp(x, j, ac, ar)
		}
	}
	return v
}

// logSumExp returns log Σ_k exp(x[off+k·step]) for k < n, shifted by the
// maximum so that no exp overflows.
func logSumExp(x []float64, off, step, n int) float64 {
	m := math.Inf(-1)
	for k := 0; k < n; k++ {
		m = max(m, x[off+k*step])
	}
	if math.IsInf(m, 0) {
		// All −∞ gives −∞; any +∞ gives +∞ (NaN propagates through max).
		return m
	}
	s := 0.0
	for k := 0; k < n; k++ {
		s += math.Exp(x[off+k*step] - m)
	}
	return m + math.Log(s)
}

func reduceBackward(nd, an, a *node) {
	if a == nil {
		return
	}
	x, y, g, ga := an.v, nd.v, nd.g, a.g
	ar, ac := an.r, an.c
	switch nd.op {
	case opSum, opMean:
		gi := g[0]
		if nd.op == opMean {
			gi /= float64(len(ga))
		}
		for i := range ga {
			ga[i] += gi
		}
	case opRowSums, opRowMeans:
		for i := 0; i < ar; i++ {
			gi := g[i]
			if nd.op == opRowMeans {
				gi /= float64(ac)
			}
			for j := range ga[i*ac : (i+1)*ac] {
				ga[i*ac+j] += gi
			}
		}
	case opColSums, opColMeans:
		scale := 1.0
		if nd.op == opColMeans {
			scale = 1 / float64(ar)
		}
		for i := 0; i < ar; i++ {
			row := ga[i*ac : (i+1)*ac]
			for j := range row {
				row[j] += scale * g[j]
			}
		}
	case opSumSquares:
		for i, xi := range x {
			ga[i] += 2 * g[0] * xi
		}
	case opLogSumExp:
		// d/dx_k log Σ exp x = softmax(x)_k = exp(x_k − y).
		for i := range ga {
			ga[i] += g[0] * math.Exp(x[i]-y[0])
		}
	case opColLogSumExp:
		for i := 0; i < ar; i++ {
			for j := 0; j < ac; j++ {
				k := i*ac + j
				ga[k] += g[j] * math.Exp(x[k]-y[j])
			}
		}
	}
}
