// A panel's controls take the server's ranges for new data.
import assert from "node:assert/strict";
import { test } from "node:test";

import { fitRanges } from "../app/controls.js";

test("fitRanges: the fitted range replaces the method's, an out-of-range value its default", () => {
  const spec = {
    name: "gip",
    controls: [
      { name: "inducing", min: 1, max: 1000, default: 100, integer: true },
      { name: "prior_scale", min: 0.1, max: 10, default: 1, log: true },
      { name: "kernel", options: ["rbf", "periodic"], default: "rbf" },
    ],
  };
  const fitted = {
    name: "gip",
    controls: [
      { name: "inducing", min: 1, max: 7, default: 7, integer: true, bound: "the number of training points" },
      { name: "prior_scale", min: 0.1, max: 10, default: 1, log: true },
    ],
  };
  const { spec: got, reset } = fitRanges(spec, fitted, { inducing: 100, prior_scale: 2, kernel: "rbf" });
  assert.deepEqual(reset, { inducing: 7 });
  assert.equal(got.controls[0].max, 7);
  assert.equal(got.controls[0].bound, "the number of training points");
  assert.equal(got.controls[1].max, 10);
  assert.equal(got.controls[2], spec.controls[2], "choice controls are kept as they are");
  assert.equal(spec.controls[0].max, 1000, "the old spec is not modified");
  const same = fitRanges(spec, undefined, { inducing: 100 });
  assert.deepEqual(same.reset, {});
  assert.equal(same.spec.controls[0].max, 1000);
  assert.deepEqual(fitRanges(spec, fitted, { inducing: 5 }).reset, {}, "a value in range stays");
});
