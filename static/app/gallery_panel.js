// One panel of the gallery (gallery.js): a method's run on the page's
// target (POST /api/runs with a target), its stream's plane payloads
// (sim/gallery's PlaneExact and Plane, under plane_exact and plane) made
// into the plane view's frames (plane.js), its measures and history
// against the truth, and its exports. A panel may start from a link's
// state (replayed to the same step with the same changes, as the 1-D
// page's state links are), watch another session's run read-only (a
// live link), and fork it.

import { createRun, deleteRun, getRun, streamURL } from "./api.js";
import { drawHistory } from "./gallery_history.js";
import { readControls, renderControls, setControls } from "./gallery_controls.js";
import { drawsCSV, qJSON, savePNG, saveText } from "./gallery_export.js";
import { replayBody } from "./gallery_link.js";
import { planeMeasure } from "./gallery_claim.js";
import { latestK, latestMeasures, measureParts } from "./gallery_measure.js";
import { Points } from "./gallery_points.js";
import { PlaneView, describe } from "./plane.js";
import { HELD } from "./status.js";

// Bounds of what a panel keeps: the engine's kept draws, and the
// divergences it marks.
const MAX_DRAWS = 20000;
const MAX_DIVERGENCES = 1000;
// TEXT_EVERY is the least time, in ms, between two writes of a running
// panel's text.
const TEXT_EVERY = 250;
// BASE_EVERY is the least time, in ms, between two redraws of a running
// panel's base: 20,000 draws rastered and their histograms binned.
const BASE_EVERY = 100;

export class Panel {
  constructor(el, page, index, pc) {
    this.el = el;
    this.page = page;
    this.index = index;
    this.$ = (role) => el.querySelector(`[data-role=${role}]`);
    this.method = this.$("method");
    this.status = this.$("status");
    this.key = this.$("key");
    this.measure = this.$("measure");
    this.view = new PlaneView(this.$("plane"), { presentation: page.present, overlay: true });
    this.history = this.$("history");
    this.controls = this.$("method-controls");
    this.historyPoints = 0; // drawn: for the browser test
    this.frames = 0;
    this.trees = 0; // NUTS trees received: for the browser test
    this.step = 0;
    this.marks = []; // the run's changes since its last reset (the frame's)
    this.run = null;
    this.ws = null;
    this.readOnly = false;
    this.replay = pc?.replay ?? null; // the link's state, for the first run only
    this.replayTo = null;
    this.watch = pc?.watch ?? null; // a live link's run, for the first start only
    // An open scenario's panel: its name (what the claim's checks call
    // it), its own target controls over the page's and its chains.
    this.name = pc?.name ?? "";
    this.targetOwn = pc?.target_controls ?? {};
    this.chainsWanted = pc?.chains ?? 0;
    this.showName();
    this.method.addEventListener("change", () => {
      this.renderControls({});
      this.page.remember();
      this.start();
    });
    this.renderControls(pc?.controls ?? {});
    for (const b of el.querySelectorAll("[data-export]")) b.addEventListener("click", () => this.export(b.dataset.export));
    this.$("fork")?.addEventListener("click", () => this.fork());
  }

  // targetControls are the page's target controls with the panel's own
  // over them (none on a typed density).
  targetControls() {
    return this.page.target.value === "typed" ? {} : { ...this.page.targetControls(), ...this.targetOwn };
  }

  // setTargetOwn replaces the panel's own target controls (none: the
  // page's alone).
  setTargetOwn(values) {
    this.targetOwn = values ?? {};
    this.showName();
  }

  // showName heads the panel with its scenario name where it is not its
  // method's, else with its own target controls ("centred = 0"), the
  // controls in the heading's title either way, so panels of one method
  // read apart ("centred" beside "non-centred").
  showName() {
    const own = Object.entries(this.targetOwn).map(([k, v]) => `${k} = ${v}`);
    // a name that is its method's says nothing the menu does not; a name
    // of its own says what the panel's target controls are for
    const name = this.name === this.method.value ? "" : this.name;
    const text = name || own.join(" · ");
    this.heading = text;
    let chip = this.$("panel-name");
    if (!text) return void chip?.remove();
    if (!chip) {
      chip = Object.assign(document.createElement("span"), { className: "panel-name" });
      chip.dataset.role = "panel-name";
      this.method.after(chip);
    }
    chip.textContent = text;
    chip.title = own.length ? `This panel's own target controls, over the page's: ${own.join(", ")}` : "";
  }

