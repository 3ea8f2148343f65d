// A scenario's claim (sim/scenario/claims.go): checks on what the page
// shows, evaluated on each panel's latest frame as the server's test
// evaluates them on the engine's frames. The measures are the frame's
// diagnostics, the band's mean against the data's noiseless truth, or a
// method's sd of the slope over the exact posterior's (its joint view);
// on the gallery's 2-D targets, the plane's measures (gallery_claim.js),
// with the panels its checks name.
import { fmt, fmtRhat } from "./format.js";
import { PLANE_MEASURES } from "./gallery_claim.js";
import { shortName } from "./glossary.js";
import { moments } from "./joint_data.js";

// MEASURES names each measure as the page's reader knows it.
const MEASURES = {
  inbetween_ratio: "in-between ratio",
  noise_std: "noise estimate",
  objective: "objective",
  truth_rmse: "RMS error to the truth",
  truth_rmse_outside: "RMS error to the truth beyond the data",
  slope_sd_ratio: "slope sd ÷ exact sd",
};

// measure returns the named measure of a panel, of coordinate param where
// it is per coordinate, NaN when the panel does not show it (no band yet,
// no truth, a diagnostic its method lacks). A gallery panel reads its own
// (measureOf).
export function measure(name, panel, data, param) {
  if (typeof panel.measureOf === "function") {
    const v = panel.measureOf(name, param);
    return typeof v === "number" ? v : NaN;
  }
  if (name === "truth_rmse" || name === "truth_rmse_outside") {
    return truthRMSE(panel.band, data, name === "truth_rmse_outside");
  }
  if (name === "slope_sd_ratio") return sdRatio(panel.views?.get("joint")?.j, 1);
  const v = panel.diagnostics?.[name];
  return typeof v === "number" ? v : NaN;
}

// truthRMSE is the RMS of the band's mean less the truth on the grid, all
// of it or outside the training inputs' range only. data: {points, truth}.
export function truthRMSE(band, data, outside) {
  const t = data?.truth?.y, xs = data?.points?.x;
  if (!band?.mean || !t || t.length !== band.mean.length || !xs?.length) return NaN;
  const lo = Math.min(...xs), hi = Math.max(...xs);
  let ss = 0, n = 0;
  band.x.forEach((x, i) => {
    if (outside && x >= lo && x <= hi) return;
    const e = band.mean[i] - t[i];
    ss += e * e;
    n++;
  });
  return n ? Math.sqrt(ss / n) : NaN;
}

// sdRatio is the method's sd of coordinate i (0: b0, 1: b) over the exact
// posterior's, off a joint (b0, b) payload as its table shows it ("sd /
// exact sd"); NaN without one or without an exact posterior.
export function sdRatio(j, i) {
  if (!j?.exact) return NaN;
  const m = moments(j);
  return m ? m[i][1] / Math.sqrt(j.exact.cov[i][i]) : NaN;
}

// claimHolds reports whether every check holds on panels (by method), the
// step it is seen at (the least step of the panels the checks bound; a
// panel only compared against, such as the exact GP that has nothing to
// iterate, does not hold it back), and the checks that fail.
export function claimHolds(claim, panels, data) {
  const byMethod = new Map(panels.map((p) => [p.method, p]));
  const value = (method, c) => (byMethod.has(method) ? measure(c.measure, byMethod.get(method), data, c.param) : NaN);
  const failed = claim.checks.filter((c) => {
    const v = value(c.method, c);
    const bound = c.than ? c.value * value(c.than, c) : c.value;
    return !(c.op === ">=" ? v >= bound : c.op === "<=" ? v <= bound : false);
  });
  const bound = new Set(claim.checks.map((c) => c.method));
  const step = Math.min(...panels.filter((p) => bound.has(p.method)).map((p) => p.step ?? 0));
  return { holds: failed.length === 0, step, failed };
}

