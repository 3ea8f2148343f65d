// The playground's banana (sim/target's Banana, Haario's twisted
// Gaussian with a = 1): x ~ N(0, 1), y | x ~ N(b(x² − 1), 1).
data {
  real b;
}
parameters {
  real x;
  real y;
}
model {
  x ~ normal(0, 1);
  y ~ normal(b * (square(x) - 1), 1);
}
