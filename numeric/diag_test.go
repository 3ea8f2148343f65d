package numeric_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/posterior-playground/playground/numeric"
)

// ar1Chains returns c stationary AR(1) chains x_t = φx_{t−1} + ε_t, ε ~ N(0,1),
// started from the stationary law N(0, 1/(1−φ²)); φ = 0 gives i.i.d. N(0,1).
func ar1Chains(r *rand.Rand, c, n int, phi float64) [][]float64 {
	out := make([][]float64, c)
	for i := range out {
		ch := make([]float64, n)
		x := r.NormFloat64() / math.Sqrt(1-phi*phi)
		for k := range ch {
			if k > 0 {
				x = phi*x + r.NormFloat64()
			}
			ch[k] = x
		}
		out[i] = ch
	}
	return out
}

// normQuantileBisect is Φ⁻¹ by bisection on Φ(z) = erfc(−z/√2)/2, independent
// of the rational approximation the package uses.
func normQuantileBisect(p float64) float64 {
	lo, hi := -40.0, 40.0
	for range 200 {
		mid := (lo + hi) / 2
		if math.Erfc(-mid/math.Sqrt2)/2 < p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

func relClose(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*math.Abs(want)
}

func TestSplitChains(t *testing.T) {
	got := numeric.SplitChains([][]float64{{1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}})
	want := [][]float64{{1, 2}, {6, 7}, {4, 5}, {9, 10}} // first halves, then last halves; 3 and 8 dropped
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("odd n: got %v, want %v", got, want)
	}
	got = numeric.SplitChains([][]float64{{1, 2, 3, 4}})
	if want := [][]float64{{1, 2}, {3, 4}}; !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("one chain: got %v, want %v", got, want)
	}
	if got := numeric.SplitChains(nil); len(got) != 0 {
		t.Errorf("nil: got %v", got)
	}
}

func TestRankNormalize(t *testing.T) {
	// Pooled draws 3, 1, 2, 5 have ranks 3, 1, 2, 4; S = 4, so
	// p = (r − 3/8)/(4 + 1/4) = 0.625/4.25, 1.625/4.25, 2.625/4.25, 3.625/4.25
	//   = 0.1470588, 0.3823529, 0.6176471, 0.8529412,
	// z = Φ⁻¹(p) ≈ −1.0491, −0.2993, 0.2993, 1.0491 (normal table: Φ(1.05) = 0.8531).
	got := numeric.RankNormalize([][]float64{{3, 1}, {2, 5}})
	ranks := [][]float64{{3, 1}, {2, 4}}
	table := [][]float64{{0.2993, -1.0491}, {-0.2993, 1.0491}}
	for c := range ranks {
		for i, r := range ranks[c] {
			want := normQuantileBisect((r - 0.375) / 4.25)
			if math.Abs(got[c][i]-want) > 1e-13 || math.Abs(got[c][i]-table[c][i]) > 1e-4 {
				t.Errorf("z[%d][%d] = %.16g, want %.16g (table %g)", c, i, got[c][i], want, table[c][i])
			}
		}
	}
	// Ties share the mean rank: 1, 2, 2, 3 have ranks 1, 2.5, 2.5, 4, and
	// (2.5 − 3/8)/4.25 = 1/2 exactly, so both tied draws map to Φ⁻¹(1/2) = 0.
	got = numeric.RankNormalize([][]float64{{1, 2}, {2, 3}})
	if got[0][1] != 0 || got[1][0] != 0 || got[0][0] != -got[1][1] || !(got[0][0] < -1) {
		t.Errorf("ties: got %v", got)
	}
	// A NaN propagates to every output, as scipy's rankdata.
	got = numeric.RankNormalize([][]float64{{1, math.NaN()}, {2, 3}})
	for _, ch := range got {
		for _, z := range ch {
			if !math.IsNaN(z) {
				t.Errorf("NaN input: got %v", got)
			}
		}
	}
}

// The inputs of the two hand checks below and the values that a pure-Python
// transcription of ArviZ's _split_chains/_z_scale/_rhat/_ess gives for them,
// with an O(n²) autocovariance and statistics.NormalDist().inv_cdf for Φ⁻¹
// (an implementation independent of this package, run once by hand).

