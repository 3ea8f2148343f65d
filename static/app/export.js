// Exports of a panel: its history as CSV (long format: series, step, value)
// or JSON (everything, including the latest band and the control marks);
// for slides, the predictive plot as a PNG at twice the screen's
// resolution with a legend and a caption, the band and the data as CSV
// files, and a sampler's kept draws (GET /api/runs/{id}/draws.csv).
//
// The PNG is drawn here from the band, the data, the truth and the
// snapshot, not copied from the live plot's canvas: a copy scaled up is
// blurred, and the live plot's own legend and layout may change without
// this file knowing.

import { fmt } from "./history.js";
import { download, saveBlob } from "./download.js";
import { yBand } from "./yband.js";

// PNG_SCALE is how many times the screen's resolution the PNG has: its
// width is PNG_SCALE × devicePixelRatio × the plot's CSS width.
export const PNG_SCALE = 2;

// SAMPLES_DRAWN matches the live plot's sampled functions.
const SAMPLES_DRAWN = 5;

// Colours as the live plot draws them (plots.js), so the slide and the
// screen read alike.
const INK = {
  band: "rgba(37, 99, 235, 0.20)",
  bandEdge: "rgba(37, 99, 235, 0.55)",
  mean: "#1d4ed8",
  sample: "rgba(29, 78, 216, 0.45)",
  data: "#111827",
  dataFill: "rgba(17, 24, 39, 0.75)",
  truth: "#6b7280",
  snapBand: "rgba(234, 88, 12, 0.13)",
  snapMean: "rgba(234, 88, 12, 0.75)",
  axis: "#374151",
  grid: "#e5e7eb",
  text: "#111827",
  inducing: "#059669", // plots.js COLORS.inducing
  yband: "rgba(37, 99, 235, 0.07)", // yband.js
  held: "#15803d",
  broken: "#b91c1c",
  muted: "#4b5563",
};

// ---- pure builders (node-tested in static/test/export.test.mjs) ----

// bandCSV is the band as CSV: x, mean, std, lo, hi, one row per grid
// point, every number at full precision (shortest text that reads back to
// the same double). A regression band is mean ± 2 std, so std is
// (hi − lo)/4. A classification band is σ(m ± 2s) around the predictive
// probability (m, s: mean and sd of the latent f); its std column is s,
// (logit hi − logit lo)/4.
export function bandCSV(band, task = "regression") {
  const lines = ["x,mean,std,lo,hi"];
  if (!band) return lines.join("\n") + "\n";
  const logit = (p) => Math.log(p / (1 - p));
  for (let i = 0; i < band.x.length; i++) {
    const lo = band.lo[i];
    const hi = band.hi[i];
    const std = task === "classification" ? (logit(hi) - logit(lo)) / 4 : (hi - lo) / 4;
    lines.push([band.x[i], band.mean[i], std, lo, hi].map(num).join(","));
  }
  return lines.join("\n") + "\n";
}

// dataCSV is the training data as CSV: x, y, one row per point, in the
// units the plot shows.
export function dataCSV(points) {
  const lines = ["x,y"];
  const n = Math.min(points?.x?.length ?? 0, points?.y?.length ?? 0);
  for (let i = 0; i < n; i++) lines.push(`${num(points.x[i])},${num(points.y[i])}`);
  return lines.join("\n") + "\n";
}

// captionText is the line under an exported plot: method (and model),
// data set, seed, step and every control's current value, each under the
// label the page gives it ("Prior scale = 0.232"), in the spec's order,
// then any the spec does not list, sorted. dataLabel, when given, names the
// data set as the page does ("Cubic with a gap", not its key).
export function captionText({ label, model, data, dataLabel, seed, step, controls, specs = [] }) {
  const parts = [model ? `${label} (model ${model})` : label, `data: ${dataLabel || data}`, `seed ${seed}`, `step ${Number(step).toLocaleString("en-US")}`];
  const labels = new Map(specs.map((s) => [s.name, s.label || s.name]));
  const seen = new Set();
  const one = (name) => {
    if (!(name in controls) || seen.has(name)) return;
    seen.add(name);
    const v = controls[name];
    parts.push(`${labels.get(name) ?? name} = ${typeof v === "number" ? fmt(v) : String(v)}`);
  };
  for (const s of specs) one(s.name);
  for (const name of Object.keys(controls).sort()) one(name);
  return parts.join(" · ");
}

