# Fixtures for numeric's ParetoKhat: log-ratios log p(θ) − log q(θ) for
# θ ~ q, and loo's Pareto k̂ of each.
#
# Produced, from the repository's root, by
#
#   Rscript numeric/testdata/psis/make.R
#
# with R 4.2.2 and loo 2.5.1 (Debian bookworm's r-base-core and r-cran-loo);
# the versions used are also written at the top of khat.csv. Each case is
# written to NAME.csv, one log-ratio a line at 17 significant digits (so
# Go reads back the same doubles), and its k̂ to khat.csv.
#
# The cases: q a standard normal throughout, p
#   matched       N(0.1, 1.1²), S = 4000: close to q, k̂ well below 0.7
#   wider         N(0, 1.5²), S = 1000: the ratios' tail index is
#                 1 − 1/1.5² ≈ 0.56
#   wide          N(0, 10²), S = 4000: index 1 − 1/100 = 0.99, though
#                 4000 draws see little of that tail (k̂ near 0.7)
#   wide_small    N(0, 3²), S = 100 (a 20-draw tail): the same p with few
#                 draws, where the estimate is pulled toward 0.5
#   student_t3    Student-t with 3 degrees of freedom, S = 4000: heavier
#                 tails than q, though not yet in 4000 draws
#   funnel        Neal's funnel, v ~ N(0, 3²), x | v ~ N(0, e^v), against
#                 q = N(0, 1) × N(0, 2²), S = 4000: a Gaussian too narrow
#                 in v, as variational fits are, misses the neck
#   pareto        not a density pair but ratios that are exactly Pareto with
#                 shape 1.2 (w = U^−1.2: no mean), S = 10000: k̂ well above 0.7
# (loo rejects non-finite log-ratios, so no case has a draw outside p's
# support; numeric's own test covers those.)
suppressMessages(library(loo))
dir <- "numeric/testdata/psis"
set.seed(20240601)
cases <- list(
  matched = function() { x <- rnorm(4000); dnorm(x, 0.1, 1.1, log = TRUE) - dnorm(x, log = TRUE) },
  wider = function() { x <- rnorm(1000); dnorm(x, 0, 1.5, log = TRUE) - dnorm(x, log = TRUE) },
  wide = function() { x <- rnorm(4000); dnorm(x, 0, 10, log = TRUE) - dnorm(x, log = TRUE) },
  wide_small = function() { x <- rnorm(100); dnorm(x, 0, 3, log = TRUE) - dnorm(x, log = TRUE) },
  student_t3 = function() { x <- rnorm(4000); dt(x, 3, log = TRUE) - dnorm(x, log = TRUE) },
  pareto = function() -1.2 * log(runif(10000)),
  funnel = function() {
    v <- rnorm(4000, 0, 1); x <- rnorm(4000, 0, 2)
    dnorm(v, 0, 3, log = TRUE) + dnorm(x, 0, exp(v / 2), log = TRUE) -
      dnorm(v, 0, 1, log = TRUE) - dnorm(x, 0, 2, log = TRUE)
  }
)
out <- c(
  sprintf("# %s; loo %s", R.version.string, as.character(packageVersion("loo"))),
  "# loo::psis(log_ratios, r_eff = 1)$diagnostics$pareto_k",
  "name,khat"
)
for (name in names(cases)) {
  r <- cases[[name]]()
  writeLines(sprintf("%.17g", r), file.path(dir, paste0(name, ".csv")))
  k <- psis(r, r_eff = 1)$diagnostics$pareto_k
  out <- c(out, sprintf("%s,%.17g", name, k))
}
writeLines(out, file.path(dir, "khat.csv"))
