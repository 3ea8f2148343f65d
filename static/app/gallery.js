// The two-dimensional gallery's page (templates/gallery.templ): a target
// picker with the target's controls, one panel per method, and Play,
// Pause and Step for them all. Each panel is a run on the server (POST
// /api/runs with a target) whose stream's plane payloads (sim/gallery's
// PlaneExact and Plane, under plane_exact and plane) become the plane
// view's frames (plane.js): the exact grid kept until the target
// changes, the draws and divergences accumulated (bounded), the latest
// transition and q replaced.

import { createRun, deleteRun, streamURL } from "./api.js";
import { drawHistory } from "./gallery_history.js";
import { PlaneView, describe } from "./plane.js";
import { Race } from "./race.js";

// Bounds of what a panel keeps: the engine's kept draws, and the
// divergences it marks.
const MAX_DRAWS = 20000;
const MAX_DIVERGENCES = 1000;

// Points is a bounded buffer of points, newest last: when full, the
// oldest are dropped.
class Points {
  constructor(cap, chains) {
    this.cap = cap;
    this.x = new Float64Array(cap);
    this.y = new Float64Array(cap);
    this.chain = chains ? new Uint8Array(cap) : null;
    this.count = 0;
  }

  add(p) {
    const n = Math.min(p.x.length, this.cap);
    const from = p.x.length - n;
    const drop = Math.max(0, this.count + n - this.cap);
    if (drop > 0) {
      this.x.copyWithin(0, drop, this.count);
      this.y.copyWithin(0, drop, this.count);
      this.chain?.copyWithin(0, drop, this.count);
      this.count -= drop;
    }
    for (let i = 0; i < n; i++) {
      this.x[this.count + i] = p.x[from + i];
      this.y[this.count + i] = p.y[from + i];
      if (this.chain) this.chain[this.count + i] = p.chain?.[from + i] ?? 0;
    }
    this.count += n;
  }

  // view is the buffer as the plane view reads it: a new object, so that
  // the view redraws its base.
  view() {
    const v = { x: this.x, y: this.y, count: this.count };
    if (this.chain) v.chain = this.chain;
    return v;
  }
}

// Panel is one method's run and its plane.
class Panel {
  constructor(el, page) {
    this.el = el;
    this.page = page;
    this.method = el.querySelector("[data-role=method]");
    this.status = el.querySelector("[data-role=status]");
    this.key = el.querySelector("[data-role=key]");
    this.measure = el.querySelector("[data-role=measure]");
    this.view = new PlaneView(el.querySelector("[data-role=plane]"));
    this.history = el.querySelector("[data-role=history]");
    this.historyPoints = 0; // drawn: for the browser test
    this.frames = 0;
    this.trees = 0; // NUTS trees received: for the browser test
    this.run = null;
    this.ws = null;
    this.controls = el.querySelector("[data-role=method-controls]");
    this.method.addEventListener("change", () => {
      this.renderControls();
      this.page.remember();
      this.start();
    });
    this.renderControls();
  }

  // renderControls makes an input for each of the method's controls: a
  // change is a set command on the run (the engine restarts the run for
  // a control that is not live).
  renderControls() {
    const spec = this.page.methods.get(this.method.value);
    renderControls(this.controls, spec?.controls ?? [], (name, value) => this.send({ op: "set", name, value }));
  }

  // start replaces the panel's run with one of its method on the page's
  // target.
  async start() {
    this.stop();
    this.reset();
    const gen = (this.gen = (this.gen ?? 0) + 1);
    this.status.textContent = "starting";
    this.page.race?.forget(this.el.dataset.panel);
    const spec = this.page.methods.get(this.method.value);
    try {
      const created = await createRun({
        target: this.page.targetText(),
        target_controls: this.page.targetControls(),
        method: this.method.value,
        chains: spec?.sampler ? 4 : 0,
        seed: 1,
      });
      if (gen !== this.gen) {
        deleteRun(created.id);
        return;
      }
      this.run = created.id;
      this.open();
    } catch (e) {
      this.status.textContent = "not started";
      this.page.showError(e);
    }
  }

  reset() {
    this.exact = null;
    this.draws = new Points(MAX_DRAWS, true);
    this.divergences = new Points(MAX_DIVERGENCES, false);
    this.transition = null;
    this.q = null;
    this.particles = null;
    this.chains = 1;
    this.view.setFrame(null);
    this.historyPoints = drawHistory(this.history, []);
  }

  open() {
    const ws = new WebSocket(streamURL(this.run));
    this.ws = ws;
    ws.onopen = () => this.page.playing && this.send({ op: "play" });
    ws.onmessage = (ev) => this.receive(JSON.parse(ev.data));
    ws.onclose = () => {
      if (this.ws === ws) this.status.textContent = "disconnected";
    };
  }

  stop() {
    this.ws?.close();
    this.ws = null;
    if (this.run) deleteRun(this.run);
    this.run = null;
  }

