// Panel is one method's run in the page: one POST /api/runs, one websocket,
// its plots, controls, diagnostics and exports.

import { createRun, deleteRun, getRun, streamURL } from "./api.js";
import { fitRanges, fromSlider, markLabel, objectiveLabel, parseValue, sameValue, toSlider, traceLabel, traceShown } from "./controls.js";
import { DrawLoop, escapeHTML, fmt, Series } from "./history.js";
import { addPredictiveExports, exportCSV, exportJSON } from "./export.js";
import { addPNGButton, HistoryPlot, plotFigure, PredictivePlot } from "./plots.js";
import { McmcView } from "./mcmc.js";
import { statusLine } from "./status.js";
import { fmtInput, fmtRate, readout } from "./format.js";
import { VIEWS } from "./views.js";
import { NoiseBand, speaksOfNoise } from "./yband.js";

const MAX_MARKS = 200;
export const DRAW_LOOP = new DrawLoop(); // the page's, for all panels
const MAX_RETRIES = 6;

export class Panel {
  // app supplies what panels share: config, smoothing, steps per Step
  // press, speed, and a callback when a control changes (for the URL).
  constructor(el, pc, app) {
    this.el = el;
    this.app = app;
    this.method = pc.method;
    this.model = pc.model ?? "";
    this.spec = pc.spec;
    this.controls = { ...pc.controls }; // values the next run starts with
    this.confirmed = { ...pc.controls }; // values the server last reported
    this.replay = pc.replay ?? null; // a shared link's state, for the first run only
    this.replayTo = null; // the step a replay is training to
    this.watch = pc.watch ?? null; // a shared live run to watch, for the first start only
    this.readOnly = false; // watching another session's run: no commands, no delete
    this.serverMarks = []; // the run's changes since its last reset, as the server keeps them
    this.pending = new Map(); // control name → value sent, not yet seen in a frame
    this.sentAt = new Map(); // control name → when its change was sent
    this.latency = null; // ms from sending a change to the frame that shows it
    this.objective = new Series();
    this.objective.setSmoothing(app.smoothing);
    this.traces = new Map(); // name → { series, plot }
    this.views = new Map(); // frame-extra key → its view (views.js)
    this.marks = [];
    this.markKeys = new Set();
    this.band = null;
    this.frames = 0;
    this.frameTimes = [];
    this.queue = [];
    this.retries = 0;
    this.step = 0;
    this.status = "not started";
    this.diagnostics = {};
    this.diagKeys = null; // the diagnostics list's rows as last written
    this.stepsPerSec = null;
    this.runId = null;
    this.ws = null;
    this.disposed = false;
    this.gen = 0;
    this.buildPlots();
    this.bindButtons();
    this.bindControls();
  }

  role(name) {
    return this.el.querySelector(`[data-role="${name}"]`);
  }

  // ---- plots ----

  buildPlots() {
    const cfg = this.app.config;
    const pred = this.el.querySelector('[data-plot="predictive"]');
    this.predictive = new PredictivePlot(pred.querySelector(".plot-host"), { points: cfg.points, truth: cfg.truth, task: cfg.task });
    this.predictive.onResize = () => {
      for (const v of this.views.values()) v.draw?.();
    };
    // The band of y beside f's, shown first where the scenario speaks of noise.
    this.noiseBand = new NoiseBand(this, { on: speaksOfNoise(document.querySelector(".play-head")?.textContent) });
    // PNG for slides, band, data and draws CSV (export.js), in the bar under the plot
    addPredictiveExports(this, pred.querySelector("figcaption .actions") ?? pred.querySelector("figcaption"));
    const obj = this.el.querySelector('[data-plot="objective"]');
    const objCap = obj.querySelector("figcaption");
    const label = objectiveLabel(this.spec.family);
    objCap.firstChild.textContent = `Objective: ${label}, raw and smoothed`;
    this.objectivePlot = new HistoryPlot(obj.querySelector(".plot-host"), {
      label,
      smoothed: true,
      getMarks: () => this.marks,
      markLabels: this.markLabels,
      sharedRange: () => this.app.sharedRange?.(this) ?? null,
    });
    this.pngButton(objCap, () => this.objectivePlot.u, "objective");
    // mcmc: samplers' chains, draws and diagnostics have their own plots (mcmc.js).
    // Samplers' view owns their per-chain traces from the start (mcmc.js);
    // other views (views.js) appear with the first frame carrying their key.
    if (this.spec.family === "mcmc") this.views.set("draws", (this.mcmc = new McmcView(this)));
    for (const name of this.spec.traces ?? []) {
      if (this.mcmc?.owns(name)) {
        const series = new Series();
        this.traces.set(name, { series, plot: null }); // exported and cleared with the rest
        this.mcmc.adopt(name, series);
      } else this.trace(name);
    }
  }

