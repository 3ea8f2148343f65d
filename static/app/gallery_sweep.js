// The gallery's sweep over a target control (templates/gallery_sweep.templ):
// the target's Sweep button opens it on the target's first control; Run
// posts a target sweep to POST /api/sweeps (the target, the control and its
// values, the ticked panels' methods with their controls now, a budget of
// evaluations per run), follows it as Server-Sent Events as the 1-D sweep
// card does (sweep.js), and plots the chosen measure of each method against
// the value with uPlot (gallery_sweep_plot.js, loaded with uPlot on the
// first sweep: the gallery does not load uPlot otherwise). Cancel is
// DELETE /api/sweeps/{id}; leaving the page cancels too.

import { APIError, discard, request } from "./api.js";
import { saveBlob } from "./download.js";
import { armLabel, defaultValues, shortLabel } from "./gallery_sweep_data.js";

// page is the gallery's (gallery.js), set when this module starts.
let page;

// loadPlot loads uPlot's script and style, then the plot module (plots.js
// reads window.uPlot as it loads), once.
let plotModule;
function loadPlot() {
  plotModule ??= new Promise((resolve, reject) => {
    if (window.uPlot) return resolve();
    const css = document.createElement("link");
    css.rel = "stylesheet";
    css.href = "/static/vendor/uPlot.min.css";
    document.head.append(css);
    const s = document.createElement("script");
    s.src = "/static/vendor/uPlot.iife.min.js";
    s.onload = () => resolve();
    s.onerror = () => reject(new APIError(0, "", "the plotting library did not load"));
    document.head.append(s);
  }).then(() => import("./gallery_sweep_plot.js"));
  return plotModule;
}

