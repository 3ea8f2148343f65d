// The compare view: every panel's band (mean and ±2σ of f) overlaid on one
// plot, one colour per method, over the data and the truth; and, on data
// with a gap, each method's in-between ratio against steps. It draws what
// the panels already keep (panel.band, panel.diagnostics.inbetween_ratio,
// panel.step, panel.epoch), looked at once per animation frame and redrawn
// at most every MIN_REDRAW_MS when something changed: no socket of its own.
// The pure parts (colours, history, columns, series) are exported for the
// node tests (static/test/compare.test.mjs).

import { exportAllPNG } from "./export.js";
import { fmt, fmtRate } from "./format.js";
import { shortName } from "./glossary.js";
import { addPNGButton, COLORS, compactTicks, marksPlugin, NO_DRAG, plotFigure, predictiveRange, renderLegend, sized, useStyles } from "./plots.js";

// RATIO_CAP bounds each method's in-between history, so an hour-long run
// plots as many points as a minute's.
export const RATIO_CAP = 500;

const MIN_REDRAW_MS = 66; // about 15 redraws a second at most

// PALETTE is Okabe and Ito's colours (black and yellow left out: black is
// the data's, yellow is unreadable on white), told apart under the common
// colour blindnesses.
export const PALETTE = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9"];

// methodColors gives n methods one colour each, in panel order; beyond the
// palette, hues a golden angle apart.
export function methodColors(n) {
  return Array.from({ length: n }, (_, i) => (i < PALETTE.length ? PALETTE[i] : `hsl(${Math.round((i * 137.508) % 360)}, 70%, 38%)`));
}

// alpha returns a methodColors colour with opacity a.
export function alpha(color, a) {
  if (color.startsWith("#") && color.length === 7) {
    const n = parseInt(color.slice(1), 16);
    return `rgba(${n >> 16}, ${(n >> 8) & 255}, ${n & 255}, ${a})`;
  }
  const m = /^hsl\((.*)\)$/.exec(color);
  if (m) return `hsla(${m[1]}, ${a})`;
  throw new Error(`alpha: unknown colour ${color}`);
}

// RatioHistory is one method's in-between ratio against step, at most cap
// points spread evenly over the whole run: points closer than a stride are
// not kept (the newest replaces the last one, so the live end is always
// drawn), and when full every other point goes and the stride becomes the
// spacing left. A step lower than the last one, or a new epoch, is a reset:
// the history starts again.
export class RatioHistory {
  constructor(cap = RATIO_CAP) {
    this.cap = cap;
    this.epoch = undefined;
    this.clear();
  }

  clear() {
    this.x = [];
    this.y = [];
    this.stride = 0;
  }

  get length() {
    return this.x.length;
  }

  // observe records value at step and reports whether the history changed.
  // Non-finite values (no gap, no band yet) are skipped; a repeated step
  // updates its value.
  observe(step, value, epoch) {
    const { x, y } = this;
    const last = x.length ? x[x.length - 1] : -Infinity;
    let changed = false;
    if (step < last || (epoch !== undefined && this.epoch !== undefined && epoch !== this.epoch)) {
      changed = x.length > 0;
      this.clear();
    }
    this.epoch = epoch;
    // Step 0 (before training) is left out: the chart's step axis is
    // logarithmic, so that a fast method's 30,000 steps do not squash a slow
    // one's 3,000 into a corner.
    if (typeof value !== "number" || !Number.isFinite(value) || !Number.isFinite(step) || step <= 0 || step < (this.x.at(-1) ?? -Infinity)) return changed;
    const n = this.x.length;
    if (n && step === this.x[n - 1]) {
      // the same step, a newer band (one drawn after a pause): its ratio replaces the last
      if (this.y[n - 1] === value) return changed;
      this.y[n - 1] = value;
      return true;
    }
    if (n >= 2 && step - this.x[n - 2] < this.stride) {
      this.x[n - 1] = step;
      this.y[n - 1] = value;
      return true;
    }
    this.x.push(step);
    this.y.push(value);
    if (this.x.length > this.cap) this.decimate();
    return true;
  }

