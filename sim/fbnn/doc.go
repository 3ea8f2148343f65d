// Package fbnn is functional variational inference for Bayesian neural
// networks (fBNN; Sun, Zhang, Shi & Grosse 2019): a Gaussian distribution
// over the weights of the shared network (model.DefaultArch), mean-field
// except for the output layer's weights, which have a full covariance,
// trained not on the weight-space ELBO but on the functional one,
//
//	Σ_n E_q log p(y_n | f(x_n)) − KL[q(f^X) ‖ p(f^X)],
//
// with a zero-mean GP prior p(f) (rbf or periodic kernel, package gp's
// forms) and, every step, fresh measurement points X = the training inputs
// (a random batch of 100 of them for larger data) ∪ M points drawn uniformly
// over the data set's plotting range, which is wider than the data. Because
// the KL acts on function values there, the GP prior shapes q where there
// are no data: with a periodic kernel the network carries the pattern beyond
// the training range, where weight-space mean-field VI does not.
//
// # The KL gradient
//
// The KL gradient comes from two surrogate losses evaluated on k function
// samples f̃_i = f_i(X) + σ_inj·ξ_i (the reference's injected noise):
//
//   - entropy: S_H = (1/k) Σ_i stopgrad(−ĝ_i)ᵀ f̃_i, where ĝ_i ≈ ∇ log q(f̃_i)
//     is estimated from the k samples alone; its gradient estimates
//     ∇_φ H[q(f^X)] because E_q ∇_φ log q_φ = 0;
//   - cross-entropy: CE = −(1/k) Σ_i log N(f̃_i; 0, K_XX + σ_inj²I), analytic,
//     through a float64 Cholesky factor;
//
// and Adam minimises [−Σ_n E log p(y_n|f) + CE − S_H]/N, with the expected
// log-likelihood averaged over the k samples (noise-free f).
//
// # The entropy gradient: why not SSGE
//
// The reference estimates ĝ with the spectral Stein gradient estimator
// (SSGE; Shi, Sun & Zhu 2018, numeric.SSGE): per-dimension median-heuristic
// bandwidths, the leading eigenpairs up to a 0.99 eigenvalue ratio,
// Nyström eigenfunctions. In the p = 60 dimensions of a step on `periodic`
// (20 inputs and 40 measurement points) it is biased low whatever the
// particle count the reference could afford: for f ~ N(0, K) with an RBF K
// on 60 points and the injected noise 0.1, its estimate of the entropy's
// derivative along the samples is 0.36 of the truth at k = 20, 0.52 at 50
// and 0.62 at the reference's 100 (TestEntropyGradientBias). The entropy
// term then loses to the cross-entropy's pull and the likelihood, and q
// shrinks step after step: with SSGE and k = 20 the predictive std on the
// grid was a median 0.18–0.35 of the exact GP posterior's on `periodic`
// after 6000 steps, and 0.23–0.47 on `gap` (README, "Functional VI").
//
// The choice that removed most of the bias is the score estimator: ĝ is the score of
// the Gaussian fitted to the particles, −Σ̂⁻¹(f̃_i − f̄) with
// Σ̂ = (sample covariance of the noise-free f) + σ_inj²I (gaussScore). The
// injected noise is what makes Σ̂ invertible with k < p; Woodbury keeps the
// cost at a k×k factorisation. It is exact when q(f^X) is Gaussian, which
// for a mean-field network is only approximately so (given the hidden
// layers, the output is linear in the last layer's Gaussian weights), and
// its in-sample bias is small: 0.86 of the truth at k = 20, 0.95 at k = 50,
// 0.98 at k = 100 on the same test. The default is k = 50 particles (the
// reference's 100 doubles the cost for 0.03 of the gradient). SSGE remains
// in the package (scoreSSGE) for that comparison.
//
// # The band: a full-covariance output layer
//
// With the Gaussian score alone the band was still too narrow where the
// exact GP's is wide, and the cause is the mean-field family, not the
// estimator. On `gap` (seed 2, 3000 steps) the std was right on the data
// clusters and beyond them (0.5–1.05 of the GP's) but 0.013 across the
// whole gap where the GP's rises to 0.34 (ratio 0.04–0.12): the classic
// in-between failure of mean-field networks (Foong et al. 2019). A unit
// active in the gap is active on a data cluster too, so variance in the gap
// but not on the data needs weights whose variations cancel on the data,
// which independent weights cannot do. On `periodic`, where one period of
// data pins the GP's function everywhere (its sd 0.06–0.07), the band
// shrank to a median 0.5 of the GP's and stayed there (seed 1: 0.54 at 3000
// steps, 0.52 at 5000). Ruled out by measurement (seed 1, `periodic`): the
// injected noise (σ_inj 0.1, 0.03, 0.01: median ratio 0.54, 0.52, 0.49 at
// 3000 steps, and below 0.1 the mean collapses to a constant), the particle
// count (k = 100: 0.52 at 5000 steps), the measurement box (the plotting
// grid's range, so it covers every grid point) and the prior (the exact
// GP is given fBNN's own fitted kernel and noise).
//
// The fix is in q's family, which fBNN leaves open (any process that can be
// sampled): the output layer's weights, hidden units and bias, are
// Gaussian with a full covariance LLᵀ (outcov.go); the hidden layers stay
// mean-field. Given the hidden units h(x) the output is linear in those
// weights, so q(f | h) can be any Gaussian on the span of the 51 features,
// the exact GP's included, and combinations of units that cancel on the
// data can carry variance in the gap. With it (at lr 1e-2), on `gap` seed
// 2 the std is within ×2 at 0.78 of the grid after 3000 steps (0.69
// before) and 0.93–0.99 after 6000–8000; on `periodic` seed 1 the median
// ratio is 1.1–1.8 (0.5 before).
//
// The learning rate (3e-3; it was 1e-2) is the second choice: at 1e-2 Adam's
// noise moved the band and the mean by more than the periodic GP's small sd
// from one checkpoint to the next (seed 1, full covariance: median ratio
// 1.83, 1.13, 1.79, 1.27 at 3000, 5000, 6000, 8000 steps; mean within 2 GP
// sd at 0.37–0.83 of the grid); at 3e-3 it settles (ratio 0.96, 0.98, 1.03
// and mean 0.94, 0.97, 0.97 at 6000, 8000, 10 000 steps). The band settles
// from above, by 8000 steps on every seed; TestBandAgainstExactGP checks
// issue 18's target there on both data sets, seeds 1–5. The learning rate
// and step count alone do not meet it: mean-field at lr 3e-3 and 8000
// steps is within ×2 at 0.75 and 0.50 of the grid on `gap` seeds 2 and 5
// and 0.78 on `periodic` seed 2 (median ratio 0.64 and falling), against
// 1.00, 0.93 and 1.00 with the full-covariance output layer.
//
// # Prior and noise
//
// As in the reference, the kernel's hyperparameters are by default
// (prior_fit = ml) fitted to the data by GP marginal likelihood before
// training, and again when the kernel changes, and then held fixed: a few
// starts (for the periodic kernel the best of a grid of 40 log-spaced
// periods), each refined by 500 Adam steps. The observation noise is fixed,
// not learned: at the GP fit's noise std (the reference toy fixes it at the
// true noise, which a Dataset does not know). Learning it, as mfvi does, let
// the periodic prior's cross-entropy flatten the network while the noise
// grew to explain the data away (σ → 1, f ≡ 0 on `periodic`).
//
// # Differences from the reference
//
// The reference trains a 5×500 network for 50 000 epochs at lr 1e-3 with
// 100 particles; here the shared 2×50 network with a full-covariance output
// layer (above), 50 particles and lr 3e-3 for a few thousand steps.
// The injected noise defaults to 0.1 (reference 0.01): against the periodic
// kernel, whose spectrum beyond the first few harmonics lies far below
// 0.01², the 2×50 ReLU network can only match the prior to within about
// 0.1; with σ_inj = 0.01 the cross-entropy's gradient then dominates and
// collapses the network to a constant. The first layer's hinges are spread
// over the measurement box at Init (see initWeights), and the log stds
// start at −4 (std 0.018), where the reference's −2 made the initial
// functions so noisy that the cross-entropy flattened the network before
// the likelihood could fit it. The measurement box is the data set's
// plotting range rather than the data's range.
//
// The method does not implement sim.Bounds: the entropy of q(f^X) is only
// available through its gradient, so there is no ELBO value to report.
//
// # Cost of a step
//
// A step's arithmetic is almost all the particles' forward and backward
// passes. Each particle has its own weights, so its products are its own:
// on n measurement points the middle 51×50 layer takes three GEMMs per
// particle (forward n×51·51×50, weight gradient 51×n·n×50, input gradient
// n×50·50×50), 15,200·n FLOP, and the thin layers, ReLUs and output about
// 550·n more. At k = 50 that is 47 MFLOP on `periodic` (n = 20 + 40) and
// 110 MFLOP on `gap` (n = 100 + 40). The rest is small: the prior's n×n
// Cholesky factor and two solves with k right-hand sides (0.4 and 2.9
// MFLOP), the Gaussian score's k×k Woodbury products (1.2 and 2.4 MFLOP),
// the weight draws and gradient sums over k·P = 135,050 values and the
// output layer's L·ε products (0.9 MFLOP), Adam (0.1 MFLOP); and 138,000
// (142,000) standard normals. The particles' products cannot be one GEMM
// per layer (their weights differ), nor their weight gradients one sum (the
// log stds need each particle's gradient times its own ε), and the
// measurement points are fresh every step, so the prior's factor is not
// reused across steps. At one core's float64 peak (16 FLOP a cycle, 45–58
// GFLOP/s) the products alone take 0.8–1.05 ms on `periodic` and 1.9–2.4
// ms on `gap`: 1,000 steps/s is out of reach at k = 50 on `gap`, and on
// `periodic` would need the GEMMs at peak with nothing else.
//
// Measured (BenchmarkStep, BenchmarkStepGap; one core, CPU time, 33 runs
// each alternated with the code before, on a shared machine at load
// 3.8–11): least 2.46 ms (407 steps/s) on `periodic` against 2.77 ms
// before, medians of the five sets 2.8–3.4 ms against 3.0–4.1; on `gap`
// least 5.82 ms (172 steps/s) against 5.72 ms, medians 6.6–6.9 ms against
// 6.5–8.0 (lower in four sets of five): under that load gains below about
// 10% are not resolved. The GEMMs are half of the step, at about 33
// GFLOP/s (edge tiles of the 50- and 51-wide shapes, and packing the
// transposed operand); the normals a quarter: FillNormal's words come
// through the run's *rand.Rand, and a candidate that drew them from a
// generator of its own (the same distribution, a quarter faster; it also
// rounded e^ρ and the log stds' gradient sums differently in the last
// bits) made TestBandAgainstExactGP fail on `periodic` seed 5 (mean
// within 2 GP sd at 0.64 of the grid, std within ×2 just under 0.80;
// the other nine cases passed). So the step keeps NormFloat64's values
// and main's rounding, bit for bit: the test is a regression check at its
// seeds' exact draws, and a change of stream is a change of seed for it. Fewer particles buy speed (BenchmarkStepParticles:
// 1.02 and 1.60 ms on `periodic`, 2.05 and 3.99 ms on `gap`, at k = 20
// and 30) but not the band: with TestBandAgainstExactGP's criteria, k = 20
// failed 3 of its 10 cases (`periodic` seeds 2 and 5, mean within 2 GP sd
// at 0.79 and 0.73; `gap` seed 5, std within ×2 at 0.76) and k = 30 failed
// 4 (`periodic` seeds 2, 3, 5, mean at 0.77, 0.78, 0.72, seed 3's std at
// 0.72 too; `gap` seed 5, std at 0.77).
//
// # Implementation and checks
//
// As in package mfvi, forward and backward passes are model.Net's
// hand-written BLAS passes (one Net per particle), and a step allocates
// nothing after warm-up. Tests check the cross-entropy against a dense
// evaluation, that the functional KL's gradient vanishes when q(f^X)
// equals the prior, the gradients against finite differences, the
// marginal-likelihood gradient and the fit's recovery of a period; SSGE's
// own tests (package numeric) check it on Gaussians.
package fbnn
