// The plane view of the two-dimensional gallery: one canvas per panel
// that draws, over a target's box, the exact density as filled contours
// of its highest-density regions, q's contours (or SVGD's particles) over
// them, the draws as points in their chains' colours, the latest
// transition (a proposal's arrow, HMC's leapfrog path, NUTS's whole tree,
// a divergence), the divergences so far, and the marginal histograms of
// the draws under the exact marginals. drawPlane is a function of (frame,
// view state) alone; PlaneView owns a canvas, its size, the images it
// keeps between paints (plane_layers.js) and the slow-motion reveal of a
// transition (plane_anim.js). The helpers, one job each: plane_geom.js
// (layout, maps, ticks), plane_levels.js (HPD levels and their contours,
// by d3-contour), plane_hist.js (histograms), plane_tree.js (decoding a
// transition), plane_marks.js (particles, divergences, the transition),
// plane_axes.js (axes and marginal strips), plane_style.js (colours),
// plane_words.js (the key); plane_synth.js makes synthetic frames for the
// harness (plane_bench.html) and the tests.
//
// A frame's grids are cached by object (their contours traced once): a
// stream should keep the same grid object until the density changes, and
// send a new q grid (128² is plenty for lines) only when q moves.
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
import { layout, transform } from "./plane_geom.js";
import { decode } from "./plane_tree.js";
import { Reveal, animate } from "./plane_anim.js";
import { Layers, parseHex, rasterSquares } from "./plane_layers.js";
import { drawAxes, drawMarginals } from "./plane_axes.js";
import { drawDivergences, drawParticles, drawTransition } from "./plane_marks.js";
import { CHAIN_COLORS, HIGHLIGHT, Q, RAMP } from "./plane_style.js";
import { describe } from "./plane_words.js";

export { CHAIN_COLORS, HIGHLIGHT, describe };


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

// drawTransitionLayer draws a transition (the frame's unless given), its
// first view.revealed points, inside the plot of layout L.
export function drawTransitionLayer(ctx, frame, view, L, transition = frame?.transition) {
  if (!frame?.box || !transition) return;
  clipTo(ctx, L.plot);
  drawTransition(ctx, decoded(transition), transform(frame.box, L.plot), view.revealed ?? Infinity, marks(view), L.plot);
  ctx.restore();
}

const decodings = new WeakMap(); // transition → decode(transition)

