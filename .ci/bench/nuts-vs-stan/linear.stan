// The playground's `linear` model: y = b0 + b·x + σε with flat priors on
// b0, b and σ > 0. Stan samples log σ with the Jacobian of its <lower=0>
// transform, as sim/mcmc's linear target does by hand.
data {
  int<lower=1> N;
  vector[N] x;
  vector[N] y;
}
parameters {
  real b0;
  real b;
  real<lower=0> sigma;
}
model {
  y ~ normal(b0 + b * x, sigma);
}