  // decimate keeps every other point, and always the newest.
  decimate() {
    const keep = (a) => {
      const out = a.filter((_, i) => i % 2 === 0);
      if (a.length % 2 === 0) out.push(a[a.length - 1]);
      return out;
    };
    this.x = keep(this.x);
    this.y = keep(this.y);
    const n = this.x.length;
    this.stride = (this.x[n - 1] - this.x[0]) / (n - 1);
  }
}

// ratioTable aligns histories ({x, y}) on the union of their steps, with
// null where a method has no value (each runs at its own speed).
export function ratioTable(histories) {
  const x = [...new Set(histories.flatMap((h) => h.x))].sort((a, b) => a - b);
  const pos = new Map(x.map((v, i) => [v, i]));
  const cols = histories.map((h) => {
    const c = new Array(x.length).fill(null);
    for (let i = 0; i < h.x.length; i++) c[pos.get(h.x[i])] = h.y[i];
    return c;
  });
  return [x, ...cols];
}

// compareLayout names the columns of the overlay for n methods: every
// method's lo and hi first (their fills underneath), then every mean, then
// the truth and the data on top.
export function compareLayout(n) {
  return {
    lo: (i) => 1 + 2 * i,
    hi: (i) => 2 + 2 * i,
    mean: (i) => 1 + 2 * n + i,
    truth: 1 + 3 * n,
    data: 2 + 3 * n,
  };
}

// compareTable builds uPlot's aligned data for the overlay from the
// methods' bands (null for a method without one yet), the data points and
// the truth: one sorted x, null where a series has no value.
export function compareTable(bands, points, truth) {
  const xs = new Set();
  for (const b of bands) b?.x?.forEach((v) => xs.add(v));
  points?.x?.forEach((v) => xs.add(v));
  truth?.x?.forEach((v) => xs.add(v));
  const x = [...xs].sort((a, b) => a - b);
  if (x.length === 0) x.push(0);
  const pos = new Map(x.map((v, i) => [v, i]));
  const L = compareLayout(bands.length);
  const cols = Array.from({ length: L.data }, () => new Array(x.length).fill(null));
  const put = (c, xs, ys) => {
    if (!xs || !ys) return;
    for (let i = 0; i < xs.length && i < ys.length; i++) cols[c - 1][pos.get(xs[i])] = ys[i];
  };
  bands.forEach((b, i) => {
    if (!b) return;
    put(L.lo(i), b.x, b.lo);
    put(L.hi(i), b.x, b.hi);
    put(L.mean(i), b.x, b.mean);
  });
  if (truth) put(L.truth, truth.x, truth.y);
  if (points) put(L.data, points.x, points.y);
  return [x, ...cols];
}

// compareSeries is the overlay's uPlot series and band fills for methods
// ([{label, color}]), in compareLayout's order.
export function compareSeries(methods) {
  const n = methods.length;
  const L = compareLayout(n);
  const line = (stroke, width, extra) => ({ stroke, width, spanGaps: true, points: { show: false }, ...extra });
  const series = new Array(L.data + 1);
  series[0] = { label: "x" };
  const bands = [];
  methods.forEach((m, i) => {
    series[L.lo(i)] = line(alpha(m.color, 0.6), 1, { label: `${m.label} mean − 2σ` });
    series[L.hi(i)] = line(alpha(m.color, 0.6), 1, { label: `${m.label} mean + 2σ` });
    series[L.mean(i)] = line(m.color, 2.5, { label: `${m.label} mean` });
    bands.push({ series: [L.hi(i), L.lo(i)], fill: alpha(m.color, 0.13) });
  });
  series[L.truth] = line(COLORS.truth, 1.5, { label: "truth", dash: [3, 4] });
  series[L.data] = {
    label: "data",
    stroke: COLORS.data,
    fill: COLORS.data,
    width: 0,
    paths: () => null,
    points: { show: true, size: 5, stroke: COLORS.data, fill: "rgba(17,24,39,0.75)", width: 1 },
  };
  return { series, bands };
}

