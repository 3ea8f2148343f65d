// The plane view of the two-dimensional gallery: one canvas per panel
// that draws, over a target's box, the exact density as filled contours
// of its highest-density regions, q's contours (or SVGD's particles) over
// them, the draws as points in their chains' colours, the latest
// transition (a proposal's arrow, HMC's leapfrog path, NUTS's whole tree,
// a divergence), the divergences so far, and the marginal histograms of
// the draws under the exact marginals. drawPlane is a function of (frame,
// view state) alone; PlaneView owns a canvas, its size, and the
// slow-motion reveal of a transition (plane_anim.js).
//
// The frame it consumes:
//
// @typedef {{x: [number, number], y: [number, number]}} Box
//   The target's box (sim/target's Box): the first parameter's range
//   along x, the second's along y.
//
// @typedef {Object} Grid
//   A density on an n × n grid over the box (sim/target's Grid.Density).
// @property {number} n
// @property {ArrayLike<number>} values  values[j·n + i] at the centre of
//   cell (i, j): i along x, rows j from the box's lower edge.
// @property {boolean} [log]  values are log densities (up to a constant).
// @property {[ArrayLike<number>, ArrayLike<number>]} [marginals]  each
//   parameter's marginal density at the centres of n equal cells across
//   the box (sim/target's Grid.Marginal), drawn over the histograms.
//
// @typedef {Object} Draws  newest last, in flat arrays (a Float64Array
//   serves) of which the first count are used.
// @property {ArrayLike<number>} x
// @property {ArrayLike<number>} y
// @property {ArrayLike<number>} [chain]  each draw's chain, 0, 1, …
// @property {number} [count]  defaults to x.length
//
// @typedef {Object} Doubling  (sim/sampler's Doubling)
// @property {number} dir  +1 forward, −1 backward
// @property {number} depth
// @property {number} first  path index of its first new point
// @property {number} last
// @property {boolean} merged  false: the half was thrown away
//
// @typedef {Object} Subtree  (sim/sampler's Subtree)
// @property {number} depth
// @property {number} first
// @property {number} last
// @property {boolean} uturn
// @property {boolean} divergent
//
// @typedef {Object} Transition  one transition's mechanics (sim/sampler's
//   Record; a point is [x, y]).
// @property {string} kind  "metropolis", "mala", "langevin", "hmc", "nuts"
// @property {[number, number]} start
// @property {[number, number]} proposal  HMC: the path's end; NUTS: the
//   chosen point
// @property {boolean} accepted
// @property {Array<[number, number]>} [path]  HMC's leapfrog points from
//   start; NUTS's every leapfrog point in the order computed, start first
// @property {boolean} [divergent]
// @property {number} [divergentAt]  path index where the energy error
//   passed the threshold (−1: none)
// @property {Doubling[]} [doublings]
// @property {Subtree[]} [subtrees]
// @property {number} [chosen]  path index the chain moved to
// @property {string} [stop]  why NUTS's tree stopped
//
// @typedef {Object} PlaneFrame
// @property {Box} box
// @property {[string, string]} params  the parameters' names ("x", "y";
//   the funnel's "v", "x")
// @property {Grid} exact  the exact density (with its marginals)
// @property {Grid} [q]  a variational family's density, drawn as lines
// @property {{x: ArrayLike<number>, y: ArrayLike<number>}} [particles]  SVGD's
// @property {Draws} [draws]
// @property {number} [chains]  how many chains (colours) there are
// @property {Transition} [transition]  the latest transition
// @property {{x: ArrayLike<number>, y: ArrayLike<number>}} [divergences]
//   where the divergent transitions so far diverged
//
// The view state: {revealed, presentation, highlight}: how many of the
// transition's points show (Infinity: all, and its arrow and chosen
// point), the presentation-mode flag (larger type), and how many of the
// newest draws are highlighted.

import { gridContours } from "./plane_levels.js";
import { edgePoint, layout, tickCount, tickLabel, ticks, transform } from "./plane_geom.js";
import { binCount, histogram, marginalPoints, maxOf } from "./plane_hist.js";
import { decode, visible } from "./plane_tree.js";
import { Reveal, animate } from "./plane_anim.js";
import { Layers, parseHex, rasterSquares } from "./plane_layers.js";

