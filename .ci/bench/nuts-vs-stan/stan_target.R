# Runs rstan's NUTS on one of the playground's 2-D targets and writes the
# kept draws in the playground's draws-CSV form (.chain, .iteration,
# .draw, then the shown parameters).
# Usage: Rscript stan_target.R MODEL.stan DRAWS.csv CHAINS ITER WARMUP SEED CACHE_DIR PARAMS [NAME=VALUE ...]
# PARAMS are the shown parameters, comma-separated (v,x or x,y); each
# NAME=VALUE is a data item. Prints one line: the CPU seconds (user +
# system, this process) of sampling, warm-up included, compilation
# excluded; then Stan's own warm-up plus sampling seconds summed over the
# chains; then the divergent transitions after warm-up. The compiled
# model is cached in CACHE_DIR. STAN_METRIC (in the environment) is
# Stan's metric: diag_e, its default and the playground's (--metric
# diag), or unit_e, the identity (--metric unit).
suppressPackageStartupMessages(library(rstan))
args <- commandArgs(trailingOnly = TRUE)
model_file <- args[1]; draws_csv <- args[2]
chains <- as.integer(args[3]); iter <- as.integer(args[4])
warmup <- as.integer(args[5]); seed <- as.integer(args[6]); cache <- args[7]
pars <- strsplit(args[8], ",")[[1]]
data <- list()
for (kv in args[-(1:8)]) {
  p <- strsplit(kv, "=")[[1]]
  data[[p[1]]] <- as.numeric(p[2])
}

boost <- if (file.exists(rstan_options("boost_lib"))) NULL else "/usr/include"
dir.create(cache, showWarnings = FALSE, recursive = TRUE)
stan_file <- file.path(cache, basename(model_file))
if (!file.exists(stan_file) || !identical(readLines(stan_file), readLines(model_file)))
  file.copy(model_file, stan_file, overwrite = TRUE)
rstan_options(auto_write = TRUE)
model <- stan_model(stan_file, boost_lib = boost)

cpu <- function() { t <- proc.time(); t[["user.self"]] + t[["sys.self"]] }
t0 <- cpu()
fit <- sampling(model, data = data, chains = chains, iter = iter, warmup = warmup, seed = seed,
                cores = 1, refresh = 0, show_messages = FALSE,
                control = list(metric = Sys.getenv("STAN_METRIC", "diag_e")))
secs <- cpu() - t0

a <- as.array(fit, pars = pars) # iterations × chains × params
n <- dim(a)[1]
out <- do.call(rbind, lapply(seq_len(dim(a)[2]), function(c) {
  d <- data.frame(.chain = c, .iteration = seq_len(n), .draw = (c - 1) * n + seq_len(n))
  for (p in pars) d[[p]] <- a[, c, p]
  d
}))
write.csv(out, draws_csv, row.names = FALSE)
divergent <- sum(sapply(get_sampler_params(fit, inc_warmup = FALSE), function(s) sum(s[, "divergent__"])))
cat(sprintf("%.3f %.3f %d\n", secs, sum(get_elapsed_time(fit)), divergent))
