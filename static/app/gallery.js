// The two-dimensional gallery's page (templates/gallery.templ): a target
// picker with the target's controls, one panel per method
// (gallery_panel.js), Play, Pause and Step for them all, the gallery's
// scenarios (gallery_scenario.js), links to the page's state, to its live
// runs (read-only, with Fork) and presentation mode, as on the 1-D page.
// The page's link always holds the target, its controls, the methods and
// their controls (gallery_link.js).

import { getRun } from "./api.js";
import { typesText } from "./layout.js";
import { readControls, renderControls } from "./gallery_controls.js";
import { galleryQuery, replayParam } from "./gallery_link.js";
import { Panel } from "./gallery_panel.js";
import { setupScenarios } from "./gallery_scenario.js";
import { Race } from "./race.js";

// MIN_PLANE is the least side of a plane, in CSS pixels, that the fit to
// the screen shrinks it to.
const MIN_PLANE = 260;

class Page {
  constructor(root) {
    const cfg = JSON.parse(root.dataset.config);
    this.cfg = cfg;
    this.targets = new Map(cfg.targets.map((t) => [t.name, t]));
    this.methods = new Map(cfg.methods.map((m) => [m.name, m]));
    this.limits = cfg.limits;
    this.seed = cfg.seed;
    this.present = cfg.present;
    this.$ = (role) => root.querySelector(`[data-role=${role}]`);
    this.target = this.$("target");
    this.controls = this.$("target-controls");
    this.error = this.$("error");
    this.share = this.$("share-status");
    this.typed = this.$("typed");
    this.typedBox = this.$("typed-box");
    if (cfg.typed) this.typed.value = cfg.target;
    this.playing = false;
    // The equal-budget race (race.js): made before the panels, which
    // report their measures to it.
    this.race = new Race(document.querySelector(".plane-panels") ?? this.error, {
      runs: () => this.panels.map((p) => p.run),
      play: () => this.play(true),
      measures: [
        { key: "mean_error", label: "mean error (sd units)" },
        { key: "cov_error", label: "covariance error" },
      ],
      showError: (e) => this.showError(e),
      onPace: () => this.remember(), // the link says the panels race (pace=)
    });
    // its chart (gallery.css) shows once a race starts: until then it
    // would push the planes below the fold
    this.race.button.addEventListener("click", () => document.documentElement.classList.add("racing"));
    if (cfg.pace) this.race.arm(cfg.pace); // a link made while racing: Play races
    this.panels = [...document.querySelectorAll(".plane-panel")].map((el, i) => new Panel(el, this, i, cfg.panels[i]));
    this.target.addEventListener("change", () => {
      this.typedBox.hidden = this.target.value !== "typed";
      for (const p of this.panels) p.setTargetOwn({}); // a scenario's, on its target

      this.renderControls({});
      this.restart();
    });
    this.$("typed-run").addEventListener("click", () => this.restart());
    const on = (role, fn) => this.$(role)?.addEventListener("click", fn);
    on("play", () => this.play(true));
    on("pause", () => this.play(false));
    on("step", () => {
      this.play(false);
      for (const p of this.panels) p.send({ op: "step", n: 1 });
    });
    on("copy-state", () => this.copyState());
    on("share-live", () => this.shareLive());
    on("present", () => this.setPresent(!this.present));
    addEventListener("keydown", (ev) => {
      if ((ev.key !== "p" && ev.key !== "P") || ev.ctrlKey || ev.metaKey || ev.altKey || ev.defaultPrevented || typesText(ev.target)) return;
      this.setPresent(!this.present);
    });
    this.$("slow").addEventListener("change", (ev) => {
      for (const p of this.panels) p.view.setSlow(ev.target.checked);
    });
    addEventListener("pagehide", () => this.panels.forEach((p) => p.stop()));
    addEventListener("resize", () => this.fit());
    // what sits above or under a plane can change height (a measures line
    // that wraps, a control shown under another's choice, an error)
    const ro = new ResizeObserver(() => this.fit());
    ro.observe(root);
    for (const p of this.panels) for (const el of [p.measure, p.controls, p.el.querySelector("header")]) ro.observe(el);
    this.renderControls(cfg.target_controls ?? {});
    this.scenarios = setupScenarios(this, root, cfg);
    this.setPresent(this.present);
    this.restart();
  }

  play(on) {
    if (on && this.race.armed) {
      document.documentElement.classList.add("racing");
      return this.race.start(); // which plays
    }
    this.playing = on;
    for (const p of this.panels) p.send({ op: on ? "play" : "pause" });
  }

  restart() {
    this.error.textContent = "";
    this.race.rearm(); // new runs, in no pacing group: Play races them again
    this.remember();
    for (const p of this.panels) p.start();
    this.fit();
  }

  // state is the page's state as gallery_link.js writes it; replays maps
  // panels to their pI.replay, watches to their pI.watch.
  state({ replays = [], watches = [] } = {}) {
    return {
      scenario: this.scenarios?.open ?? "",
      target: this.targetText(),
      targetControls: this.targetControls(),
      targetSpecs: this.targets.get(this.target.value)?.controls ?? [],
      seed: this.seed,
      present: this.present,
      pace: this.race?.paced ?? this.race?.armed,
      panels: this.panels.map((p, i) => ({ method: p.method.value, controls: p.values(), specs: p.spec?.controls ?? [], targetControls: p.targetOwn, replay: replays[i], watch: watches[i] })),
    };
  }

