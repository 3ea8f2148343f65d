// The 1-D page's equal-budget race (race.js): its runs are the panels'
// own, and what it charts is each panel's objective against the budget
// spent, read from the frames (app.onBudget, called by each panel).

import { Race } from "./race.js";

export function mountRace(toolbar, panels, app) {
  if (!toolbar) return null;
  const own = () => panels.filter((p) => !p.readOnly);
  const race = new Race(toolbar, {
    runs: () => own().map((p) => p.runId),
    play: () => own().forEach((p) => p.op("play")),
    measures: [{ key: "objective", label: "objective (ELBO or log density)" }],
  });
  app.onBudget = (p, f) => {
    const o = f.objective;
    if (!Array.isArray(o) || !o.length) return;
    race.record(p.method, p.spec?.label ?? p.method, f, { objective: o[o.length - 1][1] });
  };
  return race;
}
