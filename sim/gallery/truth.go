package gallery

import (
	"encoding/json"
	"math"
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
	// KL is KL(q‖p) on a 64² subgrid of the exact grid, for a family
	// with a density. Costly.
	KL Float `json:"kl"`
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
	// The history's KL: log p at the grid's cells, and log p and log q
	// at the subgrid's.
	logp, lpSub, logq []float64
}

func newWork(r *Run) work {
	w := work{sub: make([]target.Point, 0, DistanceDraws)}
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
	m := Measure{Evals: e, Steps: r.steps, Distance: nan, KL: nan, ELBO: nan, ParetoK: nan, RHat: nan, ESSBulk: nan, Acceptance: nan}
	mean, cov := r.moments()
	m.MeanError, m.CovError = Float(meanError(mean, r.ex.Shown)), Float(covError(cov, r.ex.Shown))
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
// distance, KL on the grid, R̂ and ESS.
func (r *Run) costly(m *Measure) {
	switch {
	case r.dens != nil:
		m.KL = Float(r.coarseKL())
		m.ParetoK = Float(paretoK(r.dens, r.ex.Target))
	case r.fit != nil:
		m.Distance = Float(r.distance(r.qPoints()))
	default:
		m.Distance = Float(r.distance(r.keptSubsample()))
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
	}
}

// historyKLCells is the cells per axis of the history's KL: a
// subgrid of the exact grid (every n/historyKLCells-th cell each way),
// so that a flow's log density, hundreds of tanh a point, costs a
// bounded 64² evaluations at each doubling. The midpoint rule at 64
// cells over a box of ±5 sd has a spacing of a sixth of an sd, where
// its error on a smooth density is far below a Monte Carlo KL's; the
// report's kl_exact takes the whole grid.
const historyKLCells = 64

// coarseKL is KL(q‖p) over the subgrid, q and p each normalised on it.
func (r *Run) coarseKL() float64 {
	g, w := r.ex.Grid, &r.work
	if w.logp == nil {
		w.logp = g.Density(nil)
		for i, d := range w.logp {
			w.logp[i] = math.Log(d)
		}
		w.lpSub = make([]float64, 0, historyKLCells*historyKLCells)
		w.logq = make([]float64, 0, historyKLCells*historyKLCells)
	}
	stride := g.N / historyKLCells
	lp, lq := w.lpSub[:0], w.logq[:0]
	for j := stride / 2; j < g.N; j += stride {
		for i := stride / 2; i < g.N; i += stride {
			lp = append(lp, w.logp[j*g.N+i])
			lq = append(lq, r.dens.LogDensity(g.Centre(i, j)))
		}
	}
	w.lpSub, w.logq = lp, lq
	zq, zp := numeric.LogSumExp(lq), numeric.LogSumExp(lp)
	var kl float64
	for k, l := range lq {
		l -= zq
		if q := math.Exp(l); q > 0 {
			kl += q * (l - (lp[k] - zp))
		}
	}
	return kl
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