  // remember puts the page's state, without a replay, in its link.
  remember() {
    history.replaceState(null, "", `/gallery?${galleryQuery(this.state())}`);
  }

  // copyState copies a link that reopens the panels at their step with
  // their changes (replayed from the seed: bit for bit the same state).
  async copyState() {
    const replays = [];
    for (const p of this.panels) {
      const r = p.run ? replayParam(p.step, p.marks, this.limits) : null;
      if (r == null && p.step > 0) return this.say(`${p.spec?.label ?? p.method.value} cannot be linked at step ${p.step.toLocaleString("en-US")}: a link replays at most ${this.limits.max_replay_steps.toLocaleString("en-US")} steps and ${this.limits.max_replay_changes} changes. The plain link is in the address bar.`);
      replays.push(r ?? undefined);
    }
    // the controls each run started with: a replay applies the changes since
    const starts = await Promise.all(this.panels.map((p) => (p.run ? getRun(p.run).then((i) => i.start_controls, () => null) : null)));
    const st = this.state({ replays });
    st.panels.forEach((sp, i) => (sp.controls = starts[i] ?? sp.controls));
    await this.copy(`${location.origin}/gallery?${galleryQuery(st)}`, "Link to this state copied: it reopens every panel at its step.");
  }

  // shareLive copies a link whose openers watch these very runs as they
  // train, read-only, and may fork them.
  async shareLive() {
    if (this.panels.some((p) => !p.run)) return this.say("A panel has no run to share yet.");
    const st = this.state({ watches: this.panels.map((p) => p.run) });
    await this.copy(`${location.origin}/gallery?${galleryQuery(st)}`, "Live link copied: whoever opens it watches these runs as they train (read-only) and can fork them.");
  }

  async copy(text, said) {
    this.share.dataset.link = text; // for a page that cannot reach the clipboard, and the tests
    try {
      await navigator.clipboard.writeText(text);
      this.say(said);
    } catch {
      this.say(text);
    }
  }

  say(text) {
    this.share.textContent = text;
  }

  onReadOnly() {
    document.body.classList.toggle("viewer", this.panels.some((p) => p.readOnly));
  }

  // setPresent turns presentation mode on or off: prose and chrome hidden,
  // larger type and marks, the planes as large as the screen allows.
  setPresent(on) {
    this.present = on;
    document.documentElement.classList.toggle("present", on);
    this.$("present")?.setAttribute("aria-pressed", String(on));
    for (const p of this.panels) p.view.setPresentation(on);
    if (this.panels.length) this.remember();
    this.fit();
  }

  // fit sizes each plane so that it, the measures and the error chart
  // under it are in view without scrolling (side by side; stacked on a
  // phone, the plane as wide as the panel).
  fit() {
    cancelAnimationFrame(this.fitting);
    this.fitting = requestAnimationFrame(() => {
      const tops = this.panels.map((p) => p.el.getBoundingClientRect().top);
      const stacked = tops.some((t) => Math.abs(t - tops[0]) > 4);
      for (const p of this.panels) {
        const c = p.view.canvas;
        const width = c.parentElement.clientWidth - 2 * parseFloat(getComputedStyle(c.parentElement).paddingLeft || "0");
        const below = p.measure.offsetHeight + p.history.offsetHeight + 24;
        const top = c.getBoundingClientRect().top + scrollY;
        const side = stacked ? width : Math.round(Math.max(MIN_PLANE, Math.min(width, innerHeight - top - below)));
        const want = side < width ? `${side}px` : "";
        if (c.style.width !== want) {
          c.style.width = c.style.height = want;
          p.view.invalidate();
        }
        p.view.placeOverlay();
      }
    });
  }

  showError(e) {
    this.error.textContent = String(e);
  }

  // renderControls shows the target's controls holding values; one every
  // panel sets for itself (a scenario's centred and non-centred funnel)
  // is shown off, its values in the panels' headings.
  renderControls(values) {
    renderControls(this.controls, this.targets.get(this.target.value)?.controls ?? [], () => this.restart(), values);
    for (const el of this.controls.querySelectorAll("[data-control]")) {
      if (!this.panels.length || !this.panels.every((p) => el.name in p.targetOwn)) continue;
      el.disabled = true;
      el.closest("label").title = "Each panel sets its own: see its heading.";
    }
  }

  // targetText is the target as the API takes it: a built-in target's
  // name, or the typed density's text.
  targetText() {
    return this.target.value === "typed" ? this.typed.value : this.target.value;
  }

  targetName() {
    return this.target.value;
  }

  // targetTitle names the target and its controls, a panel's own over
  // the page's, for a PNG's title.
  targetTitle(own = {}) {
    if (this.target.value === "typed") return this.typed.value.replace(/\s+/g, " ").trim();
    const c = Object.entries({ ...this.targetControls(), ...own }).map(([k, v]) => `${k} = ${v}`);
    const label = this.targets.get(this.target.value)?.label ?? this.target.value;
    return c.length ? `${label} (${c.join(", ")})` : label;
  }

  claimText() {
    return this.scenarios?.claim?.text ?? "";
  }

  // targetControls reads the controls' inputs as the API takes them.
  targetControls() {
    return this.target.value === "typed" ? {} : readControls(this.controls);
  }
}

const root = document.getElementById("plane-gallery");
if (root) window.galleryPage = new Page(root);