class GallerySweep {
  constructor(el) {
    this.el = el;
    this.form = this.role("sweep-form");
    this.param = this.role("sweep-param");
    this.measure = this.role("sweep-measure");
    this.id = null;
    this.status = "not started";
    this.finished = 0;
    this.total = 0;
    this.values = [];
    this.points = [];
    this.request = null;
    this.plot = null;
    this.es = null;
    this.open = document.querySelector("[data-role=sweep-open]");
    this.open?.addEventListener("click", () => this.show());
    page?.target.addEventListener("change", () => this.syncTarget());
    this.param.addEventListener("change", () => (this.input("values").value = defaultValues(this.spec())));
    this.measure.addEventListener("change", () => this.plot?.setMeasure(this.measure.value, this.points));
    this.form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      this.start();
    });
    this.role("sweep-cancel").addEventListener("click", () => this.cancel());
    this.role("sweep-json").addEventListener("click", () => this.exportJSON());
    addEventListener("pagehide", () => {
      if (this.running()) discard(this.url());
    });
    this.syncTarget();
  }

  role(name) {
    return this.el.querySelector(`[data-role="${name}"]`);
  }

  input(name) {
    return this.form.querySelector(`[name="${name}"]`);
  }

  url(suffix = "") {
    return `/api/sweeps/${encodeURIComponent(this.id)}${suffix}`;
  }

  running() {
    return this.id !== null && this.status === "running";
  }

  specs() {
    return page?.targets.get(page.targetName())?.controls ?? [];
  }

  spec() {
    return this.specs().find((c) => c.name === this.param.value) ?? this.specs()[0];
  }

  // syncTarget offers the target's controls; a target without any (the
  // squiggle, a typed density) has nothing to sweep: its button hides.
  syncTarget() {
    const specs = this.specs();
    if (this.open) {
      this.open.hidden = specs.length === 0;
      if (specs.length) this.open.textContent = `Sweep ${shortLabel(specs[0])}`;
    }
    if (!specs.length && !this.running()) this.el.hidden = true;
    if (this.running()) return;
    this.param.replaceChildren(
      ...specs.map((c) => {
        const o = document.createElement("option");
        o.value = c.name;
        o.textContent = c.label;
        return o;
      }),
    );
    if (specs.length) this.input("values").value = defaultValues(specs[0]);
  }

  // show opens the card with a tick for each panel's method.
  show() {
    this.el.hidden = false;
    if (!this.running()) this.renderMethods();
    this.el.scrollIntoView({ behavior: "smooth", block: "start" });
    loadPlot().catch((e) => this.showError(e));
  }

  renderMethods() {
    const box = this.role("sweep-methods");
    const legend = box.querySelector("legend");
    const seen = new Set();
    const items = [];
    for (const p of page?.panels ?? []) {
      const arm = { method: p.method.value, controls: p.values() };
      const key = JSON.stringify(arm);
      if (seen.has(key)) continue;
      seen.add(key);
      const label = document.createElement("label");
      const cb = document.createElement("input");
      cb.type = "checkbox";
      cb.checked = true;
      cb.value = key;
      label.append(cb, ` ${armLabel(p.spec?.label ?? arm.method, arm.controls)}`);
      items.push(label);
    }
    box.replaceChildren(legend, ...items);
  }

  // body is the POST: the target, its other controls, the ticked methods.
  body() {
    const controls = { ...page.targetControls() };
    delete controls[this.param.value];
    const methods = [...this.role("sweep-methods").querySelectorAll("input:checked")].map((cb) => JSON.parse(cb.value));
    const body = {
      target: page.targetText(),
      param: this.param.value,
      values: this.input("values").value.trim(),
      methods,
      seeds: Number(this.input("seeds").value) || 1,
      seed: page.seed,
      controls,
    };
    const budget = this.input("budget").value.trim();
    if (budget !== "") body.budget = Number(budget);
    return body;
  }

  async start() {
    if (this.running()) return;
    this.showError(null);
    const body = this.body();
    const run = this.role("sweep-run");
    run.disabled = true;
    let res, mod;
    try {
      mod = await loadPlot();
      res = await request("POST", "/api/sweeps", body);
    } catch (e) {
      run.disabled = false;
      this.showError(e);
      return;
    }
    this.id = res.id;
    this.request = body;
    this.values = res.values;
    this.total = res.total;
    this.finished = 0;
    this.points = [];
    const spec = this.spec();
    this.role("sweep-title").textContent = spec.label;
    this.plot ??= new mod.GallerySweepPlot(this.el.querySelector(".plot-host"), this.role("sweep-key"));
    this.plot.reset({ values: res.values, label: spec.label, target: body.target, param: body.param, controls: body.controls, methods: body.methods, measure: this.measure.value, labels: this.methodLabels(body.methods) });
    this.setStatus("running");
    this.render();
    this.follow(res.stream);
  }

  methodLabels(methods) {
    return methods.map((m) => armLabel(page.methods.get(m.method)?.label ?? m.method, m.controls));
  }

  // follow opens the event stream; EventSource resumes after the last
  // event it saw when the connection drops.
  follow(url) {
    this.es?.close();
    const es = new EventSource(url);
    this.es = es;
    es.addEventListener("progress", (ev) => this.onEvent(JSON.parse(ev.data)));
    es.addEventListener("end", (ev) => {
      es.close();
      this.onEvent(JSON.parse(ev.data));
    });
    es.onerror = () => {
      if (es !== this.es) return;
      if (es.readyState === EventSource.CLOSED) this.resync();
    };
  }

  onEvent(ev) {
    this.finished = ev.finished;
    this.total = ev.total;
    if (ev.point && !this.points.some((p) => p.index === ev.point.index)) {
      this.points.push(ev.point);
      this.plot.setPoints(this.points);
    }
    if (ev.type === "end") {
      this.setStatus(ev.status);
      if (ev.status === "failed") this.showError(new APIError(0, "", ev.message || "the sweep failed"));
    }
    this.render();
  }

  async resync() {
    this.es = null;
    try {
      this.apply(await request("GET", this.url()));
    } catch (e) {
      this.setStatus("error");
      this.showError(e);
    }
  }

  apply(info) {
    this.finished = info.finished;
    this.total = info.total;
    this.points = info.points;
    this.plot.setPoints(this.points);
    this.setStatus(info.status);
    this.render();
  }

  async cancel() {
    if (!this.running()) return;
    this.role("sweep-cancel").disabled = true;
    this.es?.close();
    this.es = null;
    try {
      this.apply(await request("DELETE", this.url()));
    } catch (e) {
      this.showError(e);
      this.setStatus("cancelled");
    }
  }

  setStatus(s) {
    this.status = s;
    const el = this.role("sweep-status");
    el.textContent = s;
    el.dataset.status = { cancelled: "paused", failed: "error" }[s] ?? s;
    const running = s === "running";
    this.role("sweep-run").disabled = running;
    this.role("sweep-cancel").disabled = !running;
    this.role("sweep-json").disabled = this.id === null;
    for (const input of this.form.querySelectorAll("input, select")) input.disabled = running;
    this.render();
  }

  render() {
    const bar = this.role("sweep-progress");
    bar.max = Math.max(1, this.total);
    bar.value = this.finished;
    const pct = Math.round((100 * this.finished) / Math.max(1, this.total));
    this.role("sweep-count").textContent = `${this.finished} / ${this.total} runs · ${this.points.length} / ${this.values.length} values · ${pct}%`;
  }

  showError(e) {
    const el = this.role("sweep-error");
    for (const input of this.form.querySelectorAll("[aria-invalid]")) input.removeAttribute("aria-invalid");
    if (!e) {
      el.hidden = true;
      return;
    }
    el.hidden = false;
    el.textContent = e.field ? `${e.field}: ${e.message}` : e.message;
    if (e.field && /^\w+$/.test(e.field)) this.input(e.field)?.setAttribute("aria-invalid", "true");
  }

  exportJSON() {
    const record = {
      sweep: this.id,
      status: this.status,
      request: this.request,
      values: this.values,
      finished: this.finished,
      total: this.total,
      points: [...this.points].sort((a, b) => a.value - b.value),
      link: location.href,
      exported_at: new Date().toISOString(),
    };
    saveBlob(new Blob([JSON.stringify(record, null, 1)], { type: "application/json" }), `sweep-${this.request?.target}-${this.request?.param}.json`);
  }
}

function start() {
  const card = document.getElementById("gallery-sweep");
  page = window.galleryPage;
  if (card && page) window.gallerySweep = new GallerySweep(card);
}

// Deferred modules run in document order, this one before gallery.js,
// and all of them before DOMContentLoaded.
if (document.readyState === "complete") start();
else addEventListener("DOMContentLoaded", start);