// slideHead is the head of an exported slide: the scenario's title, its
// claim, and the verdict with the claim's live numbers, as the page shows
// them; lines the page lacks are left out.
export function slideHead({ title, claim, verdict, numbers }) {
  const out = [];
  if (title) out.push({ kind: "title", text: title });
  if (claim) out.push({ kind: "claim", text: `Claim: ${claim}` });
  const now = [verdict, numbers].filter(Boolean).join(" · ");
  if (claim && now) out.push({ kind: "verdict", text: now });
  return out;
}

// legendItems lists what an exported plot shows, in drawing order: data,
// truth, mean, ±2σ band, sampled functions, snapshot, inducing inputs,
// each only when present.
export function legendItems({ points, truth, band, snapshot, inducing }) {
  const items = [];
  if (points?.x?.length) items.push({ key: "data", label: "data" });
  if (truth?.x?.length) items.push({ key: "truth", label: "truth" });
  if (band?.x?.length) {
    items.push({ key: "mean", label: "mean" });
    items.push({ key: "band", label: "±2σ band" });
    if (band.samples?.length) items.push({ key: "samples", label: "sampled functions" });
  }
  if (snapshot?.x?.length) items.push({ key: "snapshot", label: "snapshot" });
  if (inducing?.length) items.push({ key: "inducing", label: "inducing inputs" });
  return items;
}

// niceTicks returns about n round numbers spanning [lo, hi].
export function niceTicks(lo, hi, n = 5) {
  if (!(hi > lo) || !Number.isFinite(lo) || !Number.isFinite(hi)) return [];
  const raw = (hi - lo) / Math.max(1, n);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
  return out;
}

function num(v) {
  return v == null || !Number.isFinite(v) ? "" : String(v);
}

// ---- history exports ----

function record(panel) {
  const c = panel.app.config;
  const traces = {};
  for (const [name, t] of panel.traces) traces[name] = t.series.points();
  return {
    method: panel.method,
    label: panel.spec.label,
    model: panel.model || null,
    data: c.data,
    seed: c.seed,
    run: panel.runId,
    step: panel.step,
    status: panel.status,
    exported_at: new Date().toISOString(),
    link: location.href,
    controls: { ...panel.confirmed },
    smoothing: panel.app.smoothing,
    objective: panel.objective.points(),
    objective_smoothed: panel.objective.x.map((x, i) => [x, panel.objective.s[i]]),
    traces,
    marks: panel.marks,
    diagnostics: panel.diagnostics,
    predictive: panel.band,
  };
}

export function exportJSON(panel) {
  const blob = new Blob([JSON.stringify(record(panel), null, 1)], { type: "application/json" });
  saveBlob(blob, `${panel.fileStem()}.json`);
}

// historyCSV is a panel's history record (record()) as CSV in long
// format, each value to the three significant digits the page prints
// (fmt): a table for slides agrees with the screen, and full precision
// stays in the JSON export and the draws.
export function historyCSV(r) {
  const lines = ["series,step,value"];
  const add = (name, pts) => {
    for (const [s, v] of pts) lines.push(`${csvCell(name)},${s},${shown(v)}`);
  };
  add("objective", r.objective);
  add("objective_smoothed", r.objective_smoothed);
  for (const [name, pts] of Object.entries(r.traces)) add(`trace:${name}`, pts);
  for (const m of r.marks) lines.push(`${csvCell(`mark:${m.name}`)},${m.step},${csvCell(String(m.value))}`);
  return lines.join("\n") + "\n";
}

// shown is v as a CSV number to the page's three significant digits; a
// value that is no finite number is left as it is.
function shown(v) {
  return typeof v === "number" && Number.isFinite(v) ? String(Number(v.toPrecision(3))) : String(v);
}

