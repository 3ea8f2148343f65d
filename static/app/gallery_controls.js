// The gallery's control inputs (a target's and a method's, from their
// ControlSpecs): a checkbox for an on/off setting, a menu for a choice, a
// number box otherwise. A number whose default 0 means "the method
// chooses" shows "auto" rather than 0, and a control read only under one
// choice of another (Rényi α under renyi) shows only then. The pure
// parts are node-tested (static/test/gallery.test.mjs).

import { widgetFor } from "./controls.js";

// isAuto reports whether spec's default is 0 standing for "the method
// chooses": its help says what 0 means ("0: 32, …", "0, at the start
// only: the family's default").
export function isAuto(spec) {
  return spec.default === 0 && !spec.toggle && /(^|[;(]\s*)0[:,]/.test(spec.help ?? "");
}

// shownUnder returns the control and the choice spec is read under when
// its help says "read under CHOICE" of another control's options, else
// null.
export function shownUnder(spec, specs) {
  const m = /read under (\w+)/.exec(spec.help ?? "");
  if (!m) return null;
  const owner = specs.find((c) => c !== spec && c.options?.includes(m[1]));
  return owner ? { name: owner.name, value: m[1] } : null;
}

// visibleControls lists the names of the controls of specs shown under
// values (name → value; a control absent from values has its default).
export function visibleControls(specs, values) {
  return specs
    .filter((c) => {
      const u = shownUnder(c, specs);
      if (!u) return true;
      const owner = specs.find((o) => o.name === u.name);
      return (values[u.name] ?? owner.default) === u.value;
    })
    .map((c) => c.name);
}

// renderControls fills box with an input per control spec, each holding
// values[name] (its default when absent), and calls changed(name, value)
// when one changes; controls read only under another's choice show only
// then.
export function renderControls(box, specs, changed, values = {}) {
  box.replaceChildren();
  const labels = new Map();
  const refresh = () => {
    const shown = new Set(visibleControls(specs, readControls(box)));
    for (const [name, label] of labels) label.hidden = !shown.has(name);
  };
  for (const c of specs) {
    const label = document.createElement("label");
    label.title = c.help ?? "";
    const v = values[c.name] ?? c.default;
    const kind = widgetFor(c);
    let input;
    if (kind === "select") {
      input = document.createElement("select");
      c.options.forEach((o, i) => input.append(new Option(c.option_labels?.[i] ?? o.replaceAll("_", " "), o, false, o === v)));
    } else if (kind === "toggle") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = Number(v) === 1;
    } else {
      input = document.createElement("input");
      Object.assign(input, { type: "number", min: c.min, max: c.max, step: c.integer ? 1 : "any" });
      if (isAuto(c)) {
        input.placeholder = "auto";
        input.value = v === 0 ? "" : String(v);
      } else input.value = String(v);
    }
    input.name = c.name;
    input.dataset.control = kind;
    input.addEventListener("change", () => {
      refresh();
      changed(c.name, valueOf(input));
    });
    label.append(c.label || c.name, " ", input);
    labels.set(c.name, label);
    box.append(label);
  }
  box.refreshControls = refresh;
  refresh();
}

// valueOf reads an input made by renderControls as the API takes it.
export function valueOf(input) {
  switch (input.dataset.control) {
    case "toggle":
      return input.checked ? 1 : 0;
    case "select":
      return input.value;
    default:
      return input.value.trim() === "" ? 0 : Number(input.value);
  }
}

// readControls reads every input of box (name → value).
export function readControls(box) {
  const out = {};
  for (const el of box.querySelectorAll("[data-control]")) out[el.name] = valueOf(el);
  return out;
}

// setControls shows values (name → value) in box's inputs, leaving the
// one being edited alone.
export function setControls(box, values) {
  for (const el of box.querySelectorAll("[data-control]")) {
    if (!(el.name in values) || el === document.activeElement) continue;
    const v = values[el.name];
    if (el.dataset.control === "toggle") el.checked = Number(v) === 1;
    else if (el.dataset.control === "select") el.value = String(v);
    else el.value = v === 0 && el.placeholder === "auto" ? "" : String(v);
  }
  box.refreshControls?.();
}
