// The pure parts of the gallery's sweep (gallery_sweep.js and its plot):
// what a target control's button says, the values a sweep of it starts
// with, a method's measure in a point, and the closed form drawn beside.
// Node-tested (static/test/gallery_sweep.test.mjs).

// shortLabel is a control's symbol when its label ends in one ("correlation
// ρ" → ρ), else the label.
export function shortLabel(spec) {
  const last = spec.label.split(" ").at(-1);
  return last.length <= 2 && spec.label.includes(" ") ? last : spec.label;
}

// defaultValues is a sweep over spec's range: ρ from 0 to 0.99 (its
// negative half mirrors the positive), an on/off control both ways,
// else eight values from its least to its most.
export function defaultValues(spec) {
  if (spec.name === "rho") return "linspace:0:0.99:12";
  if (spec.toggle) return "0,1";
  return `linspace:${spec.min}:${spec.max}:8`;
}

// measureOf reads a method's measure from its entry in a point: "sd_ratio:i"
// is coordinate i's sd ratio, "mean:i" its mean; null where the method has none (KL for a
// sampler) or the runs had no draws yet.
export function measureOf(arm, measure) {
  if (!arm) return null;
  const [key, i] = measure.split(":");
  const v = i === undefined ? arm[key] : arm.params?.[Number(i)]?.[key];
  return Number.isFinite(v) ? v : null;
}

// exactOf is the exact answer's value of a measure at a point: a mean's
// exact mean (from the grid), an sd ratio's 1, a distance's or an
// error's 0.
export function exactOf(point, measure) {
  const [key, i] = measure.split(":");
  if (key === "mean") {
    const v = point?.methods?.[0]?.params?.[Number(i)]?.exact_mean;
    return Number.isFinite(v) ? v : null;
  }
  return key === "sd_ratio" ? 1 : 0;
}

// closedForm returns mean-field's sd ratio as a function of the swept value
// on the Gaussian, or null where there is none. Its optimum's variance in
// coordinate i is 1/(Σ⁻¹)ᵢᵢ = Σᵢᵢ(1−ρ²): the ratio is √(1−ρ²) in either
// coordinate whatever the scale ratio.
export function closedForm(target, param, controls, measure) {
  if (target !== "gaussian" || !measure.startsWith("sd_ratio")) return null;
  if (param === "rho") return (x) => Math.sqrt(1 - x * x);
  const rho = Number(controls?.rho ?? 0);
  return () => Math.sqrt(1 - rho * rho);
}

// armLabel names a method of a sweep, with its divergence when it is not
// the ELBO's.
export function armLabel(label, controls) {
  const d = controls?.divergence;
  return d && d !== "reverse_kl" ? `${label} (${d.replace("_", " ")})` : label;
}
