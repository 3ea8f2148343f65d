package gallery

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim/family"
	"github.com/posterior-playground/playground/sim/target"
)

// Float is a number written to JSON as null when it is not finite (an
// R̂ of too few draws, a distance not measured at this point).
type Float float64

// MarshalJSON writes f, or null for NaN and ±Inf.
func (f Float) MarshalJSON() ([]byte, error) {
	x := float64(f)
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, x, 'g', -1, 64), nil
}

var _ json.Marshaler = Float(0)

// Measure is a run against the exact answer at one budget. The cheap
// fields are taken at every point of the history; the costly ones (the
// energy distance, KL on the grid, R̂ and ESS) at doublings of the
// budget and are NaN between them.
type Measure struct {
	Evals int64 `json:"evals"` // budget spent: density plus gradient evaluations
	Steps int64 `json:"steps"`
	// MeanError is ‖(m − m*)/sd*‖: the mean's error in units of the exact
	// sds. MeanError and CovError (‖C − C*‖_F/‖C*‖_F) take a sampler's
	// every post-warm-up draw, a family's q (its closed-form moments, or
	// its draws mapped to the shown coordinates of a Displayed target).
	MeanError Float `json:"mean_error"`
	CovError  Float `json:"cov_error"`
	// Distance is the energy distance of up to DistanceDraws of the kept
	// draws (evenly spaced; SVGD: its particles) to as many of the exact
	// reference draws. Costly.
	Distance Float `json:"energy_distance"`
	// KL is KL(q‖p) for a family with a density, by Monte Carlo over
	// klDraws of q's own draws against the target's density normalised
	// by the grid's log Z (klMC), and KLSE its standard error. Costly.
	KL   Float `json:"kl"`
	KLSE Float `json:"kl_se"`
	// ELBO is the last step's estimate, beside the exact log Z.
	ELBO Float `json:"elbo"`
	// ParetoK is Pareto k̂ of the log-ratios log p̃ − log q of
	// paretoDraws of q's draws, for a family with a density: whether
	// importance sampling from q can be trusted (Stan: ≤ 0.7). Costly.
	ParetoK Float `json:"pareto_k"`
	// RHat is the largest of the parameters' rank-normalised split R̂,
	// ESSBulk the smallest bulk ESS, over the kept draws. Costly.
	RHat    Float `json:"rhat"`
	ESSBulk Float `json:"ess_bulk"`
	// ESSPerEval is ESSBulk per evaluation spent: the kept draws' ESS
	// scaled to every post-warm-up draw (ESS grows with the draws of a
	// stationary chain; the rings keep only the latest), over Evals,
	// warm-up included. Costly; a sampler's.
	ESSPerEval Float `json:"ess_per_eval"`
	// SD is each shown coordinate's sd, from the same moments as
	// MeanError: over the exact answer's sd it is the sd ratio the
	// gallery's scenarios check.
	SD [2]Float `json:"sd"`
	// Q05 and Q95 are each shown coordinate's 5% and 95% quantiles: of
	// the kept draws, or of momentDraws draws of q (SVGD: its
	// particles). Costly.
	Q05 [2]Float `json:"q05"`
	Q95 [2]Float `json:"q95"`
	// Divergences and Acceptance (the mean acceptance probability) are
	// over post-warm-up transitions.
	Divergences int64 `json:"divergences"`
	Acceptance  Float `json:"acceptance"`
}

// Cadence and bounds of the history: a point each time the budget grows
// by cheapFactor (eight a doubling, evenly spaced on the log-log chart's
// x-axis), the costly measures at each doubling; so a history never
// holds more than eight points per bit of an int64.
const (
	cheapFactor   = 1.0905077326652577 // 2^(1/8)
	maxHistory    = 8*64 + 2
	DistanceDraws = 500 // draws on each side of an energy distance: about 4·10⁵ distances
	momentDraws   = 2048
	paretoDraws   = 4000
)

type history struct {
	pts                   []Measure
	nextCheap, nextCostly int64
}

func newHistory() history { return history{pts: make([]Measure, 0, maxHistory)} }

// work is a run's scratch for measuring, allocated once.
type work struct {
	pts []target.Point // q's draws or particles in shown coordinates
	sub []target.Point // a subsample of the kept draws
	// The history's KL: q's draws in the coordinates it is fitted in,
	// and their log-ratios.
	kl []target.Point
	lr []float64
}