// TestESSHandChecked follows ArviZ's _ess step by step on two (already split)
// chains of 16 draws, a case that exercises every branch of Geyer's rules:
//
//	mean autocovariance acov_0..3 = 0.7551339844, 0.4850609131, 0.1526263184, 0.0580139893
//	W = acov_0·16/15 = 0.80547625; var⁺ = W·15/16 + var(chain means) = 0.756091015625
//	ρ̂_t = 1 − (W − acov_t)/var⁺: ρ̂_0..7 = 1, 0.5762212084, 0.1365458415, 0.0114123230,
//	  0.1040247356, 0.2353498321, then the pair (ρ̂_6, ρ̂_7) sums negative: stop,
//	  max_t = 5, and ρ̂_6 = 0.0739178768 > 0 is kept as the closing term.
//	monotone: ρ̂_4 + ρ̂_5 = 0.339 > ρ̂_2 + ρ̂_3 = 0.148, so ρ̂_4 = ρ̂_5 = 0.148/2 = 0.0739790823
//	τ̂ = −1 + 2(1 + 0.5762 + 0.1365 + 0.0114 + 0.0740 + 0.0740) + 0.0739 = 2.8181929517
//	ESS = 32/τ̂ = 11.354793851308644
func TestESSHandChecked(t *testing.T) {
	chains := [][]float64{
		{0.3, 0.76, 1.46, 0.91, 0, 0.13, 0.89, 1.2, 0.51, -0.6, -0.98, -0.84, -0.69, 0.1, -1.03, -1.25},
		{0.97, 0.74, 0.77, 0.3, 0.14, 0.86, 1.41, 0.94, -0.25, -1.03, -0.61, -0.07, -0.37, -0.37, -1.79, -1.47},
	}
	if got, want := numeric.ESS(chains), 11.354793851308644; !relClose(got, want, 1e-12) {
		t.Errorf("ESS = %.17g, want %.17g", got, want)
	}
}

// TestDiagnosticsHandChecked runs the whole pipeline on two chains of 21
// draws (odd: the middle draw is dropped) with ties (1.1, 0.8, 0.7, ...).
// Reference values, as above: split ranks are pooled over 40 draws; bulk
// R̂ = 0.9620758730 (B = 0.2568188, W = 1.0035912); split median 0.35, tail
// R̂ = 0.9535784; q05 = −2.295, q95 = 2.89 (type 7 on the 42 draws), whose
// indicator ESSs are 64.082 and 52.336.
func TestDiagnosticsHandChecked(t *testing.T) {
	chains := [][]float64{
		{1.0, 0.6, 1.9, 2.5, -0.3, -0.2, -1.4, -2.9, -0.4, -0.2, 0.8, 3.0, 0.9, 0.7, 0, -2.8, -1.3, -1.1, -0.8, 2.3, 1.5},
		{3.0, 2.2, 0.7, 0.8, -0.1, -2.3, -2.2, 0.3, 1.4, 1.1, 2.0, 2.6, 0.4, -1.9, -1.4, -0.5, -0.9, 0.1, 2.7, 2.9, 0.8},
	}
	want := numeric.ParamSummary{
		Mean: 0.36904761904761918, SD: 1.6254812563515739,
		Q05: -2.295, Q50: 0.5, Q95: 2.8899999999999992,
		ESSBulk: 22.717930778529432, ESSTail: 52.336448598130843, RHat: 0.96207587301317565,
	}
	got := numeric.Summarize(chains)
	gf := []float64{got.Mean, got.SD, got.Q05, got.Q50, got.Q95, got.ESSBulk, got.ESSTail, got.RHat}
	wf := []float64{want.Mean, want.SD, want.Q05, want.Q50, want.Q95, want.ESSBulk, want.ESSTail, want.RHat}
	for i := range gf {
		if !relClose(gf[i], wf[i], 1e-12) {
			t.Errorf("Summarize field %d = %.17g, want %.17g", i, gf[i], wf[i])
		}
	}
	for name, v := range map[string][2]float64{
		"RHat":                   {numeric.RHat(chains), want.RHat},
		"ESSBulk":                {numeric.ESSBulk(chains), want.ESSBulk},
		"ESSTail":                {numeric.ESSTail(chains), want.ESSTail},
		"ESS of split raw draws": {numeric.ESS(numeric.SplitChains(chains)), 22.542992780709383},
	} {
		if !relClose(v[0], v[1], 1e-12) {
			t.Errorf("%s = %.17g, want %.17g", name, v[0], v[1])
		}
	}
	// Summarize shares work but must agree exactly with the single calls.
	if got.RHat != numeric.RHat(chains) || got.ESSBulk != numeric.ESSBulk(chains) || got.ESSTail != numeric.ESSTail(chains) {
		t.Error("Summarize differs from RHat/ESSBulk/ESSTail")
	}
}