// Okabe & Ito's colour-blind-safe palette, without its vermillion (the
// red of rejections and divergences) and its yellow (unreadable on white).
export const CHAIN_COLORS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#555555"];
// The exact density's regions, from the 99% region (lightest) in: greys
// evenly spaced in lightness, under coloured points.
const RAMP = ["#f4f4f4", "#e4e4e4", "#d2d2d2", "#bfbfbf", "#ababab", "#969696"];
const INK = "#1f2937";
const Q = "#7b2cbf";
const ACCEPT = "#1a9641";
const REJECT = "#d7191c";
const TURN = "#e66101";
const HIST = "rgba(0, 114, 178, 0.30)";

export const HIGHLIGHT = 300;

const contourCache = new WeakMap(); // grid → {key, c}

// contoursOf returns a grid's contours over box, traced once per grid
// object and box (a frame's grid is immutable: a new density is a new
// grid; the box is compared by value, as a stream renews it each frame).
export function contoursOf(grid, box) {
  const key = `${box.x} ${box.y}`;
  const hit = contourCache.get(grid);
  if (hit && hit.key === key) return hit.c;
  const c = gridContours(grid, box);
  contourCache.set(grid, { key, c });
  return c;
}

// drawPlane draws frame on ctx (CSS pixels, w × h) in view state: the
// base (drawBase) and the transition over it (drawTransitionLayer).
export function drawPlane(ctx, frame, view, w, h) {
  const L = drawBase(ctx, frame, view, w, h);
  drawTransitionLayer(ctx, frame, view, L);
  return L;
}

// drawBase draws everything but the transition: what changes only with
// the frame, so that a view animating a transition can keep it as an
// image and repaint only the transition each animation frame.
export function drawBase(ctx, frame, view, w, h) {
  const L = layout(w, h, view.presentation);
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, w, h);
  if (!frame?.box) return L;
  const T = transform(frame.box, L.plot);
  clipTo(ctx, L.plot);
  const k = marks(view);
  const exact = frame.exact ? contoursOf(frame.exact, frame.box) : null;
  // With layers (a PlaneView's), the exact density's fill and outlines are
  // kept as images, and the draws rastered into a pixel buffer.
  const lay = view.layers;
  const dpr = view.dpr ?? 1;
  const W = Math.round(w * dpr);
  const H = Math.round(h * dpr);
  const gkey = `${exact ? idOf(frame.exact) : "-"} ${frame.box.x} ${frame.box.y} ${W} ${H} ${dpr} ${k}`;
  const d = frame.draws;
  const n = d ? Math.min(d.count ?? d.x.length, d.x.length, d.y.length) : 0;
  const fresh = Math.max(0, n - (view.highlight ?? HIGHLIGHT));
  if (lay) {
    // The fill's pixels, kept, with the older draws composited in,
    // replace the plot's pixels: no canvas path and no image drawn.
    const under = lay.imageData("under", gkey, W, H, dpr, (c) => {
      c.fillStyle = "#ffffff";
      c.fillRect(0, 0, w, h);
      if (exact) fillRegions(c, exact, T);
    });
    const work = lay.scratchData(W, H);
    work.data.set(under.data);
    const clip = {
      x0: Math.max(0, Math.floor(L.plot.x * dpr)),
      y0: Math.max(0, Math.floor(L.plot.y * dpr)),
      x1: Math.min(W, Math.ceil((L.plot.x + L.plot.w) * dpr)),
      y1: Math.min(H, Math.ceil((L.plot.y + L.plot.h) * dpr)),
    };
    // T.px(v)·dpr = (T.px(0) + T.sx·v)·dpr; T.py(v)·dpr = (T.py(0) − T.sy·v)·dpr
    if (d) rasterSquares(work.data, W, { ...d, ax: T.px(0) * dpr, bx: T.sx * dpr, ay: T.py(0) * dpr, by: -T.sy * dpr, from: 0, to: fresh }, RGB, 0.35, Math.max(1, Math.round(2 * k * dpr)), clip);
    ctx.putImageData(work, 0, 0, clip.x0, clip.y0, clip.x1 - clip.x0, clip.y1 - clip.y0);
  } else {
    if (exact) fillRegions(ctx, exact, T);
    if (d) paintSquares(ctx, d, T, 0, fresh, 2 * k, 0.35);
  }
  if (d) paintSquares(ctx, d, T, fresh, n, 3.5 * k, 0.95); // the newest, larger and opaque
  // the outlines go over the draws, which hide the fill
  // (kept as one image with the axes, which change only with the box)
  const outline = (c) => {
    if (exact) {
      clipTo(c, L.plot);
      strokeRegions(c, exact, T);
      c.restore();
    }
    drawAxes(c, frame, L, T);
  };
  ctx.restore();
  if (lay) blit(ctx, lay.image("lines", `${gkey} ${frame.params}`, W, H, dpr, outline));
  else outline(ctx);
  clipTo(ctx, L.plot);
  if (frame.q) drawQ(ctx, contoursOf(frame.q, frame.box), T);
  if (frame.particles) drawParticles(ctx, frame.particles, T, k);
  if (frame.divergences) drawDivergences(ctx, frame.divergences, T, k);
  ctx.restore();
  drawMarginals(ctx, frame, L);
  return L;
}

