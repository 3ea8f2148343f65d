package numeric

import (
	"math"

	"gonum.org/v1/gonum/dsp/fourier"
)

// The ESS core (ArviZ's _ess and stats_utils.autocov), on already split
// chains, and the autocorrelation the dashboard plots.

// essConstTol is np.finfo(float).resolution: ArviZ treats an array whose
// max − min is below it as constant and returns its size as the ESS.
const essConstTol = 1e-15

// essWork holds the FFT plan and buffers for chains of one length; reset
// rebuilds them only when the length changes.
type essWork struct {
	n     int
	fft   *fourier.FFT
	buf   []float64    // one zero-padded, centred chain; then the inverse transform
	coef  []complex128 // its Fourier coefficients
	power []complex128 // Σ over chains of |coef|², real
	means []float64    // chain means
	rho   []float64    // autocorrelation estimates ρ̂_t, t < n
}

func (w *essWork) reset(c, n int) {
	if w.fft == nil || w.n != n {
		m := fastLen(2 * n)
		w.n = n
		w.fft = fourier.NewFFT(m)
		w.buf = make([]float64, m)
		w.coef = make([]complex128, m/2+1)
		w.power = make([]complex128, m/2+1)
		w.rho = make([]float64, n)
	}
	if cap(w.means) < c {
		w.means = make([]float64, c)
	}
	w.means = w.means[:c]
}

// fastLen returns the smallest 2^a·3^b·5^c ≥ k, a length FFTPACK transforms
// quickly (scipy's next_fast_len, which ArviZ pads to, picks the same kind).
// Any length ≥ 2n−1 gives the same autocovariances up to rounding.
func fastLen(k int) int {
	for m := max(k, 1); ; m++ {
		r := m
		for _, p := range [3]int{2, 3, 5} {
			for r%p == 0 {
				r /= p
			}
		}
		if r == 1 {
			return m
		}
	}
}

// meanAutocov returns the biased autocovariances of the rows of b averaged
// over rows, acov[t] = mean_c (1/n) Σ_i (x_ci − x̄_c)(x_c,i+t − x̄_c) for t < n,
// and the row means. By linearity the average is one inverse transform of the
// summed power spectra. The result aliases w's buffers.
func (w *essWork) meanAutocov(b block) (acov, means []float64) {
	w.reset(b.c, b.n)
	clear(w.power)
	for i := range b.c {
		r := b.row(i)
		var m float64
		for _, v := range r {
			m += v
		}
		m /= float64(b.n)
		w.means[i] = m
		for k, v := range r {
			w.buf[k] = v - m
		}
		clear(w.buf[b.n:]) // zero padding to ≥ 2n: no circular wrap-around
		w.fft.Coefficients(w.coef, w.buf)
		for k, f := range w.coef {
			w.power[k] += complex(real(f)*real(f)+imag(f)*imag(f), 0)
		}
	}
	w.fft.Sequence(w.buf, w.power) // unnormalised: m × the circular autocorrelation sums
	scale := 1 / (float64(len(w.buf)) * float64(b.n) * float64(b.c))
	acov = w.buf[:b.n]
	for t := range acov {
		acov[t] *= scale
	}
	return acov, w.means
}

