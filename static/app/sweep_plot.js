// SweepPlot draws a sweep with uPlot: ELBO and IWBO against the swept
// value, each mean with a shaded ±2 s.e. band. The x axis spans every value
// of the sweep from the start (log scale for prior scales), so each point
// lands where it belongs as its value completes.

import { extent } from "./history.js";
import { compactTicks, destroy, NO_DRAG, sized } from "./plots.js";

export const SWEEP_COLORS = {
  elbo: "#1d4ed8",
  elboBand: "rgba(37, 99, 235, 0.18)",
  iwbo: "#c2410c",
  iwboBand: "rgba(234, 88, 12, 0.18)",
};

export class SweepPlot {
  // values: every value of the sweep; logX: plot x on a log scale.
  constructor(host, { label, values, logX, height = 300 }) {
    this.host = host;
    this.height = height;
    this.label = label;
    this.points = [];
    this.reset(values, logX);
  }

  // reset starts an empty plot over a new sweep's values.
  reset(values, logX) {
    destroy(this.u);
    this.points = [];
    const pos = values.filter((v) => v > 0);
    this.logX = logX && pos.length === values.length && values.length > 0;
    let [lo, hi] = extent([values]) ?? [0, 1];
    if (lo === hi) [lo, hi] = this.logX ? [lo / 2, hi * 2] : [lo - 1, hi + 1];
    // A little room either side, so the end points' markers are whole.
    const xRange = this.logX ? [lo / 1.12, hi * 1.12] : [lo - 0.03 * (hi - lo), hi + 0.03 * (hi - lo)];
    const edge = (stroke) => ({ stroke, width: 0, points: { show: false } });
    const mean = (label, stroke) => ({ label, stroke, width: 2, points: { show: true, size: 7, stroke, fill: "#fff", width: 2 } });
    const opts = {
      height: this.height,
      legend: { show: false },
      cursor: { ...NO_DRAG, points: { show: false } },
      scales: {
        x: this.logX ? { time: false, distr: 3, log: 10, range: () => xRange } : { time: false, range: () => xRange },
        y: { range: (u, a, b) => yRange(this.points, a, b) },
      },
      axes: [
        // On a log axis uPlot labels only powers of ten: tick and label the
        // swept values instead.
        this.logX
          ? { label: this.label, labelSize: 20, size: 40, splits: () => values, filter: (u, splits) => splits, values: compactTicks }
          : { label: this.label, labelSize: 20, size: 40, values: compactTicks },
        { label: "nats", labelSize: 20, size: 62, values: compactTicks },
      ],
      series: [
        { label: this.label },
        edge(SWEEP_COLORS.elboBand), // 1 ELBO − 2 s.e.
        edge(SWEEP_COLORS.elboBand), // 2 ELBO + 2 s.e.
        mean("ELBO", SWEEP_COLORS.elbo), // 3
        edge(SWEEP_COLORS.iwboBand), // 4 IWBO − 2 s.e.
        edge(SWEEP_COLORS.iwboBand), // 5 IWBO + 2 s.e.
        mean("IWBO", SWEEP_COLORS.iwbo), // 6
      ],
      bands: [
        { series: [2, 1], fill: SWEEP_COLORS.elboBand },
        { series: [5, 4], fill: SWEEP_COLORS.iwboBand },
      ],
    };
    this.u = sized(this.host, opts, this.table(), 240);
  }

  // setPoints draws the finished points (any order).
  setPoints(points) {
    this.points = [...points].sort((a, b) => a.value - b.value);
    this.u.setData(this.table());
  }

  table() {
    const p = this.points;
    const col = (f) => p.map(f);
    return [
      col((q) => q.value),
      col((q) => q.elbo_mean - 2 * q.elbo_se),
      col((q) => q.elbo_mean + 2 * q.elbo_se),
      col((q) => q.elbo_mean),
      col((q) => q.iwbo_mean - 2 * q.iwbo_se),
      col((q) => q.iwbo_mean + 2 * q.iwbo_se),
      col((q) => q.iwbo_mean),
    ];
  }
}

// yRange spans every band with 8% room; a bound at a tiny value can be far
// below the rest, and the figure should show it rather than clip it.
function yRange(points, a, b) {
  if (!points.length) return [a ?? 0, b ?? 1];
  let lo = Infinity;
  let hi = -Infinity;
  for (const q of points) {
    for (const v of [q.elbo_mean - 2 * q.elbo_se, q.iwbo_mean - 2 * q.iwbo_se]) if (Number.isFinite(v)) lo = Math.min(lo, v);
    for (const v of [q.elbo_mean + 2 * q.elbo_se, q.iwbo_mean + 2 * q.iwbo_se]) if (Number.isFinite(v)) hi = Math.max(hi, v);
  }
  if (!Number.isFinite(lo)) return [a ?? 0, b ?? 1];
  const pad = Math.max(hi - lo, Math.abs(hi) * 0.01, 1e-6) * 0.08;
  return [lo - pad, hi + pad];
}
