// Unit tests of a gallery scenario's claim (gallery_claim.js, claim.js on
// panels that read their own plane measures, and the link's panel target
// controls): each measure read as sim/scenario's claims_plane.go reads
// it, checks by panel name with param and than, and the verdict held
// only from the claim step, at k checks in a row.
import assert from "node:assert/strict";
import { test } from "node:test";

import { HOLD_CHECKS, checkedFrom, claimHolds, claimNumbers, compactNumbers, nextVerdict, verdictText } from "../app/claim.js";
import { planeMeasure } from "../app/gallery_claim.js";
import { galleryQuery } from "../app/gallery_link.js";

// The funnel's exact answer as plane_exact gives it: v's sd 3, x's
// larger; the 5% quantile of v is −1.645·3.
const exact = { params: ["v", "x"], cov: [[9, 0], [0, 7.4]], q05: [-4.9346, -3.2], q95: [4.9346, 3.2] };

test("plane measures: the sd ratio of the named coordinate, the history's latest, divergences, the quantile's error in sds", () => {
  const measure = { sd: [2.7, 1.1], divergences: 42 };
  // points between doublings carry no costly measure; q05 is a pair whose
  // entries may be null
  const history = [
    { kl: 0.5, rhat: 1.3, ess_per_eval: 0.001, q05: [-4.0, -3] },
    { kl: 0.2, rhat: null, ess_per_eval: null, q05: [-4.3, null] },
    { kl: null, rhat: null, ess_per_eval: null, q05: [null, null] },
  ];
  const p = { exact, measure, history };
  assert.equal(planeMeasure("sd_ratio", "v", p), 2.7 / 3);
  assert.equal(planeMeasure("sd_ratio", "x", p), 1.1 / Math.sqrt(7.4));
  assert.equal(planeMeasure("kl", undefined, p), 0.2);
  assert.equal(planeMeasure("rhat", undefined, p), 1.3);
  assert.equal(planeMeasure("ess_per_eval", undefined, p), 0.001);
  assert.equal(planeMeasure("divergences", undefined, p), 42);
  assert.equal(planeMeasure("q05_error", "v", p), Math.abs(-4.3 - -4.9346) / 3);
  assert.equal(planeMeasure("q05_error", "x", p), Math.abs(-3 - -3.2) / Math.sqrt(7.4));
  // a coordinate the target lacks, no frame yet, no history point with it
  assert.ok(Number.isNaN(planeMeasure("sd_ratio", "y", p)));
  assert.ok(Number.isNaN(planeMeasure("sd_ratio", "v", { exact })));
  assert.ok(Number.isNaN(planeMeasure("kl", undefined, { exact, measure, history: [] })));
  assert.ok(Number.isNaN(planeMeasure("wobble", "v", p)));
});

// panel is a gallery panel as gallery_scenario.js hands it to claim.js:
// its name as its method, its step and its plane measures.
const panel = (name, step, measures, controls = {}) => ({
  method: name,
  step,
  confirmed: controls,
  spec: { label: name },
  measureOf: (m, param) => planeMeasure(m, param, measures),
});

// The funnel-neck's claim (sim/scenario/ontargets.go): two HMC panels,
// told apart by name.
const neck = {
  step: 1500,
  checks: [
    { method: "centred", measure: "divergences", op: ">=", value: 10 },
    { method: "centred", measure: "q05_error", param: "v", op: ">=", value: 0.2 },
    { method: "non-centred", measure: "divergences", op: "<=", value: 0 },
    { method: "non-centred", measure: "q05_error", param: "v", op: "<=", value: 0.12 },
  ],
};

