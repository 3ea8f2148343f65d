// A scenario's claim on the live panels: the same checks as the server's
// test (sim/scenario/claims.go).
import assert from "node:assert/strict";
import { test } from "node:test";

import { claimHolds, sdRatio, truthRMSE } from "../app/claim.js";

const claim = {
  step: 2500,
  checks: [
    { method: "gip", measure: "inbetween_ratio", op: ">=", value: 3 },
    { method: "mfvi", measure: "inbetween_ratio", op: "<=", value: 1 },
  ],
};

test("claim: holds only when every check does, at the least step", () => {
  const panels = [
    { method: "mfvi", step: 2600, diagnostics: { inbetween_ratio: 0.6 } },
    { method: "gip", step: 2550, diagnostics: { inbetween_ratio: 3.2 } },
  ];
  assert.deepEqual(claimHolds(claim, panels, {}), { holds: true, step: 2550, failed: [] });
  panels[1].diagnostics.inbetween_ratio = 2.9;
  assert.equal(claimHolds(claim, panels, {}).holds, false);
  delete panels[1].diagnostics.inbetween_ratio; // no band yet
  assert.equal(claimHolds(claim, panels, {}).failed.length, 1);
});

test("claim: a relative bound reads the other panel; truth errors off the band", () => {
  const data = { points: { x: [0, 1] }, truth: { y: [0, 0, 0, 0] } };
  const band = (d) => ({ x: [-1, 0.5, 1, 2], mean: [d, 1, 1, d] });
  assert.equal(truthRMSE(band(3), data, true), 3);
  assert.ok(Math.abs(truthRMSE(band(3), data, false) - Math.sqrt(5)) < 1e-12);
  const rel = { checks: [{ method: "a", measure: "truth_rmse_outside", op: "<=", value: 0.5, than: "b" }] };
  const panels = [{ method: "a", band: band(1), step: 300 }, { method: "b", band: band(3), step: 0 }];
  assert.deepEqual(claimHolds(rel, panels, data), { holds: true, step: 300, failed: [] }); // b is only compared against
  panels[0].band = band(2);
  assert.equal(claimHolds(rel, panels, data).holds, false);
});

test("claim: the slope's sd ratio is read off the joint view as its table reads it", () => {
  const exact = { mean: [0, 0], cov: [[1, -0.5], [-0.5, 4]] }; // sd of b: 2
  assert.equal(sdRatio({ exact, gaussian: { mean: [0, 0], cov: [[9, 0], [0, 1]] } }, 1), 0.5);
  assert.equal(sdRatio({ exact, moments: [{ mean: 0, sd: 7 }, { mean: 0, sd: 3 }] }, 1), 1.5);
  assert.equal(sdRatio({ exact, b0: [0, 0, 0], b: [-2, 0, 2] }, 1), 1); // sample sd 2
  assert.ok(Number.isNaN(sdRatio({ gaussian: exact }, 1))); // no exact posterior
  const joint = (j) => ({ get: (k) => (k === "joint" ? { j } : undefined) });
  const c = { checks: [{ method: "mfvi", measure: "slope_sd_ratio", op: "<=", value: 0.65 }, { method: "hmc", measure: "slope_sd_ratio", op: ">=", value: 0.85 }] };
  const panels = [
    { method: "mfvi", step: 2000, views: joint({ exact, gaussian: { mean: [0, 0], cov: [[1, 0], [0, 1]] } }) },
    { method: "hmc", step: 2000, views: joint({ exact, moments: [{ mean: 0, sd: 1 }, { mean: 0, sd: 2 }] }) },
  ];
  assert.deepEqual(claimHolds(c, panels, {}), { holds: true, step: 2000, failed: [] });
  panels[1].views = new Map(); // no joint view yet (a sampler in warm-up)
  assert.equal(claimHolds(c, panels, {}).failed.length, 1);
});

test("claim numbers: each check with its value, bound and verdict", async () => {
  const { claimNumbers } = await import("../app/claim.js");
  const claim = { checks: [
    { method: "gip", measure: "inbetween_ratio", op: ">=", value: 3 },
    { method: "mfvi", measure: "inbetween_ratio", op: "<=", value: 1 },
  ] };
  const panels = [
    { method: "gip", diagnostics: { inbetween_ratio: 3.4123 } },
    { method: "mfvi", diagnostics: { inbetween_ratio: 1.25 } },
  ];
  const s = claimNumbers(claim, panels, {}, { gip: "Global inducing points", mfvi: "Mean-field VI" });
  assert.equal(s, "Global inducing points' in-between ratio 3.41 ≥ 3 ✓ · Mean-field VI's in-between ratio 1.25 ≤ 1 ✗");
});