// compareLegend lists the methods by colour, then the data and the truth
// when the page has them.
export function compareLegend(methods, points, truth) {
  const out = methods.map((m) => ({ key: `method-${m.method}`, label: m.label, fill: { color: alpha(m.color, 0.2), edge: alpha(m.color, 0.6) }, line: { color: m.color, width: 2.5 } }));
  if (points?.x?.length) out.push({ key: "data", label: "data", dot: COLORS.data });
  if (truth?.x?.length) out.push({ key: "truth", label: "truth", line: { color: COLORS.truth, width: 1.5, dash: [3, 2] } });
  return out;
}

// ratioLegend lists the methods by colour and the reference line.
export function ratioLegend(methods) {
  return [
    ...methods.map((m) => ({ key: `method-${m.method}`, label: m.label, line: { color: m.color, width: 2 } })),
    { key: "reference", label: "1: as unsure in the gap as on the data", line: { color: COLORS.truth, width: 1.5, dash: [5, 3] } },
  ];
}

// ratioRange is the in-between chart's y range: from 0, so that ratios are
// seen in proportion, and always including the reference 1.
export function ratioRange(hi) {
  return [0, Math.max(1.5, Number.isFinite(hi) ? hi * 1.08 : 0)];
}

// stepsNote says, when the methods' bands are at different steps (each
// panel runs at its own speed), where each one is and how fast it goes;
// "" when they are within 10% of each other or not all started. panels are
// [{label, step, stepsPerSec, settled}]. A settled panel (an exact method,
// nothing to iterate) has no step to compare: it is said to be in closed
// form, and is no reason for a note.
export function stepsNote(panels) {
  const iterating = panels.filter((p) => !p.settled);
  const steps = iterating.map((p) => p.step);
  if (iterating.length < 2 || !steps.every((s) => Number.isFinite(s) && s > 0)) return "";
  if (Math.max(...steps) <= 1.1 * Math.min(...steps)) return "";
  const each = panels.map((p) => (p.settled ? `${p.label} in closed form` : `${p.label} at step ${fmt(p.step)} (${fmtRate(p.stepsPerSec)} steps/s)`));
  return `Bands at different steps, each method at its own speed: ${each.join(", ")}.`;
}

const NOTE_MS = 500; // the steps note is rewritten at most twice a second

// Compare is the view in el (#compare): the overlay when there are at least
// two panels, the in-between chart when the data have a gap.
export class Compare {
  constructor(el, panels, config) {
    this.el = el;
    this.panels = panels;
    this.config = config;
    const colors = methodColors(panels.length);
    this.methods = panels.map((p, i) => ({ method: p.method, label: p.spec.label, color: colors[i] }));
    this.histories = panels.map(() => new RatioHistory());
    this.seen = panels.map(() => null); // each panel's band as last looked at
    this.drawn = panels.map(() => null); // the bands the overlay shows
    this.bandDirty = true;
    this.ratioDirty = false;
    this.lastDraw = -Infinity;
    useStyles();
    if (panels.length >= 2) this.buildOverlay();
    this.tick = this.tick.bind(this);
    this.layout();
    requestAnimationFrame(this.tick);
  }