// claimNumbers says each check with the number it bounds now, so the claim
// line shows what it is about wherever those numbers sit on the page:
// "GIP's in-between ratio 3.41 ≥ 3 ✓"; a measure bounded on both sides
// is said once, with its range: "Mean-field VI's sd of x ÷ exact 0.433
// in [0.38, 0.5] ✓". labels maps a method to its name.
export function claimNumbers(claim, panels, data, labels) {
  const whose = (m) => {
    const l = labels[m] ?? m;
    return l.endsWith("s") ? `${l}'` : `${l}'s`; // "Global inducing points'"
  };
  const byMethod = new Map(panels.map((p) => [p.method, p]));
  const value = (method, c) => (byMethod.has(method) ? measure(c.measure, byMethod.get(method), data, c.param) : NaN);
  const holds = (c, v, bound) => (c.op === ">=" ? v >= bound : c.op === "<=" ? v <= bound : false);
  const same = (a, b) => !a.than && !b.than && a.method === b.method && a.measure === b.measure && a.param === b.param;
  const said = new Set();
  const out = [];
  for (const c of claim.checks) {
    if (said.has(c)) continue;
    const v = value(c.method, c);
    const f = c.measure === "rhat" ? fmtRhat : fmt;
    const name = MEASURES[c.measure] ?? PLANE_MEASURES[c.measure]?.(c.param) ?? c.measure;
    const num = Number.isFinite(v) ? f(v) : "—";
    const other = claim.checks.find((d) => d !== c && !said.has(d) && same(c, d) && d.op !== c.op && (d.op === ">=" || d.op === "<="));
    if (other && (c.op === ">=" || c.op === "<=")) {
      said.add(other);
      const [lo, hi] = c.op === ">=" ? [c, other] : [other, c];
      const ok = holds(lo, v, lo.value) && holds(hi, v, hi.value);
      out.push(`${whose(c.method)} ${name} ${num} in [${f(lo.value)}, ${f(hi.value)}] ${ok ? "✓" : "✗"}`);
      continue;
    }
    const of = c.than ? value(c.than, c) : NaN;
    const bound = c.than ? c.value * of : c.value;
    // "0.25 × Full-rank's 0.317 = 0.0793": the other's number, then the bound
    const ofText = Number.isFinite(of) ? f(of) : "—";
    const rel = c.than ? (c.value === 1 ? `${whose(c.than)} ${ofText}` : `${fmt(c.value)} × ${whose(c.than)} ${ofText} = ${f(bound)}`) : f(bound);
    out.push(`${whose(c.method)} ${name} ${num} ${c.op === ">=" ? "≥" : "≤"} ${rel} ${holds(c, v, bound) ? "✓" : "✗"}`);
  }
  return out.join(" · ");
}

// compactNumbers says the checks' numbers in the fewest words, so the
// claim line holds them whole on a projector and a phone: the measure
// once, then each method's value with every bound it must meet and one
// verdict ("in-between ratio: GIP 3.41 ≥ 3 ✓ · mean-field 0.82 ≤ 1 ✓"; a
// pair of bounds reads "in [0.85, 1.15]"). short maps a method to its
// short name.
export function compactNumbers(claim, panels, data, short) {
  const byMethod = new Map(panels.map((p) => [p.method, p]));
  const value = (method, c) => (byMethod.has(method) ? measure(c.measure, byMethod.get(method), data, c.param) : NaN);
  const name = (m) => short[m] ?? m;
  // Groups by measure (and the parameter it reads, on a 2-D target), then
  // by method, in the order the checks name them.
  const groups = new Map();
  for (const c of claim.checks) {
    const key = c.param ? `${c.measure}/${c.param}` : c.measure;
    if (!groups.has(key)) groups.set(key, { c, methods: new Map() });
    const g = groups.get(key).methods;
    if (!g.has(c.method)) g.set(c.method, []);
    g.get(c.method).push(c);
  }
  const parts = [];
  for (const { c: first, methods: g } of groups.values()) {
    const m = first.measure;
    const f = m === "rhat" ? fmtRhat : fmt;
    const items = [];
    for (const [method, checks] of g) {
      const v = value(method, checks[0]);
      let ok = true;
      const conds = checks.map((c) => {
        const other = c.than ? value(c.than, c) : NaN;
        const bound = c.than ? c.value * other : c.value;
        ok &&= c.op === ">=" ? v >= bound : c.op === "<=" ? v <= bound : false;
        const rel = c.than ? `${c.value === 1 ? "" : `${fmt(c.value)} × `}${name(c.than)}'s ${f(other)}` : f(bound);
        return { op: c.op === ">=" ? "≥" : "≤", rel, c };
      });
      const lo = conds.find((d) => d.op === "≥" && !d.c.than);
      const hi = conds.find((d) => d.op === "≤" && !d.c.than);
      const said =
        lo && hi
          ? [`in [${lo.rel}, ${hi.rel}]`, ...conds.filter((d) => d !== lo && d !== hi).map((d) => `${d.op} ${d.rel}`)]
          : conds.map((d) => `${d.op} ${d.rel}`);
      items.push(`${name(method)} ${Number.isFinite(v) ? f(v) : "–"} ${said.join(" and ")} ${ok ? "✓" : "✗"}`);
    }
    parts.push(`${MEASURES[m] ?? PLANE_MEASURES[m]?.(first.param) ?? m}: ${items.join(", ")}`);
  }
  return parts.join(" · ");
}

// HOLD_CHECKS is k, the checks in a row a claim must hold at before the
// verdict says it holds, and fail at before a held claim is said to be
// broken. A check is one frame at a new step, at most four a second (the
// verdict's tick). The measures are read off a band of 20 sampled functions
// redrawn every frame, so a measure near its bound passes or fails a single
// frame by chance: at even odds, five in a row happen by chance 1 time in
// 32, and a claim that holds at nine of nine checked steps on seeds 1–5
// (sim/scenario's TestScenarioClaims) passes them in a second and a quarter.
export const HOLD_CHECKS = 5;

