// The 1-D page's equal-budget race (race.js): its runs are the panels'
// own, and what it charts is each panel's objective against the budget
// spent, read from the frames (app.onBudget, called by each panel), and,
// on the linear model with σ held (its posterior of (b0, b) known in
// closed form: the joint view's exact), each method's error against it.

import { moments } from "./joint_data.js";
import { Race } from "./race.js";

// exactErrors returns a method's errors against the exact posterior from
// its joint view j (sim/model's Joint): the mean's, in exact sds
// (‖(m − m*)/sd*‖ over b0 and b), and the sds' (the largest
// |sd/sd* − 1|); {} when j has no exact posterior or no moments yet.
export function exactErrors(j) {
  const mom = j?.exact && !j.warmup ? moments(j) : null;
  if (!mom) return {};
  let z2 = 0;
  let sdErr = 0;
  for (const i of [0, 1]) {
    const esd = Math.sqrt(j.exact.cov[i][i]);
    const z = (mom[i][0] - j.exact.mean[i]) / esd;
    z2 += z * z;
    sdErr = Math.max(sdErr, Math.abs(mom[i][1] / esd - 1));
  }
  return { mean_error: Math.sqrt(z2), sd_error: sdErr };
}

export function mountRace(anchor, panels, app) {
  if (!anchor) return null;
  const own = () => panels.filter((p) => !p.readOnly);
  const race = new Race(anchor, {
    runs: () => own().map((p) => p.runId),
    play: () => own().forEach((p) => p.op("play")),
    measures: [
      { key: "objective", label: "objective (ELBO or log density)" },
      { key: "mean_error", label: "mean error against the exact (sd units)" },
      { key: "sd_error", label: "sd error against the exact" },
    ],
  });
  app.onBudget = (p, f) => {
    const o = f.objective;
    const values = exactErrors(p.views?.get("joint")?.j);
    if (Array.isArray(o) && o.length) values.objective = o[o.length - 1][1];
    if (Object.keys(values).length) race.record(p.method, p.spec?.label ?? p.method, f, values);
  };
  return race;
}
