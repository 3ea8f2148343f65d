// The gallery's links (handlers/pages_gallery.go reads them): the target
// (a name, or a typed density's text) and its controls by name, the
// panels' methods, the seed, and per panel i (from 1) its controls as
// pI.NAME, its own target controls as pI.target.NAME, the state to replay it to as pI.replay (the 1-D page's
// METHOD.replay: STEP, then ,STEP:NAME:VALUE per change since its last
// reset) or a shared live run to watch as pI.watch; present=1, pace=UNIT
// (grads, cpu: made while the panels raced at equal budget, the page's
// Play races them again) and scenario=SLUG. Pure, node-tested (static/test/gallery.test.mjs).

import { sameValue } from "./controls.js";

// galleryQuery is the link's query for state: {target, targetControls,
// targetSpecs, seed, present, pace, scenario, panels: [{method, controls,
// specs, targetControls, replay, watch}]}. Controls at their defaults are left out; ","
// and ":" stay readable.
export function galleryQuery(state) {
  const q = new URLSearchParams();
  if (state.scenario) q.set("scenario", state.scenario);
  q.set("target", state.target);
  addControls(q, "", state.targetControls, state.targetSpecs);
  q.set("methods", state.panels.map((p) => p.method).join(","));
  if (state.seed != null && Number(state.seed) !== 1) q.set("seed", String(state.seed));
  state.panels.forEach((p, i) => {
    addControls(q, `p${i + 1}.`, p.controls, p.specs);
    for (const [k, v] of Object.entries(p.targetControls ?? {})) q.set(`p${i + 1}.target.${k}`, String(v));
    if (p.watch) q.set(`p${i + 1}.watch`, p.watch);
    else if (p.replay) q.set(`p${i + 1}.replay`, p.replay);
  });
  if (state.present) q.set("present", "1");
  if (state.pace) q.set("pace", state.pace);
  return q.toString().replace(/%2C/gi, ",").replace(/%3A/gi, ":");
}

function addControls(q, prefix, values = {}, specs = []) {
  for (const s of specs) {
    if (!(s.name in values) || sameValue(values[s.name], s.default)) continue;
    q.set(prefix + s.name, String(values[s.name]));
  }
}

// replayParam is a panel's pI.replay: its step and its changes since the
// last reset (the frame's marks), or null when there are more changes
// than a replay takes or more steps than it trains.
export function replayParam(step, marks, limits) {
  if (!(step > 0) || step > limits.max_replay_steps || marks.length > limits.max_replay_changes) return null;
  return [String(step), ...marks.map((m) => `${m.step}:${m.name}:${m.value}`)].join(",");
}

// replayBody is a replay as POST /api/runs takes it, from pI.replay's
// parsed form (the page's config) or null.
export function replayBody(step, marks) {
  return { step, changes: marks.map((m) => ({ step: m.step, name: m.name, value: m.value })) };
}
