// Unit tests of the sampler panels' pure helpers (static/app/mcmc_data.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { activeChains, chainTrace, decades, divergenceSteps, exactLinear, histogram, lgamma, Pool, range } from "../app/mcmc_data.js";

test("chain traces: name and chain number, other names refused", () => {
  assert.deepEqual(chainTrace("b0.c3"), ["b0", 3]);
  assert.deepEqual(chainTrace("w1[0,0].c8"), ["w1[0,0]", 8]);
  assert.equal(chainTrace("step_size"), null);
  assert.equal(chainTrace("b0.cx"), null);
});

test("active chains: slots holding only nulls are dropped", () => {
  const s = (ys) => ({ y: ys });
  const m = new Map([[2, s([1, 2])], [1, s([0, null])], [3, s([null, null])], [4, s([])]]);
  assert.deepEqual(activeChains(m), [1, 2]);
});

test("divergence steps: where the cumulative count rises", () => {
  const s = { x: [10, 20, 30, 40, 50], y: [0, 0, 2, 2, 3], length: 5 };
  assert.deepEqual(divergenceSteps(s), [30, 50]);
});

test("histogram: a density that integrates to the share of draws inside the range", () => {
  const v = Array.from({ length: 1000 }, (_, i) => i / 999);
  const [edges, dens] = histogram(v, 10);
  assert.equal(edges.length, 11);
  assert.equal(dens.length, 11); // last bin repeated for a stepped line
  const w = edges[1] - edges[0];
  const mass = dens.slice(0, 10).reduce((a, d) => a + d * w, 0);
  // The 0.5%–99.5% range leaves out at most 1% of the draws (plus rounding at the ends).
  assert.ok(mass > 0.985 && mass <= 1 + 1e-12, `mass ${mass}`);
  assert.deepEqual(histogram([1]), [[], []]);
  assert.deepEqual(histogram([NaN, null]), [[], []]);
});

test("pool: bounded, an evenly spaced subsample", () => {
  const p = new Pool(8);
  p.push([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  assert.deepEqual(p.v, [0, 2, 4, 6, 8]);
  p.push([9, 10, 11, 12]);
  assert.ok(p.v.length <= 8);
});

test("decades and ranges", () => {
  assert.deepEqual(decades(null, 1, 0.05, 150), [0.1, 1, 10, 100]);
  assert.deepEqual(decades(null, 1, 2, 3), [2, 3]);
  assert.deepEqual(range([[1, 2], [3, NaN]]), [0.9, 3.1]);
  assert.deepEqual(range([[]]), [0, 1]);
});

test("lgamma: exact values", () => {
  assert.ok(Math.abs(lgamma(1)) < 1e-14);
  assert.ok(Math.abs(lgamma(5) - Math.log(24)) < 1e-13);
  assert.ok(Math.abs(lgamma(0.5) - 0.5 * Math.log(Math.PI)) < 1e-13);
});

test("exact linear posterior: least squares centre, Student-t and inverse-gamma moments", () => {
  // x symmetric about 0, so b0 and b decouple: Var(b0) = s/ν·ν/(ν−2)/N, Var(b) = …/Σx².
  const xs = [-2, -1, 0, 1, 2, -2, -1, 0, 1, 2];
  const e = [0.3, -0.1, 0.2, -0.4, 0.1, -0.3, 0.1, -0.2, 0.4, -0.1]; // Σe = 0, Σx·e = 0
  const ys = xs.map((x, i) => 1 + 3 * x + e[i]);
  const r = exactLinear(xs, ys);
  const s = e.reduce((a, v) => a + v * v, 0);
  const nu = 7;
  assert.ok(Math.abs(r.b0.mean - 1) < 1e-12 && Math.abs(r.b.mean - 3) < 1e-12);
  assert.ok(Math.abs(r.b0.sd - Math.sqrt(s / (nu - 2) / 10)) < 1e-12);
  assert.ok(Math.abs(r.b.sd - Math.sqrt(s / (nu - 2) / 20)) < 1e-12);
  // E σ² = (S/2)/(ν/2 − 1); E σ = √(S/2)·Γ(3)/Γ(3.5) for ν/2 = 3.5.
  const eSigma = Math.sqrt(s / 2) * 2 / (2.5 * 1.5 * 0.5 * Math.sqrt(Math.PI));
  assert.ok(Math.abs(r.sigma.mean - eSigma) < 1e-12);
  assert.ok(Math.abs(r.sigma.sd ** 2 - (s / 2 / 2.5 - eSigma ** 2)) < 1e-12);
  assert.equal(exactLinear([1, 2], [1, 2]), null);
});
