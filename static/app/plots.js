// Plots, all drawn by uPlot (static/vendor, from npm): the predictive band,
// the objective and the traces, with control changes marked on the step
// axis, and PNG export.

import { extent, fmt, placeLabel, robustRange, safeRange } from "./history.js";
import { compact } from "./format.js";
import { download } from "./download.js";

const uPlot = window.uPlot;

export const SAMPLES_SHOWN = 5;

export const COLORS = {
  band: "rgba(37, 99, 235, 0.20)",
  mean: "#1d4ed8",
  sample: "rgba(29, 78, 216, 0.45)",
  data: "#111827",
  truth: "#6b7280",
  snapBand: "rgba(234, 88, 12, 0.13)",
  snapMean: "rgba(234, 88, 12, 0.75)",
  raw: "rgba(100, 116, 139, 0.45)",
  smooth: "#0f766e",
  trace: "#7c3aed",
  mark: "#ea580c",
  inducing: "#059669", // the markers' colour (plots.css .inducing-marker)
};

export const NO_DRAG = { drag: { x: false, y: false, setScale: false } };

// compactTicks is an axis' `values`: its ticks printed by compact, a
// negative one with a minus sign (−1, not the hyphen of -1).
export const compactTicks = (u, splits) => splits.map((v) => compact(v).replace(/^-/, "\u2212"));

// histSeries is a histogram's series: a density drawn as steps, filled.
export function histSeries(label) {
  return { label, stroke: COLORS.mean, fill: "rgba(37,99,235,0.25)", width: 1.5, paths: uPlot.paths.stepped({ align: 1 }), points: { show: false } };
}

// sized creates a uPlot in host that follows the host's width, never
// narrower than minWidth, keeping its height (which setSize may change),
// and knows whether it is on screen (show).
export function sized(host, opts, data, minWidth = 200) {
  const width = Math.max(minWidth, host.clientWidth || 400);
  const u = new uPlot({ ...opts, width }, data, host);
  livePlots.add(u);
  (u.hooks.destroy ??= []).push(() => livePlots.delete(u));
  if (document.documentElement.classList.contains("present")) tickScale(u, true);
  const ro = new ResizeObserver(() => {
    const w = Math.max(minWidth, host.clientWidth);
    if (Math.abs(w - u.width) > 1) u.setSize({ width: w, height: u.height });
  });
  ro.observe(host);
  u._ro = ro;
  u._visible = true; // until the observer says otherwise
  if (typeof IntersectionObserver === "function") {
    const io = new IntersectionObserver(
      (entries) => {
        u._visible = entries.at(-1).isIntersecting;
        if (u._visible) flush(u);
      },
      { rootMargin: "200px" },
    );
    io.observe(host);
    u._io = io;
  }
  return u;
}

// Presentation mode draws every plot's tick labels and axis labels at
// PRESENT_FONT_PX (uPlot's are 12 px), legible from a lecture hall's back
// row, and widens the axes in proportion so the larger labels fit.
const BASE_FONT_PX = 12;
const PRESENT_FONT_PX = 18;

// livePlots are the plots sized() made and not yet destroyed.
const livePlots = new Set();

// setPresentTicks scales every live plot's axes for presentation mode (on)
// or back.
export function setPresentTicks(on) {
  for (const u of livePlots) tickScale(u, on);
}

// tickScale sets u's axis fonts and sizes for presentation mode or back.
// uPlot keeps an axis' font as [css font at the device's pixels, device px,
// css px] and its size as a function; both are read at the next layout.
function tickScale(u, on) {
  const k = on ? PRESENT_FONT_PX / BASE_FONT_PX : 1;
  for (const ax of u.axes) {
    if (!ax.show || !Array.isArray(ax.font)) continue;
    if (!ax._base) ax._base = { size: ax.size, space: ax.space, labelSize: ax.labelSize, font: ax.font[2], labelFont: ax.labelFont[2] };
    const b = ax._base;
    ax.size = (self, values, i, cycle) => Math.round(b.size(self, values, i, cycle) * k);
    // A narrow plot (four panels on a projector) keeps at least three
    // ticks on its x axis: the usual spacing left one ("0") under 18 px type.
    ax.space = on && ax.side === 2 ? (self, i, lo, hi, dim) => Math.min(b.space(self, i, lo, hi, dim), Math.max(24, dim / 4)) : b.space;
    ax.labelSize = b.labelSize * k;
    for (const [f, css] of [[ax.font, b.font], [ax.labelFont, b.labelFont]]) {
      const px = Math.round(css * k * uPlot.pxRatio);
      f[0] = f[0].replace(/[0-9.]+px/, `${px}px`);
      f[1] = px;
      f[2] = css * k;
    }
  }
  u.redraw(false, true);
}

