// The playground's non-centred funnel (sim/target's NonCentredFunnel):
// v ~ N(0, 3²), z ~ N(0, 1), sampled in (v, z), with x = z·e^{v/2}
// shown; ESS is measured on (v, x), as the playground's report does.
parameters {
  real v;
  real z;
}
model {
  v ~ normal(0, 3);
  z ~ normal(0, 1);
}
generated quantities {
  real x = z * exp(v / 2);
}
