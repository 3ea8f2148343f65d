// WeightsView is a weight-space VI panel's plot of one weight's marginal
// density under q. Frames carry it in `weights` (sim/run_weights.go) at most
// twice a second: a histogram of generator draws for an implicit q (LIVI),
// or a Gaussian's mean and std for mean-field VI. The histogram is drawn
// with the Gaussian of the same mean and std dashed over it, so heavy tails
// and several modes stand out. The index input sends {"op":"weight","n":i};
// a change is shared with the page's other weight views, so panels side by
// side show the same weight.

import { fmt } from "./history.js";
import { compactTicks, destroy, histSeries, NO_DRAG, plotFigure, sized } from "./plots.js";

const CURVE_POINTS = 121;
const SHARE = "playground:weight-index"; // page-wide event: { detail: index }

// columns returns uPlot columns over the union of the histogram's edges and
// a grid for the Gaussian: x, histogram density (null outside), Gaussian
// density. A histogram with a lone Gaussian (mean-field) spans ±4 std.
export function weightColumns(w) {
  const hasHist = w.kind === "samples" && Array.isArray(w.edges) && w.edges.length > 1;
  const sd = w.std > 0 ? w.std : 1e-12;
  let lo = w.mean - 4 * sd;
  let hi = w.mean + 4 * sd;
  if (hasHist) {
    lo = w.edges[0];
    hi = w.edges[w.edges.length - 1];
  }
  const xs = [];
  for (let i = 0; i < CURVE_POINTS; i++) xs.push(lo + ((hi - lo) * i) / (CURVE_POINTS - 1));
  if (hasHist) xs.push(...w.edges);
  xs.sort((a, b) => a - b);
  const hist = [];
  const gauss = [];
  const c = 1 / (sd * Math.sqrt(2 * Math.PI));
  let k = 0; // bin with edges[k] ≤ x < edges[k+1]; the last edge closes the last bin (xs ascend, so k only grows)
  for (const x of xs) {
    const z = (x - w.mean) / sd;
    gauss.push(c * Math.exp(-0.5 * z * z));
    if (!hasHist) continue;
    while (k < w.density.length - 1 && x >= w.edges[k + 1]) k++;
    hist.push(w.density[k]);
  }
  return hasHist ? [xs, hist, gauss] : [xs, gauss];
}

export class WeightsView {
  constructor(panel) {
    this.panel = panel;
    this.w = null;
    this.want = null; // the index the viewer chose, or null for the default
    this.sentFor = null; // the index last sent, so a reconnect re-sends once
    this.u = null;
    this.kind = null;
    this.dirty = false;
    this.build();
    document.addEventListener(SHARE, (ev) => this.choose(ev.detail, false));
  }

  build() {
    const { fig, cap, host } = plotFigure("weights", "Marginal of weight ", "weights");
    const input = document.createElement("input");
    input.type = "number";
    input.min = "0";
    input.step = "1";
    input.className = "small";
    input.dataset.role = "weight-index";
    input.style.width = "5.5em";
    input.setAttribute("aria-label", "weight index");
    input.addEventListener("change", () => {
      const i = Number(input.value);
      if (Number.isInteger(i) && i >= 0) this.choose(i, true);
    });
    this.input = input;
    this.nameEl = document.createElement("span");
    this.nameEl.className = "muted";
    cap.append(input, " ", this.nameEl);
    this.panel.pngButton(cap, () => this.u, "weight", () => `weight ${this.w?.index}`);
    this.host = host;
    this.stats = document.createElement("p");
    this.stats.className = "muted weight-stats";
    this.stats.dataset.role = "weight-stats";
    this.stats.style.fontSize = "0.8rem";
    this.stats.style.margin = "0.1rem 0";
    this.stats.textContent = "Appears with the first frame.";
    fig.append(this.stats);
    const traces = this.panel.role("traces");
    traces.parentNode.insertBefore(fig, traces);
  }

  // choose asks the run for weight i; share passes the choice to the page's
  // other weight views.
  choose(i, share) {
    if (this.w && i >= this.w.num_weights) {
      this.panel.showError(`Weight index ${i} is outside [0, ${this.w.num_weights - 1}].`);
      return;
    }
    this.want = i;
    this.input.value = String(i);
    this.send();
    if (share) document.dispatchEvent(new CustomEvent(SHARE, { detail: i }));
  }

  send() {
    if (this.want == null) return;
    this.sentFor = this.want;
    this.panel.send({ op: "weight", n: this.want });
  }

  onExtra(w) {
    if (!w || typeof w.index !== "number") return;
    this.w = w;
    this.input.max = String(w.num_weights - 1);
    if (this.panel.readOnly) {
      this.want = w.index; // a viewer sees the owner's choice and sends none
    } else if (this.want == null) {
      // Default: the last weight into the output unit (for the linear
      // model, the slope), where the network's uncertainty shows directly.
      this.want = Math.max(0, w.num_weights - 2);
      this.send();
    } else if (w.index !== this.want && this.sentFor !== this.want) this.send();
    if (document.activeElement !== this.input) this.input.value = String(this.want);
    this.dirty = true;
  }

  // onReconnect re-sends the chosen index: a new run starts at weight 0.
  onReconnect() {
    this.sentFor = null;
    if (this.want != null) this.send();
  }

  plot() {
    const hist = this.w.kind === "samples";
    if (this.u && this.kind === this.w.kind) return this.u;
    destroy(this.u);
    this.kind = this.w.kind;
    const series = [{}];
    if (hist) series.push(histSeries("histogram"));
    series.push({ label: hist ? "Gaussian, same mean and std" : "Gaussian q", stroke: hist ? "#ea580c" : "#0f766e", dash: hist ? [5, 4] : undefined, width: 1.8, points: { show: false }, fill: hist ? undefined : "rgba(15,118,110,0.18)" });
    this.u = sized(this.host, {
      height: 170,
      legend: { show: true, live: false },
      cursor: NO_DRAG,
      scales: { x: { time: false }, y: { range: (u, lo, hi) => [0, hi > 0 ? hi * 1.05 : 1] } },
      axes: [{ size: 32, values: compactTicks }, { size: 46, values: compactTicks }],
      series,
    }, hist ? [[], [], []] : [[], []]);
    return this.u;
  }

  draw() {
    if (!this.dirty || !this.w) return;
    this.dirty = false;
    const w = this.w;
    this.nameEl.textContent = w.name ? `(${w.name})` : "";
    this.plot().setData(weightColumns(w));
    const parts = [`mean ${fmt(w.mean)}`, `std ${fmt(w.std)}`];
    if (w.kind === "samples") {
      parts.push(`excess kurtosis ${fmt(w.kurtosis)} (Gaussian: 0)`);
      if (w.quantiles?.length === 3) parts.push(`1–99% [${fmt(w.quantiles[0])}, ${fmt(w.quantiles[2])}]`);
      parts.push(`${w.draws} draws at step ${w.step}`);
      if (w.outside > 0) parts.push(`${(100 * w.outside).toFixed(1)}% outside the plot`);
    } else parts.push(`mean-field: exactly Gaussian, at step ${w.step}`);
    this.stats.textContent = parts.join(" · ");
  }
}