// drawTransitionLayer draws the frame's transition, its first
// view.revealed points, inside the plot of layout L.
export function drawTransitionLayer(ctx, frame, view, L) {
  if (!frame?.box || !frame.transition) return;
  clipTo(ctx, L.plot);
  drawTransition(ctx, decode(frame.transition), transform(frame.box, L.plot), view.revealed ?? Infinity, marks(view), L.plot);
  ctx.restore();
}

// blit draws a canvas of the same device size over ctx, pixel for pixel.
function blit(ctx, image) {
  ctx.save();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.drawImage(image, 0, 0);
  ctx.restore();
}

const ids = new WeakMap();
let lastId = 0;
// idOf names an object for a layer's key: a grid is immutable, and a
// stream's frames keep the same grid object until the density changes
// (the contours are traced once per grid object too).
function idOf(o) {
  if (!ids.has(o)) ids.set(o, ++lastId);
  return ids.get(o);
}

const marks = (view) => (view.presentation ? 1.4 : 1); // marks grow with the type

function clipTo(ctx, r) {
  ctx.save();
  ctx.beginPath();
  ctx.rect(r.x, r.y, r.w, r.h);
  ctx.clip();
}

function ringsPath(ctx, rings, T) {
  ctx.beginPath();
  for (const ring of rings) {
    ring.forEach(([x, y], k) => (k ? ctx.lineTo(T.px(x), T.py(y)) : ctx.moveTo(T.px(x), T.py(y))));
    ctx.closePath();
  }
}

// fillRegions fills each highest-density region, outermost first, so the
// bands between levels darken towards the mode; strokeRegions outlines
// them.
function fillRegions(ctx, c, T) {
  c.rings.forEach((rings, k) => {
    ringsPath(ctx, rings, T);
    ctx.fillStyle = RAMP[Math.min(k, RAMP.length - 1)];
    ctx.fill("evenodd");
  });
}

function strokeRegions(ctx, c, T) {
  ctx.strokeStyle = "rgba(17, 24, 39, 0.55)";
  ctx.lineWidth = 1;
  for (const rings of c.rings) {
    ringsPath(ctx, rings, T);
    ctx.stroke();
  }
}

function drawQ(ctx, c, T) {
  ctx.strokeStyle = Q;
  ctx.lineWidth = 2;
  for (const rings of c.rings) {
    ringsPath(ctx, rings, T);
    ctx.stroke();
  }
}

const RGB = CHAIN_COLORS.map(parseHex);

// paintSquares draws draws [from, to) as squares through one canvas path
// per chain.
function paintSquares(ctx, d, T, from, to, size, alpha) {
  const paths = CHAIN_COLORS.map(() => new Path2D());
  for (let k = from; k < to; k++) {
    const c = d.chain ? d.chain[k] % CHAIN_COLORS.length : 0;
    paths[c].rect(T.px(d.x[k]) - size / 2, T.py(d.y[k]) - size / 2, size, size);
  }
  ctx.globalAlpha = alpha;
  paths.forEach((p, c) => {
    ctx.fillStyle = CHAIN_COLORS[c];
    ctx.fill(p);
  });
  ctx.globalAlpha = 1;
}

