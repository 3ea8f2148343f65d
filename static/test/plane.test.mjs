// Unit tests of the plane view's pure parts: geometry (plane_geom.js),
// contour levels (plane_levels.js), histograms (plane_hist.js), the
// decoding of a transition (plane_tree.js) and the slow-motion state
// machine (plane_anim.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { animate, Reveal } from "../app/plane_anim.js";
import { edgePoint, fonts, layout, tickLabel, ticks, transform } from "../app/plane_geom.js";
import { binCount, histogram, marginalPoints } from "../app/plane_hist.js";
import { contourRings, densities, hpdLevels, massAbove } from "../app/plane_levels.js";
import { bananaFrame, gridOf, hmcPath, normal, nutsTree, rng } from "../app/plane_synth.js";
import { decode, visible } from "../app/plane_tree.js";
import { rasterSquares } from "../app/plane_layers.js";
import { contoursOf, describe as describeFrame, drawPlane, PlaneView } from "../app/plane.js";
import { drawDivergences } from "../app/plane_marks.js";

test("transform: the box's corners go to the rectangle's, y upwards, and back", () => {
  const box = { x: [-15, 15], y: [-20, 20] };
  const rect = { x: 50, y: 30, w: 300, h: 200 };
  const T = transform(box, rect);
  assert.equal(T.px(-15), 50);
  assert.equal(T.px(15), 350);
  assert.equal(T.py(-20), 230);
  assert.equal(T.py(20), 30);
  assert.equal(T.px(0), 200);
  for (const v of [-12.3, 0.7, 14.9]) {
    assert.ok(Math.abs(T.invX(T.px(v)) - v) < 1e-12);
    assert.ok(Math.abs(T.invY(T.py(v)) - v) < 1e-12);
  }
});

test("layout: the plot and strips fit the canvas, with room for the ticks", () => {
  for (const [w, h] of [[1280, 720], [390, 844], [390, 390]]) {
    for (const pres of [false, true]) {
      const L = layout(w, h, pres);
      assert.ok(L.fonts.tick >= (pres ? 18 : 12));
      assert.ok(L.plot.x >= L.fonts.tick * 3 + L.fonts.label, "room for y ticks and name");
      assert.ok(L.right.x + L.right.w <= w && L.plot.y + L.plot.h + 2 * L.fonts.tick <= h, `${w}×${h}`);
      assert.ok(L.top.y >= 0 && L.top.y + L.top.h < L.plot.y);
      assert.ok(L.plot.w > w / 2 && L.plot.h > h / 2, `the plot takes most of ${w}×${h}`);
    }
  }
  assert.deepEqual(fonts(true), { tick: 18, label: 20 });
});

test("ticks: round values inside the range, at most the count asked", () => {
  assert.deepEqual(ticks(-15, 15, 7), [-15, -10, -5, 0, 5, 10, 15]);
  assert.deepEqual(ticks(-15, 15, 6), [-10, 0, 10]);
  assert.deepEqual(ticks(0, 1, 6), [0, 0.2, 0.4, 0.6, 0.8, 1]);
  assert.deepEqual(ticks(-5, 13, 4), [-5, 0, 5, 10]);
  // never fewer than two: a narrow axis gets a finer spacing than asked
  assert.deepEqual(ticks(-4, 4, 3), [-4, -2, 0, 2, 4]);
  for (const [lo, hi, n] of [[-3.7, 2.2, 6], [0.001, 0.0042, 4], [-20, 20, 3]]) {
    const t = ticks(lo, hi, n);
    assert.ok(t.length >= 2 && t.length <= n, `${t}`);
    assert.ok(t.every((v) => v >= lo && v <= hi));
  }
  assert.equal(tickLabel(-2.5), "\u22122.5");
  assert.equal(tickLabel(0.30000000000000004), "0.3");
});

