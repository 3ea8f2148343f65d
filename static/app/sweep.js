// The sweep card of the Prior scale and Inducing points scenarios: starts a
// sweep with POST /api/sweeps, follows it as Server-Sent Events (one
// "progress" event per finished run, carrying the point when all seeds of a
// value are in; one "end"), and fills in the plot, the progress bar and the
// table point by point. Cancel is DELETE /api/sweeps/{id}; leaving the page
// cancels too, as nobody would see the rest.

import { APIError, discard, request } from "./api.js";
import { fmt, fmtSE } from "./format.js";
import { saveBlob } from "./download.js";
import { addPNGButton } from "./plots.js";
import { SweepPlot, SWEEP_COLORS } from "./sweep_plot.js";

const card = document.getElementById("sweep");
const config = JSON.parse(document.getElementById("config").textContent);

class Sweep {
  constructor(el) {
    this.el = el;
    this.method = el.dataset.method;
    this.param = el.dataset.param;
    this.label = el.dataset.paramLabel || this.param;
    this.logX = "logX" in el.dataset;
    this.form = this.role("sweep-form");
    this.id = null;
    this.status = "not started";
    this.finished = 0;
    this.total = 0;
    this.values = [];
    this.points = [];
    this.request = null;
    this.es = null;
    const fig = el.querySelector('[data-plot="sweep"]');
    this.plot = new SweepPlot(fig.querySelector(".plot-host"), { label: this.label, values: this.defaultValues(), logX: this.logX });
    this.addLegend(fig.querySelector("figcaption"));
    this.form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      this.start();
    });
    this.role("sweep-cancel").addEventListener("click", () => this.cancel());
    this.role("sweep-json").addEventListener("click", () => this.exportJSON());
    addEventListener("pagehide", () => {
      if (this.running()) discard(this.url());
    });
    // Back from the back-forward cache: the sweep was cancelled on the way
    // out; show what it got to.
    addEventListener("pageshow", (ev) => {
      if (ev.persisted && this.running()) this.resync();
    });
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

  async start() {
    if (this.running()) return;
    this.showError(null);
    const body = this.body();
    const run = this.role("sweep-run");
    run.disabled = true;
    let res;
    try {
      res = await post("/api/sweeps", body);
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
    this.plot.reset(res.values, res.log_x);
    this.setStatus("running");
    this.render();
    this.follow(res.stream);
  }

  // follow opens the event stream. EventSource reconnects by itself after
  // a network error and resumes after the last event it saw (Last-Event-ID).
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
      if (es.readyState === EventSource.CLOSED) this.resync(); // refused (404, 503): ask once
      else if (this.running()) this.role("sweep-count").textContent = `${this.countText()} · reconnecting…`;
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

  // resync reads the sweep's state after the stream was refused.
  async resync() {
    this.es = null;
    try {
      const info = await get(this.url());
      this.apply(info);
    } catch (e) {
      this.setStatus("error");
      this.showError(e);
      this.render();
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
      this.render();
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
    for (const input of this.form.querySelectorAll("input")) input.disabled = running;
  }

  countText() {
    return `${this.finished} / ${this.total} runs · ${this.points.length} / ${this.values.length} values`;
  }

  render() {
    const bar = this.role("sweep-progress");
    bar.max = Math.max(1, this.total);
    bar.value = this.finished;
    this.role("sweep-count").textContent = `${this.countText()} · ${Math.round((100 * this.finished) / Math.max(1, this.total))}%`;
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
      method: this.method,
      param: this.param,
      request: this.request,
      values: this.values,
      finished: this.finished,
      total: this.total,
      points: [...this.points].sort((a, b) => a.value - b.value),
      link: location.href,
      exported_at: new Date().toISOString(),
    };
    saveBlob(new Blob([JSON.stringify(record, null, 1)], { type: "application/json" }), `sweep-${this.method}-${this.param}.json`);
  }
}

const post = (url, body) => request("POST", url, body);
const get = (url) => request("GET", url);

if (card) window.playgroundSweep = new Sweep(card);
