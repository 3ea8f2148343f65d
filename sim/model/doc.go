// Package model holds what every method on the same model must share, so
// their fits are comparable: the Bayesian neural network's architecture and
// prior, the names of the models, the likelihoods, and Net, a hand-written
// forward and backward pass of the network for hot loops that skip the tape.
//
// # The models
//
// bnn is the GIP notebook's network (DefaultArch): 1 → 50 → 50 → 1, ReLU
// after each hidden layer and no nonlinearity on the output. Biases are
// absorbed by a column of ones appended to every layer's input, after the
// nonlinearity: layer l's input is F̃ = [φ(F), 1] and its weights W_l are an
// (N_{l−1}+1) × N_l matrix whose last row holds the biases, so
// F_l = F̃_{l−1} W_l. The network has D = 2·50 + 51·50 + 51·1 = 2701
// weights. linear is the same network with no hidden layer (Arch{1, 1}):
// f(x) = b·x + b0, W = [b; b0].
//
// The network's shape and nonlinearity are controls of every method that
// runs it (ArchControls): arch lists 0–4 hidden widths of 1–256 ("50,50",
// "0" for none; ParseArch) and activation is relu, tanh or elu (α = 1,
// Activation), the same after every hidden layer; the prior rule below is
// unchanged. Presets names the seeds' networks: the GIP notebook's, the
// LIVI paper's toy (7, 10, elu) and a small one (20, relu).
//
// Layout packs the layers one after another in a flat slab, each stored
// row-major (entry (r, c) of layer l at Off_l + r·N_l + c, the bias row
// last); weight traces and samples use that order.
//
// # Prior
//
// Every weight of layer l, bias row included, is independently
// N(0, σ_l²) with
//
//	σ_l = s / √(N_{l−1} + 1),   s = prior_scale (default 2),
//
// the fan-in counting the bias (PriorStd). At s = 2 the first layer's
// weights have prior std 2/√2 ≈ 1.41 and the other layers' 2/√51 ≈ 0.28; on
// the linear model b and b0 have prior std s/√2. LogPrior evaluates it. The
// variational and point-estimate methods use this prior on both models; the
// samplers use it on the network but flat priors on the linear model (see
// package mcmc), unless the linear model's control FixedNoise is set: then
// σ is held at its value and b0, b ~ N(0, s²/2) in every method, samplers
// included, so all fit one posterior, Gaussian and known exactly
// (LinearPosterior; mean-field's optimum on it, MeanFieldOf, has the exact
// means and sds √(1 − ρ²) times the exact ones). Each such method sends a
// Joint view of (b0, b) beside that posterior.
//
// # Likelihoods
//
// LogLik: regression data have y ~ N(f(x), σ²) with σ = exp(log σ);
// classification data (0/1 targets) have y ~ Bernoulli(sigmoid f(x)) and no
// noise. Methods that learn σ start at log σ = InitLogNoise = −2
// (σ ≈ 0.135, the GIP notebook's value) and treat it as a point estimate
// (type-II maximum likelihood), except the samplers, which sample it, and
// fBNN, which fixes it.
//
// # Initialisation
//
// HeInit draws weights from N(0, 2/(N_{l−1}+1)), so ReLU activations stay of
// order one through the layers; mfvi and fbnn start their posterior means
// there, the point estimates and samplers their weights.
//
// # Net
//
// Net is the forward and backward pass of the network on fixed inputs,
// written on gonum's BLAS with the ones columns written once. The numeric
// tape checks it: on gap's network both give the same gradients to 1e-10
// (sim/mfvi/tape_test.go). On sorted inputs, Net.UseSpans lets a ReLU
// network skip its first hidden layer's zeros, which then lie in runs of
// rows (net_span.go); package mcmc's full-data density uses it.
package model
