// Unit test of the weight-marginal columns (static/app/weights.js). The
// module reads window.uPlot when loaded, so a stand-in is set first.
import assert from "node:assert/strict";
import { test } from "node:test";

globalThis.window ??= { uPlot: {} };
const { weightColumns } = await import("../app/weights.js");

test("weight columns: Gaussian over ±4 std, histogram looked up by bin", () => {
  const [xs, g] = weightColumns({ kind: "gaussian", mean: 1, std: 2 });
  assert.equal(xs.length, 121);
  assert.equal(xs[0], -7);
  assert.equal(xs[120], 9);
  assert.ok(Math.abs(g[60] - 1 / (2 * Math.sqrt(2 * Math.PI))) < 1e-15, "peak 1/(σ√2π) at the mean");

  const cols = weightColumns({ kind: "samples", mean: 1, std: 0.5, edges: [0, 1, 2], density: [0.25, 0.75] });
  assert.equal(cols.length, 3);
  const [x, h] = cols;
  assert.equal(x.length, 121 + 3);
  for (let i = 1; i < x.length; i++) assert.ok(x[i] >= x[i - 1], "x ascends");
  for (let i = 0; i < x.length; i++) assert.equal(h[i], x[i] < 1 ? 0.25 : 0.75, `x ${x[i]}`);
});
