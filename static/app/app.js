// The play page: reads the server's config (<script id="config">), starts
// one Panel per method, and wires the toolbar that acts on all of them.
// Limits (config.limits), capabilities (spec.capabilities) and derived
// numbers (the in-between ratio, exact posteriors) come from the server.

import { getMethods } from "./api.js";
import { Compare } from "./compare.js";
import { watchClaim } from "./claim.js";
import { glossPage } from "./glossary.js";
import { sameValue, speedCap, stepCount } from "./controls.js";
import { setupDataEdit } from "./dataedit.js";
import { objectivesCompare, sharedObjectiveRange } from "./history.js";
import { setupLayout } from "./layout.js";
import { DRAW_LOOP, Panel } from "./panel.js";
import { mountRace } from "./race_page.js";
import { setPresentTicks } from "./plots.js";
import { setupUpload } from "./upload.js";
import { setupYourRuns } from "./yourruns.js";

const config = JSON.parse(document.getElementById("config").textContent);
const byId = (id) => document.getElementById(id);

// An upload's points live in this tab's session (the server keeps only the
// data set itself), so reloading the link still plots them.
if (!config.points && config.data.startsWith("upload:")) {
  try {
    const saved = JSON.parse(sessionStorage.getItem(`pp:${config.data}`) ?? "null");
    if (saved?.x) config.points = saved;
  } catch {
    // no saved points: the panels ask the run for them
  }
}

// The link always shows the whole experiment in canonical form.
const url = new URL(config.url, location.href);
showURL();

// showURL writes the link, keeping "," and ":" readable (both are legal in
// a query; URLSearchParams escapes them).
function showURL() {
  const q = url.searchParams.toString().replace(/%2C/gi, ",").replace(/%3A/gi, ":");
  history.replaceState(null, "", `${url.pathname}?${q}`);
}

function setParam(key, value) {
  url.searchParams.set(key, String(value));
  showURL();
}

const speedInput = byId("speed");
const smoothingInput = byId("smoothing");
const stepInput = byId("step-n");

// speed maps the slider (log10 steps/s) to a cap; its top end is no cap (0).
function speed() {
  return speedCap(speedInput.value, Number(speedInput.max), config.limits.max_speed);
}

const app = {
  config,
  smoothing: Number(smoothingInput.value),
  speed,
  stepN: () => stepCount(stepInput.value, config.limits.max_step_command),
  onControl: (method, name, value) => setParam(`${method}.${name}`, value),
  // onPace puts the race's pacing in the link (pace=grads|cpu): the
  // page's state and live links made while it races reopen armed to race.
  onPace: (unit) => setParam("pace", unit),
  // onFork drops a panel's watch= from the link: the panel now runs its own.
  onFork: (method) => {
    url.searchParams.delete(`${method}.watch`);
    showURL();
  },
  // onData takes the training data from a run's first frame when the page
  // has none (an upload opened in another browser).
  onData: (d) => {
    config.points = { x: d.x, y: d.y };
    config.truth = d.truth?.length ? { x: d.grid, y: d.truth } : null;
    panels.forEach((p) => p.predictive.setData(config.points, config.truth));
  },
};

const panels = config.panels.map((pc) => new Panel(byId(`panel-${pc.method}`), pc, app));
// The panel whose picture proves the claim (its first check's method): a
// phone shows it first, under the claim (app.css).
byId(`panel-${config.claim?.checks?.[0]?.method}`)?.classList.add("proof");
// Points edited in the plots, shared by every panel (dataedit.js); edit= in the link.
const dataEdit = setupDataEdit(config, panels, {
  onEdit: (enc) => {
    if (enc) url.searchParams.set("edit", enc);
    else url.searchParams.delete("edit");
    showURL();
  },
  status: (msg) => (byId("toolbar-status").textContent = msg),
});
app.onRunStart = (p) => dataEdit.onRunStart(p);
// Every band on one plot, and the in-between ratios on data with a gap.
const compare = byId("compare") ? new Compare(byId("compare"), panels, config) : null;

