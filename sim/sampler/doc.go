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
// max_depth, warmup, delta) and the allowed range. Specs lists the
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
//   - HMC: L leapfrog steps of size ε with momentum p ~ N(0, I), accepted
//     with min(1, e^{H₀−H}) (Duane, Kennedy, Pendleton & Roweth 1987; Neal
//     2011). A trajectory is divergent once H − H₀ passes 1000 (Stan's
//     threshold); it stops there and is rejected.
//   - NUTS: Stan's multinomial no-U-turn sampler (Hoffman & Gelman 2014;
//     Betancourt 2017, "A conceptual introduction to Hamiltonian Monte
//     Carlo", appendix A), with the generalised criterion on sums of
//     momenta checked on every subtree and across merged halves, the
//     identity metric (two dimensions need no metric adaptation to show
//     what NUTS does; Stan also adapts a diagonal one), Stan's step-size
//     heuristic and dual averaging of ε towards acceptance 0.8 during
//     warm-up (Nesterov 2009; Hoffman & Gelman 2014, §3.2.1).
//
// A Record of an HMC transition holds its leapfrog path; of NUTS, every
// leapfrog point of every doubling in the order computed, each doubling's
// span and direction, every completed subtree and whether it turned, the
// chosen point, the first divergent point and why the tree stopped.
package sampler
