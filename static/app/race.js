// "Play all at equal budget": a toolbar control that joins the page's
// runs into one pacing group on the server (POST /api/pace: each run
// steps only while it has spent no more than the least of them, in
// gradient evaluations or CPU seconds) and plays them, and the race chart
// below it: one line per panel of a measure against the budget spent,
// read from the frames' evals and cpu_seconds. The gallery and the 1-D
// page both mount it (mountRace); the page hands in its runs, its play
// and what to chart.

import { request } from "./api.js";
import { RaceChart } from "./race_chart.js";

// pace joins runs into one pacing group counting unit ("grads", "cpu"),
// or frees them ("off").
export function pace(runs, unit) {
  return request("POST", "/api/pace", { runs, unit });
}

const UNITS = [
  { value: "grads", label: "gradients", axis: "gradient evaluations", field: "evals" },
  { value: "cpu", label: "CPU-seconds", axis: "CPU seconds", field: "cpu_seconds" },
];

// Race is the control and the chart, placed after anchor (under the
// panels, so that the plots that prove a scenario's claim keep the first
// screen); the chart shows once the race has started. opts: runs() the
// page's run ids; play() plays every panel; measures, [{key, label}],
// what a panel's frame offers to chart (the first is shown);
// onPace(unit), told when the runs are paced (the page puts pace=UNIT in
// its links); showError(e).
export class Race {
  constructor(anchor, opts) {
    this.opts = opts;
    this.samples = new Map(); // panel key → {label, pts: [{evals, cpu_seconds, values}]}
    this.el = document.createElement("section");
    this.el.className = "race";
    this.el.setAttribute("aria-label", "Equal-budget race");
    this.el.style.cssText = "margin:0.5rem 0";
    this.button = document.createElement("button");
    this.button.type = "button";
    this.button.dataset.role = "race";
    this.button.textContent = "⚖ Play all at equal budget";
    this.button.title = "Pace every panel by the budget it has spent, so that at any moment all have spent the same (to within one step), and play them";
    this.unit = select("race-unit", "Budget", UNITS.map((u) => [u.value, u.label]));
    this.measure = select("race-measure", "Chart", opts.measures.map((m) => [m.key, m.label]));
    this.status = document.createElement("span");
    this.status.className = "race-status";
    this.status.setAttribute("aria-live", "polite");
    this.canvas = document.createElement("canvas");
    this.canvas.dataset.role = "race-chart";
    this.canvas.style.cssText = "width:100%;height:180px;display:block";
    this.canvas.setAttribute("aria-label", "Each panel's measure against the budget it has spent, log-log");
    this.canvas.hidden = true;
    this.chart = new RaceChart(this.canvas);
    const row = document.createElement("div");
    row.style.cssText = "display:flex;gap:0.5rem;align-items:center;flex-wrap:wrap";
    row.append(this.button, this.unit.label, this.measure.label, this.status);
    this.el.append(row, this.canvas);
    anchor.after(this.el);
    this.button.addEventListener("click", () => this.start());
    this.unit.input.addEventListener("change", () => this.redraw());
    this.measure.input.addEventListener("change", () => this.redraw());
    this.redraw();
  }

  // arm readies a race by unit ("grads", "cpu": a link's pace=) for the
  // page's next Play, which then starts it (start) instead of playing
  // the panels unpaced; an unknown unit arms nothing.
  arm(unit) {
    const u = UNITS.find((x) => x.value === unit);
    if (!u) return;
    this.unit.input.value = unit;
    this.armed = unit;
    this.status.textContent = `Play races the panels, paced by ${u.label}`;
    this.redraw();
  }

  // rearm arms the race again by the unit it paced by, for runs started
  // anew (not in its group); nothing when it was not racing.
  rearm() {
    if (!this.paced) return;
    const unit = this.paced;
    this.paced = null;
    this.arm(unit);
  }

  // start joins the runs into one group by the chosen unit and plays them.
  async start() {
    const runs = this.opts.runs().filter(Boolean);
    if (!runs.length) return;
    const unit = this.unit.input.value;
    this.armed = null; // Play plays from here on
    try {
      await pace(runs, unit);
      this.paced = unit;
      this.opts.onPace?.(unit);
      this.status.textContent = `paced by ${UNITS.find((u) => u.value === unit).label}`;
      this.canvas.hidden = false;
      this.redraw();
      this.opts.play();
    } catch (e) {
      this.status.textContent = String(e);
      this.opts.showError?.(e);
    }
  }

  // record adds what frame f of the panel key says: its budget and the
  // values of the measures (values: {key: number}).
  record(key, label, f, values) {
    if (!f || typeof f.evals !== "number") return;
    let s = this.samples.get(key);
    if (!s) this.samples.set(key, (s = { label, pts: [] }));
    s.label = label;
    const last = s.pts[s.pts.length - 1];
    if (last && f.evals < last.evals) s.pts.length = 0; // a reset
    s.pts.push({ evals: f.evals, cpu_seconds: f.cpu_seconds ?? 0, values });
    if (s.pts.length > 4000) s.pts = s.pts.filter((_, i) => i % 2 === 0);
    this.schedule();
  }

  // forget drops a panel's line (its run was replaced).
  forget(key) {
    this.samples.delete(key);
    this.schedule();
  }

  schedule() {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.redraw();
    }, 250);
  }

  redraw() {
    const u = UNITS.find((x) => x.value === this.unit.input.value);
    const m = this.measure.input.value;
    this.chart.xLabel = u.axis;
    this.chart.clear();
    for (const [key, s] of this.samples) {
      for (const p of s.pts) this.chart.add(key, s.label, p[u.field], p.values?.[m]);
    }
    this.chart.draw();
  }
}

function select(role, text, options) {
  const label = document.createElement("label");
  const input = document.createElement("select");
  input.dataset.role = role;
  for (const [v, t] of options) input.append(new Option(t, v));
  label.append(`${text} `, input);
  return { label, input };
}