func newWork(r *Run) work {
	w := work{sub: make([]target.Point, 0, DistanceDraws)}
	if r.dens != nil {
		w.kl, w.lr = make([]target.Point, klDraws), make([]float64, klDraws)
	}
	if r.fit != nil {
		n := momentDraws
		if r.dens == nil {
			n = max(n, familyParticles(r))
		}
		w.pts = make([]target.Point, 0, n)
	}
	return w
}

func familyParticles(r *Run) int {
	if p := int(r.cfg.MethodControls["particles"].Num); p > 0 {
		return p
	}
	return family.DefaultParticles
}

// observe adds a point to the history when the budget has passed the
// next one's.
func (r *Run) observe() {
	e := r.Evals()
	h := &r.hist
	if e < h.nextCheap || len(h.pts) == cap(h.pts) {
		return
	}
	m := r.cheap(e)
	if e >= h.nextCostly {
		r.costly(&m)
		h.nextCostly = 2 * e
	}
	h.pts = append(h.pts, m)
	h.nextCheap = max(e+1, int64(math.Ceil(float64(e)*cheapFactor)))
}

// History appends the run's history, oldest first, to dst.
func (r *Run) History(dst []Measure) []Measure { return append(dst, r.hist.pts...) }

// Measure measures the run now, costly fields included.
func (r *Run) Measure() Measure {
	m := r.cheap(r.Evals())
	r.costly(&m)
	return m
}

// cheap measures what costs O(1) (a sampler) or one pass over q's
// moment draws (a family).
func (r *Run) cheap(e int64) Measure {
	nan := Float(math.NaN())
	m := Measure{Evals: e, Steps: r.steps, Distance: nan, KL: nan, KLSE: nan, ELBO: nan, ParetoK: nan, RHat: nan, ESSBulk: nan, ESSPerEval: nan,
		Acceptance: nan, Q05: [2]Float{nan, nan}, Q95: [2]Float{nan, nan}}
	mean, cov := r.moments()
	m.MeanError, m.CovError = Float(meanError(mean, r.ex.Shown)), Float(covError(cov, r.ex.Shown))
	m.SD = [2]Float{Float(math.Sqrt(cov[0][0])), Float(math.Sqrt(cov[1][1]))}
	if r.dens != nil {
		m.ELBO = Float(r.dens.Objective().ELBO)
	}
	if r.fit == nil {
		m.Divergences = r.divergent
		if r.trans > 0 {
			m.Acceptance = Float(r.acceptSum / float64(r.trans))
		}
	}
	return m
}

// moments returns the approximation's mean and covariance in the shown
// coordinates.
func (r *Run) moments() (target.Point, [2][2]float64) {
	if r.fit == nil {
		return r.mom.get()
	}
	if _, ok := r.ex.Target.(target.Displayed); !ok {
		return r.fit.Moments()
	}
	var s moments
	for _, p := range r.qPoints() {
		s.add(p)
	}
	return s.get()
}

// qPoints returns a family's points in shown coordinates in the run's
// scratch: SVGD's particles, or momentDraws draws from q.
func (r *Run) qPoints() []target.Point {
	w := &r.work
	if sv, ok := r.fit.(*family.SVGD); ok {
		w.pts = sv.Particles(w.pts[:0])
	} else {
		w.pts = w.pts[:momentDraws]
		r.fit.Draw(w.pts)
	}
	for i, p := range w.pts {
		w.pts[i] = r.ex.ToShown(p)
	}
	return w.pts
}

