// GallerySweepPlot draws a target sweep with uPlot: one line per method of
// a measure against the swept value (an sd ratio, KL on the grid, an error
// of the moments), each point as its value completes, over an x axis that
// spans every value from the start. On the Gaussian the sd ratio has a
// closed form for mean-field, √(1−ρ²) (its optimum matches the precision's
// diagonal), drawn as a dashed line; the exact answer's value (1, 0, or
// the exact mean at each point) is a grey line, where full-rank and the
// samplers should sit.

import { extent } from "./history.js";
import { addPNGButton, compactTicks, destroy, NO_DRAG, sized } from "./plots.js";
import { closedForm, exactOf, measureOf } from "./gallery_sweep_data.js";

export const ARM_COLORS = ["#2563eb", "#d97706", "#059669", "#7c3aed", "#dc2626", "#0891b2"];
const CLOSED = "#111827";

const LABELS = {
  sd_ratio: "sd ÷ exact sd",
  mean: "mean",
  kl_exact: "KL(q‖p), nats",
  mean_error: "error of the mean, sds",
  cov_error: "error of the covariance",
};

// CURVE is the closed form's resolution: points across the x axis.
const CURVE = 97;

export class GallerySweepPlot {
  constructor(host, key) {
    this.host = host;
    this.key = key;
    this.points = [];
    this.sweep = null;
    addPNGButton(key.parentElement, () => this.u, () => {
      const s = this.sweep;
      const measure = this.host.closest("figure").querySelector("select")?.selectedOptions[0]?.textContent ?? s.measure;
      return [`${s.target}: ${measure} against ${s.label}`, `sweep-${s.target}-${s.param}.png`];
    });
  }

  // reset starts an empty plot over a new sweep.
  reset(sweep) {
    this.sweep = sweep;
    this.points = [];
    this.draw();
  }

  setMeasure(measure, points) {
    if (!this.sweep) return;
    this.sweep.measure = measure;
    this.points = [...points];
    this.draw();
  }

  // setPoints draws the finished points (any order).
  setPoints(points) {
    this.points = [...points].sort((a, b) => a.value - b.value);
    this.u.setData(this.table());
  }

  draw() {
    destroy(this.u);
    const s = this.sweep;
    let [lo, hi] = extent([s.values]) ?? [0, 1];
    if (lo === hi) [lo, hi] = [lo - 1, hi + 1];
    this.xRange = [lo - 0.03 * (hi - lo), hi + 0.03 * (hi - lo)];
    this.closed = closedForm(s.target, s.param, s.controls, s.measure);
    const yLabel = LABELS[s.measure.split(":")[0]];
    const series = [{ label: s.label }];
    s.labels.forEach((label, i) => {
      const stroke = ARM_COLORS[i % ARM_COLORS.length];
      series.push({ label, stroke, width: 2, spanGaps: true, points: { show: true, size: 8, stroke, fill: "#fff", width: 2 } });
    });
    if (this.closed) series.push({ label: "mean-field's optimum √(1−ρ²)", stroke: CLOSED, width: 1.5, dash: [6, 4], points: { show: false } });
    series.push({ label: "exact", stroke: "#9ca3af", width: 1.5, spanGaps: true, points: { show: false } });
    const opts = {
      height: 300,
      legend: { show: false },
      cursor: { ...NO_DRAG, points: { show: false } },
      scales: {
        x: { time: false, range: () => this.xRange },
        y: { range: (u, a, b) => yRange(a, b, s.measure) },
      },
      axes: [
        { label: s.label, labelSize: 20, size: 40, values: compactTicks },
        { label: yLabel, labelSize: 20, size: 56, values: compactTicks },
      ],
      series,
    };
    this.u = sized(this.host, opts, this.table(), 240);
    this.renderKey(series.slice(1));
  }

  // table is the x values (the sweep's points, and the closed form's grid
  // when there is one) and a column per method, null between its points.
  table() {
    const s = this.sweep;
    const xs = new Set(this.points.map((p) => p.value));
    if (this.closed) {
      const [a, b] = this.xRange;
      for (let i = 0; i < CURVE; i++) xs.add(a + ((b - a) * i) / (CURVE - 1));
    }
    const x = [...xs].sort((p, q) => p - q);
    const at = new Map(this.points.map((p) => [p.value, p]));
    const cols = [x];
    s.labels.forEach((_, i) => cols.push(x.map((v) => measureOf(at.get(v)?.methods?.[i], s.measure))));
    if (this.closed) cols.push(x.map((v) => (Math.abs(v) < 1 ? this.closed(v) : null)));
    // The exact answer: a constant across the axis, or (a mean) a line
    // through its values at the points in.
    const mean = s.measure.startsWith("mean");
    cols.push(x.map((v) => (mean ? (at.has(v) ? exactOf(at.get(v), s.measure) : null) : exactOf(null, s.measure))));
    return cols;
  }

  renderKey(series) {
    this.key.replaceChildren(
      ...series.map((se) => {
        const item = document.createElement("span");
        item.style.color = se.stroke; // the CSSOM: no inline style attribute under the CSP
        item.textContent = `${se.dash ? "- -" : se.points?.show ? "●" : "—"} ${se.label}`;
        return item;
      }),
    );
  }
}

// yRange starts an sd ratio or an error at 0 and leaves 8% room above; a
// mean's range is its own.
function yRange(a, b, measure) {
  if (measure.startsWith("mean")) {
    const [lo, hi] = Number.isFinite(a) && Number.isFinite(b) && b > a ? [a, b] : [-1, 1];
    return [lo - 0.08 * (hi - lo), hi + 0.08 * (hi - lo)];
  }
  const lo = Number.isFinite(a) ? Math.min(0, a) : 0;
  let hi = Number.isFinite(b) ? b : 1;
  if (measure.startsWith("sd_ratio")) hi = Math.max(hi, 1);
  if (hi <= lo) hi = lo + 1;
  return [lo, hi + 0.08 * (hi - lo)];
}