// The standard bivariate Gaussian's region {p ≥ t} is a disc, and the
// mass inside radius r is 1 − e^{−r²/2}: the m-HPD region has radius
// r_m = √(−2 log(1 − m)). On a 256² grid over [−6, 6]² (h = 0.047) the
// level's enclosed mass is within a boundary ring's mass, about
// 2πr·h·p(r) ≤ 0.02 of it; the traced contour's radius within h.
test("hpdLevels: the 50% and 95% regions of a standard Gaussian grid", () => {
  const box = { x: [-6, 6], y: [-6, 6] };
  const n = 256;
  const grid = gridOf((x, y) => -0.5 * (x * x + y * y), box, n);
  const dens = densities(grid);
  const masses = [0.95, 0.5];
  const levels = hpdLevels(dens, masses);
  masses.forEach((m, k) => {
    assert.ok(Math.abs(massAbove(dens, levels[k]) - m) < 2e-3, `mass ${massAbove(dens, levels[k])} for ${m}`);
    // the level is the density at r_m, relative to the mode's (1 at 0)
    assert.ok(Math.abs(levels[k] - (1 - m)) < 0.02, `level ${levels[k]} for mass ${m}`);
  });
  const h = (box.x[1] - box.x[0]) / n;
  const rings = contourRings(dens, n, levels, box);
  masses.forEach((m, k) => {
    const r = Math.sqrt(-2 * Math.log(1 - m));
    assert.equal(rings[k].length, 1, "one closed ring");
    for (const [x, y] of rings[k][0]) assert.ok(Math.abs(Math.hypot(x, y) - r) < h, `radius ${Math.hypot(x, y)} against ${r}`);
  });
});

test("hpdLevels: log and plain grids agree; a correlated Gaussian's 95% region", () => {
  const box = { x: [-5, 5], y: [-5, 5] };
  const rho = 0.9;
  const logp = (x, y) => -(x * x - 2 * rho * x * y + y * y) / (2 * (1 - rho * rho));
  const g = gridOf(logp, box, 200);
  const plain = { n: g.n, values: densities(g), log: false };
  assert.deepEqual(hpdLevels(densities(plain), [0.95]), hpdLevels(densities(g), [0.95]));
  // For any bivariate Gaussian the 95% region is Mahalanobis distance² ≤
  // −2 log 0.05, so every point of its contour is at that distance.
  const [lvl] = hpdLevels(densities(g), [0.95]);
  const [[ring]] = contourRings(densities(g), 200, [lvl], box);
  const d2 = -2 * Math.log(0.05);
  for (const [x, y] of ring) assert.ok(Math.abs(-2 * logp(x, y) - d2) < 0.12 * d2, `distance² ${-2 * logp(x, y)}`);
});

// erf by Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7), for the exact
// bin masses of a standard normal.
function erf(x) {
  const s = Math.sign(x);
  const t = 1 / (1 + 0.3275911 * Math.abs(x));
  const y = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return s * y;
}
const Phi = (x) => 0.5 * (1 + erf(x / Math.SQRT2));

// 20,000 standard normal draws binned over [−5, 5]: a bin's count is
// binomial(N, p_b), so its density estimate has sd √(p_b(1 − p_b)/N)/w.
// Every one of the 40 bins is within 4.5 of those sd of the exact bin
// mass / w (each fails with probability 7e-6, so all pass but for 3e-4 of
// seeds), and the midpoint of the exact marginal agrees to O(w²).
test("histogram: standard normal draws against the exact marginal", () => {
  const z = normal(rng(11));
  const N = 20000;
  const v = Float64Array.from({ length: N }, z);
  const bins = 40;
  const { edges, density, outside } = histogram(v, -5, 5, bins);
  const w = 10 / bins;
  let inside = 0;
  density.forEach((d, b) => {
    const p = Phi(edges[b + 1]) - Phi(edges[b]);
    const sd = Math.sqrt((p * (1 - p)) / N) / w;
    assert.ok(Math.abs(d - p / w) <= 4.5 * sd + 1e-12, `bin ${b}: ${d} against ${p / w} (sd ${sd})`);
    inside += d * w;
  });
  assert.ok(Math.abs(inside + outside / N - 1) < 1e-12, "the bins and the outside hold every draw");
  assert.equal(histogram([1, 2, 3, 9, NaN], 0, 4, 4).outside, 2);
  assert.equal(binCount(20000), 54);
  // the grid's marginal (gridOf) is the exact N(0, 1) density at the cells' centres
  const g = gridOf((x, y) => -0.5 * (x * x + y * y), { x: [-6, 6], y: [-6, 6] }, 120);
  for (const [x, d] of marginalPoints(g.marginals[0], -6, 6)) assert.ok(Math.abs(d - Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI)) < 1e-9);
});

test("decode: a one-step proposal is an arrow from start to proposal", () => {
  const t = decode({ kind: "metropolis", start: [0, 0], proposal: [1, 2], accepted: false });
  assert.deepEqual(t.points, [[0, 0], [1, 2]]);
  assert.deepEqual(t.arrow, { from: [0, 0], to: [1, 2], accepted: false });
  assert.equal(t.segments.length, 0);
  assert.equal(t.total, 2);
  assert.equal(t.chosen, -1);
});

