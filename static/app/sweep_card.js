// SweepCard is what the 1-D page's sweep card (sweep.js) and the gallery's
// sweep over a target control (gallery_sweep.js) share: it starts a sweep
// with POST /api/sweeps, follows it as Server-Sent Events (one "progress"
// event per finished run, carrying the point when all of a value's runs
// are in; one "end"), reads its state back when the stream is refused,
// cancels it with DELETE /api/sweeps/{id} (and as the page leaves, as
// nobody would see the rest), and keeps the form's status, progress and
// errors. A card subclasses it with drawPoints (its plot) and render (its
// progress text, a table) and its JSON record.

import { APIError, discard, request } from "./api.js";
import { saveBlob } from "./download.js";

export class SweepCard {
  constructor(el) {
    this.el = el;
    this.form = this.role("sweep-form");
    this.id = null;
    this.status = "not started";
    this.finished = 0;
    this.total = 0;
    this.values = [];
    this.points = [];
    this.request = null;
    this.es = null;
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

  // post starts the sweep body describes; before(res), awaited, readies
  // the plot for its values. Errors show in the form.
  async post(body, before = async () => {}) {
    if (this.running()) return;
    this.showError(null);
    const run = this.role("sweep-run");
    run.disabled = true;
    let res;
    try {
      res = await request("POST", "/api/sweeps", body);
      await before(res);
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
      this.drawPoints();
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
      this.apply(await request("GET", this.url()));
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
    this.drawPoints();
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
    for (const input of this.form.querySelectorAll("input, select")) input.disabled = running;
  }

  countText() {
    return `${this.finished} / ${this.total} runs · ${this.points.length} / ${this.values.length} values`;
  }

  // render fills the progress bar and its text; a card adds its own.
  render() {
    const bar = this.role("sweep-progress");
    bar.max = Math.max(1, this.total);
    bar.value = this.finished;
    this.role("sweep-count").textContent = `${this.countText()} · ${Math.round((100 * this.finished) / Math.max(1, this.total))}%`;
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

  // exportJSON saves the sweep's record (the card's record() over the
  // common fields) under filename().
  exportJSON() {
    const record = {
      sweep: this.id,
      status: this.status,
      ...this.record(),
      request: this.request,
      values: this.values,
      finished: this.finished,
      total: this.total,
      points: [...this.points].sort((a, b) => a.value - b.value),
      link: location.href,
      exported_at: new Date().toISOString(),
    };
    saveBlob(new Blob([JSON.stringify(record, null, 1)], { type: "application/json" }), this.filename());
  }
}
