"""The PyTorch side of .ci/bench/vs-torch: GIP and mean-field VI on the
1-50-50-1 ReLU network and the gap data set, written as plain PyTorch eager
code in float64 on one thread, mirroring sim/gip and sim/mfvi.

    python3 vs_torch.py run --method gip --data gap.csv --steps 500 --seed 1
    python3 vs_torch.py flops

run prints one JSON object in the Go side's shape (vs_torch_go.go): steps
per CPU-second over the timed steps, and the mean and standard error of
single-sample ELBO estimates after training.

GIP (Ober & Aitchison 2021; sim/gip's package doc): M inducing inputs U0
pushed through the network with the data; for each layer, with
Phi = [phi(U), 1] (M x n) and Lambda = diag(exp(log lambda)),

    P = sigma_l^-2 I + Phi' Lambda Phi,  L = chol(P),
    mean = P^-1 Phi' Lambda V,           W = mean + L^-T E,
    KL_l = 1/2 [d (tr P^-1 / sigma_l^2 - n + n log sigma_l^2 + log|P|)
                + ||mean||^2 / sigma_l^2],

ELBO = sum_k log N(y_k; f_k, sigma^2) - sum_l KL_l; Adam (lr 1e-2) on
-ELBO/N. Init: U0 a random subset of x, V = 0, log lambda = 0,
log sigma = -2. Prior std of layer l: scale / sqrt(fan-in + 1), scale 2.

Mean-field (sim/mfvi's package doc): q(w) = N(mu, exp(l)^2) per weight,
means He-normal, stds 1e-3 of the prior std, one reparameterised sample a
step, closed-form KL, the same Gaussian likelihood and learned log sigma.
"""

import argparse
import json
import math
import time

import torch

torch.set_default_dtype(torch.float64)

WIDTHS = (1, 50, 50, 1)
SCALE = 2.0
LR = 1e-2
ADAM_EPS = 1e-7  # Keras's, as numeric.DefaultAdam
INIT_LOG_NOISE = -2.0
HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)


def load(path):
    xs, ys = [], []
    with open(path) as f:
        next(f)
        for line in f:
            a, b = line.split(",")
            xs.append(float(a))
            ys.append(float(b))
    return torch.tensor(xs).reshape(-1, 1), torch.tensor(ys).reshape(-1, 1)


def prior_std(l):
    return SCALE / math.sqrt(WIDTHS[l] + 1)


def append_ones(a):
    return torch.cat([a, torch.ones(a.shape[0], 1)], dim=1)


def gaussian_loglik(f, y, log_sig):
    n = y.shape[0]
    ss = ((f - y) ** 2).sum()
    return -n * log_sig - 0.5 * ss * torch.exp(-2 * log_sig) - n * HALF_LOG_2PI


class GIP:
    def __init__(self, x, y, m, gen):
        self.x, self.y, self.gen = x, y, gen
        perm = torch.randperm(x.shape[0], generator=gen)[:m]
        self.u0 = x[perm].clone().requires_grad_()
        self.v = [torch.zeros(m, d, requires_grad=True) for d in WIDTHS[1:]]
        self.log_lam = [torch.zeros(m, requires_grad=True) for _ in WIDTHS[1:]]
        self.log_sig = torch.tensor(INIT_LOG_NOISE, requires_grad=True)
        self.params = [self.u0, *self.v, *self.log_lam, self.log_sig]

    def elbo(self):
        u, f = self.u0, self.x
        kl = 0.0
        for l in range(len(WIDTHS) - 1):
            n, d = WIDTHS[l] + 1, WIDTHS[l + 1]
            sd = prior_std(l)
            prec = 1 / (sd * sd)
            if l > 0:
                u, f = torch.relu(u), torch.relu(f)
            phi, ft = append_ones(u), append_ones(f)
            lphi = phi * torch.exp(self.log_lam[l])[:, None]
            p = phi.T @ lphi + prec * torch.eye(n)
            chol = torch.linalg.cholesky(p)
            half = torch.linalg.solve_triangular(chol, lphi.T @ self.v[l], upper=False)
            mean = torch.linalg.solve_triangular(chol.T, half, upper=True)
            eps = torch.randn(n, d, generator=self.gen)
            w = mean + torch.linalg.solve_triangular(chol.T, eps, upper=True)
            u, f = phi @ w, ft @ w
            linv = torch.linalg.solve_triangular(chol, torch.eye(n), upper=False)
            tr_s = (linv**2).sum()
            logdet_p = 2 * torch.log(torch.diagonal(chol)).sum()
            kl = kl + 0.5 * d * (tr_s * prec + logdet_p) + 0.5 * prec * (mean**2).sum() \
                + 0.5 * d * n * (math.log(sd * sd) - 1)
        return gaussian_loglik(f, self.y, self.log_sig) - kl


