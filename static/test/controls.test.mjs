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

import { markLabel, objectiveLabel, traceLabel, traceShown, widgetFor } from "../app/controls.js";

test("widgetFor: a select for a choice, a toggle for on/off, else a slider", () => {
  assert.equal(widgetFor({ name: "kernel", options: ["rbf", "periodic"] }), "select");
  assert.equal(widgetFor({ name: "learn_noise", min: 0, max: 1, step: 1, integer: true, toggle: true }), "toggle");
  assert.equal(widgetFor({ name: "adapt", min: 0, max: 1, integer: true }), "toggle", "an integer in [0, 1] is on/off");
  assert.equal(widgetFor({ name: "kl_weight", min: 0, max: 1, step: 0.01 }), "slider", "a fraction is not on/off");
  assert.equal(widgetFor({ name: "chains", min: 1, max: 8, integer: true }), "slider");
});

test("traces: labelled from trace_info, hidden where they mean nothing", () => {
  const spec = {
    controls: [{ name: "kernel", label: "Kernel", options: ["rbf", "periodic"] }],
    trace_info: {
      period: { label: "Period p", only: { kernel: ["periodic"] } },
      noise: { label: "Noise scale σ", only: { task: ["regression"] } },
      lengthscale: { label: "Lengthscale ℓ" },
    },
  };
  assert.equal(traceLabel(spec, "period"), "Period p");
  assert.equal(traceLabel(spec, "unknown"), "unknown");
  assert.equal(traceShown(spec, "period", { kernel: "rbf" }, "regression"), false);
  assert.equal(traceShown(spec, "period", { kernel: "periodic" }, "regression"), true);
  assert.equal(traceShown(spec, "noise", {}, "classification"), false);
  assert.equal(traceShown(spec, "noise", {}, "regression"), true);
  assert.equal(traceShown(spec, "lengthscale", {}, "classification"), true);
  assert.equal(markLabel(spec, { name: "kernel", value: "periodic" }, String), "Kernel = periodic");
  assert.equal(objectiveLabel("exact"), "log marginal likelihood");
  assert.notEqual(objectiveLabel("nonesuch"), "objective");
});
