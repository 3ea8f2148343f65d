// The objective's y-range, shared ranges, change-mark labels and the draw
// loop (static/app/history.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { DRAW_HZ, DrawLoop, placeLabel, robustRange, unionRange } from "../app/history.js";

test("robustRange: a post-change transient does not flatten the history", () => {
  // 1000 steps near −100; a control change at step 500 dips to −30,000 for
  // 20 steps, then the run recovers.
  const xs = Array.from({ length: 1000 }, (_, i) => i);
  const ys = xs.map((x) => (x >= 500 && x < 520 ? -30_000 : -100 + Math.sin(x)));
  const [lo, hi] = robustRange(xs, ys, ys);
  assert.ok(lo > -110 && hi < -90, `range [${lo}, ${hi}]`);
  // While the dip is the newest value it is in view.
  const [lo2] = robustRange(xs.slice(0, 510), ys.slice(0, 510), ys.slice(0, 510));
  assert.ok(lo2 <= -30_000, `lo ${lo2}`);
});

test("unionRange holds every panel's range", () => {
  assert.deepEqual(unionRange([[-5, 1], null, [-2, 3]]), [-5, 3]);
  assert.equal(unionRange([null]), null);
});

test("placeLabel keeps a change mark's label inside the plot area", () => {
  const measure = (s) => 6 * s.length; // 6 px a character
  const left = 50;
  const width = 120;
  const pad = 3;
  const inside = ({ tx, w }) => tx >= left + pad - 1e-9 && tx + w <= left + width - pad + 1e-9;
  for (const x of [left, left + 10, left + width / 2, left + width - 5, left + width]) {
    const p = placeLabel(["Prior scale = 0.2", "0.2"], measure, x, left, width, pad);
    assert.ok(inside(p), `mark at ${x}: ${JSON.stringify(p)}`);
    assert.equal(p.text, "Prior scale = 0.2", "it fits: the full label");
  }
  // Too narrow for the full label: the short one.
  const narrow = placeLabel(["Inducing points = 20", "20"], measure, 60, 50, 60, pad);
  assert.equal(narrow.text, "20");
  assert.ok(narrow.tx >= 50 + pad && narrow.tx + narrow.w <= 50 + 60 - pad, JSON.stringify(narrow));
  // Too narrow for anything: cut with an ellipsis, still inside.
  const tiny = placeLabel(["Learning rate = 0.001"], measure, 55, 50, 40, pad);
  assert.ok(tiny.text.endsWith("…") && tiny.w <= 40 - 2 * pad, JSON.stringify(tiny));
});

test("DrawLoop: draws asked for together run once, at most DRAW_HZ a second", () => {
  let now = 0;
  const queued = [];
  const loop = new DrawLoop(() => now, (f, ms) => queued.push([f, ms]));
  let a = 0;
  let b = 0;
  const da = () => a++;
  const db = () => b++;
  loop.request(da);
  loop.request(db);
  loop.request(da);
  assert.equal(queued.length, 1, "one turn for all requests");
  assert.equal(queued[0][1], 0, "the first draw at once");
  queued.shift()[0]();
  assert.deepEqual([a, b], [1, 1]);
  now = 30;
  loop.request(da);
  assert.equal(queued[0][1], 1000 / DRAW_HZ - 30, "the next 1/DRAW_HZ s after the last");
});

test("sharedObjectiveRange: the union over panels whose objectives compare", async () => {
  const { sharedObjectiveRange } = await import("../app/history.js");
  const panel = (family, range) => ({ spec: { family }, model: "", objectivePlot: { ownRange: () => range } });
  const a = panel("vi", [-200, -100]);
  const b = panel("vi", [-150, -50]);
  const c = panel("mcmc", [-1e5, 0]);
  assert.deepEqual(sharedObjectiveRange(a, [a, b, c]), [-200, -50]);
  assert.deepEqual(sharedObjectiveRange(c, [a, b, c]), [-1e5, 0], "a log posterior is not an ELBO");
});

