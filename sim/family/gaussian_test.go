package family

import (
	"fmt"
	"math"
	"testing"

	"github.com/posterior-playground/playground/sim/target"
)

// fitMoments takes steps steps and returns q's moments averaged over the
// last avg of them (Polyak averaging: the moments' jitter from Adam's
// noisy steps averages out, their bias does not).
func fitMoments(q Fit, steps, avg int) (target.Point, Cov) {
	for range steps - avg {
		q.Step()
	}
	var m target.Point
	var c Cov
	for range avg {
		q.Step()
		mm, cc := q.Moments()
		for i := range 2 {
			m[i] += mm[i] / float64(avg)
			for j := range 2 {
				c[i][j] += cc[i][j] / float64(avg)
			}
		}
	}
	return m, c
}

func sds(c Cov) (float64, float64, float64) {
	s0, s1 := math.Sqrt(c[0][0]), math.Sqrt(c[1][1])
	return s0, s1, c[0][1] / (s0 * s1)
}

// The tolerances of the Gaussian tests. Adam's learning rate is 0.02 in
// u, the box's eighth (here 1.25σᵢ), so a step moves a parameter by at
// most about 0.025σ; the iterates wander about their fixed point by a
// few steps' worth, and the average over the last 1,000 steps, twenty
// times Adam's memory of 1/(1−β₁) = 10 steps and many times the
// 1/lr = 50 steps it takes to cross that wander, shrinks that to a small
// part of a percent. A relative error of 3% in an sd (0.05σ in a mean,
// 0.02 in a correlation) is therefore no noise but a wrong fixed point;
// where the fixed point itself is biased (forward KL's weights, below),
// the bias is argued where it is tested.
const (
	tolSD   = 0.03
	tolMean = 0.05
	tolRho  = 0.02
)

func checkGauss(t *testing.T, name string, m target.Point, c Cov, mean, sd [2]float64, rho float64) {
	t.Helper()
	s0, s1, r := sds(c)
	for i, s := range [2]float64{s0, s1} {
		if math.Abs(m[i]-mean[i]) > tolMean*sd[i] {
			t.Errorf("%s: mean[%d] = %.4f, want %.4f ± %.3f", name, i, m[i], mean[i], tolMean*sd[i])
		}
		if math.Abs(s/sd[i]-1) > tolSD {
			t.Errorf("%s: sd[%d] = %.4f, want %.4f (±%g relative)", name, i, s, sd[i], tolSD)
		}
	}
	if !math.IsNaN(rho) && math.Abs(r-rho) > tolRho {
		t.Errorf("%s: correlation %.4f, want %.4f ± %g", name, r, rho, tolRho)
	}
}

// TestFullRankExact: on a Gaussian target the target is in the family,
// and q = p is the fixed point of every divergence here (log w is then
// constant, so every weight is 1/K and the gradient's expectation is
// E_q[∇λ log q] = 0), so full-rank recovers the exact mean and covariance
// under each, Rényi at α = 0 included (where the plain reparameterised
// gradient's signal fades against its noise, Rainforth et al. 2018, and
// Adam's steps wander; the doubly reparameterised one has no noise at
// q = p). Forward KL uses K = 1,024: its weights' bias vanishes at
// q = p but not on the way there.
func TestFullRankExact(t *testing.T) {
	p := gauss2{s1: 1, s2: 2, rho: 0.9}
	for _, cfg := range []Config{
		{Divergence: ReverseKL},
		{Divergence: Renyi, Alpha: 0.5},
		{Divergence: Renyi, Alpha: 0},
		{Divergence: ForwardKL, Samples: 1024},
	} {
		for seed := uint64(1); seed <= 2; seed++ {
			cfg.Seed = seed
			q, err := NewFullRank(p, cfg)
			if err != nil {
				t.Fatal(err)
			}
			steps := 2000
			if cfg.Divergence == ForwardKL {
				steps = 1500
			}
			m, c := fitMoments(q, steps, 1000)
			checkGauss(t, fmt.Sprintf("%v α=%g seed %d", cfg.Divergence, cfg.Alpha, seed), m, c, [2]float64{}, [2]float64{1, 2}, 0.9)
		}
	}
}