// TestESSBulkAR1: for AR(1) the integrated autocorrelation time is
// (1+φ)/(1−φ), so ESS ≈ Cn(1−φ)/(1+φ) = 80000·0.1/1.9 ≈ 4211 for φ = 0.9 and
// 4 × 20000 draws. Over 30 seeds (0–29) the ratio ESSBulk/that had mean 0.995
// and sd 0.050 (range 0.889–1.115; an independent check saw 0.94–1.07 over 5); a
// relative sd near √(4M/N) ≈ 0.05 for a Geyer window M ≈ 50 lags is what the
// estimator's own variance predicts. So each repetition must lie in
// [0.85, 1.15] (3 sd) and the mean of 4 in [0.92, 1.08] (3 sd of a mean of 4).
func TestESSBulkAR1(t *testing.T) {
	const phi, c, n, reps = 0.9, 4, 20000, 4
	target := float64(c*n) * (1 - phi) / (1 + phi)
	var sum float64
	for rep := range reps {
		ratio := numeric.ESSBulk(ar1Chains(numeric.NewRand(uint64(rep)), c, n, phi)) / target
		t.Logf("rep %d: ESSBulk/target = %.4f", rep, ratio)
		if ratio < 0.85 || ratio > 1.15 {
			t.Errorf("rep %d: ESSBulk/target = %.4f, want in [0.85, 1.15]", rep, ratio)
		}
		sum += ratio
	}
	if m := sum / reps; m < 0.92 || m > 1.08 {
		t.Errorf("mean ESSBulk/target = %.4f, want in [0.92, 1.08]", m)
	}
}

// TestIIDNormal: i.i.d. N(0,1) chains, 4 × 1000. R̂ − 1 is about (F − 1)/(2n')
// with F ~ F(7, ·) of sd √(2/7): sd ≈ 5e-4 per part. Over 60 seeds (100–159)
// R̂ − 1 had mean 2.2e-4, sd 3.7e-4, range −5.9e-4…1.1e-3, so |R̂ − 1| < 0.005
// is over 10 sd. ESSBulk/4000 had mean 0.994, sd 0.038 (range 0.89–1.10): the
// mean over 4 seeds (sd 0.019) must be within 10% (5 sd), each within 15% (4 sd).
func TestIIDNormal(t *testing.T) {
	const c, n, reps = 4, 1000, 4
	var sum float64
	for rep := range reps {
		ch := ar1Chains(numeric.NewRand(uint64(100+rep)), c, n, 0)
		if r := numeric.RHat(ch); math.Abs(r-1) > 0.005 {
			t.Errorf("seed %d: RHat = %.5f, want within 0.005 of 1", 100+rep, r)
		}
		e := numeric.ESSBulk(ch) / (c * n)
		if e < 0.85 || e > 1.15 {
			t.Errorf("seed %d: ESSBulk/N = %.4f, want within 15%% of 1", 100+rep, e)
		}
		sum += e
	}
	if m := sum / reps; math.Abs(m-1) > 0.1 {
		t.Errorf("mean ESSBulk/N = %.4f, want within 10%% of 1", m)
	}
}

// rankRHatLimit is the large-sample rank-normalised split R̂ when one of four
// i.i.d. N(0,1) chains is shifted by d: the draws pool to the mixture
// F = ¾Φ(x) + ¼Φ(x − d); rank normalisation is g = Φ⁻¹∘F; each half-chain of
// type μ has mean m_μ and variance v_μ of g(X), X ~ N(μ, 1). With the 8 split
// chains (2 shifted), R̂² → 1 + var_ddof1(chain means)/W. Trapezoid rule on a
// fine grid.
func rankRHatLimit(d float64) float64 {
	const h = 1e-3
	moments := func(mu float64) (m, v float64) {
		var s0, s1, s2 float64
		for x := -10.0; x < d+10; x += h {
			f := 0.75*math.Erfc(-x/math.Sqrt2)/2 + 0.25*math.Erfc(-(x-d)/math.Sqrt2)/2
			if f <= 0 || f >= 1 {
				continue
			}
			g := normQuantileBisect(f)
			p := math.Exp(-(x-mu)*(x-mu)/2) / math.Sqrt(2*math.Pi)
			s0, s1, s2 = s0+p, s1+p*g, s2+p*g*g
		}
		m = s1 / s0
		return m, s2/s0 - m*m
	}
	m0, v0 := moments(0)
	m1, v1 := moments(d)
	w := (6*v0 + 2*v1) / 8
	mm := (6*m0 + 2*m1) / 8
	b := (6*(m0-mm)*(m0-mm) + 2*(m1-mm)*(m1-mm)) / 7
	return math.Sqrt(1 + b/w)
}

