// Unit tests of the compare view's pure parts (static/app/compare.js) and
// the predictive plot's legend entries (static/app/plots.js). Both modules
// read window.uPlot when loaded, so a stand-in is set first.
import assert from "node:assert/strict";
import { test } from "node:test";

globalThis.window ??= { uPlot: {} };
const { alpha, compareLayout, compareLegend, compareSeries, compareTable, methodColors, PALETTE, RatioHistory, ratioRange, ratioTable, RATIO_CAP } = await import("../app/compare.js");
const { predictiveLegend } = await import("../app/plots.js");

test("method colours: one each, distinct, stable in panel order", () => {
  for (let n = 1; n <= 10; n++) {
    const c = methodColors(n);
    assert.equal(c.length, n);
    assert.equal(new Set(c).size, n, `n=${n}: ${c}`);
    assert.deepEqual(c.slice(0, Math.min(n, PALETTE.length)), PALETTE.slice(0, n), "the palette first");
    assert.deepEqual(methodColors(n + 1).slice(0, n), c, "adding a panel keeps the others' colours");
  }
  assert.equal(alpha("#0072b2", 0.5), "rgba(0, 114, 178, 0.5)");
  assert.equal(alpha(methodColors(8)[7], 0.2), `hsla(${methodColors(8)[7].slice(4, -1)}, 0.2)`);
  assert.throws(() => alpha("red", 0.5), /unknown colour/);
});

test("ratio history: bounded, keeps the first and newest step, resets when the step goes back", () => {
  const h = new RatioHistory();
  assert.equal(h.observe(0, undefined, 0), false, "no ratio (no band yet): nothing kept");
  assert.equal(h.observe(1, NaN, 0), false);
  let changed = 0;
  for (let step = 1; step <= 100_000; step++) if (h.observe(step, 1 + step / 1e5, 0)) changed++;
  assert.equal(changed, 100_000, "every new step is recorded");
  assert.ok(h.length <= RATIO_CAP, `length ${h.length} > ${RATIO_CAP}`);
  assert.ok(h.length >= RATIO_CAP / 2, `length ${h.length}: halving keeps at least half the cap`);
  assert.equal(h.x[0], 1);
  assert.equal(h.x[h.length - 1], 100_000);
  assert.equal(h.y[h.length - 1], 2);
  for (let i = 1; i < h.length; i++) assert.ok(h.x[i] > h.x[i - 1], "steps ascend");
  // The kept steps spread evenly over the whole run, old and recent alike:
  // a kept gap is at least the stride and, merged by one halving, under
  // two strides, the stride being the mean spacing at that halving; so no
  // gap exceeds 2.5 times the mean spacing now (the margin: the stride is
  // an average over the run, not exact), and none is under a quarter of it
  // but the live end's.
  for (const every of [1, 7, 100]) {
    const g = new RatioHistory();
    for (let step = 1; step <= 100_000; step += every) g.observe(step, 1, 0);
    const gaps = g.x.slice(1).map((x, i) => x - g.x[i]);
    const mean = (g.x.at(-1) - g.x[0]) / gaps.length;
    assert.ok(Math.max(...gaps) <= 2.5 * mean, `every ${every}: largest gap ${Math.max(...gaps)}, mean ${mean}`);
    assert.ok(Math.min(...gaps.slice(0, -1)) >= mean / 4, `every ${every}: smallest gap ${Math.min(...gaps)}, mean ${mean}`);
    assert.ok(g.x.at(-1) > 100_000 - every, "the newest step is kept");
  }

  assert.equal(h.observe(100_000, 3, 0), true, "a repeated step with a new value (a band drawn after a pause) updates the last point");
  assert.equal(h.y.at(-1), 3);
  assert.equal(h.observe(100_000, 3, 0), false, "the same step and value again changes nothing");
  assert.equal(h.observe(5, 0.7, 0), true, "a step back is a reset");
  assert.deepEqual([...h.x], [5]);
  assert.equal(h.observe(6, 0.8, 1), true, "so is a new epoch");
  assert.deepEqual([...h.x], [6]);
  assert.equal(h.observe(0, undefined, 2), true, "a reset without a ratio still clears");
  assert.equal(h.length, 0);
});

