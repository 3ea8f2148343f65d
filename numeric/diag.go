package numeric

import (
	"math"
	"slices"
)

// MCMC convergence diagnostics: rank-normalised split R-hat and bulk and tail
// effective sample sizes of Vehtari et al. (2021), computed exactly as ArviZ
// 0.x (arviz/stats/diagnostics.py: _rhat_rank, _ess_bulk, _ess_tail, _ess,
// the last release before arviz-stats):
//
//   - split: each chain's first and last ⌊n/2⌋ draws become two chains;
//   - R-hat of C' chains of n' draws: √(((n'−1)/n'·W + B/n')/W), W the mean
//     within-chain variance, B/n' the variance of the chain means (ddof 1);
//   - rank normalisation: pooled average ranks r of S draws mapped to
//     Φ⁻¹((r − 3/8)/(S + 1/4)); reported R-hat is the larger of the bulk
//     (rank-normalised split chains) and tail (the same on the folded draws
//     |θ − median θ|) values;
//   - ESS = C'n'/τ̂, τ̂ = −1 + 2Σρ̂_t (+ ρ̂ of the next lag when the last
//     even one was positive) from the biased autocovariances, summed over
//     Geyer's initial positive, monotone pairs and capped below at
//     1/log₁₀(C'n'); ArviZ takes every lag by FFT, we sum the first few
//     lags directly when the pairs stop within them (equal to rounding);
//     bulk ESS is that of the rank-normalised split chains, tail ESS the
//     smaller of those of the indicators θ ≤ q₀.₀₅ and θ ≤ q₀.₉₅.
//
// Draws come as chains[c][i]: C chains of n draws each. Chains of unequal
// length are a programming error and panic. Fewer than 4 draws per chain, no
// chain at all, or a NaN anywhere give NaN diagnostics, as ArviZ's shape and
// NaN checks do. Deviation from ArviZ: a single chain is accepted by RHat
// (split gives two half-chains); ArviZ's rhat wants two chains and returns NaN.

// minDiagDraws is ArviZ's min_draws for rhat and ess: fewer draws per chain
// give NaN.
const minDiagDraws = 4

// block is a C×n array of draws stored row-major in one slice.
type block struct {
	x    []float64
	c, n int
}

func (b block) row(i int) []float64 { return b.x[i*b.n : (i+1)*b.n] }

// chainShape returns C and n, panicking if the chains differ in length.
func chainShape(chains [][]float64) (c, n int) {
	c = len(chains)
	if c == 0 {
		return 0, 0
	}
	n = len(chains[0])
	for _, ch := range chains[1:] {
		if len(ch) != n {
			panic("numeric: chains differ in length")
		}
	}
	return c, n
}

// hasNaN reports whether any draw is NaN.
func hasNaN(chains [][]float64) bool {
	for _, ch := range chains {
		for _, v := range ch {
			if math.IsNaN(v) {
				return true
			}
		}
	}
	return false
}

// diagValid is ArviZ's _not_valid(min_draws=4, min_chains=1) negated.
func diagValid(chains [][]float64) bool {
	c, n := chainShape(chains)
	return c >= 1 && n >= minDiagDraws && !hasNaN(chains)
}

// splitInto writes the split chains into dst (length 2C⌊n/2⌋, or nil to
// allocate): chain c's first half becomes row c and its last half row C+c,
// the order of ArviZ's _stack(ary[:, :half], ary[:, -half:]).
func splitInto(dst []float64, chains [][]float64) block {
	c, n := chainShape(chains)
	h := n / 2
	if dst == nil {
		dst = make([]float64, 2*c*h)
	}
	b := block{x: dst[:2*c*h], c: 2 * c, n: h}
	for i, ch := range chains {
		copy(b.row(i), ch[:h])
		copy(b.row(c+i), ch[n-h:])
	}
	return b
}

// SplitChains returns the 2C half-chains of ArviZ's _split_chains: the first
// ⌊n/2⌋ draws of every chain, then the last ⌊n/2⌋ of every chain; the middle
// draw of an odd-length chain is dropped. The result shares one new backing
// array and does not alias chains.
func SplitChains(chains [][]float64) [][]float64 {
	return rows(splitInto(nil, chains))
}

