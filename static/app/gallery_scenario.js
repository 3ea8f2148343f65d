// The gallery's scenarios (sim/scenario.OnTargets, as GET
// /api/scenarios?on=target lists them, with their links): a menu that
// opens one by its link, and, once open, its title, text and claim, whose
// verdict claim.js keeps on the panels' live plane measures, each check
// read off the panel it names (the server gave the panels their names).
// scenarioQuery is pure and node-tested.

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

// scenarioLink is the page's link opening s: the server's, else one made
// from its fields.
function scenarioLink(s, page) {
  return s.url ?? `/gallery?${scenarioQuery(s, page.targets.get(s.target))}`;
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
    location.assign(s ? scenarioLink(s, page) : `/gallery?target=${encodeURIComponent(page.targetText())}`);
  });
  const s = list.find((x) => x.slug === cfg.scenario);
  if (!s) return out;
  if (!new URLSearchParams(location.search).has("target")) {
    location.replace(scenarioLink(s, page));
    return out;
  }
  out.open = s.slug;
  out.claim = s.claim ?? null;
  const box = root.querySelector("[data-role=scenario-text]");
  box.hidden = false;
  box.querySelector("[data-role=scenario-title]").textContent = s.name ?? s.title ?? s.slug;
  // the one-line summary, opening onto the paragraph of what to look at:
  // the claim and the planes stay on a projector's first screen
  box.querySelector("[data-role=scenario-summary]").textContent = s.summary ?? s.name ?? "";
  box.querySelector("[data-role=scenario-desc]").textContent = s.description ?? s.text ?? "";
  document.documentElement.classList.add("scenario-open");
  const line = box.querySelector(".claim");
  if (s.claim?.text) {
    line.hidden = false;
    line.querySelector("[data-role=claim-text]").textContent = s.claim.text;
    // claim.js reads panels by "method": here each panel's name, which
    // the checks use; labels are the names where two panels share a
    // method (reverse and forward KL), else the methods' labels.
    const views = page.panels.map((p) => ({
      get method() {
        return p.name || p.method.value;
      },
      get step() {
        return p.step;
      },
      measureOf: (name, param) => p.measureOf(name, param),
      get spec() {
        return { label: p.name && p.name !== p.method.value ? p.name : (p.spec?.label ?? p.method.value) };
      },
      get confirmed() {
        return p.values();
      },
    }));
    watchClaim(s.claim, views, {}, line.querySelector("[data-role=claim-status]"));
  }
  return out;
}