// costly adds the measures that cost more than a step: the energy
// distance, KL, quantiles, R̂ and ESS.
func (r *Run) costly(m *Measure) {
	switch {
	case r.dens != nil:
		kl, se := r.klMC()
		m.KL, m.KLSE = Float(kl), Float(se)
		m.Q05, m.Q95 = quantiles(r.qPoints())
		m.ParetoK = Float(paretoK(r.dens, r.ex.Target))
	case r.fit != nil:
		pts := r.qPoints()
		m.Distance = Float(r.distance(pts))
		m.Q05, m.Q95 = quantiles(pts)
	default:
		m.Distance = Float(r.distance(r.keptSubsample()))
		var kept int
		for c := range r.rings {
			kept += r.rings[c].n
		}
		pts := make([]target.Point, 0, kept)
		for a := range 2 {
			chains := r.series(a)
			rh, ess := numeric.RHat(chains), numeric.ESSBulk(chains)
			if a == 0 || rh > float64(m.RHat) || math.IsNaN(rh) {
				m.RHat = Float(rh)
			}
			if a == 0 || ess < float64(m.ESSBulk) || math.IsNaN(ess) {
				m.ESSBulk = Float(ess)
			}
		}
		for c := range r.rings {
			for i := range r.rings[c].n {
				pts = append(pts, r.rings[c].at(i))
			}
		}
		m.Q05, m.Q95 = quantiles(pts)
		if kept > 0 && m.Evals > 0 {
			m.ESSPerEval = m.ESSBulk * Float(float64(r.trans)/float64(kept)/float64(m.Evals))
		}
	}
}

// quantiles returns each coordinate's 5% and 95% quantiles of pts (NaN
// for none).
func quantiles(pts []target.Point) (q05, q95 [2]Float) {
	xs := make([]float64, len(pts))
	for a := range 2 {
		if len(pts) == 0 {
			q05[a], q95[a] = Float(math.NaN()), Float(math.NaN())
			continue
		}
		for i, p := range pts {
			xs[i] = p[a]
		}
		slices.Sort(xs)
		q05[a], q95[a] = Float(numeric.Quantile(xs, 0.05)), Float(numeric.Quantile(xs, 0.95))
	}
	return q05, q95
}

// klDraws is the number of q's draws behind the history's KL: its
// standard error is the log-ratios' sd over √klDraws (about 0.02 nats
// for a log-ratio sd of 1), and a flow's log density costs hundreds of
// tanh a draw.
const klDraws = 2048

// klMC is KL(q‖p) = E_q[log q − log p̃] + log Z by Monte Carlo over
// klDraws of q's own draws (from their own stream: measuring never
// changes training), with log Z from the exact grid, and its standard
// error. The target's density is evaluated where q puts its draws, not
// read off a grid: no cell's density underflows to 0 (the centred
// funnel's neck, where p̃ < 1e-308 but log p̃ is finite, once made a
// grid KL +Inf), and q's mass outside the box counts. It is +Inf where
// a draw of q has log p̃ = −Inf: q has mass where p has none.
func (r *Run) klMC() (kl, se float64) {
	w := &r.work
	r.fit.Draw(w.kl)
	var s, ss float64
	for i, p := range w.kl {
		w.lr[i] = r.dens.LogDensity(p) - r.ex.Target.LogDensity(p)
		s += w.lr[i]
	}
	n := float64(len(w.lr))
	mean := s / n
	for _, l := range w.lr {
		ss += (l - mean) * (l - mean)
	}
	return mean + r.ex.Grid.LogZ, math.Sqrt(ss / (n - 1) / n)
}

// distance is the energy distance of up to DistanceDraws of pts (evenly
// spaced) to as many reference draws; NaN for no points.
func (r *Run) distance(pts []target.Point) float64 {
	if len(pts) == 0 {
		return math.NaN()
	}
	if len(pts) > DistanceDraws {
		w := r.work.sub[:0]
		for i := range DistanceDraws {
			w = append(w, pts[i*len(pts)/DistanceDraws])
		}
		pts = w
	}
	d, err := target.EnergyDistance(pts, r.ex.Reference[:DistanceDraws])
	if err != nil {
		return math.NaN()
	}
	return d
}

// keptSubsample returns up to DistanceDraws kept draws, evenly spaced
// over the chains' rings taken one after another.
func (r *Run) keptSubsample() []target.Point {
	total := 0
	for c := range r.rings {
		total += r.rings[c].n
	}
	w := r.work.sub[:0]
	k := min(total, DistanceDraws)
	for i := range k {
		j := i * total / k
		c := 0
		for j >= r.rings[c].n {
			j -= r.rings[c].n
			c++
		}
		w = append(w, r.rings[c].at(j))
	}
	return w
}

// series returns coordinate a of each chain's kept draws, oldest first.
func (r *Run) series(a int) [][]float64 {
	out := make([][]float64, len(r.rings))
	for c := range r.rings {
		rg := &r.rings[c]
		out[c] = make([]float64, rg.n)
		for i := range rg.n {
			out[c][i] = rg.at(i)[a]
		}
	}
	return out
}