export function exportCSV(panel) {
  saveBlob(new Blob([historyCSV(record(panel))], { type: "text/csv" }), `${panel.fileStem()}.csv`);
}

function csvCell(s) {
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

// ---- the predictive plot's exports ----

// addPredictiveExports puts the predictive plot's export buttons in its
// caption: PNG (for slides), band CSV, data CSV and, for a sampler, its
// kept draws. panel.js calls it once, for the predictive figure.
export function addPredictiveExports(panel, caption) {
  // One small "Export" menu, so the bar under the plot stays one line in a
  // narrow panel (the one-screen layout): the history's CSV and JSON move
  // into it too.
  const menu = document.createElement("details");
  menu.className = "export-menu";
  const summary = document.createElement("summary");
  summary.textContent = "Export";
  summary.title = "PNG for slides; band, data, history or draws as CSV; everything as JSON";
  const body = document.createElement("div");
  body.className = "export-menu-body";
  menu.append(summary, body);
  caption.appendChild(menu);
  for (const op of ["csv", "json"]) {
    const b = caption.querySelector(`[data-op="${op}"]`);
    if (b) {
      b.textContent = op === "csv" ? "History CSV" : "JSON";
      body.appendChild(b);
    }
  }
  document.addEventListener("click", (ev) => {
    if (menu.open && !menu.contains(ev.target)) menu.open = false;
  });
  const button = (cls, text, title, onClick) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = cls;
    b.textContent = text;
    b.title = title;
    b.addEventListener("click", () => {
      menu.open = false;
      onClick();
    });
    body.appendChild(b);
    return b;
  };
  button("png", "PNG", `Save this plot as a PNG for slides (${PNG_SCALE}× screen resolution, with a legend and the settings)`, () => exportPNG(panel));
  button("band-csv", "Band CSV", "Download the band as CSV: x, mean, std, lo, hi", () => {
    if (!panel.band) {
      panel.showError("No band yet: play or step the run first.");
      return;
    }
    saveBlob(new Blob([bandCSV(panel.band, panel.app.config.task)], { type: "text/csv" }), `${panel.fileStem()}-band.csv`);
  });
  button("data-csv", "Data CSV", "Download the training data as CSV: x, y", () => {
    saveBlob(new Blob([dataCSV(panelPoints(panel))], { type: "text/csv" }), `${panel.fileStem()}-data.csv`);
  });
  if (panel.spec.family === "mcmc") {
    button("draws-csv", "Draws CSV", "Download every kept draw of every chain (.chain, .iteration, .draw, then the parameters), as `playground run --draws` writes them", () => {
      if (!panel.runId) return;
      download(`/api/runs/${encodeURIComponent(panel.runId)}/draws.csv`, `${panel.fileStem()}-draws.csv`);
    });
  }
}

function panelPoints(panel) {
  return panel.predictive?.points ?? panel.app.config.points ?? null;
}

// exportPNG saves the predictive plot drawn afresh at PNG_SCALE times the
// screen's resolution, under the scenario's title, claim and verdict.
export function exportPNG(panel) {
  const canvas = renderPredictive(panel, PNG_SCALE * (window.devicePixelRatio || 1), { head: pageHead() });
  download(canvas.toDataURL("image/png"), `${panel.fileStem()}-predictive.png`);
}

// exportAllPNG saves every panel's predictive plot on one slide, side by
// side under the scenario's title, claim and verdict, each headed by its
// method's name.
export function exportAllPNG(panels, stem) {
  const canvas = renderAll(panels, PNG_SCALE * (window.devicePixelRatio || 1), pageHead());
  download(canvas.toDataURL("image/png"), `${stem}-all-panels.png`);
}

// pageHead reads the slide's head off the page as it reads now.
function pageHead() {
  const text = (sel) => document.querySelector(sel)?.textContent.trim() ?? "";
  const claim = document.querySelector("#claim") ? playgroundClaim() : "";
  return slideHead({ title: text(".play-head h1"), claim, verdict: text("#claim-verdict"), numbers: text("#claim-status") });
}

