// Package sampler holds the gallery's Markov chains on a two-dimensional
// target.Target: random-walk Metropolis, MALA, HMC, NUTS and unadjusted
// Langevin, each able to record the mechanics of a transition for the
// page to draw.
//
// # Rules
//
// A Sampler is one chain: it owns its position, its random stream (a
// *rand.Rand the caller builds, e.g. numeric.NewStream(seed, chain), so a
// seed reproduces a run bit for bit) and its counts of density and
// gradient evaluations, the budget on which a sampler and a variational
// fit share an axis. It is used by one goroutine at a time. A Step
// allocates nothing; a Step given a Record resets it and fills it, reusing
// its slices (NewRecord sizes them so that it never grows); a Step given
// nil records nothing and pays only for the nil checks.
//
// Every Config's zero value is the default, and a value outside its range
// is a *sim.FieldError naming the control (scale, step, leapfrogs,
// max_depth, warmup, delta, metric, inv_metric) and the allowed range or
// choices. Specs lists the
// samplers and their controls for a command line and a page; New builds
// one by name. SetConfig changes a running chain's controls between steps.
//
// # The samplers
//
//   - Metropolis: θ′ = θ + σξ, accepted with min(1, p̃(θ′)/p̃(θ))
//     (Metropolis et al. 1953). Its best acceptance is about 0.234 in high
//     dimensions and 0.35–0.44 in one or two (Roberts, Gelman & Gilks 1997).
//   - MALA: θ′ = θ + (ε²/2)∇log p̃(θ) + εξ with the Metropolis–Hastings
//     correction for the asymmetric proposal (Roberts & Tweedie 1996);
//     best acceptance about 0.574 (Roberts & Rosenthal 1998).
//   - ULA: the same move always taken. Its stationary distribution is not
//     p but off by O(ε²) (Roberts & Tweedie 1996; Durmus & Moulines 2017);
//     SGLD is ULA with a noisy gradient.
//   - HMC: L leapfrog steps of size ε with momentum p ~ N(0, M), accepted
//     with min(1, e^{H₀−H}) (Duane, Kennedy, Pendleton & Roweth 1987; Neal
//     2011). A trajectory is divergent once H − H₀ passes 1000 (Stan's
//     threshold); it stops there and is rejected. Its diagonal metric M is
//     fixed (HMCConfig.InvMetric, the identity by default): it has no
//     warm-up to adapt one in.
//   - NUTS: Stan's multinomial no-U-turn sampler (Hoffman & Gelman 2014;
//     Betancourt 2017, "A conceptual introduction to Hamiltonian Monte
//     Carlo", appendix A), with the generalised criterion on sums of
//     momenta checked on every subtree and across merged halves, Stan's
//     step-size heuristic and dual averaging of ε towards acceptance 0.8
//     during warm-up (Nesterov 2009; Hoffman & Gelman 2014, §3.2.1), and
//     by default (metric diag) Stan's diagonal metric adapted in warm-up:
//     after an initial buffer of 75 transitions, slow windows of 25, 50,
//     100, … transitions (the last stretched to the terminal buffer) each
//     estimate the draws' variances by Welford's recurrence, and at a
//     window's end M⁻¹ becomes (n/(n+5))·var + 1e-3·5/(n+5), the step-size
//     heuristic runs again and the dual averaging restarts; a terminal
//     buffer of 50 adapts ε alone. A warm-up under 150 is split 15/75/10%
//     into one window; under 20 adapts no metric (Stan's
//     windowed_adaptation). Metric unit keeps the identity (or
//     NUTSConfig.InvMetric).
//
// The metric enters consistently: H = −log p̃ + ½pᵀM⁻¹p, the momentum is
// drawn from N(0, M), the leapfrog moves the position by εM⁻¹p, and the
// U-turn criterion reads the velocities p♯ = M⁻¹p against the summed
// momenta. A diagonal M⁻¹ = diag(s²) is the identity metric on the target
// rescaled by 1/s, which is why it is adapted to the marginal variances.
// Paths and trees are recorded in position space whatever the metric.
// Each metric window's end spends gradients on the step-size heuristic;
// they count in the budget like every other.
//
// A Record of an HMC transition holds its leapfrog path; of NUTS, every
// leapfrog point of every doubling in the order computed, each doubling's
// span and direction, every completed subtree and whether it turned, the
// chosen point, the first divergent point and why the tree stopped.
package sampler
