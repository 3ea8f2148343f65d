// McmcView is a sampler panel's own plots: a trace per parameter with one
// series per chain, the 2-D scatter of two parameters from recent draws, a
// running histogram, rank plots, the step-size and acceptance traces, and a
// table of R-hat and effective sample sizes. The chains' traces ("b0.c1" …
// "b0.c8") arrive in the frames' `trace` like any method's; the recent
// draws and their statistics arrive in `draws` (sim/run_draws.go) about
// twice a second.

import { escapeHTML, fmt, safeRange } from "./history.js";
import { fmtCount, fmtRhat } from "./format.js";
import { traceLabel, traceShown } from "./controls.js";
import { compactTicks, destroy, histSeries, marksKey, marksPlugin, NO_DRAG, plotFigure, show, sized } from "./plots.js";
import { activeChains, adaptsStep, chainTrace, decades, divergenceSteps, exactLine, histogram, Pool, range } from "./mcmc_data.js";

const uPlot = window.uPlot;

export const CHAIN_COLORS = ["#2563eb", "#ea580c", "#16a34a", "#9333ea", "#0891b2", "#ca8a04", "#db2777", "#4b5563"];
const DIVERGENT = "#dc2626";
const WARMUP_FILL = "rgba(148, 163, 184, 0.18)";

const OWN = new Set(["step_size", "accept_rate", "divergences"]);

// drawPoints is a uPlot paths function for scatter (mode 2) series: one
// disc per point, the size from the series' `pointSize`.
function drawPoints(u, si) {
  const s = u.series[si];
  const size = (s.pointSize ?? 3) * uPlot.pxRatio;
  uPlot.orient(u, si, (series, dataX, dataY, scaleX, scaleY, valToPosX, valToPosY, xOff, yOff, xDim, yDim, moveTo, lineTo, rect, arc) => {
    const d = u.data[si];
    const p = new Path2D();
    for (let i = 0; i < d[0].length; i++) {
      const x = d[0][i];
      const y = d[1][i];
      if (!(x >= scaleX.min && x <= scaleX.max && y >= scaleY.min && y <= scaleY.max)) continue;
      const cx = valToPosX(x, scaleX, xDim, xOff);
      const cy = valToPosY(y, scaleY, yDim, yOff);
      p.moveTo(cx + size, cy);
      arc(p, cx, cy, size, 0, 2 * Math.PI);
    }
    u.ctx.fillStyle = s.dotFill;
    u.ctx.fill(p);
  });
  return null;
}

// shadePlugin shades the warm-up steps and ticks the steps where a
// transition diverged along the bottom of a step-axis plot.
function shadePlugin(view) {
  return {
    hooks: {
      drawClear: [
        (u) => {
          const w = view.warmup();
          if (!(w > 0)) return;
          const { left, top, width, height } = u.bbox;
          const x1 = Math.min(left + width, Math.max(left, u.valToPos(w, "x", true)));
          if (x1 <= left) return;
          u.ctx.save();
          u.ctx.fillStyle = WARMUP_FILL;
          u.ctx.fillRect(left, top, x1 - left, height);
          u.ctx.restore();
        },
      ],
      draw: [
        (u) => {
          const steps = view.divSteps;
          if (!steps.length) return;
          const { left, top, width, height } = u.bbox;
          const px = uPlot.pxRatio;
          u.ctx.save();
          u.ctx.strokeStyle = DIVERGENT;
          u.ctx.lineWidth = 1.5 * px;
          u.ctx.beginPath();
          for (const s of steps) {
            const x = u.valToPos(s, "x", true);
            if (x < left || x > left + width) continue;
            u.ctx.moveTo(x, top + height);
            u.ctx.lineTo(x, top + height - 7 * px);
          }
          u.ctx.stroke();
          u.ctx.restore();
        },
      ],
    },
  };
}