  buildOverlay() {
    const { fig, cap, host } = plotFigure("compare", "All methods: mean and ±2σ band of f");
    this.el.appendChild(fig);
    this.note = document.createElement("p");
    this.note.className = "steps-note";
    this.note.dataset.role = "steps-note";
    this.note.hidden = true;
    host.before(this.note);
    this.noteAt = -Infinity;
    this.overlayLegend = document.createElement("ul");
    this.overlayLegend.className = "plot-legend";
    this.overlayLegend.setAttribute("aria-label", "Legend");
    host.after(this.overlayLegend);
    const { series, bands } = compareSeries(this.methods);
    this.yRange = predictiveRange(this.config.task, this.config.points, this.config.truth);
    const opts = {
      height: 260,
      legend: { show: false },
      cursor: { ...NO_DRAG, points: { show: false } },
      scales: { x: { time: false }, y: { range: (u, lo, hi) => this.yRange ?? [lo ?? -1, hi ?? 1] } },
      axes: [{ label: "x", size: 40, labelSize: 18 }, { label: this.config.task === "classification" ? "p(y = 1 | x)" : "f(x)", size: 50, labelSize: 18 }],
      series,
      bands,
    };
    this.overlay = sized(host, opts, compareTable(this.drawn, this.config.points, this.config.truth));
    addPNGButton(cap, () => this.overlay, () => [`${this.methods.map((m) => m.label).join(" vs ")} — bands, seed ${this.config.seed}`, `compare-${this.stem()}.png`]);
    // A slide of every panel side by side, under the title, claim and verdict.
    const all = document.createElement("button");
    all.type = "button";
    all.className = "png-all";
    all.textContent = "Export all panels";
    all.title = "Save every panel's predictive plot on one PNG for slides, under the title, the claim and its verdict";
    all.addEventListener("click", () => exportAllPNG(this.panels, `compare-${this.stem()}`));
    cap.appendChild(all);
  }

  buildRatio() {
    const { fig, cap, host } = plotFigure("inbetween", "In-between ratio (sd of f at the gap's centre ÷ on the data) against step");
    this.el.appendChild(fig);
    this.ratioFig = fig;
    const legend = document.createElement("ul");
    legend.className = "plot-legend";
    legend.setAttribute("aria-label", "Legend");
    host.after(legend);
    renderLegend(legend, ratioLegend(this.methods));
    const series = [{ label: "step" }, ...this.methods.map((m) => ({ label: m.label, stroke: m.color, width: 2, spanGaps: true, points: { show: false } }))];
    const opts = {
      height: 180,
      legend: { show: false },
      cursor: NO_DRAG,
      scales: { x: { time: false, distr: 3 }, y: { range: (u, lo, hi) => ratioRange(hi) } },
      axes: [{ label: "step (log scale)", size: 34, labelSize: 16, space: 60, values: compactTicks }, { size: 40, values: compactTicks }],
      series,
      // Every panel's control changes, marked as on its objective.
      plugins: [referencePlugin(1), marksPlugin(() => this.allMarks(), (m) => m.labels)],
    };
    this.ratio = sized(host, opts, ratioTable(this.histories), 160);
    addPNGButton(cap, () => this.ratio, () => [`In-between ratio, seed ${this.config.seed}`, `inbetween-${this.stem()}.png`]);
  }

  // allMarks is every panel's control changes in step order, each labelled
  // with its method's name where there are several panels.
  allMarks() {
    const several = this.panels.length > 1;
    return this.panels
      .flatMap((p) => p.marks.map((m) => {
        const [long, short] = p.markLabels(m);
        const who = shortName(p.method, p.spec?.label);
        return { ...m, labels: several ? [`${who}: ${long}`, `${who}: ${short}`, short] : [long, short] };
      }))
      .sort((a, b) => a.step - b.step);
  }

  // layout shows the in-between chart while the data have a gap (or it has
  // points), and the view while it has anything to show.
  layout() {
    // Not where a scenario's claim is about something else (the periodic
    // extrapolation's error outside the data, the prior scale's noise).
    const claim = this.config.claim;
    const aboutRatio = !claim || claim.checks.some((c) => c.measure === "inbetween_ratio");
    const wantRatio = aboutRatio && (this.config.gap_centre != null || this.histories.some((h) => h.length > 0));
    if (wantRatio && !this.ratio) this.buildRatio();
    if (this.ratioFig) this.ratioFig.hidden = !wantRatio;
    this.el.classList.toggle("both", Boolean(this.overlay && wantRatio));
    this.el.hidden = !(this.overlay || wantRatio);
  }

