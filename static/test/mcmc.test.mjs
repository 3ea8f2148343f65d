// Unit tests of the sampler panels' pure helpers (static/app/mcmc_data.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { activeChains, adaptsStep, chainTrace, decades, divergenceSteps, exactLine, histogram, Pool, range } from "../app/mcmc_data.js";

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

// The exact posterior is computed on the server (sim/mcmc's ExactLinear,
// tested there against the same hand-worked case and a quadrature); the
// page only states it.
test("exact posterior line: the server's moments, nothing without them", () => {
  const e = { b0: { mean: 1, sd: 0.0625 }, b: { mean: 3, sd: 0.04419 }, sigma: { mean: 0.3246, sd: 0.0905 } };
  const line = exactLine(e);
  assert.ok(line.includes('data-role="exact"'));
  assert.ok(line.includes("b0 1 ± 0.0625 · b 3 ± 0.0442 · σ 0.325 ± 0.0905"), line); // three significant digits (format.js)
  assert.equal(exactLine(null), "");
  assert.equal(exactLine({ b0: e.b0 }), "", "a missing parameter: no line");
  assert.ok(exactLine({ b0: e.b0, b: e.b }).includes("b0 1 ± 0.0625 · b 3 ± 0.0442</p>"), "σ held: b0 and b only");
});

test("step-size adaptation from the spec's capabilities", () => {
  assert.equal(adaptsStep({ name: "nuts", capabilities: ["adapts_step"] }), true);
  assert.equal(adaptsStep({ name: "hmc" }), false, "a name alone says nothing");
  assert.equal(adaptsStep(undefined), false);
});
