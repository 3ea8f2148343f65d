// The gallery's scenarios (sim/scenario's entries set on a target, as
// handlers/pages_gallery_scenarios.go passes them: each scenario's fields
// in snake case): a menu that opens one as a link, and, once open, its
// title, text and claim, whose verdict claim.js keeps on the panels' live
// measures. scenarioQuery is pure and node-tested.

import { watchClaim } from "./claim.js";

// scenarioQuery is the gallery link's query that opens scenario s: its
// target and methods, and each of its controls, which a scenario may key
// "METHOD.NAME" (a panel's, of every panel of that method), "target.NAME"
// or a target control's plain NAME; with s's seed.
export function scenarioQuery(s, targetSpec) {
  const q = new URLSearchParams();
  q.set("scenario", s.slug);
  q.set("target", s.target);
  const methods = s.methods ?? [];
  q.set("methods", methods.join(","));
  if (s.seed != null && Number(s.seed) !== 1) q.set("seed", String(s.seed));
  const targetNames = new Set((targetSpec?.controls ?? []).map((c) => c.name));
  const all = { ...(s.target_controls ?? {}), ...(s.controls ?? {}) };
  for (const key of Object.keys(all).sort()) {
    const v = String(all[key]);
    const [head, name] = key.includes(".") ? key.split(".", 2) : ["", key];
    if (head === "" || head === "target") {
      if (targetNames.has(name)) q.set(name, v);
      continue;
    }
    methods.forEach((m, i) => m === head && q.set(`p${i + 1}.${name}`, v));
  }
  return q.toString().replace(/%2C/gi, ",").replace(/%3A/gi, ":");
}

// setupScenarios fills the page's scenario menu and shows the open
// scenario; it returns {open, claim}: the open scenario's slug and claim.
export function setupScenarios(page, root, cfg) {
  const list = cfg.scenarios ?? [];
  const bar = root.querySelector("[data-role=scenario-bar]");
  const menu = root.querySelector("[data-role=scenario]");
  const out = { open: "", claim: null };
  if (!list.length || !bar || !menu) return out;
  bar.hidden = false;
  for (const s of list) menu.append(new Option(s.name ?? s.title ?? s.slug, s.slug, false, s.slug === cfg.scenario));
  menu.addEventListener("change", () => {
    const s = list.find((x) => x.slug === menu.value);
    location.assign(s ? `/gallery?${scenarioQuery(s, page.targets.get(s.target))}` : `/gallery?target=${encodeURIComponent(page.targetText())}`);
  });
  const s = list.find((x) => x.slug === cfg.scenario);
  if (!s) return out;
  if (!new URLSearchParams(location.search).has("target")) {
    location.replace(`/gallery?${scenarioQuery(s, page.targets.get(s.target))}`);
    return out;
  }
  out.open = s.slug;
  out.claim = s.claim ?? null;
  const box = root.querySelector("[data-role=scenario-text]");
  box.hidden = false;
  box.querySelector("[data-role=scenario-title]").textContent = s.name ?? s.title ?? s.slug;
  box.querySelector("[data-role=scenario-desc]").textContent = s.description ?? s.text ?? s.summary ?? "";
  const line = box.querySelector(".claim");
  if (s.claim?.text) {
    line.hidden = false;
    line.querySelector("[data-role=claim-text]").textContent = s.claim.text;
    // claim.js reads panels by method, with their step and measures
    const views = page.panels.map((p) => ({
      get method() {
        return p.method.value;
      },
      get step() {
        return p.step;
      },
      get diagnostics() {
        return p.diagnostics;
      },
      get spec() {
        return p.spec;
      },
      get confirmed() {
        return p.values();
      },
    }));
    watchClaim(s.claim, views, {}, line.querySelector("[data-role=claim-status]"));
  }
  return out;
}
