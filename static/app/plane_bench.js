// The plane view's harness (plane_bench.html): a synthetic banana with
// 20,000 draws in four chains and a NUTS tree that the view reveals point
// by point, over and over, repainting everything each animation frame, so
// that a browser test can measure frames per second and the main thread's
// busy share (web/browser_plane_test.go) and take screenshots. Query:
// count (draws), rate (points a second), present=1 (presentation type),
// kind=nuts|hmc|metropolis (the transition), svgd=1 (particles instead
// of draws), q=1 (a Gaussian q's contours over p's), freeze=k (no animation: the
// tree's first k points, or all with k = all), stream=hz (a new frame hz
// times a second, as the engine's stream sends them, 25 by default there:
// the base with its 20,000 draws is drawn again for each; stream=raf, a
// new frame every animation frame).

import { PlaneView, describe } from "./plane.js";
import { bananaFrame, gridOf, hmcPath } from "./plane_synth.js";

const qs = new URLSearchParams(location.search);
const count = Number(qs.get("count") ?? 20000);
// kind: the transition drawn, NUTS's tree, HMC's path that diverges, or
// a rejected Metropolis proposal
const transitions = {
  nuts: undefined,
  hmc: () => hmcPath({ eps: 0.45 }),
  metropolis: () => ({ kind: "metropolis", start: [0.5, -0.5], proposal: [1.4, 2.6], accepted: false }),
};
const frame = bananaFrame({ count, transition: transitions[qs.get("kind") ?? "nuts"]?.() });
if (qs.get("q") === "1") {
  // the Gaussian with the banana's mean (0, 0) and covariance diag(1, 3)
  // (Var y = 2b² + 1 at b = 1): what a full-rank fit by forward KL finds
  frame.q = gridOf((x, y) => -0.5 * (x * x + (y * y) / 3), frame.box, 128);
}

if (qs.get("svgd") === "1") {
  // 100 particles where the draws were, and no draws or transition: an
  // SVGD panel
  frame.particles = { x: frame.draws.x.slice(0, 100), y: frame.draws.y.slice(0, 100) };
  delete frame.draws;
  delete frame.transition;
}

document.body.style.margin = "0";
document.body.style.fontFamily = "system-ui, sans-serif";
const canvas = document.getElementById("plane");
canvas.style.display = "block";
canvas.style.width = "100vw";
canvas.style.height = "100vh";
const key = document.getElementById("key");
key.style.margin = "0.5rem";
key.style.fontSize = "14px";

const view = new PlaneView(canvas, { presentation: qs.get("present") === "1" });
const bench = { view, ticks: 0, paintMs: 0, paints: 0, ready: false, ink: () => ink(canvas), bases: () => view.baseDraws };
window.planeBench = bench;

// Every paint is timed: its share of the wall time is the drawing's part
// of the main thread's work.
const paint = view.paint.bind(view);
view.paint = () => {
  const t0 = performance.now();
  paint();
  bench.paintMs += performance.now() - t0;
  bench.paints++;
};
const stream = qs.get("stream");
if (stream && stream !== "raf") setInterval(() => (view.frame = { ...frame }), 1000 / Number(stream));
const tick = () => {
  bench.ticks++;
  if (stream === "raf") view.frame = { ...frame };
  requestAnimationFrame(tick);
};
requestAnimationFrame(tick);

const freeze = qs.get("freeze");
if (freeze !== null) {
  view.revealed = freeze === "all" ? Infinity : Number(freeze);
  view.frame = frame;
  view.paint();
} else {
  view.setSlow(true, Number(qs.get("rate") ?? 24));
  view.frame = frame;
  const loop = () => view.step(frame.transition).then((state) => state === "done" && loop());
  loop();
}
key.textContent = describe(frame, view);
bench.ready = true;

// ink counts the canvas's pixels that are not white.
function ink(c) {
  const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
  let n = 0;
  for (let k = 0; k < d.length; k += 4) if (d[k] < 250 || d[k + 1] < 250 || d[k + 2] < 250) n++;
  return n;
}
