// The exports' builders: the band and data CSV files a lecturer pastes into
// a spreadsheet or pgfplots, and the caption and legend of the slide PNG.
import assert from "node:assert/strict";
import { test } from "node:test";

import { bandCSV, captionText, dataCSV, historyCSV, legendItems, niceTicks, slideHead } from "../app/export.js";

// A regression band as the engine sends it: mean ± 2 sd on a grid.
function band(n) {
  const x = [];
  const mean = [];
  const lo = [];
  const hi = [];
  for (let i = 0; i < n; i++) {
    const xi = -2.5 + (5 * i) / (n - 1);
    const sd = 0.1 + 0.3 * xi * xi;
    x.push(xi);
    mean.push(Math.sin(xi));
    lo.push(Math.sin(xi) - 2 * sd);
    hi.push(Math.sin(xi) + 2 * sd);
  }
  return { x, mean, lo, hi, samples: [mean.slice()] };
}

function parse(csv) {
  const [head, ...rows] = csv.trimEnd().split("\n");
  return { head, rows: rows.map((r) => r.split(",").map(Number)) };
}

test("band CSV: header, one row per grid point, std from the band, full precision", () => {
  const b = band(201);
  const { head, rows } = parse(bandCSV(b));
  assert.equal(head, "x,mean,std,lo,hi");
  assert.equal(rows.length, 201);
  rows.forEach(([x, mean, std, lo, hi], i) => {
    // Full precision: the numbers read back to the band's doubles exactly.
    assert.equal(x, b.x[i]);
    assert.equal(mean, b.mean[i]);
    assert.equal(lo, b.lo[i]);
    assert.equal(hi, b.hi[i]);
    // std = (hi − lo)/4 is one rounding from the sd the band was built
    // with; lo = mean − 2 std and hi = mean + 2 std to a few ulps.
    const sd = 0.1 + 0.3 * x * x;
    assert.ok(Math.abs(std - sd) <= 1e-14 * (1 + sd), `row ${i}: std ${std}, want ${sd}`);
    assert.ok(Math.abs(lo - (mean - 2 * std)) <= 1e-13 * (1 + Math.abs(lo)), `row ${i}: lo ${lo} ≠ mean − 2 std`);
    assert.ok(Math.abs(hi - (mean + 2 * std)) <= 1e-13 * (1 + Math.abs(hi)), `row ${i}: hi ${hi} ≠ mean + 2 std`);
  });
});

test("band CSV: a classification band's std is the latent f's, read through the logit", () => {
  const sigmoid = (f) => 1 / (1 + Math.exp(-f));
  const m = [-1, 0, 2];
  const s = [0.5, 1, 0.25];
  const b = { x: [0, 1, 2], mean: m.map(sigmoid), lo: m.map((v, i) => sigmoid(v - 2 * s[i])), hi: m.map((v, i) => sigmoid(v + 2 * s[i])) };
  const { rows } = parse(bandCSV(b, "classification"));
  assert.equal(rows.length, 3);
  rows.forEach(([, , std], i) => assert.ok(Math.abs(std - s[i]) < 1e-12, `row ${i}: std ${std}, want ${s[i]}`));
});

test("band CSV without a band is its header alone", () => {
  assert.equal(bandCSV(null), "x,mean,std,lo,hi\n");
});

test("data CSV: x, y, one row per point", () => {
  const pts = { x: [0.1, -3, 1e-7], y: [2, 0.30000000000000004, -5] };
  const { head, rows } = parse(dataCSV(pts));
  assert.equal(head, "x,y");
  assert.deepEqual(rows, [
    [0.1, 2],
    [-3, 0.30000000000000004],
    [1e-7, -5],
  ]);
  assert.equal(dataCSV(null), "x,y\n");
});

test("caption: method, model, data, seed, step and the controls by their labels, in the spec's order", () => {
  const text = captionText({
    label: "Mean-field VI",
    model: "bnn",
    data: "gap",
    dataLabel: "Cubic with a gap",
    seed: 7,
    step: 12345,
    controls: { lr: 0.01, prior_scale: 0.23219, activation: "tanh", extra: true },
    specs: [{ name: "prior_scale", label: "Prior scale" }, { name: "lr", label: "Learning rate" }, { name: "activation" }],
  });
  assert.equal(text, "Mean-field VI (model bnn) · data: Cubic with a gap · seed 7 · step 12,345 · Prior scale = 0.232 · Learning rate = 0.01 · activation = tanh · extra = true");
  assert.equal(captionText({ label: "HMC", data: "linreg", seed: 1, step: 0, controls: {} }), "HMC · data: linreg · seed 1 · step 0");
});

test("slide head: title, claim, and the verdict with the numbers, each only when the page has it", () => {
  assert.deepEqual(slideHead({ title: "In-between", claim: "GIP widens.", verdict: "✓ held since step 2,500", numbers: "in-between ratio: GIP 3.41 ≥ 3 ✓" }), [
    { kind: "title", text: "In-between" },
    { kind: "claim", text: "Claim: GIP widens." },
    { kind: "verdict", text: "✓ held since step 2,500 · in-between ratio: GIP 3.41 ≥ 3 ✓" },
  ]);
  assert.deepEqual(slideHead({ title: "Mean-field VI vs HMC on linreg", claim: "", verdict: "", numbers: "" }), [{ kind: "title", text: "Mean-field VI vs HMC on linreg" }]);
});

test("legend: only what is present, in drawing order, the inducing inputs too", () => {
  const b = band(5);
  const all = legendItems({ points: { x: [1], y: [1] }, truth: { x: [1], y: [1] }, band: b, snapshot: { x: [1] }, inducing: [0.5] });
  assert.deepEqual(
    all.map((i) => i.key),
    ["data", "truth", "mean", "band", "samples", "snapshot", "inducing"],
  );
  assert.deepEqual(
    legendItems({ points: { x: [1], y: [1] }, truth: null, band: { ...b, samples: [] }, snapshot: null, inducing: [] }).map((i) => i.key),
    ["data", "mean", "band"],
  );
  assert.deepEqual(legendItems({ points: { x: [], y: [] } }), []);
});

test("axis ticks: round numbers inside the range", () => {
  assert.deepEqual(niceTicks(-2.5, 2.5, 5), [-2, -1, 0, 1, 2]);
  assert.deepEqual(niceTicks(0, 1, 4), [0, 0.25, 0.5, 0.75, 1]);
  assert.deepEqual(niceTicks(1, 1), []);
});

test("history CSV: each value to the three significant digits the page prints", () => {
  const r = {
    objective: [[1, -123.456789012345], [2, 0.000123456]],
    objective_smoothed: [[2, -99.99]],
    traces: { noise_std: [[2, 3.14159265358979]] },
    marks: [{ name: "prior_scale", step: 2, value: 0.2318 }],
  };
  assert.equal(
    historyCSV(r),
    "series,step,value\nobjective,1,-123\nobjective,2,0.000123\nobjective_smoothed,2,-100\ntrace:noise_std,2,3.14\nmark:prior_scale,2,0.2318\n",
  );
});