// One screen: plots fitted between the header and the controls in focus;
// presentation mode (present=1, key P) goes into the link.
const layout = setupLayout(panels, {
  present: Boolean(config.present),
  onPresent: (on) => {
    setPresentTicks(on);
    if (on) url.searchParams.set("present", "1");
    else url.searchParams.delete("present");
    showURL();
  },
});
app.fit = layout.fit; // a view that adds a plot to keep in view (joint.js) refits

// "Share y-range": panels whose objectives compare (history.js) draw them
// on the union of their robust ranges.
app.shareY = false;
app.sharedRange = (p) => (app.shareY ? sharedObjectiveRange(p, panels) : null);
if (panels.some((p) => panels.some((q) => q !== p && objectivesCompare(p, q)))) {
  const label = document.createElement("label");
  label.className = "share-y";
  label.title = "Draw comparable objectives (same data, same kind of bound) on one y-range";
  const box = document.createElement("input");
  box.type = "checkbox";
  box.id = "share-y";
  label.append(box, " share objective y-range");
  byId("smoothing-out").after(" ", label);
  box.addEventListener("change", () => {
    app.shareY = box.checked;
    panels.forEach((p) => p.scheduleDraw());
  });
}

app.race = mountRace(document.querySelector("section.panels"), panels, app); // "Play all at equal budget" and its chart, under the panels
if (config.pace) app.race?.arm(config.pace); // a link made while racing: Play races
for (const b of document.querySelectorAll("[data-all]")) {
  b.addEventListener("click", () => {
    if (b.dataset.all === "play" && app.race?.armed) return app.race.start();
    panels.filter((p) => !p.readOnly).forEach((p) => p.op(b.dataset.all));
  });
}
// A viewer of a shared live run has no run commands: the toolbar's and the
// watched panels' are hidden (app.css), Fork is left.
app.onReadOnly = () => document.body.classList.toggle("viewer", panels.some((p) => p.readOnly));

speedInput.addEventListener("input", () => {
  const s = speed();
  byId("speed-out").textContent = s === 0 ? "max" : `${s}/s`;
});
speedInput.addEventListener("change", () => panels.forEach((p) => p.setSpeed(speed())));

smoothingInput.addEventListener("input", () => {
  app.smoothing = Number(smoothingInput.value);
  byId("smoothing-out").textContent = app.smoothing.toFixed(2);
  panels.forEach((p) => p.setSmoothing(app.smoothing));
});

byId("seed").addEventListener("change", (ev) => {
  const v = ev.target.value.trim();
  ev.target.setCustomValidity("");
  if (!/^\d+$/.test(v)) {
    ev.target.setCustomValidity("a whole number ≥ 0");
    ev.target.reportValidity();
    return;
  }
  setParam("seed", v);
  location.assign(location.href); // the data set depends on the seed: reload the page
});

const status = byId("toolbar-status");
// A link to the panels' state: opening it trains each run to the same step
// with the same changes (bit for bit: runs are deterministic for a seed).
byId("copy-state-link").addEventListener("click", async () => {
  const state = new URL(location.href);
  for (const p of panels) {
    const v = await p.linkState().catch(() => null);
    if (v == null) {
      status.textContent = `${p.spec.label} cannot be linked at this state (not started, changed more often than a link replays, or its data or inducing inputs edited by hand); copy the plain link instead.`;
      return;
    }
    for (const c of p.spec.controls) {
      const key = `${p.method}.${c.name}`;
      if (!(c.name in v.controls) || sameValue(v.controls[c.name], c.default)) state.searchParams.delete(key);
      else state.searchParams.set(key, String(v.controls[c.name]));
    }
    state.searchParams.set(`${p.method}.replay`, v.replay);
  }
  const text = `${state.origin}${state.pathname}?${state.searchParams.toString().replace(/%2C/gi, ",").replace(/%3A/gi, ":")}`;
  status.dataset.link = text; // the last state link, for a page that cannot reach the clipboard
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = "Link to this state copied.";
  } catch {
    status.textContent = text;
  }
});
const labels = Object.fromEntries(config.panels.map((pc) => [pc.method, pc.spec.label]));
if (byId("setup-menu") && byId("your-runs")) setupYourRuns(byId("setup-menu"), byId("your-runs"), labels, () => panels.map((p) => p.runId));

