// Unit tests of the joint (b0, b) view's helpers (static/app/joint_data.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { bandAt, corr, ellipse, moments, REPLAY_MS, replayIndex } from "../app/joint_data.js";

const tilted = { mean: [-1, 2], cov: [[0.04, -0.03], [-0.03, 0.0289]] };

// Every ellipse point is at Mahalanobis distance k from the mean.
test("ellipse: points at Mahalanobis distance k", () => {
  const [[a, b], [, c]] = tilted.cov;
  const det = a * c - b * b;
  for (const [x, y] of ellipse(tilted, 2, 40)) {
    const dx = x - tilted.mean[0];
    const dy = y - tilted.mean[1];
    const d2 = (c * dx * dx - 2 * b * dx * dy + a * dy * dy) / det;
    assert.ok(Math.abs(d2 - 4) < 1e-9, `distance² ${d2}`);
  }
});

// A diagonal covariance (mean-field) gives an axis-aligned ellipse: its
// extremes lie on the axes through the mean, at k sd.
test("ellipse: diagonal covariance is axis-aligned", () => {
  const g = { mean: [0, 0], cov: [[0.25, 0], [0, 0.04]] };
  const pts = ellipse(g, 2, 4); // φ = 0, π/2, π, 3π/2
  assert.deepEqual(pts[0].map((v) => +v.toFixed(12)), [1, 0]);
  assert.deepEqual(pts[1].map((v) => +v.toFixed(12)), [0, 0.4]);
  assert.equal(corr(g), 0);
  assert.ok(Math.abs(corr(tilted) + 0.03 / Math.sqrt(0.04 * 0.0289)) < 1e-15);
});

test("bandAt: f's mean and ±2 sd", () => {
  const [lo, m, hi] = bandAt(tilted, 1.5);
  const v = 0.04 + 2 * 1.5 * -0.03 + 1.5 * 1.5 * 0.0289;
  assert.ok(Math.abs(m - (-1 + 2 * 1.5)) < 1e-12);
  assert.ok(Math.abs(hi - m - 2 * Math.sqrt(v)) < 1e-12 && Math.abs(m - lo - 2 * Math.sqrt(v)) < 1e-12);
});

test("moments: a Gaussian's or the draws'", () => {
  assert.deepEqual(moments({ gaussian: { mean: [1, 2], cov: [[4, 0], [0, 9]] } }), [[1, 2], [2, 3]]);
  const m = moments({ b0: [1, 2, 3], b: [0, 0, 3] });
  assert.deepEqual(m[0], [2, 1]);
  assert.deepEqual(m[1], [1, Math.sqrt(3)]);
  assert.equal(moments({ b0: [1] , b: [1] }), null);
});

test("replayIndex: five transitions a second for the first 40, all by the end", () => {
  assert.equal(replayIndex(0, 151), 0);
  assert.equal(replayIndex(1000, 151), 5);
  assert.equal(replayIndex(7999, 151), 39);
  assert.equal(replayIndex(8000, 151), 40);
  assert.equal(replayIndex(REPLAY_MS, 151), 150);
  assert.equal(replayIndex(REPLAY_MS + 5000, 151), 150);
  assert.equal(replayIndex(500, 1), 0);
});