function drawParticles(ctx, p, T, s) {
  ctx.fillStyle = Q;
  ctx.strokeStyle = "#ffffff";
  ctx.lineWidth = 1;
  for (let k = 0; k < Math.min(p.x.length, p.y.length); k++) {
    ctx.beginPath();
    ctx.arc(T.px(p.x[k]), T.py(p.y[k]), 3.5 * s, 0, 2 * Math.PI);
    ctx.fill();
    ctx.stroke();
  }
}

function cross(ctx, x, y, r) {
  ctx.moveTo(x - r, y - r);
  ctx.lineTo(x + r, y + r);
  ctx.moveTo(x - r, y + r);
  ctx.lineTo(x + r, y - r);
}

function drawDivergences(ctx, dv, T, s) {
  ctx.strokeStyle = REJECT;
  ctx.lineWidth = 1.5 * s;
  ctx.beginPath();
  for (let k = 0; k < Math.min(dv.x.length, dv.y.length); k++) cross(ctx, T.px(dv.x[k]), T.py(dv.y[k]), 3.5 * s);
  ctx.stroke();
}

function arrow(ctx, [x0, y0], [x1, y1], color, dashed, s) {
  const len = Math.hypot(x1 - x0, y1 - y0);
  if (len < 1) return;
  const ux = (x1 - x0) / len;
  const uy = (y1 - y0) / len;
  const head = Math.min(12 * s, len / 2);
  ctx.fillStyle = color;
  ctx.setLineDash(dashed ? [6, 4] : []);
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.lineTo(x1 - ux * head * 0.8, y1 - uy * head * 0.8);
  halo(ctx, 2.5 * s, color);
  ctx.setLineDash([]);
  ctx.beginPath();
  ctx.moveTo(x1, y1);
  ctx.lineTo(x1 - ux * head - uy * head * 0.45, y1 - uy * head + ux * head * 0.45);
  ctx.lineTo(x1 - ux * head + uy * head * 0.45, y1 - uy * head - ux * head * 0.45);
  ctx.closePath();
  ctx.fill();
}

// drawTransition draws the first r points of a decoded transition: its
// polylines and points (a thrown-away NUTS half dashed and hollow), the
// ends of the subtrees that made a U-turn joined by a dashed chord, the
// start, the divergence once reached, and, when every point shows, the
// chosen point and the arrow from start to proposal (green accepted,
// red and dashed rejected).
function drawTransition(ctx, tr, T, r, s, plot) {
  const shown = Math.min(r, tr.total);
  const P = (i) => [T.px(tr.points[i][0]), T.py(tr.points[i][1])];
  const dot = (i, rad) => {
    ctx.beginPath();
    ctx.arc(...P(i), rad, 0, 2 * Math.PI);
  };
  for (const seg of tr.segments) {
    const idx = visible(seg, shown);
    if (idx.length === 0) continue;
    ctx.setLineDash(seg.merged ? [] : [4, 3]);
    ctx.beginPath();
    idx.forEach((i, k) => (k ? ctx.lineTo(...P(i)) : ctx.moveTo(...P(i))));
    halo(ctx, 1.8 * s, seg.merged ? INK : "#4b5563");
    ctx.setLineDash([]);
    ctx.lineWidth = 1.2 * s;
    for (const i of idx.slice(1)) {
      dot(i, 3 * s);
      ctx.fillStyle = seg.merged ? INK : "#ffffff";
      ctx.fill();
      ctx.strokeStyle = seg.merged ? "#ffffff" : "#4b5563";
      ctx.stroke();
    }
  }
  for (const e of tr.ends) {
    if (e.last >= shown || !e.uturn) continue;
    ctx.setLineDash([3, 3]);
    ctx.beginPath();
    ctx.moveTo(...P(e.first));
    ctx.lineTo(...P(e.last));
    halo(ctx, 2 * s, TURN);
    ctx.setLineDash([]);
    for (const i of [e.first, e.last]) {
      dot(i, 5.5 * s);
      ctx.stroke();
    }
  }
  if (tr.points.length > 0) {
    const [sx, sy] = P(0);
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(sx - 5.5 * s, sy - 5.5 * s, 11 * s, 11 * s);
    ctx.fillStyle = "#000000";
    ctx.fillRect(sx - 4 * s, sy - 4 * s, 8 * s, 8 * s);
  }
  if (tr.divergentAt >= 0 && tr.divergentAt < shown) {
    // far outside the box, it is marked where its last step leaves it
    const m = 10 * s; // the cross whole inside the plot
    const inner = { x: plot.x + m, y: plot.y + m, w: plot.w - 2 * m, h: plot.h - 2 * m };
    const [x, y] = tr.divergentAt > 0 ? edgePoint(P(tr.divergentAt - 1), P(tr.divergentAt), inner) : P(0);
    ctx.beginPath();
    cross(ctx, x, y, 9 * s);
    halo(ctx, 3.5 * s, REJECT);
  }
  if (shown < tr.total) return;
  // A divergent transition's rejection is its cross; an arrow to a point
  // far outside the box would only point away.
  if (tr.arrow && tr.divergentAt < 0) {
    const to = [T.px(tr.arrow.to[0]), T.py(tr.arrow.to[1])];
    arrow(ctx, P(0), to, tr.arrow.accepted ? ACCEPT : REJECT, !tr.arrow.accepted, s);
    if (tr.segments.length === 0) {
      ctx.beginPath();
      ctx.arc(...to, 4 * s, 0, 2 * Math.PI);
      ctx.fillStyle = tr.arrow.accepted ? ACCEPT : REJECT;
      ctx.fill();
    }
  }
  if (tr.chosen >= 0) {
    dot(tr.chosen, 9 * s);
    halo(ctx, 2.5 * s, ACCEPT);
  }
}

