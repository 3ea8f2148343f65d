package numeric

import (
	"math"
	"slices"
	"testing"
)

// directMeanAutocov is the textbook O(n²) biased autocovariance, averaged
// over the rows of b: an independent check of the FFT route.
func directMeanAutocov(b block) []float64 {
	out := make([]float64, b.n)
	for i := range b.c {
		r := b.row(i)
		var m float64
		for _, v := range r {
			m += v
		}
		m /= float64(b.n)
		for t := range b.n {
			var s float64
			for k := 0; k+t < b.n; k++ {
				s += (r[k] - m) * (r[k+t] - m)
			}
			out[t] += s / float64(b.n) / float64(b.c)
		}
	}
	return out
}

func TestAutocovFFTMatchesDirect(t *testing.T) {
	r := NewRand(7)
	for _, c := range []int{1, 3, 8} {
		for _, n := range []int{2, 3, 4, 5, 8, 17, 64, 101, 333, 1000} {
			b := block{x: make([]float64, c*n), c: c, n: n}
			for i := range b.c { // AR(1), φ = 0.7, offset 5: positive and negative lags matter
				x := 5.0
				for k := range b.row(i) {
					x = 5 + 0.7*(x-5) + r.NormFloat64()
					b.row(i)[k] = x
				}
			}
			want := directMeanAutocov(b)
			var w essWork
			got, _ := w.meanAutocov(b)
			for k := range want {
				if math.Abs(got[k]-want[k]) > 1e-10*want[0] {
					t.Fatalf("c=%d n=%d lag %d: FFT %.15g, direct %.15g", c, n, k, got[k], want[k])
				}
			}
			// The whole ESS with the direct autocovariances agrees too.
			means := append([]float64(nil), w.means...)
			eDirect, _ := essFromAcov(make([]float64, n), want, means)
			eFFT := w.essFFT(b)
			if math.Abs(eFFT-eDirect) > 1e-10*eDirect {
				t.Errorf("c=%d n=%d: ESS by FFT %.15g, by direct autocovariance %.15g", c, n, eFFT, eDirect)
			}
		}
	}
}

func TestFastLen(t *testing.T) {
	for k, want := range map[int]int{1: 1, 2: 2, 7: 8, 11: 12, 13: 15, 2000: 2000, 2001: 2025, 20002: 20250} {
		if got := fastLen(k); got != want {
			t.Errorf("fastLen(%d) = %d, want %d", k, got, want)
		}
	}
}

// The radix sort orders every kind of float64 a chain can hold (signs,
// zeros of both signs, ties, subnormals, infinities, magnitudes that differ
// only in their high bytes) as a comparison sort does, and keeps each
// value with its position.
func TestRankerSortOrders(t *testing.T) {
	r := NewRand(3)
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), 5e-324, -5e-324, math.MaxFloat64, -math.MaxFloat64, 1, -1, 1}
	for _, n := range []int{0, 1, 2, 7, 1000, 4000} {
		src := make([]float64, n)
		for i := range src {
			switch i % 4 {
			case 0:
				src[i] = r.NormFloat64()
			case 1:
				src[i] = math.Round(r.NormFloat64()*4) / 4 // ties
			case 2:
				src[i] = r.NormFloat64() * math.Pow(10, float64(r.IntN(40)-20))
			default:
				src[i] = special[r.IntN(len(special))]
			}
		}
		var rk ranker
		rk.resize(n)
		for i, v := range src {
			rk.pairs[i] = rankPair{v, i}
		}
		rk.sort()
		want := slices.Clone(src)
		slices.Sort(want)
		for k, p := range rk.pairs {
			if p.v != want[k] || math.Float64bits(src[p.i]) != math.Float64bits(p.v) {
				t.Fatalf("n=%d: position %d holds %v from index %d (src %v), want %v", n, k, p.v, p.i, src[p.i], want[k])
			}
		}
	}
}