// OFFSCREEN_MS is how often a plot off screen redraws.
const OFFSCREEN_MS = 1000;

// show gives a plot new data, data() called only when it is drawn: on
// screen at once, off screen (scrolled past, folded) at most once a second
// and at once when it comes into view. Redrawing every canvas of the page
// at the page's draw rate kept the main thread busy.
export function show(u, data) {
  if (!u) return;
  u._pending = data;
  if (u._visible) {
    flush(u);
    return;
  }
  if (u._timer) return;
  const wait = Math.max(0, OFFSCREEN_MS - (performance.now() - (u._drawnAt ?? -Infinity)));
  u._timer = setTimeout(() => flush(u), wait);
}

function flush(u) {
  clearTimeout(u._timer);
  u._timer = null;
  const data = u._pending;
  if (!data) return;
  u._pending = null;
  u._drawnAt = performance.now();
  u.setData(data());
}

// plotFigure makes an empty figure for a plot: its caption (text or nodes)
// and the host uPlot draws in; cls adds to the "plot" class.
export function plotFigure(role, caption, cls = "") {
  const fig = document.createElement("figure");
  fig.className = cls ? `plot ${cls}` : "plot";
  fig.dataset.plot = role;
  const cap = document.createElement("figcaption");
  cap.append(caption);
  const host = document.createElement("div");
  host.className = "plot-host";
  fig.append(cap, host);
  return { fig, cap, host };
}

// addPNGButton appends a "PNG" button to a figure's caption; a click saves
// the plot getU() returns (if any) under the [title, filename] that named()
// gives at that moment.
export function addPNGButton(caption, getU, named) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "png";
  b.textContent = "PNG";
  b.title = "Save this plot as PNG";
  b.addEventListener("click", () => {
    const u = getU();
    if (u) savePNG(u, ...named());
  });
  caption.appendChild(b);
}

export function destroy(u) {
  if (!u) return;
  u._ro?.disconnect();
  u._io?.disconnect();
  clearTimeout(u._timer);
  u._pending = null;
  u.destroy();
}

// marksKey changes whenever the marks to draw do.
export function marksKey(marks) {
  const m = marks.at(-1);
  return m ? `${marks.length}:${m.step}:${m.name}:${m.value}` : "0";
}

// marksPlugin draws a dashed vertical line for each control change, with
// its label ("Prior scale = 0.5", from labels(m): longest first, the
// first that fits the plot) kept inside the plot area (placeLabel), on
// any plot whose x axis is the step. The last drawn labels' boxes, in CSS
// pixels relative to the canvas, are kept in u._markBoxes for tests.
export function marksPlugin(getMarks, labels = (m) => [`${m.name} = ${typeof m.value === "number" ? fmt(m.value) : m.value}`]) {
  return {
    hooks: {
      draw: [
        (u) => {
          const marks = getMarks();
          u._markBoxes = [];
          if (!marks.length) return;
          const { ctx } = u;
          const { left, top, width, height } = u.bbox;
          const px = uPlot.pxRatio;
          ctx.save();
          ctx.beginPath();
          ctx.rect(left, top, width, height);
          ctx.clip();
          ctx.strokeStyle = COLORS.mark;
          ctx.fillStyle = COLORS.mark;
          ctx.lineWidth = 1.5 * px;
          ctx.setLineDash([5 * px, 4 * px]);
          ctx.font = `${11 * px}px system-ui, sans-serif`;
          ctx.textBaseline = "top";
          ctx.textAlign = "left"; // uPlot leaves its axes' alignment set: a centred label spilled out of the plot
          const measure = (t) => ctx.measureText(t).width;
          let row = 0;
          for (const m of marks) {
            const x = u.valToPos(m.step, "x", true);
            if (x < left - 1 || x > left + width + 1) continue;
            ctx.beginPath();
            ctx.moveTo(x, top);
            ctx.lineTo(x, top + height);
            ctx.stroke();
            const { text, tx, w } = placeLabel(labels(m), measure, x, left, width, 3 * px);
            const ty = top + (2 + 13 * (row % 3)) * px;
            ctx.fillText(text, tx, ty);
            // Where the canvas put the text, by its alignment at the time.
            const x0 = tx - ({ center: w / 2, right: w, end: w }[ctx.textAlign] ?? 0);
            u._markBoxes.push({ text, left: x0 / px, top: ty / px, right: (x0 + w) / px, bottom: ty / px + 11, plot: { left: left / px, top: top / px, right: (left + width) / px, bottom: (top + height) / px } });
            row++;
          }
          ctx.restore();
        },
      ],
    },
  };
}