// TestShiftedChainRHat: one of four chains shifted by +2. Rank normalisation
// bounds R̂ here: even complete separation gives only ≈1.528, so "R̂ > 1.5"
// is unreachable for +2; the limit computed above is 1.3194, and over 30
// seeds (200–229) R̂ had mean 1.3205, sd 0.0092. We require R̂ within 0.03
// (3 sd) of the limit, and R̂ > 1.5 for a +4 shift (limit 1.5197, observed
// 1.5203 ± 0.0013).
func TestShiftedChainRHat(t *testing.T) {
	shifted := func(seed uint64, d float64) [][]float64 {
		ch := ar1Chains(numeric.NewRand(seed), 4, 1000, 0)
		for k := range ch[0] {
			ch[0][k] += d
		}
		return ch
	}
	limit := rankRHatLimit(2)
	if math.Abs(limit-1.3194) > 5e-4 {
		t.Errorf("limit for +2 = %.5f, want 1.3194", limit)
	}
	if r := numeric.RHat(shifted(200, 2)); math.Abs(r-limit) > 0.03 {
		t.Errorf("+2 shift: RHat = %.4f, want %.4f ± 0.03", r, limit)
	}
	if r := numeric.RHat(shifted(201, 4)); r <= 1.5 {
		t.Errorf("+4 shift: RHat = %.4f, want > 1.5", r)
	}
}

func TestConstantChains(t *testing.T) {
	ch := [][]float64{{2.5, 2.5, 2.5, 2.5, 2.5, 2.5}, {2.5, 2.5, 2.5, 2.5, 2.5, 2.5}}
	if e := numeric.ESS(ch); e != 12 {
		t.Errorf("ESS(constant) = %g, want 12", e)
	}
	if e := numeric.ESSBulk(ch); e != 12 {
		t.Errorf("ESSBulk(constant) = %g, want 12", e)
	}
	if e := numeric.ESSTail(ch); e != 12 {
		t.Errorf("ESSTail(constant) = %g, want 12", e)
	}
	// R̂ is 0/0 (zero within-chain variance): NaN, as in ArviZ.
	if r := numeric.RHat(ch); !math.IsNaN(r) {
		t.Errorf("RHat(constant) = %g, want NaN", r)
	}
	s := numeric.Summarize(ch)
	if s.Mean != 2.5 || s.SD != 0 || s.Q05 != 2.5 || s.Q95 != 2.5 || s.ESSBulk != 12 || !math.IsNaN(s.RHat) {
		t.Errorf("Summarize(constant) = %+v", s)
	}
	ac := numeric.Autocorrelation(ch[0], 3)
	if !slices.Equal(ac, []float64{1, 1, 1, 1}) {
		t.Errorf("Autocorrelation(constant) = %v", ac)
	}
}

func TestDegenerateInputs(t *testing.T) {
	nan := math.IsNaN
	for name, ch := range map[string][][]float64{
		"nil":          nil,
		"empty chains": {{}, {}},
		"3 draws":      {{1, 2, 3}, {4, 5, 6}},
		"NaN draw":     {{1, 2, 3, 4}, {5, math.NaN(), 7, 8}},
	} {
		s := numeric.Summarize(ch)
		if !nan(numeric.RHat(ch)) || !nan(numeric.ESSBulk(ch)) || !nan(numeric.ESSTail(ch)) ||
			!nan(s.RHat) || !nan(s.ESSBulk) || !nan(s.ESSTail) {
			t.Errorf("%s: want NaN diagnostics, got %+v", name, s)
		}
	}
	// With 3 draws the plain statistics are still defined.
	if s := numeric.Summarize([][]float64{{1, 2, 3}, {4, 5, 6}}); s.Mean != 3.5 || s.Q50 != 3.5 {
		t.Errorf("3 draws: %+v", s)
	}
	if e := numeric.ESS(nil); !nan(e) {
		t.Errorf("ESS(nil) = %g", e)
	}
	// One chain: the split gives two half-chains and everything is defined.
	// Over 300 seeds (1000–1299) of one i.i.d. chain of 400: R̂ − 1 had sd
	// 0.0038 (0.05 is 13 sd), ESSBulk 384 ± 54 (200 is 3.4 sd below),
	// ESSTail 358 ± 50 (100 is 5 sd below).
	one := ar1Chains(numeric.NewRand(3), 1, 400, 0)
	s := numeric.Summarize(one)
	if math.Abs(s.RHat-1) > 0.05 || !(s.ESSBulk > 200) || !(s.ESSTail > 100) {
		t.Errorf("one chain: %+v", s)
	}
	defer func() {
		if recover() == nil {
			t.Error("unequal chain lengths did not panic")
		}
	}()
	numeric.RHat([][]float64{{1, 2, 3, 4}, {1, 2, 3}})
}

