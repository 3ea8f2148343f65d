// The measures a gallery scenario's claim checks (sim/scenario's
// claims_plane.go, read the same way off the same stream): a panel's
// plane payloads give them, its latest measure (plane.measure), the
// history's costly ones (plane_history, whose points between doublings
// carry none) and the exact answer (plane_exact). Pure, node-tested
// (static/test/gallery_claim.test.mjs).

// planeMeasure returns measure name of coordinate param of a panel's
// {exact, measure, history}, NaN when it has none (no frame yet, no
// history point with it, a coordinate the target does not have):
// sd_ratio is measure.sd[a] / √cov[a][a]; kl, ess_per_eval and rhat the
// history's latest; divergences measure.divergences; q05_error
// |latest q05[a] − exact q05[a]| / √cov[a][a], a being param's index.
export function planeMeasure(name, param, { exact, measure, history } = {}) {
  if (!exact || !measure) return NaN;
  const a = exact.params?.indexOf(param) ?? -1;
  const sd = a >= 0 ? Math.sqrt(exact.cov[a][a]) : NaN;
  const latest = (get) => {
    for (let i = (history?.length ?? 0) - 1; i >= 0; i--) {
      const v = get(history[i] ?? {});
      if (typeof v === "number") return v;
    }
    return NaN;
  };
  switch (name) {
    case "sd_ratio":
      return a >= 0 && typeof measure.sd?.[a] === "number" ? measure.sd[a] / sd : NaN;
    case "kl":
    case "ess_per_eval":
    case "rhat":
      return latest((h) => h[name]);
    case "divergences":
      return Number(measure.divergences ?? 0);
    case "q05_error":
      return a >= 0 ? Math.abs(latest((h) => h.q05?.[a]) - exact.q05[a]) / sd : NaN;
  }
  return NaN;
}

// PLANE_MEASURES names each plane measure as the claim line says it, of
// coordinate param.
export const PLANE_MEASURES = {
  sd_ratio: (p) => `sd of ${p} ÷ exact`,
  kl: () => "KL(q‖p)",
  ess_per_eval: () => "ESS per eval",
  rhat: () => "R̂",
  divergences: () => "divergences",
  q05_error: (p) => `5% quantile of ${p}: error in sds`,
};