// rows returns b as a slice of row views.
func rows(b block) [][]float64 {
	out := make([][]float64, b.c)
	for i := range out {
		out[i] = b.row(i)
	}
	return out
}

// RankNormalize returns the rank-normalised draws (ArviZ's _z_scale) in the
// shape of chains: ranks are pooled over all chains, ties get their mean
// rank, and rank r maps to Φ⁻¹((r − 3/8)/(S + 1/4)) with S the total number
// of draws. A NaN anywhere makes every output NaN, as scipy's rankdata
// (nan_policy "propagate") does. It does not split the chains.
func RankNormalize(chains [][]float64) [][]float64 {
	c, n := chainShape(chains)
	out := make([]float64, c*n)
	b := block{x: out, c: c, n: n}
	for i, ch := range chains {
		copy(b.row(i), ch)
	}
	if hasNaN(chains) {
		for i := range out {
			out[i] = math.NaN()
		}
		return rows(b)
	}
	var r ranker
	r.zScale(out, out)
	return rows(b)
}

// rhatBasic is ArviZ's _rhat on a C×n block: W the mean of the chain
// variances (ddof 1), B/n the variance of the chain means (ddof 1), and
// R̂ = √((B/W + n − 1)/n). A zero within-chain variance gives NaN or +Inf,
// as numpy does. means is scratch of length C.
func rhatBasic(b block, means []float64) float64 {
	nf, cf := float64(b.n), float64(b.c)
	var w float64
	for i := range b.c {
		m, sd := MeanStd(b.row(i))
		means[i] = m
		w += sd * sd * nf / (nf - 1)
	}
	w /= cf
	_, sdMeans := MeanStd(means)
	between := nf * sdMeans * sdMeans * cf / (cf - 1)
	return math.Sqrt((between/w + nf - 1) / nf)
}

// diagWork holds the scratch of diagnostics calls on C chains of n draws,
// so that Summarize can share the split and rank-normalised arrays, and a
// Summarizer its buffers, FFT plan and score table between calls.
type diagWork struct {
	split block     // split chains, 2C × ⌊n/2⌋
	z     []float64 // rank-normalised split chains
	fold  []float64 // folded split chains, then indicators
	rank  ranker
	ess   essWork
	all   []float64 // every draw, sorted (sortedDraws)
	mid   []float64 // an odd n's middle draws (sortedDraws)
	means []float64 // the split chains' means (rhat)
}

func newDiagWork(chains [][]float64) *diagWork {
	w := &diagWork{}
	w.reset(chains)
	return w
}

// reset splits chains into w, growing the buffers only when they are too
// short.
func (w *diagWork) reset(chains [][]float64) {
	c, n := chainShape(chains)
	s := 2 * c * (n / 2)
	if cap(w.split.x) < s {
		w.split.x = make([]float64, s)
		w.z = make([]float64, s)
		w.fold = make([]float64, s)
	}
	w.split = splitInto(w.split.x[:s], chains)
	w.z, w.fold = w.z[:s], w.fold[:s]
}

// bulk rank-normalises the split chains into w.z; afterwards w.rank.pairs
// holds the split draws sorted.
func (w *diagWork) bulk() block {
	w.rank.zScale(w.z, w.split.x)
	return block{x: w.z, c: w.split.c, n: w.split.n}
}

// rhat returns max(bulk, tail) R̂ given the bulk block from w.bulk(), with
// w.rank.pairs still sorted. The tail folds the split draws about their median
// (np.median(split_ary) in ArviZ's _rhat_rank).
func (w *diagWork) rhat(bulk block) float64 {
	w.means = slices.Grow(w.means[:0], w.split.c)[:w.split.c]
	rBulk := rhatBasic(bulk, w.means)
	w.foldSorted()
	w.rank.assignZ(w.fold)
	rTail := rhatBasic(block{x: w.fold, c: w.split.c, n: w.split.n}, w.means)
	return pyMax(rBulk, rTail)
}