test("decode: HMC's path is one polyline; a divergence is kept at its index", () => {
  const path = [[0, 0], [1, 0], [2, 1], [3, 5]];
  const t = decode({ kind: "hmc", start: [0, 0], proposal: [3, 5], accepted: false, path, divergent: true, divergentAt: 3 });
  assert.deepEqual(t.segments, [{ indices: [0, 1, 2, 3], merged: true }]);
  assert.equal(t.divergentAt, 3);
  assert.deepEqual(visible(t.segments[0], 2), [0, 1]);
  assert.equal(decode({ ...t, path, divergent: true, divergentAt: 9 }).divergentAt, -1, "an index outside the path is dropped");
});

// Each doubling's polyline starts from the end of the tree on its side:
// the right end for a forward doubling, the left for a backward one,
// where the ends move only when a half is merged.
test("decode: NUTS's doublings grow from the tree's ends", () => {
  const tr = nutsTree({ dirs: [1, -1, 1, -1], lastMerged: false });
  assert.equal(tr.path.length, 1 + 1 + 2 + 4 + 8);
  const t = decode(tr);
  assert.equal(t.total, 16);
  // forward [1] from 0; backward [2, 3] from 0; forward [4 … 7] from 1,
  // the right end; backward [8 … 15] from 3, the left end
  assert.deepEqual(t.segments.map((s) => s.indices[0]), [0, 0, 1, 3]);
  assert.deepEqual(t.segments[2].indices, [1, 4, 5, 6, 7]);
  assert.deepEqual(t.segments.map((s) => s.merged), [true, true, true, false]);
  // every path index but the start lies on exactly one segment, after its anchor
  const seen = new Array(t.total).fill(0);
  for (const s of t.segments) s.indices.slice(1).forEach((i) => seen[i]++);
  assert.deepEqual(seen, [0, ...new Array(t.total - 1).fill(1)]);
  assert.ok(t.chosen >= 0 && t.chosen < 8, "the chosen point is on a merged half");
  assert.equal(t.ends.filter((e) => e.uturn).length, 1);
  // a prefix of the points shows a prefix of each polyline
  const s = t.segments[2];
  assert.deepEqual(visible(s, 6), [1, 4, 5]);
  assert.deepEqual(visible(s, 4), [1]);
});

test("decode: malformed doublings are dropped, not drawn", () => {
  const t = decode({ kind: "nuts", start: [0, 0], proposal: [0, 0], path: [[0, 0], [1, 1]], doublings: [{ dir: 1, depth: 0, first: 1, last: 5, merged: true }], chosen: 7 });
  assert.equal(t.segments.length, 0);
  assert.equal(t.chosen, -1);
});

// A fake clock and frame queue: raf queues, flush runs the queue at a time.
function scheduler() {
  let now = 0;
  let queue = [];
  let id = 0;
  return {
    raf: (f) => (queue.push({ f, id: ++id }), id),
    caf: (k) => (queue = queue.filter((q) => q.id !== k)),
    now: () => now,
    advance(ms) {
      now += ms;
      const q = queue;
      queue = [];
      q.forEach(({ f }) => f(now));
    },
    pending: () => queue.length,
  };
}

test("animate: slow motion reveals the points in order and finishes", async () => {
  const s = scheduler();
  const seen = [];
  const r = new Reveal(5, 10, s.now()); // 10 points a second: one per 100 ms
  const h = animate(r, (n) => seen.push(n), s);
  assert.deepEqual(seen, [1], "the start shows at once");
  for (let k = 0; k < 8; k++) s.advance(50);
  assert.equal(r.state, "done");
  assert.equal(s.pending(), 0, "no frame requested after the end");
  assert.equal(await h.done, "done");
  assert.deepEqual([...new Set(seen)], [1, 2, 3, 4, 5], "every point, in order");
  assert.ok(seen.every((v, k) => k === 0 || v >= seen[k - 1]), "never backwards");
});