  tick(now) {
    if (this.disposed) return;
    requestAnimationFrame(this.tick);
    this.panels.forEach((p, i) => {
      if (p.band !== this.seen[i]) {
        this.seen[i] = p.band;
        this.bandDirty = true;
      }
      if (this.histories[i].observe(p.step, p.diagnostics?.inbetween_ratio, p.epoch)) this.ratioDirty = true;
    });
    const { points, truth, task } = this.config;
    if (points !== this.points || truth !== this.truth) {
      // new data (an upload, or a run's first frame): a new fixed y range
      this.points = points;
      this.truth = truth;
      this.yRange = predictiveRange(task, points, truth);
      this.bandDirty = true;
      this.layout();
    }
    if (this.note && now - this.noteAt >= NOTE_MS) {
      this.noteAt = now;
      const text = stepsNote(this.panels.map((p, i) => ({ label: this.methods[i].label, step: p.step, stepsPerSec: p.stepsPerSec, settled: p.status === "settled" })));
      if (this.note.textContent !== text) this.note.textContent = text;
      this.note.hidden = !text;
    }
    if (now - this.lastDraw < MIN_REDRAW_MS || !(this.bandDirty || this.ratioDirty)) return;
    this.lastDraw = now;
    if (this.bandDirty && this.overlay) {
      this.drawn = this.seen.slice();
      this.overlay.setData(compareTable(this.drawn, points, truth));
      renderLegend(this.overlayLegend, compareLegend(this.methods, points, truth));
    }
    this.bandDirty = false;
    if (this.ratioDirty) {
      this.layout();
      this.ratio?.setData(ratioTable(this.histories));
      this.ratioDirty = false;
    }
  }

  stem() {
    return `${this.config.data.replace(/[^A-Za-z0-9_-]/g, "_")}-seed${this.config.seed}`;
  }

  // inspect is for tests and the console: what the plots hold now (read
  // back from uPlot's data), and whether each panel's latest band is drawn.
  inspect() {
    const L = compareLayout(this.methods.length);
    const d = this.overlay?.data;
    const r = this.ratio?.data;
    return {
      methods: this.methods.map((m) => ({ ...m })),
      current: this.panels.map((p, i) => this.overlay != null && this.drawn[i] === p.band),
      bands: d ? this.methods.map((m, i) => ({ method: m.method, x: d[0], lo: d[L.lo(i)], hi: d[L.hi(i)], mean: d[L.mean(i)] })) : [],
      bandSeries: this.overlay ? this.methods.map((m, i) => [L.lo(i), L.hi(i), L.mean(i)].map((k) => this.overlay.series[k].label)) : [],
      ratio: r ? this.methods.map((m, i) => ({ method: m.method, steps: r[0].filter((_, k) => r[i + 1][k] != null), values: r[i + 1].filter((v) => v != null) })) : [],
      legend: [...this.el.querySelectorAll(".plot-legend li")].map((li) => li.textContent),
    };
  }

  dispose() {
    this.disposed = true;
  }
}

// referencePlugin draws a dashed horizontal line at y = v.
function referencePlugin(v) {
  return {
    hooks: {
      draw: [
        (u) => {
          const y = u.valToPos(v, "y", true);
          const { left, top, width, height } = u.bbox;
          if (y < top || y > top + height) return;
          const px = window.uPlot.pxRatio;
          const { ctx } = u;
          ctx.save();
          ctx.strokeStyle = COLORS.truth;
          ctx.lineWidth = 1.5 * px;
          ctx.setLineDash([6 * px, 4 * px]);
          ctx.beginPath();
          ctx.moveTo(left, y);
          ctx.lineTo(left + width, y);
          ctx.stroke();
          ctx.restore();
        },
      ],
    },
  };
}
