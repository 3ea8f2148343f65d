// The gallery's sweep over a target control (templates/gallery_sweep.templ):
// the target's Sweep button opens it on the target's first control; Run
// posts a target sweep (the target, the control and its values, the ticked
// panels' methods with their controls now, a budget of evaluations per
// run), which sweep_card.js follows and cancels as for the 1-D page's
// card, and the chosen measure of each method is plotted against the value
// with uPlot (gallery_sweep_plot.js, loaded with uPlot on first use: the
// gallery does not load uPlot otherwise).

import { APIError } from "./api.js";
import { armLabel, defaultValues, shortLabel } from "./gallery_sweep_data.js";
import { SweepCard } from "./sweep_card.js";

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

class GallerySweep extends SweepCard {
  constructor(el) {
    super(el);
    this.param = this.role("sweep-param");
    this.measure = this.role("sweep-measure");
    this.plot = null;
    this.open = document.querySelector("[data-role=sweep-open]");
    this.open?.addEventListener("click", () => this.show());
    page.target.addEventListener("change", () => this.syncTarget());
    this.param.addEventListener("change", () => (this.input("values").value = defaultValues(this.spec())));
    this.measure.addEventListener("change", () => this.plot?.setMeasure(this.measure.value, this.points));
    this.syncTarget();
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

  // start loads the plot (a sweep whose plot cannot be drawn is not
  // started), then posts the sweep.
  async start() {
    if (this.running()) return;
    let mod;
    try {
      mod = await loadPlot();
    } catch (e) {
      return this.showError(e);
    }
    const body = this.body();
    const spec = this.spec();
    await this.post(body, async (res) => {
      this.role("sweep-title").textContent = spec.label;
      this.plot ??= new mod.GallerySweepPlot(this.el.querySelector(".plot-host"), this.role("sweep-key"));
      this.plot.reset({ values: res.values, label: spec.label, target: body.target, param: body.param, controls: body.controls, methods: body.methods, measure: this.measure.value, labels: this.methodLabels(body.methods) });
    });
  }

  methodLabels(methods) {
    return methods.map((m) => armLabel(page.methods.get(m.method)?.label ?? m.method, m.controls));
  }

  drawPoints() {
    this.plot.setPoints(this.points);
  }

  record() {
    return {};
  }

  filename() {
    return `sweep-${this.request?.target}-${this.request?.param}.json`;
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