test("animate: cancelling stops the reveal and its frames", async () => {
  const s = scheduler();
  const seen = [];
  const r = new Reveal(100, 10, s.now());
  const h = animate(r, (n) => seen.push(n), s);
  s.advance(250);
  h.cancel();
  const before = seen.length;
  s.advance(1000);
  assert.equal(seen.length, before, "no frame after cancel");
  assert.equal(s.pending(), 0);
  assert.equal(r.state, "cancelled");
  assert.equal(r.at(10000), 3, "a cancelled reveal stays where it stopped");
  assert.equal(await h.done, "cancelled");
  assert.equal(new Reveal(1, 10, 0).state, "done", "a single point is done at once");
  assert.throws(() => new Reveal(3, 0, 0), /rate/);
});

test("bananaFrame and describe: a frame the view can draw, in words", () => {
  const f = bananaFrame({ n: 64, count: 500 });
  assert.equal(f.exact.values.length, 64 * 64);
  assert.equal(f.draws.count, 500);
  const text = describeFrame(f);
  assert.match(text, /500 draws in 4 chain colours/);
  assert.match(text, /nuts: its tree of 32 leapfrog points in 5 doublings/);
  assert.match(text, /2 divergences so far/);
});

// Source-over, as a canvas composites: red at opacity ½, then blue at ½
// over it, gives opacity ¾ and colour (blue·½ + red·½·½)/¾ = (85, 0, 170);
// the red's opacity is stored as 128/255, so the result's is ½ + ½·128/255
// = 0.751, 191.5 of 255, which rounds to 192.
test("rasterSquares: overlapping squares composite as a canvas does, clipped", () => {
  const w = 6;
  const data = new Uint8ClampedArray(4 * w * 4);
  const pts = { x: [1, 2], y: [1, 1], chain: [0, 1], ax: 0, bx: 1, ay: 0, by: 1, from: 0, to: 2 };
  rasterSquares(data, w, pts, [[255, 0, 0], [0, 0, 255]], 0.5, 2, { x0: 0, y0: 0, x1: 3, y1: 4 });
  const px = (i, j) => Array.from(data.slice(4 * (j * w + i), 4 * (j * w + i) + 4));
  assert.deepEqual(px(0, 0), [255, 0, 0, 128], "red alone"); // 127.5 rounds to 128
  assert.deepEqual(px(1, 0), [85, 0, 170, 192], "blue over red");
  assert.deepEqual(px(2, 0), [0, 0, 255, 128], "blue alone");
  assert.deepEqual(px(3, 0), [0, 0, 0, 0], "clipped at x1 = 3");
  assert.deepEqual(px(0, 2), [0, 0, 0, 0], "below the squares");
});

test("edgePoint: a point outside the plot is marked where its segment leaves it", () => {
  const r = { x: 0, y: 0, w: 100, h: 50 };
  assert.deepEqual(edgePoint([50, 25], [60, 30], r), [60, 30], "inside: itself");
  assert.deepEqual(edgePoint([50, 25], [250, 25], r), [100, 25]);
  assert.deepEqual(edgePoint([50, 25], [50, -75], r), [50, 0]);
  assert.deepEqual(edgePoint([50, 25], [150, 75], r), [100, 50], "a corner");
});

// The synthetic HMC path stops as sim/sampler's does: at the first point
// whose energy error passes 1000.
test("hmcPath: a divergent path stops where the energy error blew up", () => {
  const t = hmcPath({ eps: 0.45 });
  assert.ok(t.divergent && !t.accepted);
  assert.equal(t.divergentAt, t.path.length - 1);
  const d = decode(t);
  assert.equal(d.divergentAt, t.divergentAt);
  assert.ok(hmcPath({ eps: 0.05, steps: 10 }).divergent === false, "a small step does not diverge");
});

// PlaneView in slow motion: a transition arriving while another is being
// revealed waits for it, then is revealed in turn; cancel shows all.
test("PlaneView: slow motion queues the newest transition and cancel stops", async () => {
  const s = scheduler();
  const view = new PlaneView({}, { rate: 10, sched: s });
  view.setSlow(true);
  const t1 = nutsTree({ dirs: [1, -1] }); // 4 points
  const t2 = nutsTree({ dirs: [1, -1, 1] }); // 8 points
  view.setFrame({ transition: t1 });
  assert.equal(view.revealed, 1);
  view.setFrame({ transition: t2 });
  assert.equal(view.run.transition, t1, "t2 waits");
  s.advance(150);
  assert.equal(view.revealed, 2);
  for (let k = 0; k < 4; k++) s.advance(100);
  await new Promise((r) => setImmediate(r));
  assert.equal(view.run?.transition, t2, "t1 done, t2 begun");
  s.advance(250);
  assert.equal(view.revealed, 3);
  view.cancel();
  assert.equal(view.revealed, Infinity);
  assert.equal(view.run, null);
  s.advance(1000);
  assert.equal(view.revealed, Infinity, "nothing moves after cancel");
  assert.equal(await view.step(null), "done");
});