// playgroundClaim is the claim's own text: the claim line less its label,
// verdict and numbers.
function playgroundClaim() {
  const line = document.querySelector("#claim").cloneNode(true);
  line.querySelector("strong")?.remove();
  line.querySelector(".claim-now")?.remove();
  return line.textContent.trim();
}

const FONT = (px, weight = "") => `${weight}${px}px system-ui, -apple-system, "Segoe UI", sans-serif`;

// HEAD_STYLE is each head line's size, weight and colour.
const HEAD_STYLE = { title: [17, "bold ", INK.text, 22], claim: [12.5, "", INK.text, 17], verdict: [12, "", INK.muted, 16], name: [14, "bold ", INK.text, 19] };

// layoutHead wraps the head's lines to width: [{kind, text}] per line, and
// their height.
function layoutHead(meas, head, width) {
  const lines = [];
  let h = 0;
  for (const l of head) {
    const [px, weight, , lh] = HEAD_STYLE[l.kind];
    meas.font = FONT(px, weight);
    for (const t of wrap(meas, l.text, width)) {
      lines.push({ kind: l.kind, text: t, y: h });
      h += lh;
    }
  }
  return { lines, height: head.length ? h + 8 : 0 };
}

function drawHead(ctx, layout, x, y, verdictColour) {
  ctx.textBaseline = "top";
  ctx.textAlign = "left";
  for (const l of layout.lines) {
    const [px, weight, colour] = HEAD_STYLE[l.kind];
    ctx.font = FONT(px, weight);
    ctx.fillStyle = l.kind === "verdict" ? verdictColour : colour;
    ctx.fillText(l.text, x, y + l.y);
  }
}

// verdictInk colours the verdict line as the page colours its chip.
function verdictInk(head) {
  const v = head.find((l) => l.kind === "verdict")?.text ?? "";
  return v.startsWith("✓") ? INK.held : v.startsWith("✗") ? INK.broken : INK.muted;
}

// renderAll lays the panels' slides (renderPredictive, each headed by its
// method's name) out in columns under one head.
export function renderAll(panels, scale, head = []) {
  const shown = panels.filter((p) => p.predictive);
  const cols = shown.length <= 3 ? shown.length : 2;
  const parts = shown.map((p) => renderPredictive(p, scale, { name: true }));
  const gap = 12;
  const colW = Math.max(...parts.map((c) => c.width / scale), 200);
  const W = cols * colW + (cols + 1) * gap;
  const meas = document.createElement("canvas").getContext("2d");
  const hl = layoutHead(meas, head, W - 2 * gap);
  const rows = [];
  for (let i = 0; i < parts.length; i += cols) rows.push(parts.slice(i, i + cols));
  const rowH = rows.map((r) => Math.max(...r.map((c) => c.height / scale)));
  const H = gap + hl.height + rowH.reduce((a, b) => a + b + gap, 0);
  const c = document.createElement("canvas");
  c.width = Math.round(W * scale);
  c.height = Math.round(H * scale);
  const ctx = c.getContext("2d");
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, c.width, c.height);
  ctx.save();
  ctx.scale(scale, scale);
  drawHead(ctx, hl, gap, gap, verdictInk(head));
  ctx.restore();
  let y = gap + hl.height;
  rows.forEach((r, i) => {
    r.forEach((part, j) => ctx.drawImage(part, Math.round((gap + j * (colW + gap)) * scale), Math.round(y * scale)));
    y += rowH[i] + gap;
  });
  return c;
}