export class McmcView {
  constructor(panel) {
    this.panel = panel;
    this.params = []; // in the spec's order
    this.chainSeries = new Map(); // param → Map(chain → Series)
    this.own = new Map(); // step_size, accept_rate, divergences → Series
    // A noise σ held by the linear model's fixed_noise control is no
    // parameter: its trace and rank plots would stay empty.
    const held = Number(panel.confirmed?.fixed_noise) > 0 ? new Set(["sigma"]) : new Set();
    for (const name of panel.spec.traces ?? []) {
      const ct = chainTrace(name);
      if (ct && !held.has(ct[0])) {
        if (!this.chainSeries.has(ct[0])) {
          this.chainSeries.set(ct[0], new Map());
          this.params.push(ct[0]);
        }
      }
    }
    this.divSteps = [];
    this.draws = null;
    this.pools = new Map(); // param → Pool for the histogram
    this.lastRetained = 0;
    this.dirtyDraws = false;
    this.traceFigs = new Map(); // param → { u, chains }
    this.rankFigs = new Map();
    addStyles();
    this.build();
  }

  // owns reports whether the view plots the named trace; adopt gives the
  // panel's history (exports, clearing) the view's series.
  owns(name) {
    return OWN.has(name) || chainTrace(name) !== null;
  }

  adopt(name, series) {
    const ct = chainTrace(name);
    if (ct) this.chainSeries.get(ct[0])?.set(ct[1], series); // none for a held parameter
    else this.own.set(name, series);
  }

  warmup() {
    const w = Number(this.panel.confirmed?.warmup);
    return Number.isFinite(w) ? w : 0;
  }

