# Runs rstan's NUTS on a CSV (x, y) and writes the kept draws in the
# playground's draws-CSV form (.chain, .iteration, .draw, b0, b, sigma).
# Usage: Rscript stan.R DATA.csv DRAWS.csv CHAINS ITER WARMUP SEED CACHE_DIR
# Prints one line: the CPU seconds (user + system, this process) of
# sampling, warm-up included, compilation excluded; then Stan's own
# warm-up plus sampling seconds summed over the chains (get_elapsed_time,
# the C++ loop alone). The compiled model is cached beside a copy of
# linear.stan in CACHE_DIR, so later calls do not compile.
suppressPackageStartupMessages(library(rstan))
args <- commandArgs(trailingOnly = TRUE)
data_csv <- args[1]; draws_csv <- args[2]
chains <- as.integer(args[3]); iter <- as.integer(args[4])
warmup <- as.integer(args[5]); seed <- as.integer(args[6]); cache <- args[7]
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)))

d <- read.csv(data_csv)
# Debian's r-cran-bh is a stub over libboost-dev: rstan finds no BH
# include directory unless told where Boost is.
boost <- if (file.exists(rstan_options("boost_lib"))) NULL else "/usr/include"
dir.create(cache, showWarnings = FALSE, recursive = TRUE)
stan_file <- file.path(cache, "linear.stan")
if (!file.exists(stan_file) || !identical(readLines(stan_file), readLines(file.path(here, "linear.stan"))))
  file.copy(file.path(here, "linear.stan"), stan_file, overwrite = TRUE)
rstan_options(auto_write = TRUE)
model <- stan_model(stan_file, boost_lib = boost) # compiled (or read back) outside the timing

cpu <- function() { t <- proc.time(); t[["user.self"]] + t[["sys.self"]] }
t0 <- cpu()
fit <- sampling(model, data = list(N = nrow(d), x = d$x, y = d$y),
                chains = chains, iter = iter, warmup = warmup, seed = seed,
                cores = 1, refresh = 0, show_messages = FALSE)
secs <- cpu() - t0

a <- as.array(fit, pars = c("b0", "b", "sigma")) # iterations × chains × params
n <- dim(a)[1]
out <- do.call(rbind, lapply(seq_len(dim(a)[2]), function(c)
  data.frame(.chain = c, .iteration = seq_len(n), .draw = (c - 1) * n + seq_len(n),
             b0 = a[, c, "b0"], b = a[, c, "b"], sigma = a[, c, "sigma"])))
write.csv(out, draws_csv, row.names = FALSE)
cat(sprintf("%.3f %.3f\n", secs, sum(get_elapsed_time(fit))))
