// JointView is the linear model's joint posterior of (b0, b) in one panel:
// the exact posterior's 1, 2 and 3 sd contours (dashed) under the method's
// own posterior, a 2σ ellipse for VI (mean-field's is axis-aligned, GIP's
// tilted) or the latest draws for a sampler. A sampler's first transitions
// are replayed slowly (replayIndex): each chain's path from its dispersed
// start into the posterior, which at full speed takes a fraction of a
// second, drawn over about ten. Frames carry it in `joint` (sim/model's Joint, a method's
// sim.Extras.Views). It also draws the exact posterior's predictive band, dashed,
// on the panel's predictive plot, and a table of mean ± sd of b0 and b
// (σ where the method infers it) against the exact values.

import { fmt } from "./history.js";
import { plotFigure } from "./plots.js";
import { bandAt, bounds, corr, ellipse, moments, REPLAY_MS, replayIndex } from "./joint_data.js";

const HEIGHT = 260;
const CHAIN_COLORS = ["#2563eb", "#ea580c", "#16a34a", "#9333ea", "#0891b2", "#ca8a04", "#db2777", "#4b5563"];
const EXACT = "#111827";
const FIT = "#0f766e";

export class JointView {
  constructor(panel) {
    this.panel = panel;
    this.j = null;
    this.replay = null; // {paths, start}: the warm-up replay, once per run
    this.replayed = false;
    this.dirty = false;
    this.hooked = null; // the predictive uPlot carrying the exact band hook
    this.height = HEIGHT; // CSS px; layout.js may make it shorter to keep it in view
    this.build();
  }

  build() {
    const { fig, cap, host } = plotFigure("joint", "Joint posterior: intercept b0 against slope b ", "joint");
    fig.dataset.role = "joint";
    this.canvas = document.createElement("canvas");
    this.canvas.dataset.role = "joint-canvas";
    this.canvas.style.width = "100%";
    this.canvas.style.height = `${HEIGHT}px`;
    this.canvas.setAttribute("role", "img");
    host.append(this.canvas);
    this.key = document.createElement("p");
    this.key.className = "muted";
    this.key.style.fontSize = "0.8rem";
    this.key.style.margin = "0.1rem 0";
    this.table = document.createElement("table");
    this.table.className = "joint-table";
    this.table.dataset.role = "joint-table";
    this.table.style.fontSize = "0.8rem";
    fig.append(this.key, this.table);
    // The picture the VI-vs-MCMC scenario exists for: in view under the
    // plot and its focus controls, not folded away with the traces.
    const el = this.panel.el;
    const after = el.querySelector('[data-role="focus-controls"]') ?? el.querySelector('[data-plot="predictive"]');
    if (after) after.after(fig);
    else this.panel.role("traces").before(fig);
    this.fig = fig;
    this.panel.app.fit?.(); // the plane is kept in view (layout.js): the bands make room
  }

  onExtra(j) {
    if (!j || !Array.isArray(j.names)) return;
    if (j.path_done && Array.isArray(j.paths) && !this.replayed) this.startReplay(j.paths);
    this.j = j;
    this.dirty = true;
  }

  // startReplay animates paths (per chain, [[b0, b], …]) over REPLAY_MS.
  startReplay(paths) {
    this.replayed = true;
    this.replay = { paths, start: performance.now() };
    const tick = () => {
      if (!this.replay) return;
      this.drawJoint();
      if (performance.now() - this.replay.start < REPLAY_MS) requestAnimationFrame(tick);
      else {
        this.replay = null;
        this.dirty = true;
        this.draw();
      }
    };
    requestAnimationFrame(tick);
  }

  clear() {
    this.replay = null;
    this.replayed = false;
    this.j = null;
    this.dirty = true;
  }

  onReconnect() {
    this.replay = null;
    this.replayed = false; // a new run (or the same after a drop): replay its warm-up
  }

  draw() {
    this.hookBand();
    if (!this.dirty) return;
    this.dirty = false;
    this.drawJoint();
    this.drawTable();
    this.panel.predictive?.u?.redraw(false, false);
  }

  // hookBand adds, once per predictive uPlot (it is rebuilt when the data
  // change), a draw hook that strokes the exact band over the plot.
  hookBand() {
    const u = this.panel.predictive?.u;
    if (!u || u === this.hooked) return;
    this.hooked = u;
    (u.hooks.draw ??= []).push((u) => this.drawBand(u));

  }