// renderPredictive draws the panel's predictive plot, its legend and its
// caption on a new canvas, laid out in the live plot's CSS size and drawn
// at scale device pixels per CSS pixel, under head (slideHead's lines) and
// the method's name when name is set. The axes' ranges are the live plot's,
// so the picture matches the screen; every marker the live plot shows is
// drawn (the inducing inputs too).
export function renderPredictive(panel, scale, { head = [], name = false } = {}) {
  const plot = panel.predictive;
  const u = plot?.u;
  const W = Math.max(200, Math.round(u?.width ?? 600));
  const H = Math.max(120, Math.round(u?.height ?? 260));
  const task = panel.app.config.task;
  const inducing = plot?.inducing ? (panel.views?.get("inducing")?.x ?? []) : [];
  const series = { points: panelPoints(panel), truth: plot?.truth ?? panel.app.config.truth, band: panel.band, snapshot: plot?.snapshot ?? null, inducing };
  const yb = panel.noiseBand?.shown() ? yBand(panel.band, panel.noiseBand.sigma) : null;
  const items = legendItems(series);
  if (yb) items.splice(items.findIndex((i) => i.key === "band") + 1, 0, { key: "yband", label: "±2σ band of y" });
  const caption = captionText({
    label: panel.spec.label,
    model: panel.model,
    data: panel.app.config.data,
    dataLabel: panel.app.config.data_label,
    seed: panel.app.config.seed,
    step: panel.step,
    controls: panel.confirmed,
    specs: panel.spec.controls ?? [],
  });

  // Measure the head, legend and caption with a scratch context first.
  const font = FONT;
  const meas = document.createElement("canvas").getContext("2d");
  const hl = layoutHead(meas, name ? [...head, { kind: "name", text: panel.spec.label }] : head, W - 16);
  meas.font = font(12);
  const legendRows = layoutLegend(meas, items, W - 16);
  meas.font = font(11);
  const capLines = wrap(meas, caption, W - 16);
  const legendH = legendRows.length * 18 + (legendRows.length ? 6 : 0);
  const capH = capLines.length * 15 + 8;
  const top = hl.height ? hl.height + 8 : 0;
  const total = top + H + legendH + capH;

  const c = document.createElement("canvas");
  c.width = Math.round(W * scale);
  c.height = Math.round(total * scale);
  const ctx = c.getContext("2d");
  ctx.scale(scale, scale);
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, W, total);
  drawHead(ctx, hl, 8, 8, verdictInk(head));
  ctx.translate(0, top);

  const area = { left: 58, top: 10, right: W - 14, bottom: H - 42 };
  const [x0, x1] = range(u?.scales?.x, [series.band?.x, series.points?.x, series.truth?.x]);
  const [y0, y1] = task === "classification" ? [-0.04, 1.04] : range(u?.scales?.y, [series.band?.lo, series.band?.hi, series.points?.y]);
  const px = (x) => area.left + ((x - x0) / (x1 - x0)) * (area.right - area.left);
  const py = (y) => area.bottom - ((y - y0) / (y1 - y0)) * (area.bottom - area.top);

  drawAxes(ctx, area, { x0, x1, y0, y1, px, py, font, yLabel: task === "classification" ? "p(y = 1 | x)" : "f(x)" });

  ctx.save();
  ctx.beginPath();
  ctx.rect(area.left, area.top, area.right - area.left, area.bottom - area.top);
  ctx.clip();
  const s = series.snapshot;
  if (s) {
    fillBetween(ctx, s.x, s.lo, s.hi, px, py, INK.snapBand);
    line(ctx, s.x, s.mean, px, py, INK.snapMean, 1.5, [6, 4]);
  }
  if (yb) {
    fillBetween(ctx, yb.x, yb.lo, yb.hi, px, py, INK.yband);
    line(ctx, yb.x, yb.lo, px, py, INK.bandEdge, 1, [4, 3]);
    line(ctx, yb.x, yb.hi, px, py, INK.bandEdge, 1, [4, 3]);
  }
  const b = series.band;
  if (b) {
    fillBetween(ctx, b.x, b.lo, b.hi, px, py, INK.band);
    line(ctx, b.x, b.lo, px, py, INK.bandEdge, 1);
    line(ctx, b.x, b.hi, px, py, INK.bandEdge, 1);
    for (const f of (b.samples ?? []).slice(0, SAMPLES_DRAWN)) line(ctx, b.x, f, px, py, INK.sample, 1);
  }
  if (series.truth) line(ctx, series.truth.x, series.truth.y, px, py, INK.truth, 1.5, [3, 4]);
  if (b) line(ctx, b.x, b.mean, px, py, INK.mean, 2.5);
  const p = series.points;
  if (p) {
    ctx.fillStyle = INK.dataFill;
    ctx.strokeStyle = INK.data;
    ctx.lineWidth = 1;
    for (let i = 0; i < Math.min(p.x.length, p.y.length); i++) {
      ctx.beginPath();
      ctx.arc(px(p.x[i]), py(p.y[i]), 2.5, 0, 2 * Math.PI);
      ctx.fill();
      ctx.stroke();
    }
  }
  // The inducing inputs as the live plot marks them: triangles on the x-axis.
  for (const x of inducing) if (x >= x0 && x <= x1) triangle(ctx, px(x), area.bottom - 1);
  ctx.restore();

  // Legend: a swatch and a label per item, in rows.
  ctx.font = font(12);
  ctx.textBaseline = "middle";
  legendRows.forEach((row, r) => {
    const y = H + 9 + r * 18;
    for (const it of row) {
      swatch(ctx, it.key, it.x + 8, y);
      ctx.fillStyle = INK.text;
      ctx.fillText(it.label, it.x + 8 + 26, y);
    }
  });
  // Caption.
  ctx.font = font(11);
  ctx.fillStyle = INK.text;
  ctx.textBaseline = "top";
  capLines.forEach((t, i) => ctx.fillText(t, 8, H + legendH + 4 + i * 15));
  return c;
}