// PredictivePlot shows the data, the truth, the mean, the ±2σ band, a few
// sampled functions and an optional frozen snapshot of an earlier band.
// uPlot wants one x array for every series, so the grid and the data's
// inputs are merged into one sorted x with nulls where a series has no
// value; line series span those gaps.
export class PredictivePlot {
  constructor(host, { points, truth, height = 260, task = "regression" }) {
    this.task = task; // classification: probabilities on a [0, 1] axis
    this.host = host;
    this.height = height;
    this.points = points;
    this.truth = truth;
    this.band = null;
    this.snapshot = null;
    this.yRange = this.range();
    useStyles();
    // The legend sits under the plot, not on it: it covers no data and
    // wraps on a narrow screen.
    this.legendEl = document.createElement("ul");
    this.legendEl.className = "plot-legend";
    this.legendEl.setAttribute("aria-label", "Legend");
    host.after(this.legendEl);
    this.build();
    this.showLegend();
  }

  // legend is what the plot shows now, in legend entries.
  legend() {
    return predictiveLegend({ points: this.points, truth: this.truth, band: this.band, snapshot: this.snapshot, task: this.task, inducing: this.inducing });
  }

  showLegend() {
    renderLegend(this.legendEl, this.legend());
  }

  // setInducing says whether markers of inducing inputs (dataedit.js's
  // InducingView) are drawn on the x-axis, for the legend.
  setInducing(on) {
    if (this.inducing === on) return;
    this.inducing = on;
    this.showLegend();
  }

  build() {
    destroy(this.u);
    const line = (stroke, width = 1.5, extra = {}) => ({ stroke, width, spanGaps: true, points: { show: false }, ...extra });
    const series = [
      { label: "x" },
      line(COLORS.snapBand, 0, { label: "snapshot lo" }), // 1
      line(COLORS.snapBand, 0, { label: "snapshot hi" }), // 2
      line(COLORS.snapMean, 1.5, { label: "snapshot mean", dash: [6, 4] }), // 3
      line("rgba(37,99,235,0.55)", 1, { label: "mean − 2σ" }), // 4
      line("rgba(37,99,235,0.55)", 1, { label: "mean + 2σ" }), // 5
    ];
    for (let k = 0; k < SAMPLES_SHOWN; k++) series.push(line(COLORS.sample, 1, { label: `sample ${k + 1}` }));
    series.push(line(COLORS.truth, 1.5, { label: "truth", dash: [3, 4] }));
    series.push(line(COLORS.mean, 2.5, { label: "mean" }));
    series.push({
      label: "data",
      stroke: COLORS.data,
      fill: COLORS.data,
      width: 0,
      paths: () => null,
      points: { show: true, size: 5, stroke: COLORS.data, fill: "rgba(17,24,39,0.75)", width: 1 },
    });
    this.idx = { snapLo: 1, snapHi: 2, snapMean: 3, lo: 4, hi: 5, sample0: 6, truth: 6 + SAMPLES_SHOWN, mean: 7 + SAMPLES_SHOWN, data: 8 + SAMPLES_SHOWN };
    const opts = {
      height: this.height,
      legend: { show: false },
      cursor: { ...NO_DRAG, points: { show: false } },
      scales: {
        x: { time: false },
        y: { range: (u, lo, hi) => this.yRange ?? safeRange(lo, hi) }, // read at each redraw: edits move it (setPoints)
      },
      axes: [{ label: "x", size: 40, labelSize: 18 }, { label: this.task === "classification" ? "p(y = 1 | x)" : "f(x)", size: 50, labelSize: 18 }],
      series,
      // What yband.js adds: the band of y under the series, the latest
      // control change over them.
      // onResize: the views drawn over the plot (the inducing inputs) follow
      // a new size, though no frame comes (a paused run).
      hooks: { drawAxes: [(u) => this.underlay?.(u)], draw: [(u) => this.overlay?.(u)], setSize: [(u) => this.onResize?.(u)] },
      bands: [
        { series: [this.idx.snapHi, this.idx.snapLo], fill: COLORS.snapBand },
        { series: [this.idx.hi, this.idx.lo], fill: COLORS.band },
      ],
    };
    this.u = sized(this.host, opts, this.table());
  }