// checkedFrom is the first step the claim is checked at: its claim step,
// and no earlier than the end of any sampler's warm-up among the panels it
// reads (a sampler's band in warm-up is its chains' current states, not
// its posterior).
export function checkedFrom(claim, panels) {
  const named = new Set(claim.checks.flatMap((c) => (c.than ? [c.method, c.than] : [c.method])));
  const warm = panels.filter((p) => named.has(p.method)).map((p) => Number(p.confirmed?.warmup) || 0);
  return Math.max(claim.step, ...warm);
}

// nextVerdict is the verdict's state after a check r ({holds, step}, from
// claimHolds), for a claim checked from step from. A state is {phase, last,
// run, runFrom, since, at}: phase "waiting" before step from, "checking"
// until the claim holds at k checks in a row, "held" (since: the first of
// those steps) until it fails at k in a row, then "broken" (at: the first
// failing step) until it holds at k in a row again. A frame at the step
// last seen is no new check; a step before it is a new run (a reset), which
// starts the verdict afresh.
export function nextVerdict(s, r, from, k = HOLD_CHECKS) {
  if (!s || r.step < s.last) s = { phase: "waiting", last: -Infinity, run: 0, runFrom: null, since: null, at: null };
  if (r.step === s.last) return s;
  s = { ...s, last: r.step };
  if (r.step < from) return { ...s, phase: "waiting", run: 0, runFrom: null };
  if (s.phase === "waiting") s.phase = "checking";
  // A held claim counts failures; any other counts successes.
  const counting = s.phase === "held" ? !r.holds : r.holds;
  if (!counting) return { ...s, run: 0, runFrom: null };
  s.run++;
  s.runFrom ??= r.step;
  if (s.run < k) return s;
  if (s.phase === "held") return { ...s, phase: "broken", at: s.runFrom, run: 0, runFrom: null };
  return { ...s, phase: "held", since: s.runFrom, at: null, run: 0, runFrom: null };
}

// verdictText is what the verdict says in state s, with latest the last
// check (whether it held): {holds, text}, holds the verdict's data-holds.
export function verdictText(s, latest, from, k = HOLD_CHECKS) {
  const steps = (n) => n.toLocaleString("en-US");
  switch (s?.phase) {
    case "held":
      return { holds: "true", text: `✓ held since step ${steps(s.since)}` };
    case "broken":
      return { holds: "false", text: `✗ no longer holds at step ${steps(s.at)}` };
    case "checking":
      // Neutral either way: a check that fails before the claim has held
      // restarts the count, and a chip flipping red and back is the flicker
      // the count is there to prevent.
      return latest
        ? { holds: "checking", text: `checking: ${s.run} of ${k} checks hold, step ${steps(s.last)}` }
        : { holds: "checking", text: `not yet: fails at step ${steps(s.last)}` };
    default:
      return { holds: "waiting", text: `checked from step ${steps(from)}${s?.last > 0 ? `, now ${steps(s.last)}` : ""}` };
  }
}

// watchClaim keeps el saying whether the claim holds on the live frames.
// edited() reports whether the data were edited in the plot: the claim is
// about the scenario's data, so it is then not checked.
export function watchClaim(claim, panels, config, el, edited = () => false) {
  if (!claim || !el) return null;
  const labels = Object.fromEntries(panels.map((p) => [p.method, p.spec?.label ?? p.method]));
  const short = Object.fromEntries(panels.map((p) => [p.method, shortName(p.method, p.spec?.label)]));
  // The verdict goes before the numbers: the line wraps, nothing in it is
  // cut, on a projector or a phone.
  const verdict = el.closest(".claim")?.querySelector(".claim-verdict");
  const say = (holds, short) => {
    if (!verdict) return;
    verdict.dataset.holds = holds;
    verdict.textContent = short;
  };
  el.dataset.noGloss = ""; // rewritten four times a second; its title says it in full
  let state = null;
  const tick = () => {
    if (edited()) {
      state = null;
      el.dataset.holds = "edited";
      el.textContent = "Not checked: the claim is about the scenario's data, and these are edited (Reset data to check it).";
      el.title = "";
      say("edited", "not checked: data edited");
      return;
    }
    const r = claimHolds(claim, panels, config);
    const from = checkedFrom(claim, panels);
    if (Number.isFinite(r.step)) state = nextVerdict(state, r, from);
    const v = verdictText(state, r.holds, from);
    el.dataset.holds = v.holds;
    say(v.holds, v.text);
    // The verdict says holds or not and since when; this, the numbers.
    el.textContent = compactNumbers(claim, panels, config, short);
    el.title = claimNumbers(claim, panels, config, labels); // the same in full words
  };
  tick();
  return setInterval(tick, 250);
}