// halo strokes the current path in color over a white band twice as wide,
// so that a mark reads over 20,000 points.
function halo(ctx, width, color) {
  ctx.strokeStyle = "rgba(255, 255, 255, 0.9)";
  ctx.lineWidth = width * 2.4;
  ctx.stroke();
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  ctx.stroke();
}

function drawAxes(ctx, frame, L, T) {
  const { plot, fonts: f } = L;
  ctx.strokeStyle = "#6b7280";
  ctx.lineWidth = 1;
  ctx.strokeRect(plot.x + 0.5, plot.y + 0.5, plot.w - 1, plot.h - 1);
  ctx.fillStyle = INK;
  ctx.font = `${f.tick}px system-ui, sans-serif`;
  const tick = 5;
  ctx.textAlign = "center";
  ctx.textBaseline = "top";
  for (const v of ticks(...frame.box.x, tickCount(plot.w, f.tick * 3.2))) {
    const x = T.px(v);
    ctx.fillRect(x - 0.5, plot.y + plot.h, 1, tick);
    ctx.fillText(tickLabel(v), x, plot.y + plot.h + tick + 2);
  }
  ctx.textAlign = "right";
  ctx.textBaseline = "middle";
  for (const v of ticks(...frame.box.y, tickCount(plot.h, f.tick * 1.4))) {
    const y = T.py(v);
    ctx.fillRect(plot.x - tick, y - 0.5, tick, 1);
    ctx.fillText(tickLabel(v), plot.x - tick - 3, y);
  }
  const [nx, ny] = frame.params ?? ["x", "y"];
  ctx.font = `italic ${f.label}px system-ui, sans-serif`;
  ctx.textAlign = "center";
  ctx.textBaseline = "bottom";
  ctx.fillText(nx, plot.x + plot.w / 2, L.h - 4);
  ctx.save();
  ctx.translate(4 + f.label * 0.6, plot.y + plot.h / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.textBaseline = "middle";
  ctx.fillText(ny, 0, 0);
  ctx.restore();
}

// drawMarginals draws each parameter's histogram of the draws (as a
// density) in its strip with the exact marginal over it as a line, and
// q's marginal, where the frame has it, dashed.
function drawMarginals(ctx, frame, L) {
  const d = frame.draws;
  const n = d ? Math.min(d.count ?? d.x.length, d.x.length) : 0;
  for (const axis of [0, 1]) {
    const strip = axis === 0 ? L.top : L.right;
    const [lo, hi] = axis === 0 ? frame.box.x : frame.box.y;
    const hist = n > 0 ? histogram(axis === 0 ? d.x : d.y, lo, hi, binCount(n), n) : null;
    const exact = frame.exact?.marginals?.[axis];
    const q = frame.q?.marginals?.[axis];
    const top = maxOf(hist?.density, exact, q) * 1.08;
    if (!(top > 0)) continue;
    // along = position along the axis, across = height of the density
    const along = (v) => (axis === 0 ? strip.x : strip.y + strip.h) + ((v - lo) / (hi - lo)) * (axis === 0 ? strip.w : -strip.h);
    const across = (dv) => (axis === 0 ? strip.y + strip.h : strip.x) + (dv / top) * (axis === 0 ? -strip.h : strip.w);
    const pt = (a, b) => (axis === 0 ? [a, b] : [b, a]);
    ctx.strokeStyle = "#d1d5db";
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(...pt(along(lo), across(0)));
    ctx.lineTo(...pt(along(hi), across(0)));
    ctx.stroke();
    if (hist) {
      ctx.fillStyle = HIST;
      ctx.beginPath();
      hist.density.forEach((dv, b) => {
        if (dv <= 0) return;
        const [a0, a1] = [along(hist.edges[b]), along(hist.edges[b + 1])];
        const [c0, c1] = [across(0), across(dv)];
        if (axis === 0) ctx.rect(a0, c1, a1 - a0, c0 - c1);
        else ctx.rect(c0, a1, c1 - c0, a0 - a1);
      });
      ctx.fill();
    }
    const line = (m, color, dash) => {
      ctx.strokeStyle = color;
      ctx.lineWidth = 1.8;
      ctx.setLineDash(dash);
      ctx.beginPath();
      marginalPoints(m, lo, hi).forEach(([v, dv], k) => (k ? ctx.lineTo(...pt(along(v), across(dv))) : ctx.moveTo(...pt(along(v), across(dv)))));
      ctx.stroke();
      ctx.setLineDash([]);
    };
    if (exact) line(exact, INK, []);
    if (q) line(q, Q, [5, 3]);
  }
}

// describe is a frame's picture in words: the canvas's accessible name and
// the key a page shows under it.
export function describe(frame, view = {}) {
  if (!frame?.box) return "";
  const [nx, ny] = frame.params ?? ["x", "y"];
  const parts = [`${ny} against ${nx}. Shaded: the exact density, its regions of highest density holding 99, 95, 80, 60, 40 and 20% of the mass`];
  if (frame.q) parts.push("purple lines: q's regions holding the same shares");
  if (frame.particles) parts.push(`purple dots: ${frame.particles.x.length} SVGD particles`);
  const n = frame.draws ? Math.min(frame.draws.count ?? frame.draws.x.length, frame.draws.x.length) : 0;
  if (n > 0) parts.push(`dots: ${n} draws in ${frame.chains ?? 1} chain colours, the newest ${Math.min(n, view.highlight ?? HIGHLIGHT)} larger`);
  const t = frame.transition;
  if (t) {
    const kind = t.kind ?? "transition";
    if (t.doublings?.length) parts.push(`${kind}: its tree of ${t.path?.length ?? 0} leapfrog points in ${t.doublings.length} doublings (dashed: a half thrown away; orange: a subtree's ends that turned), the chosen point ringed`);
    else if (t.path?.length) parts.push(`${kind}: its leapfrog path of ${t.path.length} points`);
    if (t.divergent) parts.push("red cross: where the energy error blew up (rejected)");
    else parts.push(`arrow: the move, ${t.accepted ? "green: accepted" : "red, dashed: rejected"}`);
  }
  if (frame.divergences?.x?.length) parts.push(`small red crosses: ${frame.divergences.x.length} divergences so far`);
  parts.push(n > 0 ? "top and right: the draws' marginal histograms under the exact marginals" : "top and right: the exact marginals");
  return parts.join(" · ");
}

// PlaneView draws frames on a canvas that follows its element's size, and
// animates transitions in slow motion on request.
export class PlaneView {
  constructor(canvas, opts = {}) {
    this.canvas = canvas;
    this.presentation = !!opts.presentation;
    this.highlight = opts.highlight ?? HIGHLIGHT;
    this.rate = opts.rate ?? 12; // slow motion, points a second
    // A phone's screen has 3 device pixels a CSS pixel: 9 times the pixels
    // to fill at 1, where 2 already draws ticks and points crisply.
    this.maxDpr = opts.maxDpr ?? 2;
    this.sched = opts.sched; // {raf, caf, now}: the browser's when absent (tests pass a fake)
    this.slow = false;
    this.frame = null;
    this.revealed = Infinity;
    this.run = null; // {reveal, handle, transition}
    this.pending = null; // a transition that arrived during a slow reveal
    this.queued = false;
    this.draws = 0; // paints, and of them bases drawn afresh: for the harness
    this.baseDraws = 0;
    this.base = null; // {canvas, frame, key, L}: the base layer as an image
    this.described = null;
  }

  // setFrame shows frame; its transition is drawn whole, or, in slow
  // motion, revealed point by point once the current reveal finishes.
  setFrame(frame) {
    const t = frame?.transition;
    const shown = this.run?.transition;
    this.frame = frame;
    if (this.slow && t && t !== shown) {
      if (this.run) this.pending = t;
      else this.step(t);
    }
    this.invalidate();
  }

  setPresentation(on) {
    this.presentation = !!on;
    this.invalidate();
  }

  // setSlow turns slow motion on or off (off cancels a reveal).
  setSlow(on, rate = this.rate) {
    this.slow = !!on;
    this.rate = rate;
    if (!this.slow) {
      this.cancel();
      this.invalidate();
    }
  }

  // step reveals one transition (by default the frame's latest) point by
  // point at the slow-motion rate, and resolves to "done" or "cancelled".
  step(transition = this.frame?.transition) {
    const sched = this.sched;
    this.cancel();
    if (!transition) return Promise.resolve("done");
    const total = decode(transition).total;
    const reveal = new Reveal(total, this.rate, (sched?.now ?? (() => performance.now()))());
    const run = { reveal, transition };
    this.run = run;
    run.handle = animate(
      reveal,
      (shown) => {
        this.revealed = reveal.state === "done" ? Infinity : shown;
        this.paint();
      },
      sched,
    );
    return run.handle.done.then((state) => {
      if (this.run === run) {
        this.run = null;
        this.revealed = Infinity;
        const next = this.pending;
        this.pending = null;
        if (next && this.slow && state === "done") this.step(next);
        else this.invalidate();
      }
      return state;
    });
  }

  // cancel stops a reveal and shows the transition whole.
  cancel() {
    const run = this.run;
    this.run = null;
    this.pending = null;
    this.revealed = Infinity;
    run?.handle?.cancel();
  }

  // invalidate asks for a redraw on the next animation frame.
  invalidate() {
    if (this.queued || typeof requestAnimationFrame !== "function") return;
    this.queued = true;
    requestAnimationFrame(() => {
      this.queued = false;
      this.paint();
    });
  }

  // paint draws now, the canvas sized to its element at the device's
  // pixel ratio. The base is kept as an image while the frame, its draws'
  // count, the size and the type stay the same, so a reveal repaints only
  // the transition.
  paint() {
    const c = this.canvas;
    if (!c?.getContext) return;
    const dpr = Math.min(this.maxDpr, globalThis.devicePixelRatio || 1);
    const w = Math.max(200, c.clientWidth || 400);
    const h = Math.max(200, c.clientHeight || 400);
    const W = Math.round(w * dpr);
    const H = Math.round(h * dpr);
    if (c.width !== W || c.height !== H) {
      c.width = W;
      c.height = H;
    }
    this.layers ??= new Layers((w, h) => Object.assign(document.createElement("canvas"), { width: w, height: h }));
    const view = { revealed: this.revealed, presentation: this.presentation, highlight: this.highlight, layers: this.layers, dpr };
    const f = this.frame;
    const key = [W, H, dpr, this.presentation, this.highlight, f?.draws?.count ?? f?.draws?.x?.length ?? 0].join(" ");
    if (!this.base || this.base.frame !== f || this.base.key !== key) {
      const canvas = this.base?.canvas ?? document.createElement("canvas");
      canvas.width = W;
      canvas.height = H;
      const bctx = canvas.getContext("2d");
      bctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      const L = drawBase(bctx, f, view, w, h);
      this.base = { canvas, frame: f, key, L };
      this.baseDraws++;
    }
    const ctx = c.getContext("2d");
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.drawImage(this.base.canvas, 0, 0);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    drawTransitionLayer(ctx, f, view, this.base.L);
    this.draws++;
    c.dataset.revealed = String(this.revealed === Infinity ? "all" : this.revealed);
    if (this.described !== f) {
      this.described = f;
      c.setAttribute("aria-label", describe(f, view));
    }
  }
}