  // table builds uPlot's aligned data from the band, the data points, the
  // truth and the snapshot.
  table() {
    const xs = new Set();
    const grid = this.band?.x ?? this.truth?.x ?? [];
    grid.forEach((x) => xs.add(x));
    this.points?.x.forEach((x) => xs.add(x));
    this.truth?.x.forEach((x) => xs.add(x));
    this.snapshot?.x.forEach((x) => xs.add(x));
    const x = [...xs].sort((a, b) => a - b);
    if (x.length === 0) x.push(0);
    const pos = new Map(x.map((v, i) => [v, i]));
    const col = () => new Array(x.length).fill(null);
    const cols = Array.from({ length: this.idx.data }, col);
    const put = (c, xs, ys) => {
      if (!xs || !ys) return;
      for (let i = 0; i < xs.length && i < ys.length; i++) cols[c - 1][pos.get(xs[i])] = ys[i];
    };
    const b = this.band;
    if (b) {
      put(this.idx.lo, b.x, b.lo);
      put(this.idx.hi, b.x, b.hi);
      put(this.idx.mean, b.x, b.mean);
      (b.samples ?? []).slice(0, SAMPLES_SHOWN).forEach((s, k) => put(this.idx.sample0 + k, b.x, s));
    }
    const s = this.snapshot;
    if (s) {
      put(this.idx.snapLo, s.x, s.lo);
      put(this.idx.snapHi, s.x, s.hi);
      put(this.idx.snapMean, s.x, s.mean);
    }
    if (this.truth) put(this.idx.truth, this.truth.x, this.truth.y);
    if (this.points) put(this.idx.data, this.points.x, this.points.y);
    return [x, ...cols];
  }

  // setHeight sets the plot's height, axes included (the page's layout
  // fits it to the screen); rebuilds keep it.
  setHeight(h) {
    if (Math.abs(h - this.height) < 1) return;
    this.height = h;
    this.u.setSize({ width: this.u.width, height: h });
  }

  setBand(band) {
    this.band = band;
    show(this.u, () => this.table());
    this.showLegend();
  }

  setSnapshot(band) {
    this.snapshot = band ? { x: band.x, lo: band.lo, hi: band.hi, mean: band.mean } : null;
    this.u.setData(this.table());
    this.showLegend();
  }

  // setData replaces the training data (after a CSV upload, or when a
  // run's first frame brings it); the band stays until the next one.
  setData(points, truth) {
    this.points = points;
    this.truth = truth;
    this.yRange = this.range();
    this.build();
    this.showLegend();
  }

  // setPoints replaces the training points in place (a data edit,
  // dataedit.js): no rebuild, so listeners on the plot stay.
  setPoints(points) {
    this.points = points;
    this.yRange = this.range();
    this.u.setData(this.table());
    this.showLegend();
  }

  // range is the fixed y range: [0, 1] with a margin for the 0/1 labels of
  // a classification, else from the data (dataRange).
  range() {
    return predictiveRange(this.task, this.points, this.truth);
  }
}