// PlaneView.update paints only when the canvas would change: a reveal's
// animation frames that show no new point, and a stream's frames that
// renew the transition while another is being revealed, draw nothing
// anew; the tree drawn is always the one being revealed.
test("PlaneView: update paints what changed, the revealed transition", async () => {
  const s = scheduler();
  const canvas = { getContext: () => ({}), clientWidth: 400, clientHeight: 300 };
  const view = new PlaneView(canvas, { rate: 10, sched: s });
  const drawn = []; // the transition each paint drew, and how much of it
  view.paint = function () {
    drawn.push([this.drawn(), this.revealed]);
    this.painted = this.remember(this.size());
  };
  const t1 = nutsTree({ dirs: [1, -1] }); // 4 points
  const t2 = nutsTree({ dirs: [1, -1, 1] });
  const frame = { transition: t1 };
  view.setFrame(frame);
  view.update();
  view.update();
  assert.deepEqual(drawn, [[t1, Infinity]], "a second update with nothing changed paints nothing");
  view.setSlow(true);
  view.step(t1);
  assert.deepEqual(drawn.at(-1), [t1, 1], "the reveal begins with its start");
  const paints = drawn.length;
  for (let k = 0; k < 4; k++) s.advance(20); // 80 ms at 10 points a second: no new point
  assert.equal(drawn.length, paints, "animation frames that show no new point paint nothing");
  view.setFrame({ transition: t2 }); // a stream's next frame, mid-reveal
  view.update();
  assert.deepEqual(drawn.at(-1), [t1, 1], "the new frame drawn with the tree being revealed, not its own");
  s.advance(30);
  assert.deepEqual(drawn.at(-1), [t1, 2]);
  canvas.clientWidth = 500;
  const before = drawn.length;
  view.update();
  assert.equal(drawn.length, before + 1, "a resized canvas is painted");
  view.cancel();
});

test("contoursOf: traced once per grid and box value", () => {
  const g = gridOf((x, y) => -0.5 * (x * x + y * y), { x: [-5, 5], y: [-5, 5] }, 64);
  const a = contoursOf(g, { x: [-5, 5], y: [-5, 5] });
  assert.equal(contoursOf(g, { x: [-5, 5], y: [-5, 5] }), a, "a renewed box of the same value hits the cache");
  assert.notEqual(contoursOf(g, { x: [-4, 4], y: [-5, 5] }), a);
});

// A canvas context that records its calls, for drawPlane without a browser.
function recorder() {
  const calls = [];
  const ctx = new Proxy(
    {},
    {
      get: (_, name) => (name === "calls" ? calls : (...args) => calls.push([name, ...args])),
      set: () => true,
    },
  );
  return ctx;
}
globalThis.Path2D ??= class {
  rect() {}
};

// drawPlane on every kind of frame: the names the target gives label the
// axes, a partial reveal draws fewer points than the whole, and frames
// missing parts (no exact, no draws, no transition) draw what they have.
test("drawPlane: labels, reveal and partial frames", () => {
  const f = bananaFrame({ n: 48, count: 400 });
  f.params = ["v", "x"];
  const arcs = (view) => {
    const ctx = recorder();
    drawPlane(ctx, f, view, 390, 844);
    return ctx.calls;
  };
  const all = arcs({ revealed: Infinity });
  const texts = all.filter((c) => c[0] === "fillText").map((c) => c[1]);
  assert.ok(texts.includes("v") && texts.includes("x"), `axis names among ${texts}`);
  assert.ok(texts.includes("\u22124") && texts.includes("4"), "x ticks at both ends of the box");
  const count = (calls) => calls.filter((c) => c[0] === "arc").length;
  assert.ok(count(arcs({ revealed: 3 })) < count(all), "three points draw fewer marks than all");
  for (const part of ["exact", "draws", "transition", "divergences"]) {
    const g = { ...f, [part]: undefined };
    const ctx = recorder();
    const L = drawPlane(ctx, g, { presentation: true }, 1280, 720);
    assert.ok(L.plot.w > 0 && ctx.calls.length > 0, part);
  }
  const empty = recorder();
  drawPlane(empty, null, {}, 400, 300);
  assert.deepEqual(empty.calls.map((c) => c[0]), ["fillRect"], "no frame: a blank canvas");
});