test("claim numbers, compact: the measure once, a pair of bounds as a range, a relative bound with the other's value", async () => {
  const { compactNumbers } = await import("../app/claim.js");
  const short = { gip: "GIP", mfvi: "mean-field", hmc: "HMC", fbnn: "fBNN" };
  const ratio = (method, v) => ({ method, diagnostics: { inbetween_ratio: v } });
  const headline = { checks: [
    { method: "gip", measure: "inbetween_ratio", op: ">=", value: 3 },
    { method: "mfvi", measure: "inbetween_ratio", op: "<=", value: 1 },
  ] };
  assert.equal(compactNumbers(headline, [ratio("gip", 3.4123), ratio("mfvi", 1.25)], {}, short),
    "in-between ratio: GIP 3.41 ≥ 3 ✓, mean-field 1.25 ≤ 1 ✗");
  // No band yet: a dash, and the check fails.
  assert.equal(compactNumbers(headline, [{ method: "gip" }, ratio("mfvi", 0.5)], {}, short),
    "in-between ratio: GIP – ≥ 3 ✗, mean-field 0.5 ≤ 1 ✓");
  const range = { checks: [
    { method: "hmc", measure: "inbetween_ratio", op: ">=", value: 0.85 },
    { method: "hmc", measure: "inbetween_ratio", op: "<=", value: 1.15 },
  ] };
  assert.equal(compactNumbers(range, [ratio("hmc", 1.2)], {}, short), "in-between ratio: HMC 1.2 in [0.85, 1.15] ✗");
  assert.equal(compactNumbers(range, [ratio("hmc", 1)], {}, short), "in-between ratio: HMC 1 in [0.85, 1.15] ✓");
  const two = { checks: [
    { method: "gip", measure: "noise_std", op: ">=", value: 15 },
    { method: "gip", measure: "objective", op: "<=", value: -100 },
  ] };
  assert.equal(compactNumbers(two, [{ method: "gip", diagnostics: { noise_std: 16.04, objective: -120.4 } }], {}, short),
    "noise estimate: GIP 16 ≥ 15 ✓ · objective: GIP -120 ≤ -100 ✓");
  // fBNN's error beyond the data [0, 1]: 0.5 at both ends; mean-field's 1.
  const data = { points: { x: [0, 1] }, truth: { y: [0, 0, 0] } };
  const band = (d) => ({ x: [-1, 0.5, 2], mean: [d, 9, d] });
  const rel = { checks: [
    { method: "fbnn", measure: "truth_rmse_outside", op: "<=", value: 0.8 },
    { method: "fbnn", measure: "truth_rmse_outside", op: "<=", value: 0.7, than: "mfvi" },
  ] };
  assert.equal(compactNumbers(rel, [{ method: "fbnn", band: band(0.5) }, { method: "mfvi", band: band(1) }], data, short),
    "RMS error to the truth beyond the data: fBNN 0.5 ≤ 0.8 and ≤ 0.7 × mean-field's 1 ✓");
  assert.equal(compactNumbers(rel, [{ method: "fbnn", band: band(0.75) }, { method: "mfvi", band: band(1) }], data, short),
    "RMS error to the truth beyond the data: fBNN 0.75 ≤ 0.8 and ≤ 0.7 × mean-field's 1 ✗");
});

// play feeds the verdict's state machine checks {holds, step} and returns
// the state and text after each.
async function play(checks, from, k) {
  const { nextVerdict, verdictText } = await import("../app/claim.js");
  let s = null;
  return checks.map(([holds, step]) => {
    s = nextVerdict(s, { holds, step }, from, k);
    return { s, ...verdictText(s, holds, from, k) };
  });
}

test("verdict: never holds before its step, however well the checks do", async () => {
  const out = await play([[true, 0], [true, 100], [true, 1417], [true, 2499]], 2500, 3);
  for (const o of out) {
    assert.equal(o.holds, "waiting");
    assert.match(o.text, /^checked from step 2,500/);
  }
  assert.equal(out[2].text, "checked from step 2,500, now 1,417");
});

test("verdict: holds after k consecutive checks, then says since the first of them", async () => {
  const out = await play([[true, 2500], [false, 2510], [true, 2520], [true, 2530], [true, 2530], [true, 2540], [true, 2600]], 2500, 3);
  assert.deepEqual(out.map((o) => o.holds), ["checking", "checking", "checking", "checking", "checking", "true", "true"]);
  assert.equal(out[1].text, "not yet: fails at step 2,510");
  assert.equal(out[3].text, "checking: 2 of 3 checks hold, step 2,530");
  assert.equal(out[4].s.run, 2, "a frame at the step already seen is no new check");
  assert.equal(out[5].text, "✓ held since step 2,520");
  assert.equal(out[6].text, "✓ held since step 2,520");
});

test("verdict: a held claim breaks after k consecutive failures, at the first", async () => {
  const held = [[true, 10], [true, 20], [true, 30]];
  const out = await play([...held, [false, 40], [false, 50], [true, 60], [false, 70], [false, 80], [false, 90], [false, 100]], 10, 3);
  assert.deepEqual(out.slice(3).map((o) => o.holds), ["true", "true", "true", "true", "true", "false", "false"]);
  assert.equal(out[5].text, "✓ held since step 10", "one success between failures resets the count");
  assert.equal(out[8].text, "✗ no longer holds at step 70");
  assert.equal(out[9].text, "✗ no longer holds at step 70");
  // Held again after k more successes, since the first of them.
  const again = await play([...held, [false, 40], [false, 50], [false, 60], [true, 70], [true, 80], [true, 90]], 10, 3);
  assert.deepEqual(again.slice(5).map((o) => o.text), ["✗ no longer holds at step 40", "✗ no longer holds at step 40", "✗ no longer holds at step 40", "✓ held since step 70"]);
});

test("verdict: a step back (a reset) starts afresh; a sampler's warm-up delays the first check", async () => {
  const out = await play([[true, 10], [true, 20], [true, 30], [true, 5]], 10, 3);
  assert.equal(out[2].holds, "true");
  assert.equal(out[3].holds, "waiting");
  const { checkedFrom } = await import("../app/claim.js");
  const c = { step: 300, checks: [{ method: "nuts", measure: "inbetween_ratio", op: ">=", value: 2, than: "mfvi" }] };
  assert.equal(checkedFrom(c, [{ method: "nuts", confirmed: { warmup: 500 } }, { method: "mfvi", confirmed: {} }]), 500);
  assert.equal(checkedFrom(c, [{ method: "nuts", confirmed: { warmup: 200 } }, { method: "gip", confirmed: { warmup: 900 } }]), 300, "a panel the claim does not read");
});
