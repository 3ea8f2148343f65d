// The play page's layout: one screen at 1280×720. Each panel's predictive
// plot takes the height left between what sits above it and the controls
// in focus under it, so both are in view without scrolling; the
// description folds to one line with a "more" toggle; a fold opened in one
// panel opens in all (and is remembered); presentation mode (present=1 in
// the link, or the key P) hides prose and chrome and enlarges the plots.

const MIN_PLOT = 170; // px: below this a plot stops being readable
// Above a joint plane that proves the claim the bands (alike in every
// panel) may be shorter, and the plane gives way down to JOINT_MIN before
// it leaves the first screen.
const MIN_PLOT_OVER_PROOF = 110;
const JOINT_MIN = 150;
const JOINT_MAX = 260;
const MARGIN = 10; // px kept under the lowest control in focus
const FOLD_KEY = "pp:fold:";

// setupLayout wires the layout for panels (Panel objects, each with el and
// predictive). onPresent(on) hears presentation mode change (for the link).
export function setupLayout(panels, { present = false, onPresent = () => {} } = {}) {
  const root = document.documentElement;
  let pending = false;
  const fit = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      fitPlots(panels);
    });
  };

  foldHead(fit);
  syncFolds();
  dropDown(document.getElementById("setup-menu"));

  const setPresent = (on) => {
    root.classList.toggle("present", on);
    const b = document.getElementById("present");
    if (b) b.setAttribute("aria-pressed", String(on));
    onPresent(on);
    fit();
  };
  setPresent(present || root.classList.contains("present"));
  document.getElementById("present")?.addEventListener("click", () => setPresent(!root.classList.contains("present")));
  addEventListener("keydown", (ev) => {
    if (ev.key !== "p" && ev.key !== "P") return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey || ev.defaultPrevented) return;
    if (typesText(ev.target)) return;
    setPresent(!root.classList.contains("present"));
  });

  // What sits above a plot or between it and its controls can change size
  // (a status that wraps, an error, the toolbar's status line): refit then.
  const ro = new ResizeObserver(fit);
  for (const sel of [".play-head", "#toolbar"]) {
    const e = document.querySelector(sel);
    if (e) ro.observe(e);
  }
  for (const p of panels) {
    for (const sel of [".panel-head", '[data-role="error"]', '[data-plot="predictive"] figcaption', ".focus-controls"]) {
      const e = p.el.querySelector(sel);
      if (e) ro.observe(e);
    }
  }
  addEventListener("resize", fit);
  fit();
  return { fit, setPresent };
}

// fitPlots gives every panel's predictive plot one height: side by side,
// the largest that keeps each plot, axes included, and the controls in
// focus under it inside the viewport (not below MIN_PLOT, nor taller than
// wide); stacked (a phone), a height from the width.
function fitPlots(panels) {
  if (!panels.length) return;
  const vh = innerHeight;
  const tops = panels.map((p) => p.el.getBoundingClientRect().top);
  const stacked = tops.some((t) => Math.abs(t - tops[0]) > 4);
  let h = Infinity;
  let shared = Infinity; // the least room a panel with a joint plane has for its band and the plane
  for (const p of panels) {
    const host = p.el.querySelector('[data-plot="predictive"] .plot-host');
    const canvas = host?.querySelector("canvas");
    if (!canvas) continue;
    const width = host.clientWidth;
    const maxH = document.documentElement.classList.contains("present") ? width : 0.72 * width;
    if (stacked) {
      h = Math.min(h, Math.max(MIN_PLOT, Math.min(0.62 * width, 0.55 * vh)));
      continue;
    }
    const r = canvas.getBoundingClientRect();
    const fig = host.closest("figure");
    const focus = p.el.querySelector(".focus-controls");
    // The joint (b0, b) plane, where a panel has one, is what its scenario
    // proves its claim on (VI vs MCMC): it is kept in view too, the bands
    // above it (alike in every panel) made shorter, then the plane itself.
    const proof = p.el.querySelector('[data-role="joint-canvas"]');
    const end = Math.max(fig.getBoundingClientRect().bottom, focus?.getBoundingClientRect().bottom ?? 0, proof?.getBoundingClientRect().bottom ?? 0);
    const top = r.top + scrollY; // where the plot starts on the page, scrolled to the top
    const below = end - r.bottom; // the legend, the bar and the controls in focus
    const room = vh - top - below - MARGIN;
    h = Math.min(h, maxH);
    if (proof) shared = Math.min(shared, room + proof.getBoundingClientRect().height);
    else h = Math.min(h, room);
  }
  if (Number.isFinite(shared)) {
    // The plane takes what the band leaves above its floor, within bounds.
    const joint = Math.round(Math.min(JOINT_MAX, Math.max(JOINT_MIN, shared - MIN_PLOT_OVER_PROOF)));
    h = Math.max(MIN_PLOT_OVER_PROOF, Math.min(h, shared - joint));
    for (const p of panels) p.views?.get("joint")?.setHeight?.(joint);
  } else if (Number.isFinite(h)) h = Math.max(MIN_PLOT, h);
  if (!Number.isFinite(h)) return;
  h = Math.round(h);
  for (const p of panels) p.predictive.setHeight(h);
}