// Over an opaque pixel the integer path gives d + α(c − d) to within one
// level (α is taken in 256ths and the product floored).
test("rasterSquares: over an opaque fill, d + α(c − d) per channel", () => {
  const w = 3;
  const data = new Uint8ClampedArray(4 * w * 3);
  for (let o = 0; o < data.length; o += 4) data.set([200, 100, 50, 255], o);
  rasterSquares(data, w, { x: [1], y: [1], ax: 0.5, bx: 1, ay: 0.5, by: 1, from: 0, to: 1 }, [[0, 114, 178]], 0.35, 1, { x0: 0, y0: 0, x1: 3, y1: 3 });
  const o = 4 * (1 * w + 1);
  const want = [200 + 0.35 * (0 - 200), 100 + 0.35 * (114 - 100), 50 + 0.35 * (178 - 50), 255];
  Array.from(data.slice(o, o + 4)).forEach((v, i) => assert.ok(Math.abs(v - want[i]) <= 1, `channel ${i}: ${v} against ${want[i]}`));
  assert.deepEqual(Array.from(data.slice(0, 4)), [200, 100, 50, 255], "the pixels around are kept");
});

// Over an opaque image, every pixel as the per-channel rule in integers
// gives it, d + ⌊A(c − d)/256⌋ with A = round(256α), square by square in
// order: random squares, overlapping, of random colours and opacities,
// some partly outside the clip.
test("rasterSquares: over an opaque image, exactly d + ⌊A(c − d)/256⌋ per channel, in order", () => {
  const u = rng(5);
  const w = 23;
  const h = 17;
  for (let trial = 0; trial < 20; trial++) {
    const data = new Uint8ClampedArray(4 * w * h);
    for (let o = 0; o < data.length; o += 4) data.set([255 * u(), 255 * u(), 255 * u(), 255], o);
    const colours = [0, 1, 2].map(() => [0, 1, 2].map(() => Math.floor(256 * u())));
    const alpha = trial === 0 ? 1 : u();
    const size = 1 + Math.floor(4 * u());
    const n = 40;
    const pts = { x: [], y: [], chain: [], ax: 0, bx: 1, ay: 0, by: 1, from: 0, to: n };
    for (let k = 0; k < n; k++) {
      pts.x.push(-3 + (w + 6) * u());
      pts.y.push(-3 + (h + 6) * u());
      pts.chain.push(Math.floor(3 * u()));
    }
    const clip = { x0: 2, y0: 1, x1: w - 1, y1: h - 2 };
    const want = data.slice();
    const A = Math.round(alpha * 256);
    for (let k = 0; k < n; k++) {
      const i0 = Math.max(clip.x0, Math.round(pts.x[k] - size / 2));
      const j0 = Math.max(clip.y0, Math.round(pts.y[k] - size / 2));
      for (let j = j0; j < Math.min(clip.y1, j0 + size); j++) {
        for (let i = i0; i < Math.min(clip.x1, i0 + size); i++) {
          for (let ch = 0; ch < 3; ch++) {
            const o = 4 * (j * w + i) + ch;
            want[o] = want[o] + Math.floor((A * (colours[pts.chain[k]][ch] - want[o])) / 256);
          }
        }
      }
    }
    rasterSquares(data, w, pts, colours, alpha, size, clip);
    assert.deepEqual(Array.from(data), Array.from(want), `trial ${trial}: α ${alpha}, size ${size}`);
  }
});

test("divergences held in a growing buffer count only the filled part", () => {
  // The gallery keeps divergences in a fixed-capacity buffer with a count;
  // the unused slots (zeros) are not divergences and must not be drawn.
  const frame = bananaFrame();
  const x = new Float64Array(1000);
  const y = new Float64Array(1000);
  x[0] = 1; y[0] = 2; x[1] = -1; y[1] = 3;
  frame.divergences = { x, y, count: 2 };
  assert.match(describeFrame(frame), /small red crosses: 2 divergences so far/);
  const crosses = [];
  const ctx = new Proxy({}, {
    get: (_, k) => (k === "moveTo" ? (px, py) => crosses.push([px, py]) : () => {}),
    set: () => true,
  });
  drawDivergences(ctx, frame.divergences, { px: (v) => v, py: (v) => v }, 1);
  assert.equal(crosses.length, 2 * 2, "two crosses, two strokes each");
});
