// Package gp is Gaussian-process regression and classification on
// one-dimensional inputs: two sim.Methods over a zero-mean GP prior
// z ~ N(0, K + εI) with an exponentiated-quadratic or periodic kernel.
//
//   - gpvi (NewVI): Opper–Archambeau Gaussian variational inference
//     in GPflow's parameterisation, q(z) = N(Kα,
//     (K⁻¹ + diag(λ²))⁻¹) with 2N parameters α and log λ, computed through
//     A = I + ΛKΛ without any inverse of K. The expected log-likelihoods are
//     closed form (Gaussian) or 20-point Gauss–Hermite (Cauchy,
//     Bernoulli-logit), or reparameterised Monte Carlo on request. F (the
//     ELBO) is maximised by damped Newton steps on the mean, whose rate does
//     not depend on K's conditioning, and Adam steps on −F/N for log λ and
//     any learned hyperparameters.
//   - gp-exact (NewExact): conjugate regression with Gaussian noise, the
//     reference: closed-form posterior and log marginal likelihood.
//
// GP methods have no `model`: they run on the data set's inputs in model
// units (standardised where the data set is).
//
// # Kernels
//
//	rbf:      k(x, x') = c² exp(−(x − x')²/(2ℓ²))
//	periodic: k(x, x') = c² exp(−½ (sin(π(x − x')/p)/ℓ)²)
//
// with c² = variance, ℓ = lengthscale, p = period (the GPflow-Slim forms
// fBNN uses; note the ½, not MacKay's 2, so ℓ is half of MacKay's
// lengthscale). Every kernel matrix on the model's own inputs gets
// ε = Jitter = 1e-6 on its diagonal (GPflow's default). Package fbnn uses
// the same Kernel as its functional prior.
//
// # Likelihoods
//
//	gaussian:  log p(y|z) = −½ log 2πσ² − (y − z)²/(2σ²)
//	cauchy:    log p(y|z) = −log(πγ) − log(1 + ((y − z)/γ)²)
//	bernoulli: log p(y|z) = y·z − log(1 + e^z),   y ∈ {0, 1}
//
// The `noise` control is σ or γ (default e⁻² ≈ 0.135); `likelihood` auto
// picks Bernoulli for classification data and Gaussian otherwise.
//
// # gpvi
//
// q(z) = N(μ, Σ) on the training inputs with μ = Kα and
// Σ = (K⁻¹ + diag(λ²))⁻¹: 2N parameters α and log λ, initialised at α = 0,
// λ = 1. Its stationary points have exactly this form, with
// λ_n² = −E_q[∂² log p(y_n|z_n)/∂z_n²]; for a likelihood that is not
// log-concave (Cauchy) forcing λ² > 0 restricts the family. The free energy
// (the ELBO) is computed without any inverse of K:
//
//	A = I + ΛKΛ, Λ = diag(λ), L = chol(A)  (A's eigenvalues are ≥ 1),
//	Σ_nn = (1 − (A⁻¹)_nn)/λ_n²,  (A⁻¹)_nn = Σ_k (L⁻¹)_kn²,
//	KL  = ½[log|A| + tr A⁻¹ − N + αᵀKα],
//	F   = Σ_n E_{N(μ_n, Σ_nn)} log p(y_n | z_n) − KL.
//
// The expectations are closed form for the Gaussian likelihood, else
// 20-point Gauss–Hermite (GPflow's default), adaptive Gauss–Legendre panels
// (`expectation` adaptive, for likelihoods much narrower than q's spread),
// or reparameterised Monte Carlo with mc_samples draws. Adam maximises F/N
// over α and log λ and, when learned, the kernel's log parameters and the
// likelihood's log scale (variational EM); by default the noise scale is
// learned and the kernel is not. The predictive at new inputs is
//
//	q(f*) = N(K*X α, K** + εI − K*X (K + diag(λ⁻²))⁻¹ KX*),
//
// computed through L as well, so tiny or huge λ stay harmless. For a
// Gaussian likelihood the optimum is α = (K + σ²I)⁻¹y, λ² = 1/σ², where q is
// the exact posterior and F equals the log marginal likelihood
// log N(y; 0, K + σ²I).
//
// # gp-exact
//
// The posterior mean K*X(K + εI + σ²I)⁻¹y and covariance in closed form, and
// the log marginal likelihood log N(y; 0, K + εI + σ²I); with learn_kernel
// or learn_noise Adam maximises it over the log parameters (type-II maximum
// likelihood). Its step's objective is that log marginal likelihood.
//
// # Differences from the Opper–Archambeau notebook
//
// The notebook parameterises μ directly with Λ = diag(e^ℓ), forms K⁻¹ and
// inverts twice; GPflow's parameterisation above is better conditioned. Its
// Cauchy data were drawn with kernel variance 1 while its model used e²;
// here the kernel is a control (default 1, the Cauchy data's). Its Cauchy
// density multiplies by πγ instead of dividing; this package uses the
// correct density.
//
// # Checks
//
// Tests check that with a Gaussian likelihood gpvi converges to the exact
// posterior and that at the optimum F equals the log marginal likelihood
// (within 1e-9; rounding is about 1e-13), the marginal-variance formula,
// the free-energy and marginal-likelihood gradients against finite
// differences, the kernels' special cases and gradients, the quadratures
// against references, that the Cauchy likelihood beats the exact GP on
// gp-cauchy, and that the classification band covers the true p(x).
//
// Kernel hyperparameters (log variance, log lengthscale, log period) and the
// likelihood's log scale are either fixed by controls or learned by
// maximising the method's objective. The gradient of the objective with
// respect to the kernel matrix comes from the numeric tape; the chain rule to
// the hyperparameters is written out in Kernel.HyperGrad.
package gp
