// Unit tests of the browser code's pure parts: run with `npm --prefix static test`
// (node's built-in test runner; no packages needed).
import assert from "node:assert/strict";
import { test } from "node:test";

import { EMA, extent, Series, robustRange, safeRange } from "../app/history.js";
import { fromSlider, parseValue, speedCap, stepCount, tidy, toSlider } from "../app/controls.js";
import { parsePoints } from "../app/upload.js";

test("debiased EMA: exact weighted means, constants stay constant", () => {
  const e = new EMA(0.5);
  assert.equal(e.next(1), 1); // (0.5·1)/(1−0.5)
  // (0.5·0.5·1 + 0.5·2)/(1 − 0.25) = 1.25/0.75, the mean of 1 and 2 weighted 1:2
  assert.ok(Math.abs(e.next(2) - 5 / 3) < 1e-15);
  const c = new EMA(0.99);
  for (let i = 0; i < 50; i++) assert.ok(Math.abs(c.next(-7.25) + 7.25) < 1e-12);
  const raw = new EMA(0);
  assert.equal(raw.next(3), 3);
  assert.equal(raw.next(-1), -1);
  assert.equal(new EMA(0.9).next(NaN), NaN, "non-finite values pass through");
});

test("series: bounded, keeps first and newest, skips repeated steps", () => {
  const s = new Series(10);
  s.setSmoothing(0);
  s.push(Array.from({ length: 11 }, (_, i) => [i + 1, i]));
  assert.equal(s.length, 6);
  assert.equal(s.x[0], 1);
  assert.equal(s.x[s.length - 1], 11);
  s.push([[5, 100], [11, 100]]); // a reconnect repeats old steps
  assert.equal(s.length, 6);
  for (let i = 12; i < 10_000; i++) s.push([[i, i]]);
  assert.ok(s.length <= 10, `length ${s.length}`);
  assert.equal(s.x[s.length - 1], 9999);
  assert.deepEqual(s.s, s.y, "weight 0 smooths nothing");
});

test("robust range ignores the early transient", () => {
  // A decimated history: dense early points (the transient), sparse later.
  const xs = [...Array.from({ length: 100 }, (_, i) => i + 1), ...Array.from({ length: 200 }, (_, i) => 200 + 50 * i)];
  const ys = xs.map((x, i) => (x <= 100 ? -1e6 / x : 50 + (i % 10)));
  const [lo, hi] = robustRange(xs, ys);
  assert.ok(lo > 40 && lo < 50, `lo ${lo}`);
  assert.ok(hi > 59 && hi < 70, `hi ${hi}`);
  // A recent shift stays in view in full.
  const shifted = ys.map((y, i) => (i > 280 ? y - 500 : y));
  const [lo2] = robustRange(xs, shifted);
  assert.ok(lo2 < -450, `lo ${lo2}`);
});

test("sliders: log scale, whole numbers, clamping", () => {
  const log = { min: 0.1, max: 10, step: 0.01, log: true };
  assert.equal(fromSlider(log, String(Math.log10(0.5))), 0.5);
  assert.equal(fromSlider(log, "1"), 10);
  assert.equal(toSlider(log, 1), 0);
  const int = { min: 1, max: 100, step: 1, integer: true };
  assert.equal(fromSlider(int, "41.6"), 42);
  assert.equal(tidy(int, 500), 100);
  const lin = { min: 0, max: 1, step: 0.01 };
  assert.equal(tidy(lin, 0.30000000000000004), 0.3);
  assert.equal(parseValue(lin, "50"), 50, "typed values are not clamped: the server says why");
  assert.equal(parseValue(lin, "abc"), null);
  assert.equal(parseValue(lin, ""), null);
});

// The gap rule is the server's alone (sim/datasets' widestGap): the page
// shows the ratio the frames carry.
test("CSV points for the plot", () => {
  const p = parsePoints('\uFEFFid,"y", x\n1, 2.5, -1\n2,3,4\n');
  assert.deepEqual(p, { x: [-1, 4], y: [2.5, 3] });
  assert.equal(parsePoints("a,b\n1,2\n"), null);
});

test("steps per press: a whole number within the server's limit", () => {
  assert.equal(stepCount("10", 10000), 10);
  assert.equal(stepCount("2.6", 10000), 3);
  assert.equal(stepCount("", 10000), 1);
  assert.equal(stepCount("-5", 10000), 1);
  assert.equal(stepCount("20000", 10000), 10000);
  assert.equal(stepCount("20000", 500), 500, "the limit is the config's, not a constant");
});

test("speed cap: 10^slider steps/s within the server's limit, the top end no cap", () => {
  assert.equal(speedCap("2", 4, 1e6), 100);
  assert.equal(speedCap("0", 4, 1e6), 1);
  assert.equal(speedCap("4", 4, 1e6), 0);
  assert.equal(speedCap("3.5", 4, 1000), 1000, "never above the server's limit");
});

// uPlot steps ticks as l += incr from the range's low end; a range whose
// span is tiny next to its magnitude made that loop stand still until the
// array overflowed ("Invalid array length"). Every guarded range leaves a
// tick step (span / 100) that moves the float.
test("safeRange keeps tick steps representable", () => {
  for (const [lo, hi] of [[300, 300], [300, 300 + 1e-13], [8.4e6, 8.4e6 + 1e-9], [-5e-300, 5e-300], [1, 2], [-1e12, -1e12]]) {
    const [a, b] = safeRange(lo, hi);
    assert.ok(b > a && a <= lo && b >= hi, `safeRange(${lo}, ${hi}) = [${a}, ${b}]`);
    const incr = (b - a) / 100;
    assert.ok(a + incr !== a && b - incr !== b, `a step of ${incr} does not move ${a}`);
  }
  assert.deepEqual(safeRange(0, 10), [-0.5, 10.5]);
  assert.deepEqual(safeRange(NaN, 1), [0, 1]);
});

test("extent: finite values of every column, null when there are none", () => {
  assert.deepEqual(extent([[3, NaN, -2], [null, 7, Infinity], []]), [-2, 7]);
  assert.deepEqual(extent([[5]]), [5, 5]);
  assert.equal(extent([[NaN, undefined], []]), null);
  assert.equal(extent([]), null);
  // More values than a call may take as arguments (Math.min(...v) throws).
  const big = Array.from({ length: 300_000 }, (_, i) => i - 1000);
  assert.deepEqual(extent([big]), [-1000, 298_999]);
});