  // linkState returns what a link to this panel's state sets: the run's
  // controls at its last reset (its base) and METHOD.replay, the step and
  // the live changes since; null when the run changed more often than the
  // server keeps (such a link would not reproduce it).
  async linkState() {
    if (!this.runId || this.serverMarks.length >= this.app.config.limits.max_replay_changes) return null;
    // Edits of the data and inducing inputs are not replayed (dataedit.js).
    if (this.serverMarks.some((m) => m.name === "data" || m.name === "inducing input")) return null;
    const info = await getRun(this.runId);
    const replay = [String(this.step), ...this.serverMarks.map((m) => `${m.step}:${m.name}:${m.value}`)].join(",");
    return { controls: info.start_controls ?? {}, replay };
  }

  // weights is the weight-marginal view, once a frame carried "weights".
  get weights() {
    return this.views.get("weights");
  }

  // pngButton adds a PNG button to a caption of one of this panel's plots
  // (the mcmc and weights views' too): the file is named after the panel,
  // what and the step; title() (default: what) heads the image.
  pngButton(caption, getU, what, title = () => what) {
    addPNGButton(caption, getU, () => [`${this.spec.label} — ${title()}, step ${this.step}`, `${this.fileStem()}-${what}.png`]);
  }

  // markLabels is a change mark's label, and a shorter one for a small plot.
  markLabels = (m) => [markLabel(this.spec, m, fmt), typeof m.value === "number" ? fmt(m.value) : String(m.value)];

  // trace returns the named trace's history and plot, creating them; the
  // caption is the trace's label, the name stays its key.
  trace(name) {
    let t = this.traces.get(name);
    if (t) return t;
    const label = traceLabel(this.spec, name);
    const { fig, cap, host } = plotFigure(`trace-${name}`, label, "trace");
    this.role("traces").appendChild(fig);
    const series = new Series();
    const plot = new HistoryPlot(host, { label, height: 110, getMarks: () => this.marks, markLabels: this.markLabels });
    t = { series, plot, fig };
    this.traces.set(name, t);
    this.pngButton(cap, () => plot.u, `trace-${name}`);
    return t;
  }

  clearHistory() {
    this.objective.clear();
    this.objective.setSmoothing(this.app.smoothing);
    for (const t of this.traces.values()) t.series.clear();
    for (const v of this.views.values()) v.clear?.();
    this.marks = [];
    this.markKeys.clear();
    this.scheduleDraw();
  }

  setSmoothing(w) {
    this.objective.setSmoothing(w);
    this.scheduleDraw();
  }

  // scheduleDraw asks the page's draw loop (history.js) to draw the panel:
  // at most DRAW_HZ times a second, all panels in one repaint.
  scheduleDraw() {
    this.drawFn ??= () => this.draw();
    DRAW_LOOP.request(this.drawFn);
  }