// TestMeanFieldCorrelated: on N(0, Σ) with ρ = 0.9 the reverse-KL
// mean-field optimum is qᵢ = N(0, 1/Λᵢᵢ), Λ = Σ⁻¹, an sd of σᵢ√(1−ρ²)
// ≈ 0.44σᵢ, too sure; the forward-KL optimum matches the marginals, sd σᵢ.
// Forward KL's self-normalised weights bias its fixed point towards q by
// about χ²(p‖q)/K relative: at the optimum 1 + χ² = |Σ|⁻¹ = 1/(1−ρ²)
// ≈ 5.3 for unit marginals, so with K = 1,024 about 0.5%, inside tolSD
// with the jitter's share to spare. Rényi α = 0.5 lies between (Minka
// 2005: the α-divergence's optimal width moves from the reverse to the
// forward one as α falls from 1 to 0).
func TestMeanFieldCorrelated(t *testing.T) {
	const rho = 0.9
	p := gauss2{s1: 1, s2: 2, rho: rho}
	shrink := math.Sqrt(1 - rho*rho)
	for seed := uint64(1); seed <= 2; seed++ {
		q, err := NewMeanField(p, Config{Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		m, c := fitMoments(q, 2000, 1000)
		checkGauss(t, fmt.Sprintf("reverse seed %d", seed), m, c, [2]float64{}, [2]float64{shrink, 2 * shrink}, 0)
		rev, _, _ := sds(c)

		q, err = NewMeanField(p, Config{Seed: seed, Divergence: ForwardKL, Samples: 1024})
		if err != nil {
			t.Fatal(err)
		}
		m, c = fitMoments(q, 1500, 1000)
		checkGauss(t, fmt.Sprintf("forward seed %d", seed), m, c, [2]float64{}, [2]float64{1, 2}, 0)
		fwd, _, _ := sds(c)

		q, err = NewMeanField(p, Config{Seed: seed, Divergence: Renyi, Alpha: 0.5})
		if err != nil {
			t.Fatal(err)
		}
		_, c = fitMoments(q, 2000, 1000)
		if s, _, _ := sds(c); !(s > rev*(1+tolSD) && s < fwd*(1-tolSD)) {
			t.Errorf("seed %d: Rényi α = 0.5 sd %.4f, want between reverse's %.4f and forward's %.4f", seed, s, rev, fwd)
		}
	}
}

// TestMixtureModes: on w N((−3, 0), I) + (1−w) N((3, 0), I), w = ½,
// started at (−1.5, 0), where the left component holds all but e⁻⁹ of the
// density, reverse KL settles on that mode: N((−3, 0), I) up to the other
// component's e⁻¹⁸ share there. Forward KL from the same start covers
// both: its Gaussian optimum matches the mixture's moments, mean 0 and
// sd √(1 + d²/4) = √10 in θ₁. With K = 1,024 its weights' bias is
// about χ²(p‖q)/K (1 + χ² ≈ 1.8 here, by quadrature) ≈ 0.2%.
func TestMixtureModes(t *testing.T) {
	p := mixture2{d: 6, w: 0.5}
	start := target.Point{-1.5, 0}
	for seed := uint64(1); seed <= 2; seed++ {
		q, err := NewMeanField(p, Config{Seed: seed, Start: &start})
		if err != nil {
			t.Fatal(err)
		}
		m, c := fitMoments(q, 2000, 1000)
		checkGauss(t, fmt.Sprintf("reverse seed %d", seed), m, c, [2]float64{-3, 0}, [2]float64{1, 1}, 0)

		q, err = NewMeanField(p, Config{Seed: seed, Start: &start, Divergence: ForwardKL, Samples: 1024})
		if err != nil {
			t.Fatal(err)
		}
		m, c = fitMoments(q, 2000, 1000)
		checkGauss(t, fmt.Sprintf("forward seed %d", seed), m, c, [2]float64{}, [2]float64{math.Sqrt(10), 1}, 0)
	}
}

// TestELBOGap: the ELBO's gap below log Z is KL(q‖p). On N(0, Σ), log Z =
// log(2π σ₁σ₂√(1−ρ²)); full-rank's optimum is p itself (gap 0: every
// draw's log w is log Z exactly, so the estimate has no noise there),
// mean-field's has the closed-form gap KL = −½ log(1−ρ²): its covariance
// (1−ρ²)·diag(Σ) gives tr(Σ⁻¹Σ_q) = 2 and log(|Σ|/|Σ_q|) = −log(1−ρ²).
// The step's ELBO estimates are averaged over 1,000 steps and compared
// within four standard errors (from the estimates' own spread) plus
// 0.005 nats for Adam's wander about the optimum (KL is quadratic there:
// a 1% error in an sd costs about 1e-4 nats). Forward KL's bound, the
// importance-sampling estimate of log Z, must also come to log Z: with q
// at p the weights are all but equal and its noise far below the 0.005
// nats asked.
func TestELBOGap(t *testing.T) {
	const rho = 0.9
	p := gauss2{s1: 1, s2: 2, rho: rho}
	logZ := math.Log(2 * math.Pi * 2 * math.Sqrt(1-rho*rho))
	for _, c := range []struct {
		name string
		new  func(target.Target, Config) (*Gaussian, error)
		cfg  Config
		gap  float64
	}{
		{"full-rank", NewFullRank, Config{}, 0},
		{"mean-field", NewMeanField, Config{}, -math.Log(1-rho*rho) / 2},
		{"full-rank forward", NewFullRank, Config{Divergence: ForwardKL, Samples: 1024}, 0},
	} {
		c.cfg.Seed = 4
		q, err := c.new(p, c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		for range 1000 {
			q.Step()
		}
		var s, s2, b float64
		const n = 1000
		for range n {
			q.Step()
			e := q.Objective().ELBO
			s += e / n
			s2 += e * e / n
			b += q.Objective().Bound / n
		}
		se := math.Sqrt(math.Max(s2-s*s, 0) / n)
		if got, want := s, logZ-c.gap; math.Abs(got-want) > 4*se+0.005 {
			t.Errorf("%s: mean ELBO %.4f, want log Z − KL = %.4f ± %.4f", c.name, got, want, 4*se+0.005)
		}
		if c.cfg.Divergence == ForwardKL && math.Abs(b-logZ) > 0.005 {
			t.Errorf("%s: mean bound %.4f, want log Z = %.4f", c.name, b, logZ)
		}
	}
}
