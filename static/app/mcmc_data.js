// Pure helpers of the sampler panels (mcmc.js), kept apart from the DOM and
// uPlot so node's test runner can check them (static/test).

import { extent, fmt, safeRange } from "./history.js";

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

// adaptsStep says whether a sampler tunes its step size in warm-up, as its
// spec declares (sim.AdaptsStepSize).
export function adaptsStep(spec) {
  return spec?.capabilities?.includes("adapts_step") ?? false;
}

// exactLine states the exact posterior the server computed for a panel
// (config.panels[i].exact: {b0, b, sigma: {mean, sd}}, the linear model's;
// no sigma when σ is held), or "" when there is none.
export function exactLine(exact) {
  const known = ([k]) => Number.isFinite(exact?.[k]?.mean) && Number.isFinite(exact?.[k]?.sd);
  const names = [["b0", "b0"], ["b", "b"], ["sigma", "σ"]].filter((n, i) => i < 2 || known(n));
  if (!names.every(known)) return "";
  const parts = names.map(([k, label]) => `${label} ${fmt(exact[k].mean)} ± ${fmt(exact[k].sd)}`);
  return `<p class="exact" data-role="exact">Exact posterior (mean ± sd): ${parts.join(" · ")}</p>`;
}