  draw() {
    if (this.bandDirty) {
      this.noiseBand.setNoise(this.diagnostics.noise_std);
      this.predictive.setBand(this.band);
      this.bandDirty = false;
    }
    this.objectivePlot.draw(this.objective);
    for (const [name, t] of this.traces) {
      if (!t.plot) continue;
      // A trace that means nothing under the current settings is hidden.
      const shown = traceShown(this.spec, name, this.confirmed, this.app.config.task);
      if (t.fig.hidden === shown) t.fig.hidden = !shown;
      if (shown) t.plot.draw(t.series);
    }
    for (const v of this.views.values()) v.draw?.();
    this.role("step").textContent = this.step.toLocaleString("en-US");
    this.role("sps").textContent = fmtRate(this.stepsPerSec);
    const now = performance.now();
    this.frameTimes = this.frameTimes.filter((t) => now - t < 1000);
    this.role("fps").textContent = String(this.frameTimes.length);
    const lat = this.role("latency");
    if (this.latency != null && lat) {
      lat.hidden = false;
      lat.textContent = ` · last change live after ${Math.round(this.latency)} ms`;
    }
    this.drawDiagnostics();
  }

  drawDiagnostics() {
    const dl = this.role("diagnostics");
    // The server's numbers, inbetween_ratio among them on data with a gap.
    // A noise std means nothing on classification data.
    const rows = Object.entries(this.diagnostics ?? {})
      .filter(([k]) => !(k === "noise_std" && this.app.config.task === "classification"))
      .sort(([a], [b]) => a.localeCompare(b));
    const items = rows.map(([k, v]) => [k, ...readout(k, v)]);
    const keys = items.map(([k, label]) => `${k}:${label}`).join("|");
    // The same rows as last time: only the changed values are written
    // (rebuilding the list every draw relaid it out).
    if (this.diagKeys === keys) {
      items.forEach(([, , text], i) => {
        const dd = this.diagDDs[i];
        if (dd.textContent !== text) dd.textContent = text;
      });
      return;
    }
    dl.innerHTML = items
      .map(([k, label, text]) => `<div data-key="${escapeHTML(k)}"><dt>${escapeHTML(label)}</dt><dd>${escapeHTML(text)}</dd></div>`)
      .join("");
    this.diagKeys = keys;
    this.diagDDs = [...dl.querySelectorAll("dd")];
  }

  // ---- run and socket ----

  async start() {
    this.disposed = false;
    const gen = ++this.gen; // a later start or a dispose makes this one stale
    this.setStatus("starting");
    this.showError("");
    if (this.watch) return this.startWatching(gen);
    const cfg = this.app.config;
    const body = { data: cfg.data, method: this.method, seed: cfg.seed, controls: this.controls };
    if (this.model) body.model = this.model;
    if (this.replay) {
      body.replay = this.replay; // train to the link's state (a later restart starts afresh)
      this.replayTo = this.replay.step;
      this.replay = null;
    }
    let r;
    try {
      r = await createRun(body);
    } catch (e) {
      if (gen !== this.gen) return;
      this.setStatus("error");
      this.showError(`Could not start the run: ${e}`, e.status === 429 || e.status === 0);
      return;
    }
    if (gen !== this.gen) {
      deleteRun(r.id); // superseded while it was being created
      return;
    }
    this.runId = r.id;
    this.confirmed = { ...this.controls };
    this.app.onRunStart?.(this); // edited data (dataedit.js), queued until the socket opens
    this.connect();
  }

  // startWatching attaches the panel to a shared live run (METHOD.watch in
  // the link) instead of starting its own: read-only unless this browser
  // session made it. A later restart (Fork, or after the run ends) starts
  // the panel's own run.
  async startWatching(gen) {
    const id = this.watch;
    this.watch = null;
    let info;
    try {
      info = await getRun(id);
    } catch (e) {
      if (gen !== this.gen) return;
      this.setStatus("error");
      this.showError(e.status === 404 ? "The shared live run has ended (its owner closed it). Reset starts a run of your own." : `Could not open the shared run: ${e}`);
      return;
    }
    if (gen !== this.gen) return;
    this.runId = id;
    this.confirmed = { ...info.controls };
    this.setReadOnly(!info.yours);
    this.connect();
  }

