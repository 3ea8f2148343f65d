// A gallery panel's measures in words (sim/gallery's Measure): the budget,
// the errors against the exact answer, a sampler's divergences and
// acceptance, a fit's ELBO beside log Z and its Pareto k̂ with Stan's
// thresholds. Pure, node-tested (static/test/gallery.test.mjs).

// fmt3 is a number at three significant digits, "–" when there is none.
// A number below 0.001 in size is written with its exponent (2.34e-5).
export function fmt3(v) {
  if (v == null || !Number.isFinite(Number(v))) return "–";
  const x = Number(v);
  if (x !== 0 && Math.abs(x) < 1e-3) return x.toExponential(2).replace(/\.?0+e/, "e");
  return Number(x.toPrecision(3)).toString();
}

// paretoVerdict reads k̂ as Stan does (Vehtari et al., Pareto smoothed
// importance sampling): ≤ 0.5 good, ≤ 0.7 ok, above it the importance
// ratios' tail is too heavy to trust q's draws reweighted to p. cls is a
// CSS class, gloss the hover text.
export function paretoVerdict(k) {
  if (typeof k !== "number" || Number.isNaN(k)) return null;
  const base = "Pareto k̂ of the importance ratios p/q over 4,000 of q's draws (PSIS): ";
  if (k <= 0.5) return { cls: "k-good", word: "good", gloss: base + "≤ 0.5, good: q covers p, and reweighting its draws gives reliable estimates." };
  if (k <= 0.7) return { cls: "k-ok", word: "ok", gloss: base + "in (0.5, 0.7], ok: reweighted estimates are usable, with more error." };
  return { cls: "k-bad", word: "bad", gloss: base + "> 0.7, too large: q misses mass p has (its tails are too light); estimates reweighted from its draws cannot be trusted." };
}

// measureParts is a measure's items as [{text, cls?, title?}]: logZ the
// exact log Z, k the latest Pareto k̂ (from the history).
export function measureParts(m, logZ, k) {
  const parts = [
    { text: `${Number(m.evals ?? 0).toLocaleString("en-US")} evals` },
    { text: `mean err ${m.mean_error == null ? "–" : `${fmt3(m.mean_error)} sd`}`, title: "the error of the mean in units of the exact sds" },
    { text: `cov err ${fmt3(m.cov_error)}`, title: "‖C − C*‖ / ‖C*‖, Frobenius" },
  ];
  if (m.divergences) parts.push({ text: `${Number(m.divergences).toLocaleString("en-US")} divergent` });
  if (m.acceptance != null && Number.isFinite(m.acceptance)) parts.push({ text: `accept ${fmt3(m.acceptance)}` });
  if (m.elbo != null && Number.isFinite(m.elbo)) {
    // before its first step a fit has no estimate yet
    parts.push({ text: `ELBO ${m.evals ? fmt3(m.elbo) : "–"}`, title: "the evidence lower bound; its gap below log Z is KL(q‖p)" });
    parts.push({ text: `log Z ${fmt3(logZ)}`, title: "the exact log normaliser, by quadrature on the grid" });
    const v = paretoVerdict(k);
    parts.push(v ? { text: `Pareto k ${fmt3(k)} ${v.word}`, cls: v.cls, title: v.gloss } : { text: "Pareto k –", title: "Pareto k̂ of the importance ratios p/q: measured each time the budget doubles" });
  }
  return parts;
}

// latestK is the newest finite Pareto k̂ of a history (oldest first).
export function latestK(history) {
  for (let i = (history?.length ?? 0) - 1; i >= 0; i--) {
    const k = history[i]?.pareto_k;
    if (typeof k === "number" && !Number.isNaN(k)) return k;
  }
  return null;
}

// latestMeasures is, for each measure of a history (oldest first), its
// newest value that is not null: the costly measures (KL, R̂, ESS, the
// energy distance, k̂) are taken as the budget doubles, the points
// between carry none.
export function latestMeasures(history) {
  const out = {};
  for (let i = (history?.length ?? 0) - 1; i >= 0; i--) {
    for (const [k, v] of Object.entries(history[i] ?? {})) if (!(k in out) && v != null) out[k] = v;
  }
  return out;
}