// foldSorted turns w.rank.pairs, the split draws sorted, into their folded values
// |θ − median| sorted, without a second sort: below the median the folded
// values fall as θ rises, from the median on they rise, so the sorted folded
// sequence is a merge of the lower part read backwards and the upper part.
func (w *diagWork) foldSorted() {
	p := w.rank.pairs
	s := len(p) // 2C⌊n/2⌋, even
	med := (p[s/2-1].v + p[s/2].v) / 2
	up := s / 2 // first index with v ≥ med
	for up > 0 && p[up-1].v >= med {
		up--
	}
	for up < s && p[up].v < med {
		up++
	}
	merged := w.rank.tmp[:0]
	i, j := up-1, up // i walks down the lower part, j up the upper part
	for i >= 0 || j < s {
		if j >= s || (i >= 0 && med-p[i].v <= p[j].v-med) {
			merged = append(merged, rankPair{math.Abs(p[i].v - med), p[i].i})
			i--
		} else {
			merged = append(merged, rankPair{math.Abs(p[j].v - med), p[j].i})
			j++
		}
	}
	w.rank.tmp, w.rank.pairs = w.rank.pairs, merged
}

// essTail returns min(ESS(1[θ ≤ q05]), ESS(1[θ ≤ q95])) on split chains,
// with q05, q95 the type-7 quantiles of all (unsplit) draws, given in sorted.
func (w *diagWork) essTail(sorted []float64) float64 {
	ind := block{x: w.fold, c: w.split.c, n: w.split.n}
	var e [2]float64
	for k, p := range [2]float64{0.05, 0.95} {
		q := Quantile(sorted, p)
		for i, v := range w.split.x {
			ind.x[i] = 0
			if v <= q {
				ind.x[i] = 1
			}
		}
		e[k] = w.ess.ess(ind)
	}
	return pyMin(e[0], e[1])
}

// pyMax and pyMin are Python's max(a, b) and min(a, b) on floats: a NaN in
// a wins, a NaN in b loses, as ArviZ's max(rhat_bulk, rhat_tail) behaves.
func pyMax(a, b float64) float64 {
	if b > a {
		return b
	}
	return a
}

func pyMin(a, b float64) float64 {
	if b < a {
		return b
	}
	return a
}

// RHat returns the rank-normalised split R̂ of Vehtari et al. (2021):
// max(bulk, tail), bulk the basic split R̂ of the rank-normalised split
// chains and tail the same for the split draws folded about their median,
// |θ − median|. A constant array gives NaN (zero within-chain variance), as
// in ArviZ. See the package notes above for degenerate inputs.
func RHat(chains [][]float64) float64 {
	if !diagValid(chains) {
		return math.NaN()
	}
	w := newDiagWork(chains)
	return w.rhat(w.bulk())
}

// ESSBulk returns the bulk effective sample size: ESS of the rank-normalised
// split chains (ArviZ's default method).
func ESSBulk(chains [][]float64) float64 {
	if !diagValid(chains) {
		return math.NaN()
	}
	w := newDiagWork(chains)
	return w.ess.ess(w.bulk())
}

// ESSTail returns the tail effective sample size: the smaller ESS of the
// indicators 1[θ ≤ q05] and 1[θ ≤ q95] on split chains, with the type-7
// 5% and 95% quantiles of all draws.
func ESSTail(chains [][]float64) float64 {
	if !diagValid(chains) {
		return math.NaN()
	}
	w := newDiagWork(chains)
	return w.essTail(sortedPool(chains))
}

// sortedDraws returns all draws sorted ascending, straight after w.bulk()
// (w.rank.pairs holds the split draws sorted): for even n they are all the
// draws; for odd n the C middle draws are merged in. The result aliases w.
func (w *diagWork) sortedDraws(chains [][]float64) []float64 {
	_, n := chainShape(chains)
	mid := w.mid[:0]
	if n%2 == 1 {
		for _, ch := range chains {
			mid = append(mid, ch[n/2])
		}
		slices.Sort(mid)
	}
	w.mid = mid
	out := w.all[:0]
	k := 0
	for _, p := range w.rank.pairs {
		for k < len(mid) && mid[k] < p.v {
			out = append(out, mid[k])
			k++
		}
		out = append(out, p.v)
	}
	out = append(out, mid[k:]...)
	w.all = out
	return out
}

// sortedPool returns all draws pooled and sorted ascending.
func sortedPool(chains [][]float64) []float64 {
	c, n := chainShape(chains)
	all := make([]float64, 0, c*n)
	for _, ch := range chains {
		all = append(all, ch...)
	}
	slices.Sort(all)
	return all
}
