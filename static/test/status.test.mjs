// The panel's status line: a spent budget says so and offers Continue, a
// settled run says so (why in its title) and counts as playing.
import assert from "node:assert/strict";
import { test } from "node:test";

import { HELD, statusLine } from "../app/status.js";

test("status line: a spent budget is named, offers continue, live controls cannot act", () => {
  const msg = "step budget of 10000000 steps spent: continue for another 10000000, or reset";
  const s = statusLine("done", msg, 10_000_000);
  assert.equal(s.text, "step budget of 10,000,000 spent");
  assert.equal(s.title, msg);
  assert.equal(s.canContinue, true);
  assert.equal(s.liveActs, false);
  assert.equal(s.playing, false);
  const continued = statusLine("running", "", 20_000_000);
  assert.equal(continued.text, "running");
  assert.equal(continued.canContinue, false);
  assert.equal(continued.liveActs, true);
  assert.equal(continued.playing, true);
});

test("status line: settled counts as playing, with the method's reason", () => {
  const s = statusLine("settled", "exact posterior, nothing to iterate");
  assert.equal(s.text, "closed form"); // the why is in the title: the pill must fit beside the buttons at 1280 px
  assert.equal(s.title, "exact posterior, nothing to iterate");
  assert.equal(s.playing, true);
  assert.equal(s.canContinue, false);
  assert.equal(s.liveActs, true);
  for (const st of ["paused", "diverged", "starting"]) {
    assert.equal(statusLine(st).playing, false, st);
    assert.equal(statusLine(st).text, st);
  }
});

test("status line: a preparing run says so and is not playing", () => {
  const s = statusLine("preparing");
  assert.equal(s.text, "preparing…");
  assert.match(s.title, /queued/);
  assert.equal(s.playing, false);
  assert.equal(s.canContinue, false);
});

test("status line: paused before the first step is not started", () => {
  assert.equal(statusLine("paused", "", 0, 0).text, "not started");
  assert.equal(statusLine("paused", "", 0, 0).playing, false);
  assert.equal(statusLine("paused", "", 0, 12).text, "paused");
  assert.equal(statusLine("paused").text, "paused", "no step known: the engine's word");
  assert.equal(statusLine("paused", "", 0, 0, true).text, "closed form", "an exact method before its step");
});

test("status line: a running run held back by its race says it waits, and still plays", () => {
  const s = statusLine("running", "", 0, 120, false, true);
  assert.equal(s.text, HELD.text);
  assert.match(s.title, /equal budget/);
  assert.equal(s.playing, true);
  assert.equal(s.liveActs, true);
  assert.equal(s.canContinue, false);
  assert.equal(statusLine("running", "", 0, 120, false, false).text, "running");
  for (const st of ["paused", "done", "settled", "diverged"]) assert.notEqual(statusLine(st, "", 0, 120, false, true).text, HELD.text, st); // only a running run is held
});
