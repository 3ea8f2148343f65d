// The 1-D page's equal-budget race (race.js): its runs are the panels'
// own, and what it charts is each panel's objective against the budget
// spent, read from the frames (app.onBudget, called by each panel), and,
// where the page has an exact answer, each method's error against it: on
// the linear model with σ held (its posterior of (b0, b) known in closed
// form: the joint view's exact), and beside the exact GP (its posterior
// of f, which costs no gradient, against the other GP's, both read from
// the bands' closed-form moments).

import { moments } from "./joint_data.js";
import { Race } from "./race.js";

// EXACT_GP is the exact GP's method name (sim/gp's ExactName): its
// panel's posterior is the one the other GP panels race to.
export const EXACT_GP = "gp-exact";

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

// momentsError is sim.MomentsError, the measure of the exact-GP race's
// test (sim/experiment): the largest mean error over the inputs in exact
// sds, max |m − m*|/sd*, and the largest relative sd error,
// max |sd/sd* − 1|; both NaN for ragged or empty inputs or an exact sd
// that is not positive. Both are tested on the same cases
// (sim/testdata/moments_error.json).
export function momentsError(mean, sd, exactMean, exactSD) {
  const n = exactMean?.length ?? 0;
  if (!n || mean?.length !== n || sd?.length !== n || exactSD?.length !== n) return [NaN, NaN];
  let me = 0;
  let se = 0;
  for (let i = 0; i < n; i++) {
    if (!(exactSD[i] > 0)) return [NaN, NaN];
    me = Math.max(me, Math.abs(mean[i] - exactMean[i]) / exactSD[i]);
    se = Math.max(se, Math.abs(sd[i] / exactSD[i] - 1));
  }
  return [me, se];
}

// bandErrors returns a band's errors against the exact band, both with
// f's closed-form moments on the same grid (the frames' f_mean and
// f_sd, sim/engine, sent in full); {} when either lacks them or they do
// not compare.
export function bandErrors(band, exact) {
  if (!band?.f_mean || !exact?.f_mean || band.x?.length !== exact.x?.length) return {};
  const [me, se] = momentsError(band.f_mean, band.f_sd, exact.f_mean, exact.f_sd);
  return Number.isFinite(me) ? { mean_error: me, sd_error: se } : {};
}

// errorsOf returns what panel p's frame f says of its error against the
// page's exact answer: the exact GP's (from a new band only: a frame
// without one would date the last band's error at a later budget), or the
// linear model's closed form (its joint view).
function errorsOf(p, f, panels) {
  const gp = panels.find((q) => q.method === EXACT_GP && q !== p);
  if (gp) return f.predictive && p.method !== EXACT_GP ? bandErrors(f.predictive, gp.band) : {};
  return exactErrors(p.views?.get("joint")?.j);
}

export function mountRace(anchor, panels, app) {
  if (!anchor) return null;
  const own = () => panels.filter((p) => !p.readOnly);
  const objective = { key: "objective", label: "objective (ELBO or log density)" };
  const errors = [
    { key: "mean_error", label: "mean error against the exact (sd units)" },
    { key: "sd_error", label: "sd error against the exact" },
  ];
  // Where the page has an exact answer, the race is about it: its error
  // is charted first.
  const gp = panels.some((p) => p.method === EXACT_GP);
  const exact = gp || (app.config?.panels ?? []).some((pc) => pc.exact);
  const race = new Race(anchor, {
    runs: () => own().map((p) => p.runId),
    play: () => own().forEach((p) => p.op("play")),
    measures: exact ? [...errors, objective] : [objective, ...errors],
    onPace: app.onPace,
  });
  if (gp) race.chart.note = "against the exact GP (a closed form: it spends nothing)";
  app.onBudget = (p, f) => {
    const o = f.objective;
    const values = errorsOf(p, f, panels);
    if (Array.isArray(o) && o.length) values.objective = o[o.length - 1][1];
    if (Object.keys(values).length) race.record(p.method, p.spec?.label ?? p.method, f, values);
  };
  return race;
}