// A Summarizer used again on other shapes, ties and odd lengths gives what
// a fresh one gives, bit for bit: no buffer, FFT plan or score table of an
// earlier call leaks into a later one.
func TestSummarizerReusesNothingStale(t *testing.T) {
	r := NewRand(5)
	chains := func(c, n int, tied bool) [][]float64 {
		out := make([][]float64, c)
		for i := range out {
			out[i] = make([]float64, n)
			for k := range out[i] {
				v := r.NormFloat64()
				if tied {
					v = math.Round(v * 3)
				}
				out[i][k] = v
			}
		}
		return out
	}
	cases := [][][]float64{chains(4, 1000, false), chains(4, 1000, true), chains(3, 7, false), chains(1, 4, true),
		chains(4, 1001, false), chains(2, 3, false), chains(4, 1000, false), chains(8, 250, true)}
	var z Summarizer
	for i, ch := range cases {
		var fresh Summarizer
		got, want := z.Summarize(ch), fresh.Summarize(ch)
		g := []float64{got.Mean, got.SD, got.Q05, got.Q50, got.Q95, got.ESSBulk, got.ESSTail, got.RHat}
		w := []float64{want.Mean, want.SD, want.Q05, want.Q50, want.Q95, want.ESSBulk, want.ESSTail, want.RHat}
		for k := range g {
			if math.Float64bits(g[k]) != math.Float64bits(w[k]) && !(math.IsNaN(g[k]) && math.IsNaN(w[k])) {
				t.Errorf("case %d (%d×%d): reused %+v, fresh %+v", i, len(ch), len(ch[0]), got, want)
				break
			}
		}
	}
}

// ESS from directly summed short lags agrees with ESS from the FFT's
// autocovariances to rounding (both sum the same products, in another
// order: a few ulps of acov[0] in each ρ̂, so 1e-12 relative is hundreds
// of times the error), and is taken only while Geyer's sequences stop
// before directLags: well-mixing chains, and indicator arrays, take it;
// chains correlated over many lags fall back to the FFT.
func TestESSShortLagsMatchesFFT(t *testing.T) {
	r := NewRand(11)
	for _, tc := range []struct {
		c, n   int
		phi    float64
		ind    bool // 1[x ≤ 0.3], as the tail ESS uses
		direct bool // want the short-lag route
	}{
		{8, 500, 0, false, true}, {8, 500, -0.3, false, true}, {8, 500, 0.3, false, true},
		{8, 500, 0.3, true, true}, {2, 10500, 0.2, false, true}, {4, 5, 0, false, true},
		{8, 500, 0.97, false, false}, {2, 10500, 0.99, false, false},
	} {
		b := block{x: make([]float64, tc.c*tc.n), c: tc.c, n: tc.n}
		for i := range b.c {
			x := r.NormFloat64()
			for k := range b.row(i) {
				x = tc.phi*x + r.NormFloat64()
				b.row(i)[k] = x
				if tc.ind {
					b.row(i)[k] = 0
					if x <= 0.3 {
						b.row(i)[k] = 1
					}
				}
			}
		}
		var w essWork
		short, ok := w.essShortLags(b)
		want := w.essFFT(b)
		if ok != tc.direct {
			t.Errorf("c=%d n=%d φ=%v: short-lag route taken %v, want %v", tc.c, tc.n, tc.phi, ok, tc.direct)
		}
		if ok && !(math.Abs(short-want) <= 1e-12*want) {
			t.Errorf("c=%d n=%d φ=%v indicator %v: ESS %.17g by short lags, %.17g by FFT", tc.c, tc.n, tc.phi, tc.ind, short, want)
		}
		if got := w.ess(b); got != short && ok || got != want && !ok {
			t.Errorf("c=%d n=%d φ=%v: ess %v is neither route's (%v, %v)", tc.c, tc.n, tc.phi, got, short, want)
		}
	}
}

// A Summarizer summarising arrays of one shape again, as a run's summary
// does at every grid point, allocates nothing.
func TestSummarizerAllocatesNothingOnOneShape(t *testing.T) {
	r := NewRand(1)
	ch := make([][]float64, 4)
	for i := range ch {
		ch[i] = make([]float64, 1000)
		for k := range ch[i] {
			ch[i][k] = r.NormFloat64()
		}
	}
	var z Summarizer
	z.Summarize(ch)
	if a := testing.AllocsPerRun(20, func() { z.Summarize(ch) }); a != 0 {
		t.Errorf("Summarize on the same shape again: %v allocations, want 0", a)
	}
}