  get spec() {
    return this.page.methods.get(this.method.value);
  }

  // renderControls makes an input for each of the method's controls,
  // holding values: a change is a set command on the run (the engine
  // restarts the run for a control that is not live).
  renderControls(values) {
    renderControls(this.controls, this.spec?.controls ?? [], (name, value) => this.send({ op: "set", name, value }), values);
    this.el.querySelector("[data-export=json]").hidden = !!this.spec?.sampler;
    this.el.querySelector("[data-export=csv]").hidden = !this.spec?.sampler;
  }

  values() {
    return readControls(this.controls);
  }

  // start replaces the panel's run with one of its method on the page's
  // target: the link's shared run to watch, or a run of its own, replayed
  // to the link's state if it has one.
  async start() {
    this.stop();
    this.reset();
    const gen = (this.gen = (this.gen ?? 0) + 1);
    this.status.textContent = "starting";
    this.page.race?.forget(this.el.dataset.panel);
    if (this.watch) return this.startWatching(gen);
    const body = {
      target: this.page.targetText(),
      target_controls: this.targetControls(),
      method: this.method.value,
      chains: this.spec?.sampler ? this.chainsWanted || 4 : 0,
      seed: this.page.seed,
      controls: this.values(),
    };
    if (this.replay) {
      body.replay = replayBody(this.replay.step, this.replay.changes ?? []);
      this.replayTo = this.replay.step;
      this.replay = null;
    }
    try {
      const created = await createRun(body);
      if (gen !== this.gen) return void deleteRun(created.id);
      this.run = created.id;
      this.open();
    } catch (e) {
      this.status.textContent = "not started";
      this.page.showError(e);
    }
  }

  async startWatching(gen) {
    const id = this.watch;
    this.watch = null;
    try {
      const info = await getRun(id);
      if (gen !== this.gen) return;
      this.run = id;
      this.setReadOnly(!info.yours);
      setControls(this.controls, info.controls ?? {});
      this.open();
    } catch (e) {
      this.status.textContent = "ended";
      this.page.showError(e.status === 404 ? "The shared live run has ended (its owner closed it); Play starts one of your own." : `Could not open the shared run: ${e}`);
    }
  }

  // setReadOnly makes the panel a live view of another session's run: its
  // commands are off (the server would refuse them) and Fork shows.
  setReadOnly(on) {
    this.readOnly = on;
    this.el.classList.toggle("read-only", on);
    for (const i of this.el.querySelectorAll("[data-role=method], [data-role=method-controls] input, [data-role=method-controls] select")) i.disabled = on;
    this.$("watching").hidden = !on;
    this.page.onReadOnly();
  }

  // fork replaces the watched run by one of this session's own, replayed
  // from the seed and the changes to the same step (bit for bit).
  async fork() {
    if (!this.run) return;
    let info;
    try {
      info = await getRun(this.run);
    } catch (e) {
      return void this.page.showError(`Could not fork: ${e}`);
    }
    const lim = this.page.limits;
    const ok = this.step > 0 && this.step <= lim.max_replay_steps && this.marks.length <= lim.max_replay_changes;
    setControls(this.controls, ok ? (info.start_controls ?? info.controls) : info.controls);
    this.replay = ok ? { step: this.step, changes: this.marks } : null;
    this.run = null; // not ours: stop must not delete it
    this.setReadOnly(false);
    this.page.remember();
    await this.start();
  }

  reset() {
    this.exact = null;
    this.draws = new Points(MAX_DRAWS, true);
    this.missed = 0; // draws sent in frames this viewer never got (gallery_points.js)
    this.lastControls = null;
    this.divergences = new Points(MAX_DIVERGENCES, false);
    this.transition = null;
    this.q = null;
    this.qMoments = null;
    this.particles = null;
    this.chains = 1;
    this.last = null; // the latest measure
    this.k = null;
    this.costly = null;
    this.planeHistory = null;
    this.step = 0;
    this.marks = [];
    this.frame = null;
    this.view.setFrame(null);
    this.historyPoints = drawHistory(this.history, []);
  }

