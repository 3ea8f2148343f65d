// Pure helpers of the sampler panels (mcmc.js), kept apart from the DOM and
// uPlot so node's test runner can check them (static/test).

import { extent, safeRange } from "./history.js";

export const HIST_CAP = 20000; // pooled draws per parameter kept for the histogram
export const HIST_BINS = 40;

const CHAIN_TRACE = /^(.+)\.c(\d+)$/;

// chainTrace splits "b0.c3" into ["b0", 3], or returns null.
export function chainTrace(name) {
  const m = CHAIN_TRACE.exec(name);
  return m ? [m[1], Number(m[2])] : null;
}

// activeChains returns the chain numbers (1-based) whose series hold a
// finite value: a run with 4 chains sends null for slots 5–8.
export function activeChains(seriesByChain) {
  const out = [];
  for (const [k, s] of seriesByChain) if (s.y.some(Number.isFinite)) out.push(k);
  return out.sort((a, b) => a - b);
}

// divergenceSteps returns the steps at which a cumulative divergence count
// rose.
export function divergenceSteps(series) {
  const out = [];
  for (let i = 0; i < series.length; i++) {
    const prev = i > 0 ? series.y[i - 1] : 0;
    if (Number.isFinite(series.y[i]) && series.y[i] > prev) out.push(series.x[i]);
  }
  return out;
}

// histogram bins values into n equal bins between their 0.5% and 99.5%
// quantiles (a few far draws must not squash the rest) and returns uPlot
// columns for a stepped line: bin edges and densities (last repeated).
export function histogram(values, n = HIST_BINS) {
  const v = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (v.length < 2) return [[], []];
  const q = (p) => v[Math.min(v.length - 1, Math.max(0, Math.round(p * (v.length - 1))))];
  let lo = q(0.005);
  let hi = q(0.995);
  if (!(hi > lo)) {
    lo -= 0.5;
    hi += 0.5;
  }
  const w = (hi - lo) / n;
  const counts = new Array(n).fill(0);
  let inside = 0;
  for (const x of v) {
    if (x < lo || x > hi) continue;
    counts[Math.min(n - 1, Math.floor((x - lo) / w))]++;
    inside++;
  }
  const edges = Array.from({ length: n + 1 }, (_, i) => lo + i * w);
  const dens = counts.map((c) => c / (v.length * w));
  dens.push(dens[n - 1]);
  return [edges, dens];
}

// Pool keeps up to cap values, halving (every other one) when full, so it
// stays an evenly spaced subsample of everything pushed.
export class Pool {
  constructor(cap = HIST_CAP) {
    this.cap = cap;
    this.v = [];
  }
  push(values) {
    for (const x of values) this.v.push(x);
    while (this.v.length > this.cap) this.v = this.v.filter((_, i) => i % 2 === 0);
  }
  clear() {
    this.v = [];
  }
}

// decades places a log axis' ticks at powers of ten only.
export function decades(u, axisIdx, min, max) {
  const out = [];
  if (!(min > 0 && max > 0)) return out;
  for (let e = Math.floor(Math.log10(min)); e <= Math.ceil(Math.log10(max)); e++) {
    const v = 10 ** e;
    if (v >= min && v <= max) out.push(v);
  }
  if (out.length === 0) out.push(min, max);
  return out;
}

// range spans every finite value of the given columns, padded by 5%.
export function range(cols) {
  const e = extent(cols);
  return e ? safeRange(...e) : [0, 1];
}

// exactLinear is the exact posterior of the linear model y = b0 + b·x + σε
// under flat priors on b0, b and σ > 0 (sim/mcmc's package documentation): with X = [1, x],
// β̂ the least-squares fit, S its residual sum of squares and ν = N − 3,
// β | y is Student-t_ν with centre β̂ and scale S/ν·(XᵀX)⁻¹, and
// σ² | y ~ Inv-Gamma(ν/2, S/2). Returns {b0, b, sigma: {mean, sd}}, or null
// with fewer than 6 points (σ's variance needs ν > 2).
export function exactLinear(xs, ys) {
  const n = Math.min(xs?.length ?? 0, ys?.length ?? 0);
  if (n < 6) return null;
  let sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (let i = 0; i < n; i++) {
    sx += xs[i];
    sy += ys[i];
    sxx += xs[i] * xs[i];
    sxy += xs[i] * ys[i];
  }
  const det = n * sxx - sx * sx;
  if (!(det > 0)) return null;
  const b = (n * sxy - sx * sy) / det;
  const b0 = (sy - b * sx) / n;
  let s = 0;
  for (let i = 0; i < n; i++) s += (ys[i] - b0 - b * xs[i]) ** 2;
  const nu = n - 3;
  const tVar = (s / nu) * (nu / (nu - 2)); // scale × ν/(ν−2)
  const a = nu / 2;
  const eSigma = Math.sqrt(s / 2) * Math.exp(lgamma(a - 0.5) - lgamma(a));
  const eSigma2 = s / 2 / (a - 1);
  return {
    b0: { mean: b0, sd: Math.sqrt(tVar * (sxx / det)) },
    b: { mean: b, sd: Math.sqrt(tVar * (n / det)) },
    sigma: { mean: eSigma, sd: Math.sqrt(eSigma2 - eSigma * eSigma) },
  };
}

// lgamma is log Γ(x) for x > 0 (Lanczos, g = 7; relative error ~1e-15).
export function lgamma(x) {
  const c = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lgamma(1 - x);
  x -= 1;
  let a = c[0];
  const t = x + 7.5;
  for (let i = 1; i < 9; i++) a += c[i] / (x + i);
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}