// A live link: students who open it watch these very runs, read-only (their
// commands are refused by the server), and may fork them.
byId("share-live")?.addEventListener("click", async () => {
  const live = new URL(location.href);
  for (const p of panels) {
    if (!p.runId) {
      status.textContent = `${p.spec.label} has no run to share yet.`;
      return;
    }
    live.searchParams.delete(`${p.method}.replay`);
    live.searchParams.set(`${p.method}.watch`, p.runId);
  }
  const text = `${live.origin}${live.pathname}?${live.searchParams.toString().replace(/%2C/gi, ",").replace(/%3A/gi, ":")}`;
  status.dataset.link = text;
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = "Live link copied: whoever opens it watches these runs as they train (read-only) and can fork them.";
  } catch {
    status.textContent = text;
  }
});
byId("copy-link").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText(location.href);
    status.textContent = "Link copied.";
  } catch {
    status.textContent = location.href;
  }
});

setupUpload(byId("dropzone"), byId("csv-file"), byId("upload-error"), config.limits.max_upload_bytes, async (res, points, filename) => {
  config.data = res.data;
  config.data_label = filename;
  config.points = points;
  config.truth = null;
  config.gap_centre = null; // an upload has no gap the page knows of
  for (const pc of config.panels) pc.exact = null; // the server's, for the page's first data set
  if (points) sessionStorage.setItem(`pp:${res.data}`, JSON.stringify(points));
  dataEdit.rebase(points); // a new data set: no edit
  url.searchParams.delete("scenario");
  setParam("data", res.data);
  const h1 = document.querySelector(".play-head h1");
  if (h1) h1.textContent = `${panels.map((p) => p.spec.label).join(" vs ")} on ${filename}`;
  document.querySelectorAll(".play-head .description, .play-head .note").forEach((e) => e.remove());
  const line = document.querySelector(".play-head .dataset");
  if (line) line.textContent = `${filename}: ${res.n ?? points?.x.length ?? "?"} points (uploaded, standardised for the network; plots in the file's units), seed ${config.seed}.`;
  status.textContent = `Restarting on ${filename}…`;
  for (const p of panels) p.predictive.setData(config.points, null);
  // The controls' ranges follow the new data (gip: at most one inducing point per point).
  const specs = await getMethods(res.data).catch(() => []); // without them the runs say what does not fit
  for (const p of panels) p.refit(specs.find((s) => s.name === p.method));
  await Promise.all(panels.map((p) => p.restart()));
  status.textContent = `Running on ${filename}.`;
});

addEventListener("pagehide", () => panels.forEach((p) => p.dispose()));
// Back to a page from the back-forward cache: its runs were freed on the
// way out, so start new ones.
addEventListener("pageshow", (ev) => {
  if (ev.persisted) panels.forEach((p) => p.restart());
});

panels.forEach((p) => p.start());
watchClaim(config.claim, panels, config, byId("claim-status"), () => url.searchParams.has("edit"));
// A one-line gloss on hover for every term of art in the page's labels.
glossPage(document.querySelector("main"));

// ink counts a canvas's coloured pixels (not white, grey or black): what the
// series drew, as opposed to the axes. For tests and the console.
function ink(canvas) {
  const d = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
  let n = 0;
  for (let i = 0; i < d.length; i += 4) {
    const r = d[i], g = d[i + 1], b = d[i + 2], a = d[i + 3];
    if (a > 30 && Math.max(r, g, b) - Math.min(r, g, b) > 40) n++;
  }
  return n;
}

window.playground = { config, panels, compare, ink, layout, drawLoop: DRAW_LOOP, race: app.race };
