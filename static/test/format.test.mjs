// The page's number formats (static/app/format.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { compact, fmt, fmtCount, fmtInput, fmtRhat, fmtSE, pow10, readout } from "./../app/format.js";

test("fmt: three significant digits, grouped thousands, powers of ten outside [0.001, 10⁶)", () => {
  const cases = [
    [0.1353352, "0.135"],
    [1, "1"],
    [-141.7123, "-142"],
    [2.5, "2.5"],
    [999.7, "1,000"], // rounds first, then groups
    [4506.2, "4,510"],
    [450612, "451,000"],
    [4.506e6, "4.51×10⁶"],
    [-1.2345e-5, "-1.23×10⁻⁵"],
    [0.001, "0.001"],
    [0, "0"],
    [NaN, "–"],
    [Infinity, "–"],
  ];
  for (const [v, want] of cases) assert.equal(fmt(v), want, `fmt(${v})`);
  assert.equal(fmt("periodic"), "periodic");
  assert.doesNotMatch(fmt(4.506e5), /e\+/);
});

test("pow10 writes the exponent in superscript", () => {
  assert.equal(pow10(4.506e5), "4.51×10⁵");
  assert.equal(pow10(1e-10, 2), "1×10⁻¹⁰");
});

test("fmtRhat: three decimals, so 1 and 1.001 differ", () => {
  assert.equal(fmtRhat(1), "1.000");
  assert.equal(fmtRhat(1.0012), "1.001");
  assert.equal(fmtRhat(NaN), "–");
});

test("fmtCount: effective sample sizes whole and grouped", () => {
  assert.equal(fmtCount(4.519), "5");
  assert.equal(fmtCount(16), "16");
  assert.equal(fmtCount(12345.6), "12,346");
  assert.equal(fmtCount(undefined), "–");
});

test("fmtSE: the error to one significant digit, the value to the same decimals", () => {
  assert.deepEqual(fmtSE(-141.7123, 0.009548), ["-141.71", "0.01"]); // 0.0095 rounds up a place
  assert.deepEqual(fmtSE(-141.7123, 0.0123), ["-141.71", "0.01"]);
  assert.deepEqual(fmtSE(-141.7123, 0.36), ["-141.7", "0.4"]);
  assert.deepEqual(fmtSE(451234, 1234), ["451,000", "1,000"]);
  assert.deepEqual(fmtSE(12.3456, 3), ["12", "3"]);
  assert.deepEqual(fmtSE(4.51e6, 2.3e4), ["4.51×10⁶", "20,000"]);
  assert.deepEqual(fmtSE(1.2345e-4, 1.1e-5), ["1.2×10⁻⁴", "1×10⁻⁵"]);
  assert.deepEqual(fmtSE(5, 0), ["5", "0"]);
  assert.deepEqual(fmtSE(5, NaN), ["5", "–"]);
});

test("fmtInput: a number box's text, short and typeable", () => {
  assert.equal(fmtInput(0.1353352), "0.135");
  assert.equal(fmtInput(1000000), "1000000"); // whole numbers stay whole
  assert.equal(fmtInput(1e-7), "1e-7");
  assert.equal(fmtInput(2), "2");
  assert.equal(fmtInput(Math.PI * 1e-5), "3.14e-5");
});

test("compact ticks", () => {
  assert.equal(compact(2.5e6), "2.5M");
  assert.equal(compact(-30000), "-30k");
  assert.equal(compact(1000), "1k"); // beside 10k on a log axis
  assert.equal(compact(999), "999");
  assert.equal(compact(0.25), "0.25");
  assert.equal(compact(1.2e-5), "1.2×10⁻⁵");
  assert.equal(compact(null), "");
});

test("readout: diagnostics named in words and printed in their format", () => {
  assert.deepEqual(readout("rhat_max", 1), ["Largest R̂, all draws", "1.000"]);
  assert.deepEqual(readout("ess_bulk_min", 4.519), ["Smallest bulk ESS, all draws", "5"]);
  assert.deepEqual(readout("noise_std", 4.506e5), ["Noise std σ", "451,000"]);
  assert.deepEqual(readout("some_new_key", 0.1353352), ["some new key", "0.135"]);
});

test("fmtRate: steps per second to three significant digits", async () => {
  const { fmtRate } = await import("./../app/format.js");
  assert.equal(fmtRate(31688.4), "31,700");
  assert.equal(fmtRate(6346), "6,350");
  assert.equal(fmtRate(231.49), "231");
  assert.equal(fmtRate(0.5), "0.5");
  assert.equal(fmtRate(0), "0");
  assert.equal(fmtRate(null), "–");
  assert.equal(fmtRate(undefined), "–");
  assert.equal(fmtRate(NaN), "–");
});