test("claim: checks read the panel they name, per coordinate", () => {
  const centred = panel("centred", 1500, { exact, measure: { sd: [2, 1], divergences: 300 }, history: [{ q05: [-3.5, 0] }] });
  const non = panel("non-centred", 1500, { exact, measure: { sd: [3, 2], divergences: 0 }, history: [{ q05: [-4.9, 0] }] });
  const r = claimHolds(neck, [centred, non]);
  assert.equal(r.holds, true);
  assert.equal(r.step, 1500);
  // the same runs, the names swapped: every check fails
  const swapped = claimHolds(neck, [{ ...centred, method: "non-centred" }, { ...non, method: "centred" }]);
  assert.equal(swapped.failed.length, 4);
  const text = claimNumbers(neck, [centred, non], undefined, { centred: "centred", "non-centred": "non-centred" });
  assert.match(text, /^centred's divergences 300 ≥ 10 ✓ · centred's 5% quantile of v: error in sds 0\.478 ≥ 0\.2 ✓/);
  assert.match(text, /non-centred's divergences 0 ≤ 0 ✓/);
});

test("claim: a check with than bounds a multiple of the other panel's measure; R̂ is read to three decimals", () => {
  const c = {
    step: 3000,
    checks: [
      { method: "nuts", measure: "ess_per_eval", op: ">=", value: 1.5, than: "metropolis" },
      { method: "nuts", measure: "rhat", op: "<=", value: 1.02 },
    ],
  };
  const m = { exact, measure: { sd: [1, 1] } };
  const at = (essN, essM) => [panel("metropolis", 3000, { ...m, history: [{ ess_per_eval: essM, rhat: 1.4 }] }), panel("nuts", 3000, { ...m, history: [{ ess_per_eval: essN, rhat: 1.004 }] })];
  assert.equal(claimHolds(c, at(0.0025, 0.001)).holds, true); // 2.5 times
  assert.equal(claimHolds(c, at(0.0014, 0.001)).holds, false); // 1.4 times
  assert.equal(claimNumbers(c, at(0.0025, 0.001), undefined, { nuts: "NUTS", metropolis: "Metropolis" }), "NUTS's ESS per eval 0.0025 ≥ 1.5 × Metropolis' 0.001 = 0.0015 ✓ · NUTS's R̂ 1.004 ≤ 1.020 ✓");
});

test("claim numbers: a measure bounded on both sides is said once, with its range", () => {
  const c = {
    step: 1000,
    checks: [
      { method: "mfvi", measure: "sd_ratio", param: "v", op: "<=", value: 0.5 },
      { method: "mfvi", measure: "sd_ratio", param: "v", op: ">=", value: 0.38 },
      { method: "nuts", measure: "sd_ratio", param: "v", op: ">=", value: 0.9 },
    ],
  };
  const ps = (mf) => [panel("mfvi", 1000, { exact, measure: { sd: [mf, 1] } }), panel("nuts", 1000, { exact, measure: { sd: [3, 1] } })];
  const labels = { mfvi: "Mean-field VI", nuts: "NUTS" };
  assert.equal(claimNumbers(c, ps(1.3), undefined, labels), "Mean-field VI's sd of v ÷ exact 0.433 in [0.38, 0.5] ✓ · NUTS's sd of v ÷ exact 1 ≥ 0.9 ✓");
  assert.match(claimNumbers(c, ps(1.6), undefined, labels), /0\.533 in \[0\.38, 0\.5\] ✗/);
  assert.match(claimNumbers(c, ps(1.0), undefined, labels), /0\.333 in \[0\.38, 0\.5\] ✗/);
});

test("verdict: waiting before the claim step or a sampler's warm-up, held only after k checks in a row from it", () => {
  const c = { step: 1000, checks: [{ method: "nuts", measure: "sd_ratio", param: "v", op: ">=", value: 0.9 }] };
  const good = { exact, measure: { sd: [3, 1] } };
  assert.equal(checkedFrom(c, [panel("nuts", 0, good, { warmup: 200 })]), 1000);
  assert.equal(checkedFrom(c, [panel("nuts", 0, good, { warmup: 1200 })]), 1200);
  let s = null;
  // holding at every step before the claim step says nothing
  for (const step of [10, 500, 999]) {
    s = nextVerdict(s, claimHolds(c, [panel("nuts", step, good)]), 1000);
    assert.equal(verdictText(s, true, 1000).holds, "waiting");
  }
  for (let i = 0; i < HOLD_CHECKS; i++) {
    assert.notEqual(s.phase, "held");
    s = nextVerdict(s, claimHolds(c, [panel("nuts", 1000 + i, good)]), 1000);
  }
  assert.deepEqual(verdictText(s, true, 1000), { holds: "true", text: "✓ held since step 1,000" });
});

test("links: a panel's own target controls are pI.target.NAME", () => {
  const q = new URLSearchParams(galleryQuery({ scenario: "funnel-neck", target: "funnel", targetControls: {}, targetSpecs: [], panels: [{ method: "hmc", controls: {}, specs: [], targetControls: { centred: 1 } }, { method: "hmc", controls: {}, specs: [], targetControls: { centred: 0 } }] }));
  assert.equal(q.get("p1.target.centred"), "1");
  assert.equal(q.get("p2.target.centred"), "0");
  assert.equal(q.get("methods"), "hmc,hmc");
});

test("compact numbers: each parameter's measure is read and named with its parameter, a range said once", () => {
  const claim = {
    step: 1000,
    checks: [
      { method: "mfvi", measure: "sd_ratio", param: "x", op: ">=", value: 0.38 },
      { method: "mfvi", measure: "sd_ratio", param: "x", op: "<=", value: 0.5 },
      { method: "nuts", measure: "rhat", op: "<=", value: 1.02 },
    ],
  };
  const panel = (method, values) => ({ method, step: 1000, measureOf: (m, p) => values[p ? `${m}/${p}` : m] });
  const panels = [panel("mfvi", { "sd_ratio/x": 0.433 }), panel("nuts", { rhat: 1.0041 })];
  const text = compactNumbers(claim, panels, {}, { mfvi: "mean-field", nuts: "NUTS" });
  assert.equal(text, "sd of x ÷ exact: mean-field 0.433 in [0.38, 0.5] ✓ · R̂: NUTS 1.004 ≤ 1.020 ✓");
});