// decoded is decode(t), once per transition object: a reveal repaints the
// same transition on every animation frame.
function decoded(t) {
  let d = decodings.get(t);
  if (!d) decodings.set(t, (d = decode(t)));
  return d;
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

// drawsCount is how many draws a frame holds.
const drawsCount = (f) => f?.draws?.count ?? f?.draws?.x?.length ?? 0;

// setPx sets el's style[k] to v pixels unless at[k], its last value, is v
// already (read each animation frame, the style is written only on a move).
function setPx(el, at, k, v) {
  if (at[k] === v) return;
  at[k] = v;
  el.style[k] = `${v}px`;
}

// makeOverlay lays a canvas over canvas, letting clicks through.
function makeOverlay(canvas) {
  const top = document.createElement("canvas");
  top.setAttribute("aria-hidden", "true");
  top.dataset.role = "plane-overlay";
  Object.assign(top.style, { position: "absolute", pointerEvents: "none" });
  canvas.after(top);
  return top;
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
    // With opts.overlay the transition is drawn on a canvas of its own
    // laid over this one (its parent must be positioned): a reveal's
    // animation frame then clears and redraws the transition alone, where
    // otherwise it copies the whole base image first (in a software
    // rasteriser, most of a frame's time).
    this.overlay = opts.overlay && canvas?.parentElement ? makeOverlay(canvas) : null;
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
        this.update();
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
      this.update();
    });
  }

  // size is the canvas's size now: CSS pixels w × h at device pixel ratio
  // dpr, W × H device pixels.
  size() {
    const c = this.canvas;
    const dpr = Math.min(this.maxDpr, globalThis.devicePixelRatio || 1);
    const w = Math.max(200, c.clientWidth || 400);
    const h = Math.max(200, c.clientHeight || 400);
    return { dpr, w, h, W: Math.round(w * dpr), H: Math.round(h * dpr) };
  }

  // drawn is the transition a paint draws: the one being revealed, else
  // the frame's (which a stream renews while a reveal runs).
  drawn() {
    return this.run?.transition ?? this.frame?.transition;
  }

  // remember is what a paint at size sz shows, for update to compare
  // with.
  remember({ dpr, W, H }) {
    const f = this.frame;
    return { frame: f, transition: this.drawn(), revealed: this.revealed, presentation: this.presentation, highlight: this.highlight, count: drawsCount(f), dpr, W, H };
  }

  // update paints unless the canvas already shows what a paint would
  // (this.painted, as the last paint left it): a reveal at 12 points a
  // second changes one animation frame in five, and a reveal's tick and a
  // new frame in the same animation frame are painted once. It allocates
  // nothing when there is nothing to paint.
  update() {
    const c = this.canvas;
    if (!c?.getContext) return;
    this.placeOverlay();
    const p = this.painted;
    const f = this.frame;
    const dpr = Math.min(this.maxDpr, globalThis.devicePixelRatio || 1);
    const same =
      p &&
      p.frame === f &&
      p.transition === this.drawn() &&
      p.revealed === this.revealed &&
      p.presentation === this.presentation &&
      p.highlight === this.highlight &&
      p.count === drawsCount(f) &&
      p.dpr === dpr &&
      p.W === Math.round(Math.max(200, c.clientWidth || 400) * dpr) &&
      p.H === Math.round(Math.max(200, c.clientHeight || 400) * dpr);
    if (!same) this.paint();
  }

  // placeOverlay lays the overlay exactly over the canvas, wherever the
  // layout has moved it since (a stacked phone layout after a wide one:
  // left where it was, the overlay widened the page).
  placeOverlay() {
    const c = this.canvas;
    const top = this.overlay;
    if (!top) return;
    const at = (this.placed ??= {});
    setPx(top, at, "left", c.offsetLeft);
    setPx(top, at, "top", c.offsetTop);
    setPx(top, at, "width", c.clientWidth);
    setPx(top, at, "height", c.clientHeight);
  }

  // paintOverlay draws a transition alone on the overlay, sized W × H.
  paintOverlay(f, view, W, H, dpr, transition) {
    const top = this.overlay;
    if (top.width !== W || top.height !== H) {
      top.width = W;
      top.height = H;
    }
    const ctx = top.getContext("2d");
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, W, H);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    drawTransitionLayer(ctx, f, view, this.base.L, transition);
  }

  // paint draws now, the canvas sized to its element at the device's
  // pixel ratio. The base is kept as an image while the frame, its draws'
  // count, the size and the type stay the same, so a reveal repaints only
  // the transition.
  paint() {
    const c = this.canvas;
    if (!c?.getContext) return;
    const sz = this.size();
    const { dpr, w, h, W, H } = sz;
    if (c.width !== W || c.height !== H) {
      c.width = W;
      c.height = H;
    }
    this.layers ??= new Layers((w, h) => Object.assign(document.createElement("canvas"), { width: w, height: h }));
    const view = { revealed: this.revealed, presentation: this.presentation, highlight: this.highlight, layers: this.layers, dpr };
    const f = this.frame;
    const shown = this.remember(sz);
    const key = [W, H, dpr, this.presentation, this.highlight, shown.count].join(" ");
    if (this.overlay) {
      if (!this.base || this.base.frame !== f || this.base.key !== key) {
        const bctx = c.getContext("2d");
        bctx.setTransform(dpr, 0, 0, dpr, 0, 0);
        this.base = { frame: f, key, L: drawBase(bctx, f, view, w, h) };
        this.baseDraws++;
      }
    } else if (!this.base || this.base.frame !== f || this.base.key !== key) {
      const canvas = this.base?.canvas ?? document.createElement("canvas");
      canvas.width = W;
      canvas.height = H;
      const bctx = canvas.getContext("2d");
      bctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      const L = drawBase(bctx, f, view, w, h);
      this.base = { canvas, frame: f, key, L };
      this.baseDraws++;
    }
    if (this.overlay) {
      // the overlay anew only when what it shows changed, not with the base
      this.placeOverlay();
      const o = this.overlaid;
      const same = o && o.transition === shown.transition && o.revealed === shown.revealed && o.box === f?.box && o.W === W && o.H === H && o.dpr === dpr && o.presentation === this.presentation;
      if (!same) {
        this.paintOverlay(f, view, W, H, dpr, shown.transition);
        this.overlaid = { transition: shown.transition, revealed: shown.revealed, box: f?.box, W, H, dpr, presentation: this.presentation };
      }
    } else {
      const ctx = c.getContext("2d");
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.drawImage(this.base.canvas, 0, 0);
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      drawTransitionLayer(ctx, f, view, this.base.L, shown.transition);
    }
    this.painted = shown;
    this.draws++;
    c.dataset.revealed = String(this.revealed === Infinity ? "all" : this.revealed);
    if (this.described !== f) {
      this.described = f;
      c.setAttribute("aria-label", describe(f, view));
    }
  }
}

