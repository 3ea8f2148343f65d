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

// robustRange is the objective plot's y-range, robust to transients: the
// values over the 5% of steps furthest below and the 0.5% furthest above
// are outliers (the first steps' huge negative ELBO, the dip after a
// control change), the newest value is always in view (a lasting change
// shows at once), and the range is padded by 10% each side. Values weigh
// by the steps they stand for, not one per point: the history is denser
// early (decimated later), which would otherwise count the start many
// times over.
export function robustRange(xs, ys, smoothed) {
  const n = xs.length;
  const pts = [];
  let total = 0;
  for (let i = 0; i < n; i++) {
    const w = n > 1 ? (xs[Math.min(i + 1, n - 1)] - xs[Math.max(i - 1, 0)]) / 2 || 1e-9 : 1;
    for (const v of smoothed ? [ys[i], smoothed[i]] : [ys[i]]) {
      if (!Number.isFinite(v)) continue;
      pts.push([v, w]);
      total += w;
    }
  }
  if (pts.length === 0) return [0, 1];
  pts.sort((a, b) => a[0] - b[0]);
  const q = (p) => {
    let acc = 0;
    for (const [v, w] of pts) if ((acc += w) >= p * total) return v;
    return pts[pts.length - 1][0];
  };
  let lo = q(0.05);
  let hi = q(0.995);
  const last = (smoothed ?? ys).findLast(Number.isFinite); // the smoothed: a raw value may be noise
  if (last !== undefined) [lo, hi] = [Math.min(lo, last), Math.max(hi, last)];
  return safeRange(lo, hi, 0.1);
}

// unionRange is the smallest range holding every given [lo, hi] (null
// entries skipped), or null: panels whose objectives compare share it.
export function unionRange(ranges) {
  let out = null;
  for (const r of ranges) {
    if (!r) continue;
    out = out ? [Math.min(out[0], r[0]), Math.max(out[1], r[1])] : [r[0], r[1]];
  }
  return out;
}

// objectivesCompare says whether two panels' objectives can share a
// y-range: the page's one data set, and the same kind of objective (the
// family: an ELBO with an ELBO, a log posterior with a log posterior) on
// the same model.
export function objectivesCompare(p, q) {
  return p.spec.family === q.spec.family && (p.model ?? "") === (q.model ?? "");
}

// sharedObjectiveRange is the union of the robust ranges of panel p's
// objective and those of every panel whose objective compares with it.
export function sharedObjectiveRange(p, panels) {
  return unionRange(panels.filter((q) => q === p || objectivesCompare(p, q)).map((q) => q.objectivePlot?.ownRange() ?? null));
}

// placeLabel fits a change mark's label inside a plot's area [left, left +
// width]: right of the mark's line at x when it fits there, else left of
// it, else against the area's edge; it takes the first of candidates
// (longest first) whose width, by measure, fits the area, and cuts the
// last one with "…" when none does. It returns the text and its left edge.
export function placeLabel(candidates, measure, x, left, width, pad) {
  const room = width - 2 * pad;
  let text = candidates.find((c) => measure(c) <= room);
  if (text === undefined) {
    text = candidates[candidates.length - 1];
    while (text.length > 1 && measure(`${text}…`) > room) text = text.slice(0, -1);
    text = `${text}…`;
  }
  const w = measure(text);
  let tx = x + pad;
  if (tx + w > left + width - pad) tx = x - pad - w; // left of the line
  tx = Math.max(left + pad, Math.min(tx, left + width - pad - w));
  return { text, tx, w };
}

// fmt prints a number as every readout does (format.js).
export { fmt } from "./format.js";

// DRAW_HZ caps how often the page redraws its plots: frames arrive faster
// than a person reads plots, and every redraw repaints canvases. On "VI vs
// MCMC" on the shared 2-core machine, 10 a second kept the main thread
// about 60% busy, 5 about 40% (web/browser_mainthread_bench_test.go).
export const DRAW_HZ = 5;

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
    this.turns = 0; // for tests and the console
  }

  request(draw) {
    this.dirty.add(draw);
    if (this.pending) return;
    this.pending = true;
    this.later(() => this.run(), drawDelay(this.last, this.now()));
  }

  run() {
    this.turns++;
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