// ess is ArviZ's _ess on the C×n block b.
func (w *essWork) ess(b block) float64 {
	size := len(b.x)
	if size == 0 {
		return math.NaN()
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range b.x {
		if math.IsNaN(v) {
			return math.NaN()
		}
		lo, hi = min(lo, v), max(hi, v)
	}
	if hi-lo < essConstTol {
		return float64(size)
	}
	if b.n < 2 { // ArviZ fails here (rho_hat_t[1] of a length-1 array)
		return math.NaN()
	}
	if e, ok := w.essShortLags(b); ok {
		return e
	}
	return w.essFFT(b)
}

// essFFT is ess from every lag's autocovariance by FFT.
func (w *essWork) essFFT(b block) float64 {
	acov, means := w.meanAutocov(b)
	e, _ := essFromAcov(w.rho[:b.n], acov, means)
	return e
}

// directLags is how many lags essShortLags sums directly before it gives
// way to the FFT: C·n·directLags multiply-adds, a fraction of the FFT's
// 2C + 1 transforms of length ≥ 2n for the chain lengths the summaries see.
const directLags = 16

// essShortLags is ess when Geyer's sequences stop before lag directLags,
// as they do for chains that mix well (a sampler's draws in the bulk, their
// tail indicators): the few autocovariances it reads are summed directly,
// with no transform. They equal the FFT's up to rounding (a few ulps of
// acov[0]), so the ESS agrees with essFFT to about 1e-14. ok is false, and
// the caller takes the FFT route, when the sequences run past directLags.
func (w *essWork) essShortLags(b block) (ess float64, ok bool) {
	if cap(w.means) < b.c {
		w.means = make([]float64, b.c)
	}
	w.means = w.means[:b.c]
	if cap(w.rho) < b.n {
		w.rho = make([]float64, b.n)
	}
	for i := range b.c {
		var m float64
		for _, v := range b.row(i) {
			m += v
		}
		w.means[i] = m / float64(b.n)
	}
	// Lags in blocks of 4, 4 and 8: the sequences of a sampler's draws
	// mostly stop within the first, so most of directLags is not summed.
	var sums, acov [directLags]float64
	scale := 1 / (float64(b.n) * float64(b.c))
	done := 0
	for _, upto := range [...]int{4, 8, directLags} {
		upto = min(upto, b.n)
		for i := range b.c {
			r, m := b.row(i), w.means[i]
			for t := done; t < upto; t++ {
				var s float64
				for k, v := range r[:b.n-t] {
					s += (v - m) * (r[k+t] - m)
				}
				sums[t] += s
			}
		}
		for t := done; t < upto; t++ {
			acov[t] = sums[t] * scale
		}
		done = upto
		if ess, ok = essFromAcovN(w.rho[:b.n], acov[:done], w.means, b.n); ok || done == b.n {
			return ess, ok
		}
	}
	return 0, false
}

// essFromAcov finishes ArviZ's _ess from the chain-averaged autocovariances
// acov (length n) and the chain means; rho is scratch of length n. Each step
// is transcribed from ArviZ, including its index conventions.
func essFromAcov(rho, acov, means []float64) (float64, bool) {
	return essFromAcovN(rho, acov, means, len(acov))
}

// essFromAcovN is essFromAcov for chains of n draws given the first
// len(acov) ≤ n autocovariances; ok is false when Geyer's sequences need a
// lag past them.
func essFromAcovN(rho, acov, means []float64, n int) (ess float64, ok bool) {
	c := len(means)
	if len(acov) < min(n, 2) {
		return 0, false
	}
	nf := float64(n)
	meanVar := acov[0] * nf / (nf - 1) // W
	varPlus := meanVar * (nf - 1) / nf
	if c > 1 {
		_, sd := MeanStd(means)
		varPlus += sd * sd * float64(c) / float64(c-1) // var(chain means), ddof 1
	}
	clear(rho)
	rhoEven := 1.0
	rho[0] = rhoEven
	rhoOdd := 1 - (meanVar-acov[1])/varPlus
	rho[1] = rhoOdd

	// Geyer's initial positive sequence: pairs ρ̂_{t+1} + ρ̂_{t+2} while the
	// previous pair sum is positive; a negative pair is not stored.
	t := 1
	for t < n-3 && rhoEven+rhoOdd > 0 {
		if t+2 >= len(acov) {
			return 0, false
		}
		rhoEven = 1 - (meanVar-acov[t+1])/varPlus
		rhoOdd = 1 - (meanVar-acov[t+2])/varPlus
		if rhoEven+rhoOdd >= 0 {
			rho[t+1] = rhoEven
			rho[t+2] = rhoOdd
		}
		t += 2
	}
	maxT := t - 2
	if rhoEven > 0 { // "improve estimation": keep the last positive even term
		rho[maxT+1] = rhoEven
	}
	// Geyer's initial monotone sequence: no pair sum exceeds the one before.
	for t = 1; t <= maxT-2; t += 2 {
		if rho[t+1]+rho[t+2] > rho[t-1]+rho[t] {
			rho[t+1] = (rho[t-1] + rho[t]) / 2
			rho[t+2] = rho[t+1]
		}
	}

	size := float64(c * n)
	var sum float64
	for _, r := range rho[:maxT+1] {
		sum += r
	}
	tau := -1 + 2*sum
	if maxT+1 < n {
		tau += rho[maxT+1]
	}
	// Cap for antithetic chains; NaN τ stays NaN, as Python's max(nan, x).
	if capTau := 1 / math.Log10(size); tau < capTau {
		tau = capTau
	}
	for _, r := range rho {
		if math.IsNaN(r) {
			return math.NaN(), true
		}
	}
	return size / tau, true
}

// ESS returns the effective sample size of already split chains (ArviZ's
// _ess, used by ESSBulk and ESSTail): biased autocovariances (divisor n),
// summed directly while Geyer's pairs stop within 16 lags, else by
// zero-padded FFT, ρ̂_t = 1 − (W − mean acov_t)/var⁺, Geyer's initial
// positive and monotone sequences, τ̂ ≥ 1/log10(Cn) and ESS = Cn/τ̂. A constant
// array (max − min < 1e-15) returns its draw count Cn; an empty array, a NaN
// draw, or n < 2 non-constant draws give NaN. Unequal lengths panic.
func ESS(chains [][]float64) float64 {
	c, n := chainShape(chains)
	b := block{x: make([]float64, 0, c*n), c: c, n: n}
	for _, ch := range chains {
		b.x = append(b.x, ch...)
	}
	var w essWork
	return w.ess(b)
}

// Autocorrelation returns the biased autocorrelation of x at lags
// 0..min(maxLag, len(x)−1), as ArviZ's autocorr (autocovariance by FFT over
// the lag-0 value). A constant x, where that ratio is 0/0, returns 1 at every
// lag: a stuck chain is the limit of perfect correlation, and the result
// stays finite for JSON. An empty x or maxLag < 0 gives an empty slice.
func Autocorrelation(x []float64, maxLag int) []float64 {
	n := len(x)
	if n == 0 || maxLag < 0 {
		return []float64{}
	}
	out := make([]float64, min(maxLag, n-1)+1)
	constant := true
	for _, v := range x {
		if v != x[0] {
			constant = false
			break
		}
	}
	if constant && !math.IsNaN(x[0]) {
		for i := range out {
			out[i] = 1
		}
		return out
	}
	var w essWork
	acov, _ := w.meanAutocov(block{x: x, c: 1, n: n})
	for t := range out {
		out[t] = acov[t] / acov[0]
	}
	return out
}
