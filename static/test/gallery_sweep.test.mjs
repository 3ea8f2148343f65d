// Unit tests of the gallery sweep's pure parts (gallery_sweep_data.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { armLabel, closedForm, defaultValues, exactOf, measureOf, shortLabel } from "../app/gallery_sweep_data.js";

// The targets' controls as sim/target's Specs gives them.
const rho = { name: "rho", label: "correlation ρ", min: -0.99, max: 0.99 };
const sep = { name: "separation", label: "separation d", min: 0.5, max: 10 };
const centred = { name: "centred", label: "centred", min: 0, max: 1, toggle: true };

test("a control's button names its symbol, its values span its range", () => {
  assert.equal(shortLabel(rho), "ρ");
  assert.equal(shortLabel(sep), "d");
  assert.equal(shortLabel(centred), "centred");
  assert.equal(defaultValues(rho), "linspace:0:0.99:12");
  assert.equal(defaultValues(sep), "linspace:0.5:10:8");
  assert.equal(defaultValues(centred), "0,1");
});

test("a method's measure: a coordinate's sd ratio, KL, or null where it has none", () => {
  const arm = { params: [{ sd_ratio: 0.44 }, { sd_ratio: 0.45 }], kl_exact: 0.83, mean_error: 0.01 };
  assert.equal(measureOf(arm, "sd_ratio:0"), 0.44);
  assert.equal(measureOf(arm, "sd_ratio:1"), 0.45);
  assert.equal(measureOf(arm, "kl_exact"), 0.83);
  assert.equal(measureOf({ params: [{ sd_ratio: null }] }, "sd_ratio:0"), null); // a sampler still warming up
  assert.equal(measureOf({ params: [] }, "kl_exact"), null); // a sampler has no KL
  assert.equal(measureOf(undefined, "kl_exact"), null);
  assert.equal(measureOf({ params: [{ mean: -1.2 }] }, "mean:0"), -1.2);
});

test("the exact answer's value: the grid's mean, 1 for an sd ratio, 0 for a distance", () => {
  const point = { methods: [{ params: [{ exact_mean: 0.8 }, { exact_mean: 0 }] }] };
  assert.equal(exactOf(point, "mean:0"), 0.8);
  assert.equal(exactOf(point, "mean:1"), 0);
  assert.equal(exactOf(undefined, "mean:0"), null);
  assert.equal(exactOf(point, "sd_ratio:1"), 1);
  assert.equal(exactOf(point, "kl_exact"), 0);
});

test("mean-field's closed form: √(1−ρ²) on the Gaussian's sd ratio, none elsewhere", () => {
  const f = closedForm("gaussian", "rho", {}, "sd_ratio:0");
  assert.equal(f(0), 1);
  assert.ok(Math.abs(f(0.9) - Math.sqrt(0.19)) < 1e-15);
  // Sweeping the scale ratio at a fixed ρ: the ratio does not move.
  const g = closedForm("gaussian", "scale_ratio", { rho: 0.6 }, "sd_ratio:1");
  assert.ok(Math.abs(g(0.1) - 0.8) < 1e-15 && g(10) === g(0.1));
  assert.equal(closedForm("gaussian", "rho", {}, "kl_exact"), null);
  assert.equal(closedForm("mixture", "separation", {}, "sd_ratio:0"), null);
});

test("a method is named with its divergence unless it is the ELBO's", () => {
  assert.equal(armLabel("Mean-field Gaussian", { divergence: "forward_kl" }), "Mean-field Gaussian (forward kl)");
  assert.equal(armLabel("Mean-field Gaussian", { divergence: "reverse_kl" }), "Mean-field Gaussian");
  assert.equal(armLabel("NUTS", undefined), "NUTS");
});