  drawBand(u) {
    const g = this.j?.exact;
    if (!g || u.scales.x.min == null) return;
    const { min, max } = u.scales.x;
    const n = 200;
    const lines = [[], [], []];
    for (let i = 0; i <= n; i++) {
      const x = min + ((max - min) * i) / n;
      bandAt(g, x).forEach((y, k) => lines[k].push([u.valToPos(x, "x", true), u.valToPos(y, "y", true)]));
    }
    const cap = this.panel.el.querySelector('[data-plot="predictive"] figcaption');
    if (cap && !cap.querySelector("[data-role=exact-band-key]")) {
      const k = document.createElement("span");
      k.dataset.role = "exact-band-key";
      k.textContent = " Dashed black: the exact posterior's mean and ±2σ.";
      cap.firstChild?.after?.(k);
    }
    const ctx = u.ctx;
    ctx.save();
    ctx.beginPath();
    ctx.rect(u.bbox.left, u.bbox.top, u.bbox.width, u.bbox.height);
    ctx.clip();
    ctx.strokeStyle = EXACT;
    ctx.setLineDash([6, 4]);
    lines.forEach((pts, k) => {
      ctx.lineWidth = (k === 1 ? 1.6 : 1.2) * devicePixelRatio;
      ctx.beginPath();
      pts.forEach(([px, py], i) => (i ? ctx.lineTo(px, py) : ctx.moveTo(px, py)));
      ctx.stroke();
    });
    ctx.restore();
    this.panel.el.dataset.exactBand = "drawn";
  }

  // setHeight sets the plane's height in CSS px (layout.js keeps it in the
  // first screen) and redraws it.
  setHeight(h) {
    if (h === this.height) return;
    this.height = h;
    this.canvas.style.height = `${h}px`;
    this.drawJoint();
  }