// triangle draws an inducing input's marker, its base on y.
function triangle(ctx, x, y) {
  ctx.fillStyle = INK.inducing;
  ctx.beginPath();
  ctx.moveTo(x - 5, y);
  ctx.lineTo(x + 5, y);
  ctx.lineTo(x, y - 9);
  ctx.closePath();
  ctx.fill();
}

// layoutLegend places the items in rows no wider than width: each gets x.
function layoutLegend(ctx, items, width) {
  const rows = [];
  let row = [];
  let x = 0;
  for (const it of items) {
    const w = 26 + ctx.measureText(it.label).width + 16;
    if (row.length && x + w > width) {
      rows.push(row);
      row = [];
      x = 0;
    }
    row.push({ ...it, x });
    x += w;
  }
  if (row.length) rows.push(row);
  return rows;
}

// wrap breaks text at " · " (else spaces) into lines no wider than width.
function wrap(ctx, text, width) {
  const words = text.split(" ");
  const lines = [];
  let cur = "";
  for (const w of words) {
    const next = cur ? `${cur} ${w}` : w;
    if (cur && ctx.measureText(next).width > width) {
      lines.push(cur);
      cur = w === "·" ? "" : w;
    } else cur = next;
  }
  if (cur) lines.push(cur);
  return lines;
}

function swatch(ctx, key, x, y) {
  ctx.save();
  switch (key) {
    case "data":
      ctx.fillStyle = INK.dataFill;
      ctx.strokeStyle = INK.data;
      ctx.beginPath();
      ctx.arc(x + 10, y, 3, 0, 2 * Math.PI);
      ctx.fill();
      ctx.stroke();
      break;
    case "band":
      ctx.fillStyle = INK.band;
      ctx.fillRect(x, y - 6, 20, 12);
      ctx.strokeStyle = INK.bandEdge;
      ctx.strokeRect(x, y - 6, 20, 12);
      break;
    case "snapshot":
      ctx.fillStyle = INK.snapBand;
      ctx.fillRect(x, y - 6, 20, 12);
      segment(ctx, x, y, INK.snapMean, 1.5, [6, 4]);
      break;
    case "truth":
      segment(ctx, x, y, INK.truth, 1.5, [3, 4]);
      break;
    case "inducing":
      triangle(ctx, x + 10, y + 5);
      break;
    case "yband":
      ctx.fillStyle = INK.yband;
      ctx.fillRect(x, y - 6, 20, 12);
      ctx.strokeStyle = INK.bandEdge;
      ctx.setLineDash([4, 3]);
      ctx.strokeRect(x, y - 6, 20, 12);
      break;
    case "samples":
      segment(ctx, x, y - 3, INK.sample, 1);
      segment(ctx, x, y + 3, INK.sample, 1);
      break;
    default: // mean
      segment(ctx, x, y, INK.mean, 2.5);
  }
  ctx.restore();
}

