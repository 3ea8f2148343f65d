package numeric

import (
	"math"

	"gonum.org/v1/gonum/mathext"
)

// Rank normalisation (ArviZ's _z_scale) with its scratch kept between
// calls: the diagnostics of many arrays of one size (every grid point of a
// sampler's summary) sort by radix and read untied normal scores from a
// table, where each call sorted by comparisons and took one Φ⁻¹ per draw.
// The results do not depend on the scratch: any correct sort gives the
// same average ranks, and the table holds the very values assignZ would
// compute.

// rankPair is a draw and its position in the pooled array, sorted by value.
type rankPair struct {
	v float64
	i int
}

// ranker holds the sort buffers and the normal-score table of one size.
// The zero value is ready.
type ranker struct {
	pairs []rankPair // sorted draws after zScale; foldSorted swaps in its merge
	tmp   []rankPair // the radix sort's second buffer, then foldSorted's
	hist  [8][256]int
	blom  []float64 // blom[k]: the score of the untied rank k+1 among len(blom)
}

// resize makes the buffers hold s pairs and the table serve s draws.
func (r *ranker) resize(s int) {
	if cap(r.pairs) < s {
		r.pairs = make([]rankPair, s)
		r.tmp = make([]rankPair, s)
	}
	r.pairs, r.tmp = r.pairs[:s], r.tmp[:s]
	if len(r.blom) != s {
		r.blom = r.blom[:0]
		for k := range s {
			r.blom = append(r.blom, blomScore(float64(k)+1, float64(s)))
		}
	}
}

// blomScore is Φ⁻¹((r − 3/8)/(s + 1/4)), taken on whichever tail is
// smaller, so tied-in-mirror ranks give exactly opposite scores and the
// tail keeps full relative precision.
func blomScore(r, s float64) float64 {
	if p := (r - 0.375) / (s + 0.25); p <= 0.5 {
		return mathext.NormalQuantile(p)
	}
	return -mathext.NormalQuantile((s - r + 0.625) / (s + 0.25))
}

// zScale writes into dst the rank-normalised values of src (ArviZ's
// _z_scale): pooled average ranks r (1-based; ties share the mean of their
// ranks, scipy's rankdata "average"), then z = Φ⁻¹((r − 3/8)/(S + 1/4)) with
// S = len(src) (Blom). On return r.pairs holds src sorted ascending, which
// callers use for the median. src must hold no NaN; dst may be src.
func (r *ranker) zScale(dst, src []float64) {
	r.resize(len(src))
	for i, v := range src {
		r.pairs[i] = rankPair{v, i}
	}
	r.sort()
	r.assignZ(dst)
}

// sortKey maps a float64 to a uint64 in the same order (NaN aside): a
// positive number's bits with the sign bit set, a negative one's
// complemented. −0 sorts just below +0; assignZ's == still ties them.
func sortKey(v float64) uint64 {
	k := math.Float64bits(v)
	if k>>63 != 0 {
		return ^k
	}
	return k | 1<<63
}

// sort orders r.pairs by value: a least-significant-digit radix sort on
// the keys' eight bytes, skipping a byte every key shares (the sign and
// high exponent bits of draws of one scale). On n draws it makes at most
// nine passes, where a comparison sort makes log₂ n with a call per
// comparison.
func (r *ranker) sort() {
	h := &r.hist
	*h = [8][256]int{}
	for _, p := range r.pairs {
		k := sortKey(p.v)
		for d := range 8 {
			h[d][byte(k>>(8*d))]++
		}
	}
	n := len(r.pairs)
	src, dst := r.pairs, r.tmp
	for d := range 8 {
		c := &h[d]
		if n == 0 || c[byte(sortKey(src[0].v)>>(8*d))] == n {
			continue // every key has this byte: the pass would keep the order
		}
		sum := 0
		for b, m := range c {
			c[b] = sum
			sum += m
		}
		for _, p := range src {
			b := byte(sortKey(p.v) >> (8 * d))
			dst[c[b]] = p
			c[b]++
		}
		src, dst = dst, src
	}
	r.pairs, r.tmp = src, dst
}

// assignZ writes the Blom-normalised average ranks of the sorted r.pairs
// into dst at their positions.
func (r *ranker) assignZ(dst []float64) {
	pairs := r.pairs
	s := float64(len(pairs))
	for lo := 0; lo < len(pairs); {
		hi := lo // pairs[lo..hi] are tied
		for hi+1 < len(pairs) && pairs[hi+1].v == pairs[lo].v {
			hi++
		}
		if lo == hi {
			dst[pairs[lo].i] = r.blom[lo]
			lo++
			continue
		}
		z := blomScore(float64(lo+hi)/2+1, s)
		for k := lo; k <= hi; k++ {
			dst[pairs[k].i] = z
		}
		lo = hi + 1
	}
}