  // setReadOnly turns the panel into a live view of another session's run:
  // its commands are off (the server would refuse them), and a note offers
  // Fork, a run of one's own trained to the same state.
  setReadOnly(on) {
    this.readOnly = on;
    this.el.classList.toggle("read-only", on);
    for (const b of this.el.querySelectorAll('[data-op="play"], [data-op="pause"], [data-op="step"], [data-op="reset"]')) b.disabled = on;
    for (const i of this.el.querySelectorAll("form.controls input, form.controls select")) i.disabled = on;
    let note = this.role("watching");
    if (on && !note) {
      note = document.createElement("p");
      note.className = "watching";
      note.dataset.role = "watching";
      note.textContent = "Watching a shared live run: its owner's changes show here as they happen. ";
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.role = "fork";
      b.textContent = "Fork";
      b.className = "primary"; // the viewer's one action
      b.title = "Start your own copy of this run, trained to the same state, to experiment with";
      b.addEventListener("click", () => this.fork());
      note.appendChild(b);
      this.el.querySelector("header")?.after(note);
    }
    if (note) note.hidden = !on;
    this.app.onReadOnly?.();
  }

  // fork replaces the watched run by one of this session's own, replayed
  // from the seed and the change log to the same step (bit for bit, as a
  // state link is); a run past the replay limits starts afresh with the
  // controls it has now.
  async fork() {
    if (!this.runId) return;
    let info;
    try {
      info = await getRun(this.runId);
    } catch (e) {
      this.showError(`Could not fork: ${e}`);
      return;
    }
    const lim = this.app.config.limits;
    const replayable = this.step > 0 && this.step <= lim.max_replay_steps && this.serverMarks.length <= lim.max_replay_changes;
    if (replayable) {
      this.controls = { ...(info.start_controls ?? info.controls) };
      this.replay = { step: this.step, changes: this.serverMarks.map((m) => ({ step: m.step, name: m.name, value: m.value })) };
    } else {
      this.controls = { ...info.controls };
      this.replay = null;
    }
    this.runId = null; // not ours: dispose must not delete it
    this.setReadOnly(false);
    this.app.onFork?.(this.method);
    this.status = "forking"; // the fork pauses at the state it copies: restart must not play it
    await this.restart();
    if (!replayable && this.step === 0) this.showError(`Forked with the run's current controls from step 0: its ${info.step.toLocaleString("en-US")} steps are more than a fork replays.`);
  }