test("ratio table: steps merged, null where a method has no value", () => {
  const [x, a, b] = ratioTable([
    { x: [10, 20, 30], y: [1, 2, 3] },
    { x: [15, 30], y: [0.5, 0.6] },
  ]);
  assert.deepEqual(x, [10, 15, 20, 30]);
  assert.deepEqual(a, [1, null, 2, 3]);
  assert.deepEqual(b, [null, 0.5, null, 0.6]);
  assert.deepEqual(ratioTable([{ x: [], y: [] }]), [[], []]);
  assert.deepEqual(ratioRange(4), [0, 4 * 1.08]);
  assert.deepEqual(ratioRange(0.3), [0, 1.5], "the reference 1 stays in view");
  assert.deepEqual(ratioRange(null), [0, 1.5]);
});

test("overlay: every method's band, the truth and the data on one x", () => {
  const b0 = { x: [0, 1, 2], lo: [-1, -2, -3], hi: [1, 2, 3], mean: [0, 0.5, 1], samples: [[9, 9, 9]] };
  const b1 = { x: [0, 1, 2], lo: [-4, -5, -6], hi: [4, 5, 6], mean: [0.1, 0.2, 0.3] };
  const points = { x: [0.5, 1], y: [7, 8] };
  const truth = { x: [0, 1, 2], y: [0, 1, 2] };
  const data = compareTable([b0, null, b1], points, truth);
  const L = compareLayout(3);
  assert.equal(data.length, L.data + 1);
  assert.deepEqual(data[0], [0, 0.5, 1, 2]);
  assert.deepEqual(data[L.lo(0)], [-1, null, -2, -3]);
  assert.deepEqual(data[L.hi(0)], [1, null, 2, 3]);
  assert.deepEqual(data[L.mean(0)], [0, null, 0.5, 1]);
  for (const c of [L.lo(1), L.hi(1), L.mean(1)]) assert.deepEqual(data[c], [null, null, null, null], "no band yet: empty");
  assert.deepEqual(data[L.lo(2)], [-4, null, -5, -6]);
  assert.deepEqual(data[L.hi(2)], [4, null, 5, 6]);
  assert.deepEqual(data[L.mean(2)], [0.1, null, 0.2, 0.3]);
  assert.deepEqual(data[L.truth], [0, null, 1, 2]);
  assert.deepEqual(data[L.data], [null, 7, 8, null]);
  assert.ok(!data.flat().includes(9), "sampled functions are not overlaid");
  assert.deepEqual(compareTable([null, null], null, null), [[0], [null], [null], [null], [null], [null], [null], [null], [null]]);
});

test("overlay series: one fill and one mean per method, in the method's colour", () => {
  const methods = [
    { method: "mfvi", label: "Mean-field VI", color: "#0072b2" },
    { method: "gip", label: "GIP", color: "#d55e00" },
  ];
  const { series, bands } = compareSeries(methods);
  const L = compareLayout(2);
  assert.equal(series.length, L.data + 1);
  assert.ok(series.every(Boolean), "no hole in the series");
  assert.equal(bands.length, 2);
  methods.forEach((m, i) => {
    assert.deepEqual(bands[i].series, [L.hi(i), L.lo(i)]);
    assert.equal(bands[i].fill, alpha(m.color, 0.13));
    assert.equal(series[L.mean(i)].stroke, m.color);
    assert.equal(series[L.mean(i)].label, `${m.label} mean`);
    assert.equal(series[L.lo(i)].stroke, alpha(m.color, 0.6));
  });
  assert.ok(L.mean(0) > L.hi(1), "means are drawn over every fill");
  assert.equal(series[L.truth].label, "truth");
  assert.equal(series[L.data].label, "data");

  const legend = compareLegend(methods, { x: [1], y: [1] }, null);
  assert.deepEqual(legend.map((e) => e.label), ["Mean-field VI", "GIP", "data"], "no truth: no truth entry");
  assert.equal(legend[1].line.color, "#d55e00");
});