// foldHead folds the description, note and data line to one line with a
// "more" button, when they take more than one.
function foldHead(fit) {
  const head = document.querySelector(".play-head");
  const about = head?.querySelector(".about");
  if (!about || about.children.length === 0) return;
  head.classList.add("folded");
  const b = document.createElement("button");
  b.type = "button";
  b.className = "more";
  b.setAttribute("aria-controls", about.id);
  const show = (folded) => {
    head.classList.toggle("folded", folded);
    b.textContent = folded ? "more" : "less";
    b.setAttribute("aria-expanded", String(!folded));
    fit();
  };
  b.addEventListener("click", () => show(!head.classList.contains("folded")));
  about.after(b);
  show(true);
  // Nothing hidden (one short line): no button.
  const first = about.firstElementChild;
  if (about.children.length === 1 && first.scrollWidth <= first.clientWidth) b.hidden = true;
}

// syncFolds opens or closes a fold (details.fold[data-fold], and the
// explanation cards) in every panel at once, and remembers the histories'
// and the cards' for the next page (localStorage; a browser without it
// starts with the page's defaults). The controls' fold is not remembered:
// whether it starts open depends on the link (open when it has no focus).
function syncFolds() {
  const kinds = new Map();
  for (const d of document.querySelectorAll(".panel details.fold[data-fold], .panel details.explain")) {
    const kind = d.dataset.fold ?? "explain";
    if (!kinds.has(kind)) kinds.set(kind, []);
    kinds.get(kind).push(d);
  }
  for (const [kind, list] of kinds) {
    const remember = kind !== "controls";
    let saved = null;
    try {
      if (remember) saved = localStorage.getItem(FOLD_KEY + kind);
    } catch {
      // storage refused: keep the defaults
    }
    if (saved === "open" || saved === "closed") for (const d of list) d.open = saved === "open";
    for (const d of list) {
      d.addEventListener("toggle", () => {
        for (const o of list) if (o.open !== d.open) o.open = d.open;
        try {
          if (remember) localStorage.setItem(FOLD_KEY + kind, d.open ? "open" : "closed");
        } catch {
          // not remembered
        }
      });
    }
  }
}

// dropDown closes the toolbar's menu on a click elsewhere or on Escape.
function dropDown(menu) {
  if (!menu) return;
  document.addEventListener("click", (ev) => {
    if (menu.open && !menu.contains(ev.target)) menu.open = false;
  });
  menu.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && menu.open) {
      menu.open = false;
      menu.querySelector("summary").focus();
    }
  });
}

// TEXT_INPUTS are the input types a P typed into is text: a slider, a
// checkbox or a button takes no letters, so P there toggles presentation
// mode (a lecturer's focus is often on the slider just moved).
const TEXT_INPUTS = new Set(["text", "number", "search", "email", "url", "tel", "password", "date", "time"]);

// typesText reports whether a key typed at el goes into text: a text-like
// input, a textarea, a select (letters pick an option) or editable content.
export function typesText(el) {
  if (!el?.closest) return false;
  if (el.closest("textarea, select, [contenteditable]:not([contenteditable=false])")) return true;
  const input = el.closest("input");
  return input != null && TEXT_INPUTS.has((input.getAttribute("type") ?? "text").toLowerCase());
}
