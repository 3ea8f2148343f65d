// Mapping between a control's value and its slider, from the method's
// ControlSpec: log sliders move over log10 of the value, integer controls
// take whole numbers, and every value is clamped to [min, max].

export function fromSlider(spec, pos) {
  let v = Number(pos);
  if (spec.log && spec.min > 0) v = Math.pow(10, v);
  return tidy(spec, v);
}

export function toSlider(spec, v) {
  if (spec.log && spec.min > 0) return Math.log10(Math.max(v, spec.min));
  return v;
}

// tidy rounds a value the way a person would type it: whole numbers for
// integer controls, three significant digits on a log scale, the spec's
// step otherwise.
export function tidy(spec, v) {
  v = Math.min(spec.max, Math.max(spec.min, v));
  if (spec.integer) return Math.round(v);
  if (spec.log) return Number(v.toPrecision(3));
  if (spec.step > 0) {
    const k = Math.round((v - spec.min) / spec.step);
    return Number((spec.min + k * spec.step).toPrecision(12));
  }
  return v;
}

// parseValue reads what a person typed into a number field; it does not
// clamp, so the server can say why an out-of-range value is refused.
export function parseValue(spec, text) {
  if (spec.options?.length) return text;
  const v = Number(String(text).trim());
  return Number.isFinite(v) && String(text).trim() !== "" ? v : null;
}

// stepCount reads the toolbar's steps per press: a whole number in
// [1, max], max the server's limit on a step command (config.limits).
export function stepCount(text, max) {
  return Math.max(1, Math.min(max, Math.round(Number(text) || 1)));
}

// speedCap maps the speed slider (log10 steps/s) to a cap for the speed
// command: its top end, top, is no cap (0); no cap exceeds max, the
// server's limit (config.limits).
export function speedCap(pos, top, max) {
  pos = Number(pos);
  return pos >= top ? 0 : Math.min(max, Math.round(Math.pow(10, pos)));
}

export function sameValue(a, b) {
  if (typeof a === "number" && typeof b === "number") return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a));
  return a === b;
}

// fitRanges takes a method's spec fitted to new data (GET
// /api/methods?data=) into spec: each numeric control both have takes the
// fitted min, max and default. It returns the new spec and, by name, the
// fitted default of every control whose value in values falls outside its
// new range (the server would refuse it).
export function fitRanges(spec, fitted, values) {
  const byName = new Map((fitted?.controls ?? []).map((c) => [c.name, c]));
  const reset = {};
  const controls = spec.controls.map((c) => {
    const f = byName.get(c.name);
    if (!f || c.options?.length) return c;
    const v = values[c.name];
    if (typeof v === "number" && (v < f.min || v > f.max)) reset[c.name] = f.default;
    return { ...c, min: f.min, max: f.max, default: f.default, bound: f.bound };
  });
  return { spec: { ...spec, controls }, reset };
}

// widgetFor says how a control is shown: "select" for a choice, "toggle"
// (a checkbox) for an on/off setting, else "slider" (with a number box).
export function widgetFor(spec) {
  if (spec.options?.length) return "select";
  if (spec.toggle || (spec.integer && spec.min === 0 && spec.max === 1)) return "toggle";
  return "slider";
}

// controlLabel is the label of the named control, or the name when the
// spec has none.
export function controlLabel(spec, name) {
  return spec.controls?.find((c) => c.name === name)?.label || name;
}

// traceLabel is a trace's label from the spec's trace_info (the name when
// it has none).
export function traceLabel(spec, name) {
  return spec.trace_info?.[name]?.label || name;
}

// traceShown says whether a trace means something under the controls'
// values and the data's task (trace_info's `only`: a period under the
// periodic kernel, a noise for regression).
export function traceShown(spec, name, values, task) {
  const only = spec.trace_info?.[name]?.only;
  if (!only) return true;
  return Object.entries(only).every(([key, allowed]) => {
    const v = key === "task" ? task : values?.[key];
    return v === undefined || allowed.includes(String(v));
  });
}

// objectiveLabel names what a family's objective is.
export function objectiveLabel(family) {
  return { vi: "ELBO", mcmc: "log posterior", exact: "log marginal likelihood", point: "log joint (MAP objective)" }[family] ?? "training objective";
}

// markLabel is a change mark's text: the control's label and the value
// as the page prints numbers.
export function markLabel(spec, m, fmt) {
  return `${controlLabel(spec, m.name)} = ${typeof m.value === "number" ? fmt(m.value) : m.value}`;
}