// predictiveRange is a predictive plot's fixed y range: [0, 1] with a
// margin for the 0/1 labels of a classification, else from the data
// (dataRange).
export function predictiveRange(task, points, truth) {
  return task === "classification" ? [-0.04, 1.04] : dataRange(points, truth);
}

// predictiveLegend lists what a predictive plot shows, and only that: the
// data, the truth, the band's mean, the band itself, its sampled functions,
// a snapshot and GIP's inducing inputs (markers on the x-axis), each when
// present. Entries are for renderLegend.
export function predictiveLegend({ points, truth, band, snapshot, task, inducing }) {
  const out = [];
  if (points?.x?.length) out.push({ key: "data", label: task === "classification" ? "data (labels 0/1)" : "data", dot: COLORS.data });
  if (truth?.x?.length) out.push({ key: "truth", label: "truth", line: { color: COLORS.truth, width: 1.5, dash: [3, 2] } });
  if (band?.x?.length) {
    out.push({ key: "mean", label: "mean", line: { color: COLORS.mean, width: 2.5 } });
    out.push({ key: "band", label: "±2σ band", fill: { color: COLORS.band, edge: "rgba(37,99,235,0.55)" } });
    if (band.samples?.length) out.push({ key: "samples", label: "sampled functions", line: { color: COLORS.sample, width: 1 } });
  }
  if (snapshot?.x?.length) {
    out.push({ key: "snapshot", label: "snapshot", fill: { color: "rgba(234, 88, 12, 0.25)" }, line: { color: COLORS.snapMean, width: 1.5, dash: [4, 2] } });
  }
  if (inducing) out.push({ key: "inducing", label: "inducing inputs", tri: COLORS.inducing });
  return out;
}

// renderLegend writes entries into a list element: a swatch (SVG, drawn
// with presentation attributes, which the page's CSP allows) and a label
// each. An entry has a key, a label and any of fill {color, edge}, line
// {color, width, dash}, dot (a colour) and tri (a triangle's colour).
// Unchanged entries are not rewritten, so calling it every frame costs a
// string comparison.
export function renderLegend(ul, entries) {
  const sig = JSON.stringify(entries);
  if (ul.dataset.sig === sig) return;
  ul.dataset.sig = sig;
  ul.replaceChildren(
    ...entries.map((e) => {
      const li = document.createElement("li");
      li.dataset.key = e.key;
      const label = document.createElement("span");
      label.textContent = e.label;
      li.append(swatch(e), label);
      return li;
    }),
    ...(ul.keep ?? []), // items the legend always ends with (yband.js's toggle)
  );
}

const SVG = "http://www.w3.org/2000/svg";

function swatch(e) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("width", "18");
  svg.setAttribute("height", "12");
  svg.setAttribute("viewBox", "0 0 22 12");
  svg.setAttribute("preserveAspectRatio", "none");
  svg.setAttribute("aria-hidden", "true");
  const el = (name, attrs) => {
    const n = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
    svg.appendChild(n);
  };
  if (e.fill) el("rect", { x: 1, y: 1.5, width: 20, height: 9, fill: e.fill.color, stroke: e.fill.edge ?? "none", "stroke-width": 1 });
  if (e.line) el("line", { x1: 1, y1: 6, x2: 21, y2: 6, stroke: e.line.color, "stroke-width": e.line.width ?? 1.5, "stroke-dasharray": e.line.dash?.join(" ") ?? "none" });
  if (e.dot) el("circle", { cx: 11, cy: 6, r: 3, fill: e.dot });
  if (e.tri) el("polygon", { points: "6,11 16,11 11,2", fill: e.tri }); // an inducing input's marker
  return svg;
}

// useStyles loads the legend's and the compare view's stylesheet once.
export function useStyles() {
  if (typeof document === "undefined" || document.querySelector('link[data-styles="plots"]')) return;
  const l = document.createElement("link");
  l.rel = "stylesheet";
  l.href = "/static/app/plots.css";
  l.dataset.styles = "plots";
  document.head.appendChild(l);
}