  open() {
    const ws = new WebSocket(streamURL(this.run));
    this.ws = ws;
    ws.onopen = () => {
      this.retries = 0;
      // the page's play or pause: one sent while the socket was down was lost
      if (this.page.playing || this.frames > 0) this.send({ op: this.page.playing ? "play" : "pause" });
    };
    ws.onmessage = (ev) => this.receive(JSON.parse(ev.data));
    // A socket the server closed (a viewer too slow for a busy machine, a
    // restart of the connection) is opened again, a few times, on the
    // same run: the next frame is a full one.
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.status.textContent = "disconnected";
      if ((this.retries = (this.retries ?? 0) + 1) <= 5) setTimeout(() => this.ws === ws && this.run && this.open(), 500 * this.retries);
    };
  }

  stop() {
    this.ws?.close();
    this.ws = null;
    if (this.run && !this.readOnly) deleteRun(this.run);
    this.run = null;
  }

  send(op) {
    if (this.readOnly) return;
    if (this.replayTo != null && op.op !== "set") return; // the replay steps the run itself
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(op));
  }

  receive(f) {
    if (f.type === "error") return void this.page.showError(`${f.field ? f.field + ": " : ""}${f.message}`);
    this.frames++;
    if (f.step != null) this.step = f.step;
    if (Array.isArray(f.marks)) this.marks = f.marks;
    if (f.controls && this.readOnly) setControls(this.controls, f.controls);
    if (f.controls) this.lastControls = f.controls; // a frame carries them when they change, and the hub may skip it
    if (this.replayTo != null && ((f.step >= this.replayTo && f.status === "paused") || f.status === "settled")) {
      this.replayTo = null;
      if (this.lastControls) setControls(this.controls, this.lastControls); // the replayed changes' values
    }
    const held = f.held && f.status === "running"; // waits for the slowest of a race at equal budget
    if (f.status) this.statusText = this.replayTo != null ? `replaying ${this.step.toLocaleString("en-US")} / ${this.replayTo.toLocaleString("en-US")}` : `${held ? HELD.text : f.status} · step ${this.step.toLocaleString("en-US")}`;
    this.statusTitle = held ? HELD.title : (f.message ?? ""); // written with the text (showText)
    if (f.status) this.running = this.replayTo == null && f.status === "running"; // held too: its text is throttled as a running one's
    // drawn: something the plane shows changed, so it needs a new frame
    // (a new frame object redraws the plane's base)
    let drawn = !this.frame;
    let moved = false; // the transition alone changed: drawn over the kept base
    if (f.plane_exact) {
      if (this.exact && this.exact.key !== f.plane_exact.key) this.reset();
      drawn ||= this.exact !== f.plane_exact;
      this.exact = f.plane_exact;
    }
    if (f.plane_history) {
      this.historyPoints = drawHistory(this.history, f.plane_history);
      this.k = latestK(f.plane_history) ?? this.k;
      this.costly = latestMeasures(f.plane_history);
      this.planeHistory = f.plane_history;
    }
    // q's density and moments: their own payload, sent once per new q
    if (f.plane_q) {
      drawn = true;
      this.q = f.plane_q.q;
      this.qMoments = f.plane_q.q_moments;
    }
    const p = f.plane;
    if (p) {
      drawn ||= this.chains !== p.chains || !!(p.draws || p.divergences || p.particles);
      moved = !!p.transition;
      this.chains = p.chains;
      if (p.totals) this.missed += this.draws.addNumbered(p.draws, p.from, p.totals);
      else if (p.draws) this.draws.add(p.draws);
      if (p.divergence_total != null) this.divergences.addCounted(p.divergences, p.divergence_from, p.divergence_total);
      else if (p.divergences) this.divergences.add(p.divergences);
      if (p.transition) {
        this.transition = p.transition;
        if (p.transition.kind === "nuts" && p.transition.doublings?.length) this.trees++;
      }
      if (p.particles) this.particles = p.particles;
      if (p.measure) {
        this.last = p.measure;
        this.page.race?.record(this.el.dataset.panel, this.method.value, f, p.measure);
      }
    }
    if (!this.exact || !(drawn || moved)) return this.showText();
    // A running panel's base (the draws, q, the histograms) is redrawn at
    // most every BASE_EVERY ms; a transition in between is drawn over the
    // kept base (the same frame object), as a paused run's state is at once.
    const now = performance.now();
    if (this.frame && (!drawn || (this.running && now < this.baseAt))) {
      this.frame.transition = this.transition ?? undefined;
      this.view.setFrame(this.frame);
      if (drawn) this.baseLater ??= setTimeout(() => ((this.baseLater = null), this.rebuild()), this.baseAt - now);
      return this.showText();
    }
    this.rebuild();
  }

  // rebuild makes a new frame of what the panel holds: the plane view
  // redraws its base.
  rebuild() {
    if (!this.exact) return;
    this.baseAt = performance.now() + BASE_EVERY;
    const frame = {
      box: this.exact.box,
      params: this.exact.params,
      exact: this.exact.exact,
      chains: this.chains,
      draws: this.draws.count ? this.draws.view() : undefined,
      divergences: this.divergences.count ? this.divergences.view() : undefined,
      transition: this.transition ?? undefined,
      q: this.q ?? undefined,
      // q's own draws only where its density is not drawn (SVGD, or a fit
      // in other coordinates than the shown ones)
      particles: this.q ? undefined : (this.particles ?? undefined),
    };
    this.frame = frame;
    this.view.setFrame(frame);
    this.showText();
  }

  // showText writes the status, the measures and the key: at once when
  // the run is not running (a paused state is read exactly), else at most
  // TEXT_EVERY ms apart, since text changed 25 times a second costs the
  // page a style and layout pass each time and no one reads it that fast.
  showText() {
    const now = performance.now();
    if (this.running && now < (this.textAt ?? 0)) {
      this.textLater ??= setTimeout(() => {
        this.textLater = null;
        this.showText();
      }, this.textAt - now);
      return;
    }
    this.textAt = now + TEXT_EVERY;
    if (this.statusText && this.status.textContent !== this.statusText) this.status.textContent = this.statusText;
    if (this.statusTitle != null && this.status.title !== this.statusTitle) this.status.title = this.statusTitle;
    if (this.last) this.showMeasure();
    if (this.frame) this.key.textContent = describe(this.frame, this.view);
  }

  // measureOf is a plane measure a gallery scenario's claim checks, of
  // coordinate param (gallery_claim.js).
  measureOf(name, param) {
    return planeMeasure(name, param, { exact: this.exact, measure: this.last, history: this.planeHistory });
  }

  showMeasure() {
    this.measure.replaceChildren(
      ...measureParts(this.last, this.exact?.log_z, this.k).flatMap((p, i) => {
        const s = document.createElement("span");
        s.textContent = p.text;
        if (p.cls) s.className = p.cls;
        if (p.title) s.title = p.title;
        return i ? [" · ", s] : [s];
      }),
    );
  }

  // export saves the plane as a PNG, the draws as CSV or q as JSON.
  export(kind) {
    const stem = `gallery-${this.page.targetName()}-${this.method.value}-step${this.step}`;
    if (kind === "png" && this.frame) {
      const size = Math.max(480, this.view.canvas.clientWidth);
      return savePNG(this.frame, { title: `${this.spec?.label ?? this.method.value}${this.heading ? ` (${this.heading})` : ""} on ${this.page.targetTitle(this.targetOwn)} · seed ${this.page.seed} · step ${this.step.toLocaleString("en-US")}`, claim: this.page.claimText(), size, filename: `${stem}.png` });
    }
    if (kind === "csv") return saveText(drawsCSV(this.draws.view(), this.exact?.params ?? ["x", "y"]), `${stem}-draws.csv`, "text/csv");
    if (kind === "json") {
      const text = qJSON({ method: this.method.value, controls: this.values(), target: this.page.targetText(), targetControls: this.targetControls(), seed: this.page.seed, step: this.step, params: this.exact?.params, moments: this.qMoments, particles: this.q ? null : this.particles, measure: this.last, logZ: this.exact?.log_z, paretoK: this.k });
      return saveText(text, `${stem}-q.json`, "application/json");
    }
  }
}