  el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }

  // label is a parameter's label: its chains' traces are labelled
  // "<parameter> · chain k" (trace_info).
  label(p) {
    return traceLabel(this.panel.spec, `${p}.c1`).split(" · ")[0];
  }

  // shown says whether a parameter means something here (a noise std
  // does not on classification data).
  shown(p) {
    return traceShown(this.panel.spec, `${p}.c1`, this.panel.confirmed, this.panel.app.config.task);
  }

  select(options, value) {
    const s = this.el("select", "small");
    for (const o of options) {
      const opt = this.el("option", null, this.label(o));
      opt.value = o;
      opt.selected = o === value;
      s.appendChild(opt);
    }
    return s;
  }

  build() {
    const root = this.el("div", "mcmc");
    root.dataset.role = "mcmc";
    this.root = root;
    const traces = this.panel.role("traces");
    traces.parentNode.insertBefore(root, traces);

    // R-hat and ESS table.
    this.statsBox = this.el("div", "mcmc-stats");
    this.statsBox.dataset.role = "param-stats";
    this.statsBox.innerHTML = `<p class="muted">R-hat and ESS appear once warm-up is over and draws are kept.</p>`;
    root.appendChild(this.statsBox);

    // Traces, one plot per parameter, one series per chain.
    for (const p of this.params) {
      const { fig, cap, host } = plotFigure(`mcmc-trace-${p}`, `${this.label(p)}: one colour per chain (warm-up shaded, divergences ticked in red)`);
      root.appendChild(fig);
      this.traceFigs.set(p, { host, u: null, chains: "" });
      this.panel.pngButton(cap, () => this.traceFigs.get(p).u, `trace-${p}`);
    }

    const pair = this.el("div", "mcmc-pair");
    root.appendChild(pair);
    // Scatter of two parameters.
    const [px, py] = this.defaultPair();
    this.scatterX = this.select(this.params, px);
    this.scatterY = this.select(this.params, py);
    const sc = plotFigure("mcmc-scatter", "Scatter ");
    sc.cap.append(this.scatterX, " vs ", this.scatterY);
    this.panel.pngButton(sc.cap, () => this.scatterU, "scatter");
    pair.appendChild(sc.fig);
    this.scatterHost = sc.host;
    for (const s of [this.scatterX, this.scatterY]) s.addEventListener("change", () => this.rebuildScatter());

    // Running histogram.
    this.histParam = this.select(this.params, this.params[1] ?? this.params[0]);
    const hi = plotFigure("mcmc-hist", "Histogram of ");
    hi.cap.append(this.histParam, " (all kept draws)");
    this.panel.pngButton(hi.cap, () => this.histU, "histogram");
    pair.appendChild(hi.fig);
    this.histParam.addEventListener("change", () => this.drawHistogram());
    this.histU = sized(hi.host, {
      height: 170,
      legend: { show: false },
      cursor: NO_DRAG,
      scales: { x: { time: false } },
      axes: [{ size: 32, values: compactTicks }, { size: 46, values: compactTicks }],
      series: [{}, histSeries("density")],
    }, [[], []]);

    // Rank plots and sampler state.
    const small = this.el("div", "mcmc-small");
    root.appendChild(small);
    for (const p of this.params) {
      const { fig, cap, host } = plotFigure(`mcmc-rank-${p}`, `Ranks of ${this.label(p)} per chain`);
      small.appendChild(fig);
      this.rankFigs.set(p, { host, u: null, chains: 0 });
      this.panel.pngButton(cap, () => this.rankFigs.get(p).u, `ranks-${p}`);
    }
    const adapts = adaptsStep(this.panel.spec);
    const stepFig = plotFigure("mcmc-step-size", adapts ? "Step size ε (adapts in warm-up)" : "Step size");
    small.appendChild(stepFig.fig);
    this.panel.pngButton(stepFig.cap, () => this.stepU, "step-size");
    this.stepU = this.stepPlot(stepFig.host, "step size", "#0f766e");
    const accFig = plotFigure("mcmc-accept", "Acceptance rate");
    small.appendChild(accFig.fig);
    this.panel.pngButton(accFig.cap, () => this.accU, "acceptance");
    this.accU = this.stepPlot(accFig.host, "acceptance", "#7c3aed", [0, 1]);
    this.rebuildScatter();
  }

  defaultPair() {
    const p = this.params;
    if (p.includes("b0") && p.includes("b")) return ["b0", "b"];
    return [p[0], p[1] ?? p[0]];
  }

  // stepPlot draws a sampler-state trace on a fixed y range, or without one
  // (the step size) on a log axis over warm-up and a little after, where it
  // adapts.
  stepPlot(host, label, stroke, range) {
    const log = !range;
    return sized(host, {
      height: 110,
      legend: { show: false },
      cursor: NO_DRAG,
      scales: {
        x: { time: false, range: log ? (u, lo, hi) => this.warmupWindow(lo, hi) : undefined },
        y: range ? { range: () => range } : { distr: 3, log: 10 },
      },
      axes: [
        { size: 30, space: 60, values: compactTicks },
        log ? { size: 50, splits: decades, values: compactTicks } : { size: 50, values: compactTicks },
      ],
      series: [{}, { label, stroke, width: 1.5, points: { show: false } }],
      plugins: [shadePlugin(this), marksPlugin(() => this.panel.marks, this.panel.markLabels)],
    }, [[], []]);
  }

  // warmupWindow is the step-size plot's x range: warm-up and a quarter
  // more, once the run is past it.
  warmupWindow(lo, hi) {
    const w = this.warmup();
    return w > 0 && hi > 1.25 * w ? [0, 1.25 * w] : [lo, hi];
  }

  // traceRange is a trace plot's y range: the draws after warm-up (the
  // start can be far off and would squash them), or all until there are any.
  traceRange(u, lo, hi) {
    const w = this.warmup();
    const x = u.data[0];
    let a = Infinity;
    let b = -Infinity;
    for (let s = 1; s < u.data.length; s++) {
      const y = u.data[s];
      for (let i = 0; i < x.length; i++) {
        if (x[i] <= w || !Number.isFinite(y[i])) continue;
        if (y[i] < a) a = y[i];
        if (y[i] > b) b = y[i];
      }
    }
    return b >= a ? safeRange(a, b, 0.08) : safeRange(lo, hi);
  }

  tracePlot(host, p, chains) {
    return sized(host, {
      height: 130,
      legend: { show: true, live: false },
      cursor: NO_DRAG,
      scales: { x: { time: false }, y: { range: (u, lo, hi) => this.traceRange(u, lo, hi) } },
      axes: [{ size: 30, space: 60, values: compactTicks }, { size: 52, values: compactTicks }],
      series: [{ label: "step" }, ...chains.map((k) => ({ label: `c${k}`, stroke: hexAlpha(CHAIN_COLORS[(k - 1) % 8], 0.7), width: 0.8, points: { show: false } }))],
      plugins: [shadePlugin(this), marksPlugin(() => this.panel.marks, this.panel.markLabels)],
    }, [[], ...chains.map(() => [])]);
  }

  rebuildScatter() {
    destroy(this.scatterU);
    const n = this.draws?.chains ?? 4;
    const series = [{}];
    for (let k = 1; k <= n; k++) {
      const c = CHAIN_COLORS[(k - 1) % 8];
      series.push({ label: `c${k}`, stroke: c, dotFill: hexAlpha(c, 0.45), pointSize: 2.2, paths: drawPoints });
    }
    series.push({ label: "divergent", stroke: DIVERGENT, dotFill: DIVERGENT, pointSize: 3.5, paths: drawPoints });
    this.scatterU = sized(this.scatterHost, {
      mode: 2,
      height: 220,
      legend: { show: false },
      cursor: { ...NO_DRAG, points: { show: false } },
      scales: {
        x: { time: false, range: () => this.scatterRange(0) },
        y: { range: () => this.scatterRange(1) },
      },
      axes: [{ label: this.label(this.scatterX.value), size: 40, labelSize: 16, values: compactTicks }, { label: this.label(this.scatterY.value), size: 56, labelSize: 16, values: compactTicks }],
      series,
    }, this.scatterData());
    this.scatterChains = n;
  }

  scatterData() {
    const n = this.draws?.chains ?? 4;
    const d = this.draws;
    const xs = d?.values?.[this.scatterX.value];
    const ys = d?.values?.[this.scatterY.value];
    const data = [null];
    const div = [[], []];
    for (let c = 0; c < n; c++) {
      const x = xs?.[c] ?? [];
      const y = ys?.[c] ?? [];
      data.push([x, y]);
      for (const i of d?.divergent?.[c] ?? []) {
        if (i < x.length) {
          div[0].push(x[i]);
          div[1].push(y[i]);
        }
      }
    }
    data.push(div);
    this.scatterRanges = [range(data.slice(1).map((s) => s[0])), range(data.slice(1).map((s) => s[1]))];
    return data;
  }

  scatterRange(axis) {
    return this.scatterRanges?.[axis] ?? [0, 1];
  }

  clear() {
    this.divSteps = [];
    this.draws = null;
    this.lastRetained = 0;
    for (const p of this.pools.values()) p.clear();
    this.dirtyDraws = true;
  }

  // onExtra takes a frame's draw set ("draws"); new draws since the last set go into
  // the histogram pools.
  onExtra(d) {
    if (d.retained < this.lastRetained) this.clear();
    const fresh = Math.min(d.retained - this.lastRetained, d.values?.[d.params?.[0]]?.[0]?.length ?? 0);
    if (fresh > 0) {
      for (const p of d.params) {
        if (!this.pools.has(p)) this.pools.set(p, new Pool());
        const pool = this.pools.get(p);
        for (const chain of d.values[p]) pool.push(chain.slice(chain.length - fresh));
      }
    }
    this.lastRetained = d.retained;
    this.draws = d;
    this.dirtyDraws = true;
  }

  draw() {
    const div = this.own.get("divergences");
    this.divSteps = div ? divergenceSteps(div) : [];
    for (const p of this.params) this.drawTrace(p);
    for (const [name, u] of [["step_size", this.stepU], ["accept_rate", this.accU]]) {
      const s = this.own.get(name);
      const version = `${s?.version}|${marksKey(this.panel.marks)}`;
      if (!s || u._version === version) continue;
      u._version = version;
      show(u, () => [s.x, s.y.map((v) => (name === "step_size" && !(v > 0) ? null : v))]);
    }
    if (!this.dirtyDraws) return;
    this.dirtyDraws = false;
    if ((this.draws?.chains ?? 4) !== this.scatterChains) this.rebuildScatter();
    else show(this.scatterU, () => this.scatterData());
    this.drawHistogram();
    this.drawRanks();
    this.drawStats();
  }

  drawTrace(p) {
    const fig = this.traceFigs.get(p);
    const byChain = this.chainSeries.get(p);
    const chains = this.shown(p) ? activeChains(byChain) : [];
    const key = chains.join(",");
    if (key !== fig.chains) {
      destroy(fig.u);
      fig.u = chains.length ? this.tracePlot(fig.host, p, chains) : null;
      fig.chains = key;
      fig.version = null;
      fig.host.closest("figure").hidden = chains.length === 0;
    }
    if (!fig.u) return;
    const version = `${chains.map((k) => byChain.get(k).version).join(",")}|${marksKey(this.panel.marks)}`;
    if (version === fig.version) return; // no new points
    fig.version = version;
    const first = byChain.get(chains[0]);
    show(fig.u, () => [first.x, ...chains.map((k) => byChain.get(k).y)]);
  }

  drawHistogram() {
    const pool = this.pools.get(this.histParam.value);
    show(this.histU, () => histogram(pool?.v ?? []));
  }

  drawRanks() {
    const stats = this.draws?.param_stats ?? {};
    for (const p of this.params) {
      const fig = this.rankFigs.get(p);
      const ranks = stats[p]?.ranks;
      if (!ranks?.length) {
        if (fig.u) fig.u.setData([[], ...fig.u.data.slice(1).map(() => [])]);
        continue;
      }
      if (fig.chains !== ranks.length) {
        destroy(fig.u);
        fig.u = sized(fig.host, {
          height: 110,
          legend: { show: false },
          cursor: NO_DRAG,
          scales: { x: { time: false }, y: { range: (u, lo, hi) => [0, Math.max(hi, 1) * 1.1] } },
          axes: [{ size: 28, values: (u, s) => s.map((v) => `${Math.round(v * 100)}%`) }, { size: 40, values: compactTicks }],
          series: [
            {},
            { label: "uniform", stroke: "#9ca3af", dash: [4, 4], width: 1, points: { show: false } },
            ...ranks.map((_, c) => ({ label: `c${c + 1}`, stroke: CHAIN_COLORS[c % 8], width: 1.5, paths: uPlot.paths.stepped({ align: 1 }), points: { show: false } })),
          ],
        }, [[], [], ...ranks.map(() => [])]);
        fig.chains = ranks.length;
      }
      const bins = ranks[0].length;
      const x = Array.from({ length: bins + 1 }, (_, i) => i / bins);
      const per = ranks[0].reduce((a, b) => a + b, 0) / bins;
      show(fig.u, () => [x, x.map(() => per), ...ranks.map((r) => [...r, r[bins - 1]])]);
    }
  }

  drawStats() {
    const d = this.draws;
    const stats = d?.param_stats ?? {};
    const names = (d?.params ?? []).filter((p) => stats[p]);
    if (!names.length) return;
    const cell = (v, cls = "", f = fmt) => `<td class="${cls}">${f(v ?? NaN)}</td>`;
    const rows = names
      .map((p) => {
        const s = stats[p];
        const warn = !(s.rhat < 1.01) ? "warn" : "ok";
        return `<tr data-param="${escapeHTML(p)}"><th>${escapeHTML(this.label(p))}</th>${cell(s.mean)}${cell(s.sd)}${cell(s.rhat, `rhat ${warn}`, fmtRhat)}${cell(s.ess_bulk, "ess-bulk", fmtCount)}${cell(s.ess_tail, "ess-tail", fmtCount)}</tr>`;
      })
      .join("");
    const diag = this.panel.diagnostics ?? {};
    const acc = diag.acceptance_rate;
    const divs = diag.divergences;
    this.statsBox.innerHTML =
      `<table><caption>Last ${fmtCount(d.stats_draws)} draws per chain × ${d.chains} chains, step ${fmtCount(d.stats_step)}` +
      `${acc != null ? ` · acceptance ${fmt(acc)}` : ""}${divs != null ? ` · <span class="${divs > 0 ? "div" : ""}">${fmtCount(divs)} divergent</span>` : ""}</caption>` +
      `<thead><tr><th>parameter</th><th>mean</th><th>sd</th><th title="rank-normalised split R-hat; below 1.01 is converged">R̂</th><th>ESS bulk</th><th>ESS tail</th></tr></thead>` +
      `<tbody>${rows}</tbody></table>${exactLine(this.exact())}`;
  }

  // exact is the panel's exact posterior from the page's config (the
  // server's, for the linear model), or null.
  exact() {
    return this.panel.app.config.panels.find((pc) => pc.method === this.panel.method)?.exact ?? null;
  }
}

function hexAlpha(hex, a) {
  const n = parseInt(hex.slice(1), 16);
  return `rgba(${n >> 16}, ${(n >> 8) & 255}, ${n & 255}, ${a})`;
}

let styled = false;
function addStyles() {
  if (styled) return;
  styled = true;
  const l = document.createElement("link");
  l.rel = "stylesheet";
  l.href = "/static/app/mcmc.css";
  document.head.appendChild(l);
}