// dataRange fixes the y axis to the data's span plus 40% each side (the
// truth's when there is no data), so the band can be seen to grow without
// the axis chasing it; null (auto) when there is nothing to go by. The truth
// is not included otherwise: on a wide grid it would dwarf the data.
function dataRange(points, truth) {
  const ys = (points?.y?.length ? points.y : (truth?.y ?? [])).filter(Number.isFinite);
  if (ys.length < 2) return null;
  const [lo, hi] = extent([ys]);
  const span = hi - lo || 1;
  return [lo - 0.4 * span, hi + 0.4 * span];
}

// HistoryPlot draws one or more step series (raw and smoothed objective, or
// a trace) with the control-change marks.
export class HistoryPlot {
  // markLabels gives a mark's label candidates (marksPlugin); sharedRange,
  // when given, returns a y-range to use instead of the plot's own (the
  // panels' union, when their objectives compare) or null.
  constructor(host, { label, smoothed = false, height = 180, getMarks, markLabels, sharedRange }) {
    this.sharedRange = sharedRange;
    this.smoothed = smoothed;
    const series = [{ label: "step" }];
    if (smoothed) {
      series.push({ label: `${label} (raw)`, stroke: COLORS.raw, width: 1, points: { show: false } });
      series.push({ label: `${label} (smoothed)`, stroke: COLORS.smooth, width: 2, points: { show: false } });
    } else {
      series.push({ label, stroke: COLORS.trace, width: 1.5, points: { show: false } });
    }
    this.series = null;
    this.getMarks = getMarks;
    const opts = {
      height,
      legend: { show: smoothed, live: false },
      cursor: NO_DRAG,
      scales: {
        x: { time: false },
        // Traces autoscale: a step a control caused must stay in view.
        y: { range: (u, lo, hi) => this.sharedRange?.() ?? (smoothed && this.series?.length ? this.ownRange() : safeRange(lo, hi)) },
      },
      axes: [{ size: 36, space: 60, values: compactTicks }, { size: 62, values: compactTicks }],
      series,
      plugins: [marksPlugin(getMarks, markLabels)],
    };
    this.u = sized(host, opts, this.empty());
  }

  // ownRange is the objective's robust range (history.js). Its quantiles
  // take a sort of the whole history: they are recomputed at most twice a
  // second (and on a cleared series), and meanwhile the last range only
  // widens to the newest smoothed value, which must stay in view.
  ownRange() {
    const s = this.series;
    if (!s?.length) return null;
    const now = performance.now();
    if (this.rangeOf !== s || s.length < this.rangeLength || now - this.rangeAt > 500) {
      this.range = robustRange(s.x, s.y, s.s);
      [this.rangeOf, this.rangeLength, this.rangeAt] = [s, s.length, now];
    } else if (this.rangeVersion !== s.version) {
      const v = s.s.at(-1);
      if (Number.isFinite(v) && (v < this.range[0] || v > this.range[1])) this.range = safeRange(Math.min(this.range[0], v), Math.max(this.range[1], v), 0.02);
    }
    this.rangeVersion = s.version;
    return this.range;
  }

  empty() {
    return this.smoothed ? [[], [], []] : [[], []];
  }

  // draw shows a Series (history.js).
  draw(series) {
    const key = `${series.version}|${marksKey(this.getMarks())}|${this.sharedRange?.() ?? ""}`;
    if (series === this.series && key === this.drawn) return; // nothing new
    this.series = series;
    this.drawn = key;
    if (series.length === 0) {
      show(this.u, () => this.empty());
      return;
    }
    show(this.u, () => (this.smoothed ? [series.x, series.y, series.s] : [series.x, series.y]));
  }
}

// savePNG writes a plot's canvas on a white background, under a title, to a
// PNG download.
export function savePNG(u, title, filename) {
  const src = u.ctx.canvas;
  const px = uPlot.pxRatio;
  const head = Math.round(24 * px);
  const c = document.createElement("canvas");
  c.width = src.width;
  c.height = src.height + head;
  const ctx = c.getContext("2d");
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, c.width, c.height);
  ctx.fillStyle = "#111827";
  ctx.font = `${13 * px}px system-ui, sans-serif`;
  ctx.textBaseline = "middle";
  ctx.fillText(title, 8 * px, head / 2);
  ctx.drawImage(src, 0, head);
  download(c.toDataURL("image/png"), filename);
}

