// Package gp is Gaussian-process regression and classification on
// one-dimensional inputs: two sim.Methods over a zero-mean GP prior
// z ~ N(0, K + εI) with an exponentiated-quadratic or periodic kernel.
//
//   - gpvi (NewVI): Opper–Archambeau Gaussian variational inference
//     (ALGORITHMS.md §5) in GPflow's parameterisation, q(z) = N(Kα,
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
// Kernel hyperparameters (log variance, log lengthscale, log period) and the
// likelihood's log scale are either fixed by controls or learned by
// maximising the method's objective (type-II maximum likelihood for
// gp-exact, variational EM for gpvi). The gradient of the objective with
// respect to the kernel matrix comes from the numeric tape; the chain rule to
// the hyperparameters is written out in Kernel.HyperGrad.
package gp
