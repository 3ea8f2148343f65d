// The band of y and the predictive plot's change note.
import assert from "node:assert/strict";
import { test } from "node:test";

import { changeNote, speaksOfNoise, yBand } from "../app/yband.js";

test("band of y: mean ± 2√(sd_f² + σ²), sd_f read off f's band", () => {
  // sd_f 1.5 (band ± 3) and σ 2: sd of y 2.5, the band ± 5.
  const f = { x: [0, 1], mean: [1, -1], lo: [-2, -4], hi: [4, 2] };
  assert.deepEqual(yBand(f, 2), { x: [0, 1], lo: [-4, -6], hi: [6, 4] });
  // No noise, no f spread: the band of y is f's mean; a bad σ, none.
  assert.deepEqual(yBand({ x: [0], mean: [3], lo: [3], hi: [3] }, 1e-300), { x: [0], lo: [3], hi: [3] });
  for (const s of [0, -1, NaN, Infinity, undefined]) assert.equal(yBand(f, s), null);
  assert.equal(yBand(null, 1), null);
});

test("band of y: shown first where the scenario's text speaks of noise", () => {
  assert.ok(speaksOfNoise("mean-field explains the cubic as noise"));
  assert.ok(speaksOfNoise("Noise you can see"));
  assert.ok(!speaksOfNoise("the band bulges between the clusters"));
  assert.ok(!speaksOfNoise("noisefree")); // a word, not a part of one
});

test("change note: the latest control change, labelled as the objective labels it", () => {
  const label = (m) => `${m.name === "prior_scale" ? "Prior scale" : m.name} = ${m.value}`;
  assert.equal(changeNote([], label), "");
  assert.equal(changeNote([{ name: "lr", value: 0.1, step: 5 }, { name: "prior_scale", value: 0.5, step: 1234 }], label), "Prior scale = 0.5 at step 1,234");
});