class MeanField:
    def __init__(self, x, y, gen):
        self.x, self.y, self.gen = x, y, gen
        self.mu, self.ls = [], []
        for l in range(len(WIDTHS) - 1):
            n, d = WIDTHS[l] + 1, WIDTHS[l + 1]
            he = math.sqrt(2 / n)
            self.mu.append((he * torch.randn(n, d, generator=gen)).requires_grad_())
            self.ls.append(torch.full((n, d), math.log(1e-3 * prior_std(l)), requires_grad=True))
        self.log_sig = torch.tensor(INIT_LOG_NOISE, requires_grad=True)
        self.params = [*self.mu, *self.ls, self.log_sig]

    def elbo(self):
        h = self.x
        kl = 0.0
        for l, (mu, ls) in enumerate(zip(self.mu, self.ls)):
            if l > 0:
                h = torch.relu(h)
            std = torch.exp(ls)
            w = mu + std * torch.randn(mu.shape, generator=self.gen)
            h = append_ones(h) @ w
            sd = prior_std(l)
            kl = kl + (0.5 * ((std**2 + mu**2) / (sd * sd) - 1) - ls + math.log(sd)).sum()
        return gaussian_loglik(h, self.y, self.log_sig) - kl


def run(args):
    torch.set_num_threads(1)
    x, y = load(args.data)
    gen = torch.Generator().manual_seed(args.seed)
    if args.method == "gip":
        q = GIP(x, y, min(args.inducing, x.shape[0]), gen)
    else:
        q = MeanField(x, y, gen)
    opt = torch.optim.Adam(q.params, lr=LR, eps=ADAM_EPS)
    n = x.shape[0]

    def step():
        opt.zero_grad()
        loss = -q.elbo() / n
        loss.backward()
        opt.step()

    for _ in range(args.warmup):
        step()
    c0 = time.process_time()
    for _ in range(args.steps):
        step()
    cpu = time.process_time() - c0
    with torch.no_grad():
        es = torch.tensor([float(q.elbo()) for _ in range(args.eval_reps)])
    se = float(es.std()) / math.sqrt(len(es)) if len(es) > 1 else 0.0
    print(json.dumps({
        "method": args.method, "steps": args.warmup + args.steps, "cpu_s": cpu,
        "steps_per_cpu_s": args.steps / cpu, "elbo": float(es.mean()), "elbo_se": se,
        "threads": torch.get_num_threads(), "torch": torch.__version__,
    }))


def flops(m=100, n_data=100):
    """Floating-point operations of one training step (one sample) by the
    usual LAPACK counts: GEMM 2mnk, the Gram Phi' Lambda Phi as SYRK
    m n(n+1), Cholesky n^3/3, a triangular solve n^2 per right-hand side,
    the triangular inverse behind tr P^-1 n^3/3. Reverse mode costs a
    product two more of its size, one per input that needs a gradient; the
    factorisations and solves are counted at twice their forward cost
    backwards, so GIP's step is about 3x its forward pass. Elementwise work
    and Adam are left out. "gemm" is the part in matrix products."""
    gip_gemm = gip_fwd = mf_gemm = 0.0
    for l in range(len(WIDTHS) - 1):
        n, d = WIDTHS[l] + 1, WIDTHS[l + 1]
        products = m * n * (n + 1) + 2 * m * n * d + 2 * (m + n_data) * n * d
        gip_gemm += 3 * products
        gip_fwd += products + 2 * n**3 / 3 + 3 * n * n * d
        # The data enter as constants: layer 0's product needs no input gradient.
        mf_gemm += 2 * n_data * n * d * (2 if l == 0 else 3)
    return {"gip": {"gemm": gip_gemm, "total": 3 * gip_fwd},
            "mfvi": {"gemm": mf_gemm, "total": mf_gemm}}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--method", choices=["gip", "mfvi"], default="gip")
    r.add_argument("--data", required=True)
    r.add_argument("--steps", type=int, default=500)
    r.add_argument("--warmup", type=int, default=20)
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--inducing", type=int, default=100)
    r.add_argument("--eval-reps", type=int, default=20)
    f = sub.add_parser("flops")
    f.add_argument("--inducing", type=int, default=100)
    f.add_argument("--points", type=int, default=100)
    args = ap.parse_args()
    if args.cmd == "run":
        run(args)
    else:
        print(json.dumps(flops(args.inducing, args.points)))


if __name__ == "__main__":
    main()