function segment(ctx, x, y, color, width, dash = []) {
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  ctx.setLineDash(dash);
  ctx.beginPath();
  ctx.moveTo(x, y);
  ctx.lineTo(x + 20, y);
  ctx.stroke();
  ctx.setLineDash([]);
}

// range is a live scale's [min, max] when it has one, else the span of the
// arrays given.
function range(scale, arrays) {
  if (Number.isFinite(scale?.min) && Number.isFinite(scale?.max) && scale.max > scale.min) return [scale.min, scale.max];
  let lo = Infinity;
  let hi = -Infinity;
  for (const a of arrays) for (const v of a ?? []) if (Number.isFinite(v)) [lo, hi] = [Math.min(lo, v), Math.max(hi, v)];
  if (!(hi > lo)) return Number.isFinite(lo) ? [lo - 1, lo + 1] : [-1, 1];
  const pad = 0.05 * (hi - lo);
  return [lo - pad, hi + pad];
}

function drawAxes(ctx, area, { x0, x1, y0, y1, px, py, font, yLabel }) {
  const { left, top, right, bottom } = area;
  ctx.font = font(11);
  ctx.lineWidth = 1;
  ctx.fillStyle = INK.axis;
  ctx.textAlign = "center";
  ctx.textBaseline = "top";
  for (const v of niceTicks(x0, x1, Math.max(3, Math.round((right - left) / 80)))) {
    const x = px(v);
    ctx.strokeStyle = INK.grid;
    ctx.beginPath();
    ctx.moveTo(x, top);
    ctx.lineTo(x, bottom);
    ctx.stroke();
    ctx.fillText(fmt(v), x, bottom + 4);
  }
  ctx.textAlign = "right";
  ctx.textBaseline = "middle";
  for (const v of niceTicks(y0, y1, Math.max(3, Math.round((bottom - top) / 50)))) {
    const y = py(v);
    ctx.strokeStyle = INK.grid;
    ctx.beginPath();
    ctx.moveTo(left, y);
    ctx.lineTo(right, y);
    ctx.stroke();
    ctx.fillText(fmt(v), left - 5, y);
  }
  ctx.strokeStyle = INK.axis;
  ctx.strokeRect(left, top, right - left, bottom - top);
  ctx.font = font(12);
  ctx.textAlign = "center";
  ctx.textBaseline = "alphabetic";
  ctx.fillText("x", (left + right) / 2, bottom + 34);
  ctx.save();
  ctx.translate(14, (top + bottom) / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.fillText(yLabel, 0, 0);
  ctx.restore();
  ctx.textAlign = "left";
}

function line(ctx, xs, ys, px, py, color, width, dash = []) {
  if (!xs || !ys) return;
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  ctx.setLineDash(dash);
  ctx.beginPath();
  let open = false;
  for (let i = 0; i < Math.min(xs.length, ys.length); i++) {
    if (ys[i] == null || !Number.isFinite(ys[i])) {
      open = false;
      continue;
    }
    if (open) ctx.lineTo(px(xs[i]), py(ys[i]));
    else ctx.moveTo(px(xs[i]), py(ys[i]));
    open = true;
  }
  ctx.stroke();
  ctx.setLineDash([]);
}

function fillBetween(ctx, xs, lo, hi, px, py, color) {
  if (!xs?.length || !lo || !hi) return;
  ctx.fillStyle = color;
  ctx.beginPath();
  ctx.moveTo(px(xs[0]), py(hi[0]));
  for (let i = 1; i < xs.length; i++) ctx.lineTo(px(xs[i]), py(hi[i]));
  for (let i = xs.length - 1; i >= 0; i--) ctx.lineTo(px(xs[i]), py(lo[i]));
  ctx.closePath();
  ctx.fill();
}
