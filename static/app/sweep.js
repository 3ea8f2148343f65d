// The sweep card of the Prior scale and Inducing points scenarios
// (templates/sweep.templ): a sweep of one control of the page's panel's
// method (sweep_card.js starts, follows and cancels it), its ELBO and IWBO
// plotted point by point with ±2 s.e. bands (sweep_plot.js), and a table
// of the numbers.

import { fmt, fmtSE } from "./format.js";
import { addPNGButton } from "./plots.js";
import { SweepCard } from "./sweep_card.js";
import { SweepPlot, SWEEP_COLORS } from "./sweep_plot.js";

const card = document.getElementById("sweep");
const config = JSON.parse(document.getElementById("config").textContent);

class Sweep extends SweepCard {
  constructor(el) {
    super(el);
    this.method = el.dataset.method;
    this.param = el.dataset.param;
    this.label = el.dataset.paramLabel || this.param;
    this.logX = "logX" in el.dataset;
    const fig = el.querySelector('[data-plot="sweep"]');
    this.plot = new SweepPlot(fig.querySelector(".plot-host"), { label: this.label, values: this.defaultValues(), logX: this.logX });
    this.addLegend(fig.querySelector("figcaption"));
  }

  // defaultValues reads the form's values ("1,2,5" or "logspace:a:b:n":
  // its ends suffice) for the empty plot's x axis, before the server has
  // expanded them.
  defaultValues() {
    const spec = this.input("values").value.trim();
    const m = /^(?:lin|log)space:([^:]+):([^:]+):/.exec(spec);
    const v = (m ? [m[1], m[2]] : spec.split(",")).map(Number).filter(Number.isFinite);
    return v.length ? v : [1, 10];
  }

  addLegend(caption) {
    const key = document.createElement("span");
    key.className = "sweep-key";
    // Colours through the CSSOM: a style attribute would need 'unsafe-inline'
    // in the Content-Security-Policy.
    for (const [name, color] of [["ELBO", SWEEP_COLORS.elbo], ["IWBO", SWEEP_COLORS.iwbo]]) {
      const item = document.createElement("span");
      item.style.color = color;
      item.textContent = `● ${name}`;
      key.append(item, " ");
    }
    caption.appendChild(key);
    addPNGButton(caption, () => this.plot.u, () => [`Sweep over ${this.label}: ELBO and IWBO ± 2 s.e.`, `sweep-${this.param}.png`]);
  }

  // body is the POST: the form, the page's data set and seed, and the
  // panel's current controls (without the swept one).
  body() {
    const app = window.playground;
    const panel = app?.panels?.find((p) => p.method === this.method);
    const controls = { ...(panel?.controls ?? config.panels.find((p) => p.method === this.method)?.controls ?? {}) };
    delete controls[this.param];
    const int = (name) => Number(this.input(name).value);
    return {
      data: app?.config?.data ?? config.data,
      method: this.method,
      model: panel?.model || undefined,
      param: this.param,
      values: this.input("values").value.trim(),
      steps: int("steps"),
      seeds: int("seeds"),
      eval_reps: int("eval_reps"),
      iwbo_samples: int("iwbo_samples"),
      seed: app?.config?.seed ?? config.seed,
      controls,
    };
  }

  start() {
    return this.post(this.body(), async (res) => this.plot.reset(res.values, res.log_x));
  }

  drawPoints() {
    this.plot.setPoints(this.points);
  }

  render() {
    super.render();
    const table = this.role("sweep-table");
    table.hidden = this.points.length === 0;
    const rows = [...this.points].sort((a, b) => a.value - b.value);
    table.tBodies[0].replaceChildren(
      ...rows.map((p) => {
        const tr = document.createElement("tr");
        // Each mean to the decimals of its ±2 s.e.
        for (const v of [fmt(p.value), ...fmtSE(p.elbo_mean, 2 * p.elbo_se), ...fmtSE(p.iwbo_mean, 2 * p.iwbo_se)]) {
          const td = document.createElement("td");
          td.textContent = v;
          tr.appendChild(td);
        }
        return tr;
      }),
    );
  }

  record() {
    return { method: this.method, param: this.param };
  }

  filename() {
    return `sweep-${this.method}-${this.param}.json`;
  }
}

if (card) window.playgroundSweep = new Sweep(card);