  drawJoint() {
    const H = this.height;
    const c = this.canvas;
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(200, c.clientWidth || 400);
    c.width = Math.round(w * dpr);
    c.height = Math.round(H * dpr);
    const ctx = c.getContext("2d");
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, H);
    const j = this.j;
    if (!j) return;
    const rp = this.replay;
    const upTo = rp ? replayIndex(performance.now() - rp.start, rp.paths[0]?.length ?? 0) : -1;
    const trails = rp ? rp.paths.map((p) => p.slice(0, upTo + 1)) : [];
    const draws = rp ? [] : (j.b0 ?? []).map((b0, i) => [b0, j.b[i]]);
    const [[x0, x1], [y0, y1]] = bounds(j, rp ? rp.paths.flat() : draws);
    const L = 52;
    const B = 36;
    const pw = w - L - 10;
    const ph = H - B - 8;
    const px = (x) => L + ((x - x0) / (x1 - x0)) * pw;
    const py = (y) => 8 + ph - ((y - y0) / (y1 - y0)) * ph;
    this.axes(ctx, { x0, x1, y0, y1, L, B, pw, ph, px, py, w });
    ctx.save();
    ctx.beginPath();
    ctx.rect(L, 8, pw, ph);
    ctx.clip();
    const path = (pts) => {
      ctx.beginPath();
      pts.forEach(([a, b], i) => (i ? ctx.lineTo(px(a), py(b)) : ctx.moveTo(px(a), py(b))));
    };
    if (j.exact) {
      ctx.strokeStyle = EXACT;
      ctx.setLineDash([5, 4]);
      ctx.lineWidth = 1.2;
      for (const k of [1, 2, 3]) {
        path(ellipse(j.exact, k));
        ctx.stroke();
      }
      ctx.setLineDash([]);
    }
    ctx.fillStyle = "rgba(37,99,235,0.35)";
    for (const [a, b] of draws) ctx.fillRect(px(a) - 1.2, py(b) - 1.2, 2.4, 2.4);
    trails.forEach((t, k) => {
      if (t.length === 0) return;
      ctx.strokeStyle = CHAIN_COLORS[k % CHAIN_COLORS.length];
      ctx.lineWidth = 1.2;
      path(t);
      ctx.stroke();
      const [a, b] = t[t.length - 1];
      ctx.fillStyle = ctx.strokeStyle;
      ctx.beginPath();
      ctx.arc(px(a), py(b), 3.5, 0, 2 * Math.PI);
      ctx.fill();
    });
    if (j.gaussian) {
      ctx.strokeStyle = FIT;
      ctx.fillStyle = "rgba(15,118,110,0.15)";
      ctx.lineWidth = 2.2;
      path(ellipse(j.gaussian, 2));
      ctx.fill();
      ctx.stroke();
      ctx.fillRect(px(j.gaussian.mean[0]) - 2.5, py(j.gaussian.mean[1]) - 2.5, 5, 5);
    }
    ctx.restore();
    c.dataset.draws = String(draws.length);
    if (rp) c.dataset.replayed = String(upTo);
    c.dataset.ellipse = j.gaussian ? "drawn" : "";
    c.dataset.exact = j.exact ? "drawn" : "";
    c.setAttribute("aria-label", `Joint posterior of intercept b0 and slope b${j.exact ? " over the exact posterior's contours" : ""}`);
    const parts = [];
    if (j.exact) parts.push(`dashed: exact posterior, 1, 2 and 3 sd contours (correlation ${fmt(j.exact_corr)})`);
    if (j.gaussian) parts.push(`solid: this method's 2σ ellipse (correlation ${fmt(corr(j.gaussian))})`);
    if (draws.length) parts.push(`dots: the latest ${draws.length} draws`);
    if (rp) parts.push(`replay of warm-up: each chain's path from its start, transition ${upTo} of ${(rp.paths[0]?.length ?? 1) - 1}`);
    else if (j.paths?.length) parts.push("(its warm-up replays after each start)");
    if (j.fixed_noise > 0) parts.push(`σ held at ${fmt(j.fixed_noise)}`);
    this.key.textContent = parts.join(" · ");
  }

  axes(ctx, { x0, x1, y0, y1, L, B, pw, ph, px, py, w }) {
    ctx.strokeStyle = "#9ca3af";
    ctx.lineWidth = 1;
    ctx.strokeRect(L, 8, pw, ph);
    ctx.fillStyle = "#374151";
    ctx.font = "11px system-ui, sans-serif";
    const ticks = (lo, hi) => {
      const step = 10 ** Math.floor(Math.log10((hi - lo) / 4));
      const s = [1, 2, 5, 10].map((m) => m * step).find((v) => (hi - lo) / v <= 6) ?? step * 10;
      const out = [];
      for (let v = Math.ceil(lo / s) * s; v <= hi; v += s) out.push(Number(v.toPrecision(6)));
      return out;
    };
    ctx.textAlign = "center";
    for (const v of ticks(x0, x1)) ctx.fillText(String(v), px(v), 8 + ph + 13);
    ctx.textAlign = "right";
    for (const v of ticks(y0, y1)) ctx.fillText(String(v), L - 4, py(v) + 4);
    ctx.textAlign = "center";
    ctx.font = "12px system-ui, sans-serif";
    ctx.fillText("intercept b0", L + pw / 2, this.height - 4);
    ctx.save();
    ctx.translate(12, 8 + ph / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.fillText("slope b", 0, 0);
    ctx.restore();
    void w;
  }

  drawTable() {
    const j = this.j;
    if (!j) {
      this.table.innerHTML = "";
      return;
    }
    const mom = moments(j);
    const ex = j.exact;
    const cell = (m, s) => (Number.isFinite(m) ? `${fmt(m)} ± ${fmt(s)}` : "–");
    const rows = j.names.map((name, i) => {
      const [m, s] = mom?.[i] ?? [NaN, NaN];
      const es = ex ? Math.sqrt(ex.cov[i][i]) : NaN;
      return `<tr><th scope="row">${name}</th><td>${cell(m, s)}</td><td>${ex ? cell(ex.mean[i], es) : "–"}</td><td>${ex && Number.isFinite(s) ? fmt(s / es) : "–"}</td></tr>`;
    });
    if (j.sigma) rows.push(`<tr><th scope="row">noise σ</th><td>${fmt(j.sigma.mean)} (point estimate)</td><td>–</td><td>–</td></tr>`);
    else if (j.fixed_noise > 0) rows.push(`<tr><th scope="row">noise σ</th><td>held at ${fmt(j.fixed_noise)}</td><td>${fmt(j.fixed_noise)}</td><td>–</td></tr>`);
    const what = j.gaussian ? "this method (mean ± sd)" : "all draws (mean ± sd)";
    this.table.innerHTML = `<thead><tr><th></th><th>${what}</th><th>exact</th><th>sd / exact sd</th></tr></thead><tbody>${rows.join("")}</tbody>`;
  }
}
