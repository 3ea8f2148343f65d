// Package mcmc holds the playground's samplers: random-walk Metropolis,
// stochastic-gradient Langevin dynamics (SGLD), Hamiltonian Monte Carlo
// (HMC) and the no-U-turn sampler (NUTS), each a sim.Method on the `linear`
// model and on the shared Bayesian neural network of package model.
//
// # Targets
//
// Every sampler draws from π(θ) ∝ exp(−U(θ)), U = −log p(y | θ) − log p(θ);
// a Step's objective is the chains' mean log π.
//
// linear: y = b0 + b·x + σε with flat priors on b0, b and σ > 0 (the MCMC
// blog's model), sampled as θ = (b0, b, s = log σ); the Jacobian dσ/ds = e^s
// turns the flat prior on σ into p(s) ∝ e^s, so
//
//	log π(θ) = −N(½ log 2π + s) − ½ e^{−2s} Σ r_i² + s,   r_i = y_i − b0 − b·x_i.
//
// Its posterior is known: with X = [1, x], β̂ = (XᵀX)⁻¹Xᵀy and
// S = ‖y − Xβ̂‖², σ² | y ~ Inv-Gamma((N−3)/2, S/2) and (b0, b) | y is a
// bivariate Student-t with N−3 degrees of freedom, centre β̂ and scale
// S/(N−3)·(XᵀX)⁻¹. Chains start at b0, b ~ N(0, 1), σ = 1, as the blog.
// prior_scale has no effect on this model. It needs at least 4 points.
//
// linear with fixed_noise > 0 (model.FixedNoise): σ held at that value and
// the VI methods' prior b0, b ~ N(0, s²/2), s = prior_scale, sampled as
// θ = (b0, b); its posterior is the Gaussian model.LinearPosterior, the one
// mfvi and gip fit with the same control. On both linear targets the
// method sends the joint view (model.Joint): recent draws, the moments of
// all retained ones, and each chain's first 150 states for a replay of
// warm-up.
//
// bnn: the weights carry package model's prior N(0, σ_l²),
// σ_l = prior_scale/√(fan-in+1); regression adds log σ to θ with the prior
// log σ ~ N(−2, 1). A proper prior on σ is needed: the 2×50 network can
// interpolate 100 points, so a flat prior on log σ would give an improper
// posterior; N(−2, 1) is centred on the VI methods' initial noise and its
// central 95% covers σ ∈ [0.019, 0.96] in standardised units. Classification
// uses the Bernoulli-logit likelihood. Chains start from He-normal weights
// and log σ = −2. Gradients come from model.Net's forward and backward
// passes and model.LogLik, as in package mfvi; those of the linear model are
// written by hand.
//
// # Samplers
//
// metropolis: propose θ* = θ + τξ, ξ ~ N(0, I), τ = `step` (a standard
// deviation, as the blog's code uses it), accept with probability
// min(1, π(θ*)/π(θ)). No adaptation.
//
// sgld (Welling & Teh 2011):
//
//	θ ← θ + (ε/2)(∇log p(θ) + (N/n) Σ_{i∈S} ∇log p(y_i|θ)) + η,   η ~ N(0, εI),
//
// S a minibatch of n = `batch` points (clamped to N) drawn without
// replacement each step. The noise variance is ε (std √ε); the blog's code
// uses std ε, which samples at temperature ε. There is no accept/reject
// step, so with a constant ε the chain is biased by O(ε): with n = N it is
// the unadjusted Langevin algorithm, whose stationary variance on N(μ, s²)
// is ε/(1 − (1 − ε/(2s²))²) rather than s².
//
// hmc (Neal 2011): momentum p ~ N(0, M) with a diagonal mass matrix, L =
// leapfrog_steps leapfrog steps of size ε, then acceptance with probability
// min(1, exp(H₀ − H*)), H = U(θ) + ½ pᵀM⁻¹p. A trajectory whose energy error
// exceeds 1000 is a divergence. With adapt = 1 (the default) warm-up tunes ε
// and M as NUTS does, starting from `step`; after warm-up ε is jittered by
// ±10% per transition so a fixed L cannot lock onto a period of the target.
//
// nuts: the no-U-turn sampler as Stan implements it (Hoffman & Gelman 2014
// with Betancourt's 2017 changes): the trajectory doubles in a random
// direction until the generalised U-turn criterion (on sums of momenta, with
// the diagonal metric, checked on every subtree and across each pair of
// merged subtrees) fails, an energy error exceeds 1000 (a divergence) or the
// depth reaches max_depth (at most 2^max_depth leapfrog steps); the next
// state is drawn with multinomial weights e^−H, biased towards the newest
// subtree at the top level.
//
// Warm-up adaptation (HMC with adapt, NUTS): ε starts from the
// "reasonable ε" heuristic (double or halve until one leapfrog step's
// acceptance probability crosses 0.5) and follows dual averaging towards a
// mean acceptance statistic of 0.8 (γ = 0.05, t₀ = 10, κ = 0.75,
// μ = log 10ε₀), using the averaged ε̄ after warm-up; the diagonal inverse
// metric is estimated from the draws in Stan's doubling windows (initial
// buffer 75, windows 25, 50, 100, …, terminal buffer 50; warm-ups under 150
// use 15% / 75% / 10%, and under 20 the metric is not adapted).
//
// # Chains and diagnostics
//
// A method runs `chains` chains (default 4) in parallel, one persistent
// goroutine per chain beyond the first, each with its own random stream
// derived from the stream handed to Init; one Step is one transition of
// every chain. The first `warmup` Steps are warm-up: their draws are
// discarded (HMC and NUTS adapt there). Retained draws live in bounded
// memory: at most 100 000 per chain of the summarised parameters
// (Params), thinned by 2 whenever full, and about 4 MB per chain of full
// parameter vectors for Predict. Workers stop when Close is called or, as a
// backstop, when the method is garbage collected. Convergence diagnostics
// (rank-normalised split R-hat, bulk and tail ESS, as ArviZ computes them)
// are package numeric's.
//
// # Checks
//
// Tests hold every sampler's posterior mean and sd of b0, b and σ on linreg
// to the exact values above within 4 Monte Carlo standard errors, each
// from the bulk ESS (TestLinregExactPosterior), and check those closed
// forms against a 3-D quadrature of log π (TestExactLinearByQuadrature);
// with fixed_noise, HMC against model.LinearPosterior
// (TestHMCFixedNoiseExact); a correlated 2-D Gaussian's mean and
// covariance (TestCorrelatedGaussian); SGLD's stationary variance against
// the unadjusted Langevin formula (TestSGLDStationaryVariance); leapfrog's
// O(ε²) energy error and reversibility; the dual-averaging and window
// schedules; NUTS and HMC agreeing on a 1 → 3 → 1 tanh network
// (TestSamplersAgreeOnSmallNetwork); draws independent of the number of
// goroutines the chains step in (TestThreadsKeepTheDraws); and that
// HMC's band on gap widens in the gap, an in-between ratio above 1 after a
// short run (TestGapInbetween; mean-field VI gives about 0.5).
//
// # Results
//
// On linreg, four chains of 1000 warm-up and 1000 kept transitions,
//
//	playground run --data linreg --method hmc --steps 2000 --seed 1 --json
//
// give b0 −1.020 ± 0.104, b 1.819 ± 0.168 and σ 0.552 ± 0.078 (posterior
// mean ± sd), against the exact −1.018 ± 0.102, 1.822 ± 0.168 and
// 0.552 ± 0.079, with R-hat at most 1.003, no divergences and acceptance
// 0.94. BenchmarkESS runs the four samplers so, at their default controls,
// and reports the smallest bulk ESS over b0, b and σ, the largest R-hat
// and the ESS per 1000 gradients; with -benchtime 1x (seed 1) it gives
//
//	sampler      smallest bulk ESS  ESS per 1000 gradients  largest R-hat
//	metropolis   50                 —                       1.067
//	sgld         43                 5.4                     1.073
//	hmc (L = 3)  5241               218                     1.002
//	nuts         3108               82                      1.001
//
// Metropolis and SGLD at their default steps have not mixed in 1000 draws
// (R-hat above 1.01), which the dashboard shows in red beside HMC and NUTS.
//
// On a network the posterior itself is uncertain in the gap. On gap data
// with the 1 → 20 → 1 ReLU network,
//
//	playground run --data gap --method nuts --arch 20 --warmup 500 --steps 1000 --seed 1 --json
//
// gives an in-between ratio of 10.5, and for f at the gap's centre
// (f_mid) an R-hat of 1.002 and a bulk ESS of 1651, with no divergences;
// every transition reaches the default max_depth of 10 (1023 leapfrog
// steps), which is why the dashboard's network scenario caps it at 8.
package mcmc