  connect() {
    const ws = new WebSocket(streamURL(this.runId));
    this.ws = ws;
    this.fresh = true;
    ws.onopen = () => {
      this.retries = 0;
      if (this.readOnly) return; // a viewer's commands would be refused
      const speed = this.app.speed();
      if (speed > 0) ws.send(JSON.stringify({ op: "speed", value: speed }));
      for (const m of this.queue.splice(0)) ws.send(JSON.stringify(m));
      for (const v of this.views.values()) v.onReconnect?.(); // e.g. a new run starts at weight 0
    };
    ws.onmessage = (ev) => {
      let m;
      try {
        m = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (m.type === "error") this.onError(m);
      else if (m.type === "frame") this.onFrame(m);
    };
    ws.onclose = () => {
      if (this.ws !== ws || this.disposed) return;
      this.setStatus("reconnecting");
      this.reconnect();
    };
  }

  async reconnect() {
    if (this.retries >= MAX_RETRIES) {
      this.setStatus("disconnected");
      this.showError("Lost the connection to the server.", true);
      return;
    }
    this.retries++;
    await sleep(300 * 2 ** this.retries);
    if (this.disposed) return;
    try {
      await getRun(this.runId);
      this.connect();
    } catch (e) {
      if (e.status === 404 && this.readOnly) {
        this.setStatus("ended");
        this.showError("The shared live run has ended (its owner closed it). Fork is no longer possible; Reset starts a run of your own.");
        this.runId = null;
        this.setReadOnly(false);
      } else if (e.status === 404) {
        this.runId = null;
        this.clearHistory();
        await this.start(); // the run is gone (idle timeout): start it afresh
      } else {
        this.reconnect();
      }
    }
  }

  send(msg) {
    // A viewer's command would be refused with an error: a view (the weight
    // view's index, say) shows what the owner's run sends instead.
    if (this.readOnly) return;
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
    else if (!this.disposed && this.queue.length < 50) this.queue.push(msg);
  }

  onFrame(f) {
    // A first frame, a "full" one, or a new epoch (a reset) replaces the
    // history rather than extending it.
    if (this.fresh || f.full || f.step < this.step || (f.epoch !== undefined && this.epoch !== undefined && f.epoch !== this.epoch)) {
      this.clearHistory();
    }
    if (f.data?.x?.length && !this.app.config.points) this.app.onData(f.data);
    // A watched run's data as its owner edits them (dataedit.js).
    else if (f.data?.x?.length && this.readOnly) this.predictive.setPoints({ x: f.data.x, y: f.data.y });
    this.fresh = false;
    this.epoch = f.epoch;
    this.frames++;
    // Trimmed here too, not only in draw(): a hidden tab runs no animation
    // frames, and frames keep arriving.
    const now = performance.now();
    while (this.frameTimes.length && now - this.frameTimes[0] >= 1000) this.frameTimes.shift();
    this.frameTimes.push(now);
    this.step = f.step ?? this.step;
    this.stepsPerSec = f.steps_per_sec ?? null;
    this.app.onBudget?.(this, f); // the race chart (race.js): the budget spent, evals and cpu_seconds
    this.diagnostics = f.diagnostics ?? {};
    if (Array.isArray(f.objective)) this.objective.push(f.objective);
    for (const [name, pts] of Object.entries(f.trace ?? {})) if (Array.isArray(pts)) this.trace(name).series.push(pts);
    if (f.predictive?.x) {
      this.band = f.predictive;
      this.bandDirty = true;
    }
    if (Array.isArray(f.marks)) this.addMarks(f.marks);
    for (const [key, View] of Object.entries(VIEWS)) {
      if (f[key] == null) continue;
      let v = this.views.get(key);
      if (!v) this.views.set(key, (v = new View(this)));
      v.onExtra(f[key]);
    }
    if (f.controls) this.syncControls(f.controls);
    this.setStatus(f.status ?? this.status, f.message, f.budget, f.step ?? this.step, f.held);
    if (Array.isArray(f.marks)) this.serverMarks = f.marks;
    if (this.replayTo != null) {
      // A method with nothing to iterate (the exact GP) never reaches the
      // link's step: the server ends its replay where it stands, played,
      // and the frame says "settled".
      if ((f.step >= this.replayTo && f.status === "paused") || f.status === "settled") {
        this.replayTo = null;
        this.showError(""); // a "wait for the replay" note, if one was shown
      }
      else {
        // Short, so the header stays one row; the words are in its title.
        const [at, to] = [this.step, this.replayTo].map((n) => n.toLocaleString("en-US"));
        const el = this.role("status");
        el.textContent = `replaying ${at} / ${to}`;
        el.title = `replaying the link: step ${at} of ${to}`;
      }
    }
    if (f.status === "diverged") {
      this.showError(`Diverged${f.message ? `: ${f.message}` : ""}. Its last good state is kept; reset to start again.`);
      this.divergedShown = true;
    } else if (this.divergedShown) {
      this.showError("");
      this.divergedShown = false;
    }
    this.scheduleDraw();
  }

  addMarks(marks) {
    for (const m of marks) {
      const key = `${m.step}|${m.name}|${m.value}`;
      if (this.markKeys.has(key)) continue;
      this.markKeys.add(key);
      this.marks.push(m);
    }
    if (this.marks.length > MAX_MARKS) {
      this.marks = this.marks.slice(-MAX_MARKS);
      this.markKeys = new Set(this.marks.map((m) => `${m.step}|${m.name}|${m.value}`));
    }
  }

  onError(e) {
    const name = e.field && this.controlEl(e.field) ? e.field : this.lastSet;
    if (name && this.pending.has(name)) {
      this.pending.delete(name);
      this.showControlError(name, e.message);
      this.revert(name);
      return;
    }
    this.showError(e.field ? `${e.field}: ${e.message}` : e.message);
  }

  // ---- controls ----

  controlEl(name) {
    return this.inputs.get(name)?.div ?? null;
  }

  specOf(name) {
    return this.spec.controls.find((c) => c.name === name);
  }

  // bindControls wires the template's controls and keeps their elements:
  // every frame reports every control's value (syncControls), so looking
  // them up there would query the DOM per control per frame.
  bindControls() {
    this.inputs = new Map(); // name → { div, range, num, sel, box }
    for (const div of this.el.querySelectorAll(".control")) {
      const name = div.dataset.name;
      const range = div.querySelector('input[type="range"]');
      const num = div.querySelector("input.num");
      const sel = div.querySelector("select");
      const box = div.querySelector('input[type="checkbox"]'); // an on/off setting (widgetFor)
      const list = div.querySelector("input.list"); // a list control: "50,50"; the server validates it
      this.inputs.set(name, { div, range, num, sel, box, list });
      const spec = this.specOf(name);
      if (!spec) continue;
      box?.addEventListener("change", () => this.setControl(name, box.checked ? 1 : 0));
      range?.addEventListener("input", () => {
        num.value = fmtInput(fromSlider(spec, range.value));
      });
      range?.addEventListener("change", () => this.setControl(name, fromSlider(spec, range.value)));
      num?.addEventListener("change", () => {
        const v = parseValue(spec, num.value);
        if (v == null) {
          this.showControlError(name, `want a number in [${spec.min}, ${spec.max}]`);
          return;
        }
        if (range) range.value = String(toSlider(spec, v));
        this.setControl(name, v);
      });
      sel?.addEventListener("change", () => this.setControl(name, sel.value));
      list?.addEventListener("change", () => this.setControl(name, list.value.trim()));
    }
    this.addArchPresets();
  }

  // addArchPresets puts a choice of the named networks (the page config's
  // arch_presets: GIP notebook, LIVI paper toy, small) above a network's
  // arch control; choosing one sets arch and activation and restarts once.
  addArchPresets() {
    const arch = this.inputs.get("arch");
    const presets = this.app.config.arch_presets ?? [];
    if (!arch?.list || !presets.length || !this.specOf("activation")) return;
    const sel = document.createElement("select");
    sel.dataset.role = "arch-preset";
    sel.className = "small";
    sel.setAttribute("aria-label", "Network preset");
    sel.append(new Option("Preset…", ""), ...presets.map((p) => new Option(`${p.name} (${p.arch} ${p.activation})`, p.name)));
    const current = () => presets.find((p) => p.arch === String(this.controls.arch) && p.activation === String(this.controls.activation));
    sel.value = current()?.name ?? "";
    sel.addEventListener("change", () => {
      const p = presets.find((q) => q.name === sel.value);
      if (!p || this.readOnly) return;
      for (const [name, v] of [["arch", p.arch], ["activation", p.activation]]) {
        this.controls[name] = v;
        this.app.onControl(this.method, name, v);
      }
      arch.list.value = p.arch;
      const act = this.inputs.get("activation")?.sel;
      if (act) act.value = p.activation;
      this.restart(); // neither acts on a running loop: a new run, once
    });
    arch.div.prepend(sel);
  }

  setControl(name, value) {
    const spec = this.specOf(name);
    this.showControlError(name, "");
    this.controls[name] = value;
    this.app.onControl(this.method, name, value);
    if (!spec.live) {
      this.restart(); // the method cannot change it on a running loop
      return;
    }
    this.pending.set(name, value);
    this.sentAt.set(name, performance.now());
    this.lastSet = name;
    this.controlEl(name)?.classList.add("pending");
    this.send({ op: "set", name, value });
  }

  // syncControls shows the values the server reports, except on a control
  // the user is moving or whose change is still on its way.
  syncControls(c) {
    for (const [name, v] of Object.entries(c)) {
      this.confirmed[name] = v;
      if (this.pending.has(name)) {
        if (!sameValue(this.pending.get(name), v)) continue;
        this.pending.delete(name);
        this.controlEl(name)?.classList.remove("pending");
        if (this.sentAt.has(name)) this.latency = performance.now() - this.sentAt.get(name);
      }
      this.controls[name] = v;
      this.showValue(name, v);
    }
  }

  showValue(name, v) {
    const els = this.inputs.get(name);
    const spec = this.specOf(name);
    if (!els || !spec) return;
    const active = document.activeElement;
    const { range, num, sel, list } = els;
    // Written only when it differs: every frame reports every control, and
    // each write would restyle and repaint the input.
    const put = (el, s) => {
      if (el && active !== el && el.value !== s) el.value = s;
    };
    // A slider reads back its position snapped to its step: compared as numbers.
    const pos = toSlider(spec, v);
    if (range && active !== range && !(Math.abs(Number(range.value) - pos) <= (Number(range.step) || 0) / 2)) range.value = String(pos);
    put(num, typeof v === "number" ? fmtInput(v) : String(v));
    put(sel, String(v));
    put(list, String(v));
    if (els.box && active !== els.box && els.box.checked !== v >= 0.5) els.box.checked = v >= 0.5;
  }

  // refit takes the method's spec for new data (an upload): the sliders and
  // number boxes take its ranges, and a value outside them its default.
  refit(fitted) {
    const { spec, reset } = fitRanges(this.spec, fitted, this.controls);
    this.spec = spec;
    for (const c of spec.controls) {
      const els = this.inputs.get(c.name);
      if (!els || c.options?.length) continue;
      if (els.num) [els.num.min, els.num.max] = [String(c.min), String(c.max)];
      if (els.range) [els.range.min, els.range.max] = [String(toSlider(c, c.min)), String(toSlider(c, c.max))];
      const r = els.div.querySelector(".range");
      if (r) r.textContent = `[${c.min}, ${c.max}]`;
    }
    for (const [name, v] of Object.entries(reset)) {
      this.controls[name] = this.confirmed[name] = v;
      this.showValue(name, v);
      this.app.onControl(this.method, name, v);
    }
  }

  revert(name) {
    const v = this.confirmed[name];
    this.controls[name] = v;
    this.controlEl(name)?.classList.remove("pending");
    this.showValue(name, v);
    this.app.onControl(this.method, name, v);
  }

  showControlError(name, msg) {
    const p = this.controlEl(name)?.querySelector(".control-error");
    if (!p) return;
    p.textContent = msg;
    p.hidden = !msg;
  }

  // ---- buttons ----

  bindButtons() {
    for (const b of this.el.querySelectorAll("[data-op]")) {
      b.addEventListener("click", () => this.op(b.dataset.op));
    }
  }

  op(name) {
    if (this.readOnly && ["play", "pause", "step", "reset", "continue"].includes(name)) {
      this.showError("This is a live view of someone else's run: Fork it to experiment with your own copy.");
      return;
    }
    // A link's replay steps the run itself; Play, Step or Pause would take
    // it off the link's path. Reset gives it up and starts afresh.
    if (this.replayTo != null && name !== "reset") {
      this.showError(`Replaying the link to step ${this.replayTo.toLocaleString("en-US")}: wait for it to finish, or reset.`);
      return;
    }
    if (name === "reset") this.replayTo = null;
    switch (name) {
      case "play":
        // A spent budget says so in the status line, with Continue beside it.
        if (this.status !== "done") this.send({ op: name });
        break;
      case "pause":
      case "continue":
        this.send({ op: name });
        break;
      case "reset":
        if (!this.runId) {
          this.restart(); // no run (a shared one ended): start one
          break;
        }
        this.send({ op: "reset" });
        this.clearHistory();
        break;
      case "step":
        this.send({ op: "step", n: this.app.stepN() });
        break;
      case "snapshot":
        if (this.band) this.setSnapshot(this.band);
        break;
      case "clear-snapshot":
        this.setSnapshot(null);
        break;
      case "csv":
        exportCSV(this);
        break;
      case "json":
        exportJSON(this);
        break;
    }
  }

  // setSnapshot freezes band (or nothing) as the plot's overlay; Clear is
  // offered only while there is one.
  setSnapshot(band) {
    this.predictive.setSnapshot(band);
    const clear = this.el.querySelector('[data-op="clear-snapshot"]');
    if (clear) clear.hidden = !band;
  }

  setSpeed(v) {
    if (this.readOnly) return;
    this.send({ op: "speed", value: v });
  }

  // restart replaces the run by a new one with the current controls and
  // data (after an upload, or a control that needs a fresh start).
  async restart() {
    const playing = statusLine(this.status).playing;
    this.dispose();
    this.clearHistory();
    this.band = null;
    this.setSnapshot(null);
    this.predictive.setBand(null);
    this.step = 0;
    this.queue = [];
    this.retries = 0;
    await this.start();
    if (playing) this.send({ op: "play" });
  }

  // dispose closes the socket and frees the run on the server.
  dispose() {
    this.disposed = true;
    this.gen++;
    const ws = this.ws;
    this.ws = null;
    ws?.close();
    if (this.runId && !this.readOnly) deleteRun(this.runId);
    this.runId = null;
  }

  // setStatus shows the run's status in words; a spent budget adds a
  // Continue button and greys the live controls, which could not act.
  setStatus(s, message = "", budget = 0, step = this.step, held = false) {
    this.status = s;
    const line = statusLine(s, message, budget, step, this.spec?.family === "exact", held);
    const el = this.role("status");
    if (el.dataset.status !== s || el.textContent !== line.text || el.title !== line.title) {
      el.textContent = line.text; // only on a change: every frame reports the status
      el.title = line.title;
      el.dataset.status = s;
    }
    if (line.canContinue && !this.continueButton) {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.role = "continue";
      b.textContent = "Continue";
      b.title = "Grant another step budget as large and run on";
      b.addEventListener("click", () => this.op("continue"));
      el.after(b);
      this.continueButton = b;
    }
    if (this.continueButton) this.continueButton.hidden = !line.canContinue;
    if (this.liveActs !== line.liveActs) {
      this.liveActs = line.liveActs;
      for (const [name, { div, range, num, sel, box }] of this.inputs) {
        if (!this.specOf(name)?.live) continue;
        for (const i of [range, num, sel, box]) if (i) i.disabled = !line.liveActs;
        div.title = line.liveActs ? "" : "the step budget is spent: continue or reset to change this";
      }
    }
  }

  showError(msg, retry = false) {
    const p = this.role("error");
    p.textContent = msg;
    p.hidden = !msg;
    if (msg && retry) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = "Try again";
      b.addEventListener("click", () => this.restart());
      p.append(" ", b);
    }
  }

  fileStem() {
    const c = this.app.config;
    return `${this.method}-${c.data.replace(/[^A-Za-z0-9_-]/g, "_")}-seed${c.seed}-step${this.step}`;
  }

  // inspect is for tests and the console.
  inspect() {
    return {
      method: this.method,
      runId: this.runId,
      frames: this.frames,
      step: this.step,
      status: this.status,
      controls: { ...this.confirmed },
      band: this.band,
      marks: this.marks.slice(),
      objectivePoints: this.objective.length,
      latency: this.latency,
    };
  }
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}
