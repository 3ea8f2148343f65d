// Bounded histories for the browser: every series keeps at most `cap`
// points, halving its resolution when full, so a run of any length uses
// constant memory here too.

export const SERIES_CAP = 2000;

// Series is a [step, value] history with an optional smoothed copy. Its
// version changes whenever its points do, so a plot redraws only a series
// that changed.
export class Series {
  constructor(cap = SERIES_CAP) {
    this.cap = cap;
    this.version = 0;
    this.clear();
  }

  clear() {
    this.version++;
    this.x = [];
    this.y = [];
    this.s = []; // smoothed, maintained incrementally
    this.ema = new EMA(this.weight ?? 0);
  }

  get length() {
    return this.x.length;
  }

  get lastStep() {
    return this.x.length ? this.x[this.x.length - 1] : -Infinity;
  }

  // push appends points given as [[step, value], …], skipping steps already
  // held (a reconnected socket repeats history).
  push(points) {
    for (const [step, value] of points) {
      if (step <= this.lastStep) continue;
      this.version++;
      this.x.push(step);
      this.y.push(value);
      this.s.push(this.ema.next(value));
    }
    if (this.x.length > this.cap) this.decimate();
  }

  // decimate keeps every other point, and always the newest.
  decimate() {
    const keep = (a) => {
      const out = [];
      for (let i = 0; i < a.length; i += 2) out.push(a[i]);
      if ((a.length - 1) % 2 === 1) out.push(a[a.length - 1]);
      return out;
    };
    this.x = keep(this.x);
    this.y = keep(this.y);
    this.s = keep(this.s);
  }

  // setSmoothing recomputes the smoothed copy with a new weight. Over a
  // decimated stretch this smooths the kept points, an approximation of
  // smoothing every step.
  setSmoothing(weight) {
    this.version++;
    this.weight = weight;
    this.ema = new EMA(weight);
    this.s = this.y.map((v) => this.ema.next(v));
  }

  points() {
    return this.x.map((x, i) => [x, this.y[i]]);
  }
}

// EMA is TensorBoard's debiased exponential moving average: the running
// average starts at 0 and is divided by 1 − w^n, so early values are not
// pulled towards zero. Non-finite values pass through unsmoothed.
export class EMA {
  constructor(weight) {
    this.w = weight;
    this.last = 0;
    this.n = 0;
  }

  next(v) {
    if (!Number.isFinite(v)) return v;
    this.last = this.last * this.w + (1 - this.w) * v;
    this.n++;
    const debias = this.w === 1 ? 1 : 1 - Math.pow(this.w, this.n);
    return this.last / debias;
  }
}

// safeRange pads [lo, hi] by pad of its span and widens a span too small for
// its magnitude: uPlot steps its ticks by adding the increment, which stops
// moving (and grows an array until it throws) once the increment falls below
// the spacing of floats at that magnitude.
export function safeRange(lo, hi, pad = 0.05) {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [0, 1];
  if (hi < lo) [lo, hi] = [hi, lo];
  const least = 1e-6 * Math.max(1, Math.abs(lo), Math.abs(hi));
  const span = hi - lo;
  if (span < least) {
    const mid = lo / 2 + hi / 2;
    return [mid - least, mid + least];
  }
  return [lo - span * pad, hi + span * pad];
}

// extent is [min, max] of the finite values in the given columns (arrays),
// or null when there are none. A loop, not Math.min(...v): an upload can
// hold more points than a call may take arguments.
export function extent(cols) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const c of cols) {
    for (const v of c) {
      if (!Number.isFinite(v)) continue;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  return hi >= lo ? [lo, hi] : null;
}

// robustRange is the objective plot's y-range, ignoring the early transient
// (TensorBoard's "ignore outliers"): the newer half of the steps is always
// shown in full (a change a control made stays visible); older points count
// only if they lie within 8 interquartile ranges of the newer half's
// median, so the first steps' huge negative ELBO does not squash the rest.
// Steps, not points, split the history: a decimated one is denser early.
export function robustRange(xs, ys, smoothed) {
  const n = ys.length;
  if (n === 0) return [0, 1];
  const half = xs[0] + 0.5 * (xs[n - 1] - xs[0]);
  const recent = [];
  const older = [];
  for (let i = 0; i < n; i++) {
    for (const v of smoothed ? [ys[i], smoothed[i]] : [ys[i]]) {
      if (Number.isFinite(v)) (xs[i] >= half ? recent : older).push(v);
    }
  }
  if (recent.length === 0) return [0, 1];
  recent.sort((a, b) => a - b);
  const q = (p) => recent[Math.round(p * (recent.length - 1))];
  let lo = recent[0];
  let hi = recent[recent.length - 1];
  const med = q(0.5);
  const reach = 8 * Math.max(q(0.75) - q(0.25), 0.01 * Math.abs(med));
  for (const v of older) {
    if (Math.abs(v - med) <= reach) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
  }
  return safeRange(lo, hi, 0.08);
}

// fmt prints a number as every readout does (format.js).
export { fmt } from "./format.js";

// DRAW_HZ caps how often the page redraws its plots: frames arrive faster
// than a person reads plots, and every redraw repaints canvases.
export const DRAW_HZ = 10;

// drawDelay is how long to wait before the next draw so that draws are at
// least 1/DRAW_HZ apart, given the last draw's time (undefined: never).
export function drawDelay(last, now) {
  if (last === undefined) return 0;
  return Math.max(0, 1000 / DRAW_HZ - (now - last));
}

// DrawLoop runs the draws asked for since its last turn together, in one
// animation frame at most DRAW_HZ times a second: every panel's plots
// change in the same repaint rather than each panel in its own.
export class DrawLoop {
  constructor(now = () => performance.now(), later = (f, ms) => setTimeout(() => requestAnimationFrame(f), ms)) {
    this.now = now;
    this.later = later;
    this.dirty = new Set();
    this.pending = false;
    this.last = undefined;
  }

  request(draw) {
    this.dirty.add(draw);
    if (this.pending) return;
    this.pending = true;
    this.later(() => this.run(), drawDelay(this.last, this.now()));
  }

  run() {
    this.pending = false;
    this.last = this.now();
    const draws = [...this.dirty];
    this.dirty.clear();
    for (const d of draws) d();
  }
}

// escapeHTML makes text safe inside HTML, attribute values included.
export function escapeHTML(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}