  send(op) {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(op));
  }

  receive(f) {
    if (f.type === "error") {
      this.page.showError(`${f.field ? f.field + ": " : ""}${f.message}`);
      return;
    }
    this.frames++;
    if (f.status) this.status.textContent = `${f.status} · step ${f.step ?? 0}`;
    this.status.title = f.message ?? "";
    if (f.plane_exact) {
      if (this.exact && this.exact.key !== f.plane_exact.key) this.reset();
      this.exact = f.plane_exact;
    }
    if (f.plane_history) this.historyPoints = drawHistory(this.history, f.plane_history);
    const p = f.plane;
    if (p) {
      this.chains = p.chains;
      if (p.draws) this.draws.add(p.draws);
      if (p.divergences) this.divergences.add(p.divergences);
      if (p.transition) {
        this.transition = p.transition;
        if (p.transition.kind === "nuts" && p.transition.doublings?.length) this.trees++;
      }
      if (p.q) this.q = p.q;
      if (p.particles) this.particles = p.particles;
      this.showMeasure(p.measure);
      if (p.measure) this.page.race?.record(this.el.dataset.panel, this.method.value, f, p.measure);
    }
    if (!this.exact) return;
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
    this.view.setFrame(frame);
    this.key.textContent = describe(frame, this.view);
  }

  showMeasure(m) {
    if (!m) return;
    const fmt = (v) => (v == null ? "–" : Number(v).toPrecision(3));
    const parts = [`${m.evals.toLocaleString("en")} evaluations`, `mean error ${fmt(m.mean_error)} sd`, `cov error ${fmt(m.cov_error)}`];
    if (m.divergences) parts.push(`${m.divergences} divergences`);
    if (m.acceptance != null) parts.push(`acceptance ${fmt(m.acceptance)}`);
    if (m.elbo != null) parts.push(`ELBO ${fmt(m.elbo)} (log Z ${fmt(this.exact?.log_z)})`);
    this.measure.textContent = parts.join(" · ");
  }
}

// Page is the gallery: the target, its controls, and the panels.
class Page {
  constructor(root) {
    const specs = JSON.parse(root.dataset.specs);
    this.targets = new Map(specs.targets.map((t) => [t.name, t]));
    this.methods = new Map(specs.methods.map((m) => [m.name, m]));
    this.target = root.querySelector("[data-role=target]");
    this.controls = root.querySelector("[data-role=target-controls]");
    this.error = root.querySelector("[data-role=error]");
    this.playing = false;
    // The equal-budget race (race.js): made before the panels, which
    // report their measures to it.
    this.race = new Race(this.error, {
      runs: () => this.panels.map((p) => p.run),
      play: () => this.play(true),
      measures: [
        { key: "mean_error", label: "mean error (sd units)" },
        { key: "cov_error", label: "covariance error" },
      ],
      showError: (e) => this.showError(e),
    });
    this.panels = [...document.querySelectorAll(".plane-panel")].map((el) => new Panel(el, this));
    this.typed = root.querySelector("[data-role=typed]");
    this.typedBox = root.querySelector("[data-role=typed-box]");
    this.target.addEventListener("change", () => {
      this.typedBox.hidden = this.target.value !== "typed";
      this.renderControls();
      this.restart();
    });
    root.querySelector("[data-role=typed-run]").addEventListener("click", () => this.restart());
    const on = (role, fn) => root.querySelector(`[data-role=${role}]`).addEventListener("click", fn);
    on("play", () => this.play(true));
    on("pause", () => this.play(false));
    on("step", () => {
      this.play(false);
      for (const p of this.panels) p.send({ op: "step", n: 1 });
    });
    root.querySelector("[data-role=slow]").addEventListener("change", (ev) => {
      for (const p of this.panels) p.view.setSlow(ev.target.checked);
    });
    addEventListener("pagehide", () => this.panels.forEach((p) => p.stop()));
    this.renderControls();
    this.restart();
  }

  play(on) {
    this.playing = on;
    for (const p of this.panels) p.send({ op: on ? "play" : "pause" });
  }

  restart() {
    this.error.textContent = "";
    this.remember();
    for (const p of this.panels) p.start();
  }

  // remember puts the target and the panels' methods in the page's link
  // (a typed density stays out of it).
  remember() {
    if (this.target.value === "typed") return;
    const methods = this.panels.map((p) => p.method.value).join(",");
    history.replaceState(null, "", `/gallery?target=${encodeURIComponent(this.target.value)}&methods=${encodeURIComponent(methods)}`);
  }

  showError(e) {
    this.error.textContent = String(e);
  }

  // renderControls makes an input for each of the target's controls.
  renderControls() {
    renderControls(this.controls, this.targets.get(this.target.value)?.controls ?? [], () => this.restart());
  }

  // targetText is the target as the API takes it: a built-in target's
  // name, or the typed density's text.
  targetText() {
    return this.target.value === "typed" ? this.typed.value : this.target.value;
  }

  // targetControls reads the controls' inputs as the API takes them.
  targetControls() {
    const out = {};
    for (const el of this.controls.querySelectorAll("[data-control]")) out[el.name] = valueOf(el);
    return out;
  }
}

// renderControls fills box with an input per control spec (sim's
// ControlSpec), calling changed(name, value) when one changes.
function renderControls(box, specs, changed) {
  box.replaceChildren();
  for (const c of specs) {
    const label = document.createElement("label");
    label.title = c.help ?? "";
    label.append(c.label ?? c.name, " ");
    let input;
    if (c.options?.length) {
      input = document.createElement("select");
      for (const o of c.options) input.append(new Option(o, o, false, o === c.default));
    } else {
      input = document.createElement("input");
      Object.assign(input, { type: "number", min: c.min, max: c.max, step: c.integer ? 1 : "any", value: c.default });
    }
    input.name = c.name;
    input.dataset.control = c.options?.length ? "choice" : "num";
    input.addEventListener("change", () => changed(c.name, valueOf(input)));
    label.append(input);
    box.append(label);
  }
}

function valueOf(input) {
  return input.dataset.control === "num" ? Number(input.value) : input.value;
}

const root = document.getElementById("plane-gallery");
if (root) window.galleryPage = new Page(root);