test("predictive legend: only what is drawn", () => {
  const points = { x: [1], y: [2] };
  const truth = { x: [0, 1], y: [0, 1] };
  const band = { x: [0, 1], lo: [0, 0], hi: [1, 1], mean: [0.5, 0.5], samples: [[0, 1]] };
  const keys = (s) => predictiveLegend(s).map((e) => e.key);
  assert.deepEqual(keys({ points, truth }), ["data", "truth"], "before the first band");
  assert.deepEqual(keys({ points, truth, band }), ["data", "truth", "mean", "band", "samples"]);
  assert.deepEqual(keys({ points, band: { ...band, samples: [] } }), ["data", "mean", "band"], "no truth, no samples");
  assert.deepEqual(keys({ points, truth, band, snapshot: band }), ["data", "truth", "mean", "band", "samples", "snapshot"]);
  assert.deepEqual(keys({}), []);
  const labels = predictiveLegend({ points, truth, band, snapshot: band }).map((e) => e.label);
  assert.deepEqual(labels, ["data", "truth", "mean", "±2σ band", "sampled functions", "snapshot"]);
});

test("predictive legend: inducing inputs while their markers are drawn", () => {
  const points = { x: [1], y: [1] };
  const keys = (s) => predictiveLegend(s).map((e) => e.key);
  assert.ok(!keys({ points }).includes("inducing"), "no markers: no entry");
  const e = predictiveLegend({ points, inducing: true }).find((x) => x.key === "inducing");
  assert.equal(e?.label, "inducing inputs");
  assert.ok(e.tri, "drawn as the markers are, a triangle");
});

test("steps note: only when the bands are at different steps", async () => {
  const { stepsNote } = await import("../app/compare.js");
  const mf = { label: "Mean-field VI", step: 31688, stepsPerSec: 3168.8 };
  const gip = { label: "Global inducing points", step: 6346, stepsPerSec: 634.6 };
  assert.equal(
    stepsNote([mf, gip]),
    "Bands at different steps, each method at its own speed: Mean-field VI at step 31,700 (3,170 steps/s), Global inducing points at step 6,350 (635 steps/s).",
  );
  assert.equal(stepsNote([mf, { ...gip, step: 30000 }]), "", "within 10%: no note");
  assert.equal(stepsNote([mf, { ...gip, step: 0 }]), "", "one not started: no note");
  assert.equal(stepsNote([mf]), "", "one panel: nothing to compare");
});

test("axis ticks print a minus sign, not a hyphen, and keep compact's form", async () => {
  const { compactTicks } = await import("../app/plots.js");
  assert.deepEqual(compactTicks(null, [-2000, -1.5, 0, 2, 12000]), ["\u22122k", "\u22121.5", "0", "2", "12k"]);
});

test("steps note: an exact method is in closed form, not at a step", async () => {
  const { stepsNote } = await import("../app/compare.js");
  const exact = { label: "Exact GP", step: 1, stepsPerSec: 0, settled: true };
  const vgp = { label: "Variational GP", step: 300, stepsPerSec: 150 };
  assert.equal(stepsNote([exact, vgp]), "", "one method iterates: nothing to compare");
  const mf = { label: "Mean-field VI", step: 3000, stepsPerSec: 1500 };
  assert.equal(
    stepsNote([exact, vgp, mf]),
    "Bands at different steps, each method at its own speed: Exact GP in closed form, Variational GP at step 300 (150 steps/s), Mean-field VI at step 3,000 (1,500 steps/s).",
  );
});