// TestAutocorrelation: for AR(1), ρ_t = φᵗ. Bartlett's formula bounds the
// sd of the estimate at lag t ≤ 10 by √((1+φ²)/((1−φ²)N)) ≈ 0.0098 for
// N = 10⁵, φ = 0.9; the tolerance 0.04 is 4 sd. Lags past len(x)−1 are cut.
func TestAutocorrelation(t *testing.T) {
	x := ar1Chains(numeric.NewRand(11), 1, 100000, 0.9)[0]
	ac := numeric.Autocorrelation(x, 10)
	if len(ac) != 11 || ac[0] != 1 {
		t.Fatalf("len %d, ρ_0 = %g", len(ac), ac[0])
	}
	for k, r := range ac {
		if want := math.Pow(0.9, float64(k)); math.Abs(r-want) > 0.04 {
			t.Errorf("ρ_%d = %.4f, want %.4f ± 0.04", k, r, want)
		}
	}
	// Biased estimator on a tiny case: x = 1, 2, 3, centred −1, 0, 1:
	// acov = (2, −1·0 + 0·1, −1·1)/3 = (2/3, 0, −1/3), so ρ = 1, 0, −1/2.
	if got := numeric.Autocorrelation([]float64{1, 2, 3}, 5); len(got) != 3 ||
		math.Abs(got[0]-1) > 1e-15 || math.Abs(got[1]) > 1e-15 || math.Abs(got[2]+0.5) > 1e-15 {
		t.Errorf("Autocorrelation(1,2,3) = %v, want [1 0 −0.5]", got)
	}
	if got := numeric.Autocorrelation(nil, 3); len(got) != 0 {
		t.Errorf("empty: %v", got)
	}
}

// basicRHat is the classic formula √(((n−1)/n·W + B/n)/W) on the given chains.
func basicRHat(chains [][]float64) float64 {
	c, n := float64(len(chains)), float64(len(chains[0]))
	means := make([]float64, len(chains))
	var w float64
	for i, ch := range chains {
		var m, ss float64
		for _, v := range ch {
			m += v
		}
		m /= n
		for _, v := range ch {
			ss += (v - m) * (v - m)
		}
		means[i] = m
		w += ss / (n - 1) / c
	}
	var mm, bn float64
	for _, m := range means {
		mm += m / c
	}
	for _, m := range means {
		bn += (m - mm) * (m - mm) / (c - 1)
	}
	return math.Sqrt(((n-1)/n*w + bn) / w)
}

// TestRHatTailScaledChain: one of four i.i.d. N(0,1) chains scaled by 3 has
// the same median, so the bulk R̂ stays near 1 and only the tail (folded)
// R̂ sees it: over 30 seeds (300–329) R̂ was 1.145 ± 0.009 and bulk
// 1.0002 ± 0.0007. RHat must also equal max(bulk, tail) rebuilt from the
// public pieces and the textbook R̂ formula.
func TestRHatTailScaledChain(t *testing.T) {
	ch := ar1Chains(numeric.NewRand(300), 4, 1000, 0)
	for k := range ch[0] {
		ch[0][k] *= 3
	}
	split := numeric.SplitChains(ch)
	bulk := basicRHat(numeric.RankNormalize(split))
	var pooled []float64
	for _, c := range split {
		pooled = append(pooled, c...)
	}
	slices.Sort(pooled)
	med := (pooled[len(pooled)/2-1] + pooled[len(pooled)/2]) / 2
	folded := make([][]float64, len(split))
	for i, c := range split {
		for _, v := range c {
			folded[i] = append(folded[i], math.Abs(v-med))
		}
	}
	tail := basicRHat(numeric.RankNormalize(folded))
	got := numeric.RHat(ch)
	if !relClose(got, max(bulk, tail), 1e-12) {
		t.Errorf("RHat = %.15g, want max(bulk %.15g, tail %.15g)", got, bulk, tail)
	}
	if bulk > 1.005 || got < 1.1 {
		t.Errorf("bulk %.4f (want < 1.005), RHat %.4f (want > 1.1)", bulk, got)
	}
}
