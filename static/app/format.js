// Numbers as the page prints them, one module for every readout: three
// significant digits, thousands grouped ("451,000"), powers of ten written
// out ("4.51×10⁶", never "4.506e+6"); R̂ with three decimals, effective
// sample sizes whole, a value with its standard error to the error's first
// significant digit. Pure, for tests (static/test/format.test.mjs).

const SUP = { "-": "⁻", 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸", 9: "⁹" };

// A readout switches to a power of ten outside [SMALL, LARGE).
const SMALL = 1e-3;
const LARGE = 1e6;

const group = (v, decimals = 0) =>
  v.toLocaleString("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals });

// fmt prints a number with `digits` significant digits (trailing zeros
// dropped), "–" for NaN or ±∞, and anything else as text.
export function fmt(v, digits = 3) {
  if (typeof v !== "number") return String(v);
  if (!Number.isFinite(v)) return "–";
  if (v === 0) return "0";
  const r = Number(v.toPrecision(digits)); // 999.7 rounds to 1000 first
  const a = Math.abs(r);
  if (a >= LARGE || a < SMALL) return pow10(r, digits);
  if (a >= 1000) return group(r);
  return String(r);
}

// pow10 writes v as m×10ⁿ with `digits` significant digits in m.
export function pow10(v, digits = 3) {
  const [m, e] = v.toExponential(digits - 1).split("e");
  const exp = String(Number(e)).replace(/./g, (c) => SUP[c]);
  return `${Number(m)}×10${exp}`;
}

// fmtRhat prints a potential scale reduction to three decimals, so 1.000
// and 1.001 read as the different numbers they are.
export function fmtRhat(v) {
  return typeof v === "number" && Number.isFinite(v) ? v.toFixed(3) : "–";
}

// fmtCount prints a count or an effective sample size: whole, grouped.
export function fmtCount(v) {
  return typeof v === "number" && Number.isFinite(v) ? group(Math.round(v)) : "–";
}

// fmtSE prints a value and its standard error (or any ± width) as
// [value, error]: the error to its first significant digit, the value
// rounded to the same decimal place. Without a usable error, each gets
// three significant digits.
export function fmtSE(v, se) {
  if (!(typeof v === "number" && Number.isFinite(v))) return ["–", fmt(se)];
  if (!(typeof se === "number" && Number.isFinite(se) && se > 0)) return [fmt(v), fmt(se)];
  let place = Math.floor(Math.log10(se));
  if (Number((se / 10 ** place).toFixed(0)) >= 10) place++; // 0.0996 rounds to 0.1
  const round = (x) => (place >= 0 ? Math.round(x / 10 ** place) * 10 ** place : Number(x.toFixed(-place)));
  const decimals = Math.max(0, -place);
  const out = (x) => {
    const r = round(x);
    if (r !== 0 && (Math.abs(r) >= LARGE || Math.abs(r) < SMALL)) return pow10(r, Math.max(1, Math.floor(Math.log10(Math.abs(r))) - place + 1));
    return group(r, decimals);
  };
  return [out(v), out(se)];
}

// fmtRate prints a panel's steps per second to three significant digits
// ("31,700", "6,350", "0.5"), "–" before the first frame says.
export function fmtRate(v) {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? fmt(v) : "–";
}

// fmtInput is a number box's text: what a person could type, no grouping,
// no ×10ⁿ (a number field takes "1e-7"), at most `digits` significant
// digits so the box never overflows; whole numbers stay whole.
export function fmtInput(v, digits = 3) {
  if (typeof v !== "number") return String(v);
  if (!Number.isFinite(v)) return "";
  if (Number.isInteger(v)) return String(v);
  const r = Number(v.toPrecision(digits));
  const a = Math.abs(r);
  return a < SMALL || a >= LARGE ? r.toExponential() : String(r);
}

// compact prints an axis tick short: 2.5M, 750k, 0.25, 1.2×10⁻⁵.
export function compact(v) {
  if (v == null || !Number.isFinite(v)) return "";
  const a = Math.abs(v);
  const short = (x, unit) => `${Number(x.toPrecision(3))}${unit}`;
  if (a >= 1e9) return short(v / 1e9, "G");
  if (a >= 1e6) return short(v / 1e6, "M");
  if (a >= 1e3) return short(v / 1e3, "k"); // "1k" beside "10k" on one axis, not "1000"
  if (a !== 0 && a < SMALL) return pow10(v, 2);
  return String(Number(v.toPrecision(3)));
}

// READOUTS name a panel's diagnostics (the frame's `diagnostics`, keyed as
// the engine and the methods report them) and say how each prints.
const READOUTS = {
  objective: ["Objective", fmt],
  inbetween_ratio: ["In-between ratio (gap band ÷ data band)", fmt],
  noise_std: ["Noise std σ", fmt],
  acceptance_rate: ["Acceptance rate", fmt],
  divergences: ["Divergent transitions", fmtCount],
  step_size: ["Step size ε", fmt],
  warmup: ["In warm-up", (v) => (v ? "yes" : "no")],
  // Over all retained draws (sim/mcmc's Diagnostics), where the draws
  // table's columns are over its last window: each says which.
  rhat_max: ["Largest R̂, all draws", fmtRhat],
  ess_bulk_min: ["Smallest bulk ESS, all draws", fmtCount],
};

// readout returns a diagnostic's [label, text]: the key's label where it is
// known, else the key in words.
export function readout(key, v) {
  const [label, f] = READOUTS[key] ?? [key.replaceAll("_", " "), fmt];
  return [label, f(v)];
}
