// What a panel's status line says, from a frame's status, message and step
// budget (the engine's statuses: sim/engine/doc.go). Pure, for tests.

import { fmtCount } from "./format.js";

// HELD is what a running panel says while it waits for the slowest of a
// race at equal budget (the frame's held): it has spent more than the
// slowest and steps again once that one has spent as much.
export const HELD = {
  text: "❚❚ waiting for the slowest",
  title: "equal budget: this run has spent more than the slowest panel and waits for it to spend as much",
};

// statusLine returns the status chip's text, its tooltip, whether the
// panel offers Continue (the budget is spent), whether the run counts as
// playing (a settled run was played and runs on when a change gives it
// something to iterate), and whether live controls can act.
//
// step is the run's step: paused at step 0 the run has not started (the
// engine starts every run paused), which the chip says. A settled run is
// an exact method, computed in closed form; exact says the method is one
// (the spec's family), which it is before its first step too. held says a
// running run waits for the slowest of its race (HELD).
export function statusLine(status, message = "", budget = 0, step = NaN, exact = false, held = false) {
  const n = fmtCount;
  switch (status) {
    case "done":
      return {
        text: budget > 0 ? `step budget of ${n(budget)} spent` : "done",
        title: message || "the step budget is spent: continue or reset",
        canContinue: true,
        playing: false,
        liveActs: false,
      };
    case "preparing":
      return { text: "preparing…", title: message || "the method is being set up; commands are queued until it is ready", canContinue: false, playing: false, liveActs: true };
    case "settled":
      return { text: "closed form", title: message, canContinue: false, playing: true, liveActs: true };
    case "paused":
      if (exact) return { text: "closed form", title: message || "exact: computed at once, nothing to iterate", canContinue: false, playing: false, liveActs: true };
      if (step === 0) return { text: "not started", title: message || "press play or step to start", canContinue: false, playing: false, liveActs: true };
      return { text: status, title: message, canContinue: false, playing: false, liveActs: true };
    case "running":
      if (held) return { ...HELD, canContinue: false, playing: true, liveActs: true };
      return { text: status, title: message, canContinue: false, playing: true, liveActs: true };
    default:
      return { text: status, title: message, canContinue: false, playing: false, liveActs: true };
  }
}
