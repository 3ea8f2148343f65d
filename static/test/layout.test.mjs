// Presentation mode's P key: ignored only where P is typed as text.
import assert from "node:assert/strict";
import { test } from "node:test";

import { typesText } from "../app/layout.js";

// el is a stand-in element: tag and attributes, with a closest that
// matches the selectors typesText asks about on the element itself.
function el(tag, attrs = {}) {
  return {
    getAttribute: (k) => attrs[k] ?? null,
    closest(sel) {
      const hit = sel.split(",").some((s) => {
        s = s.trim();
        if (s.startsWith("[contenteditable]")) return "contenteditable" in attrs && attrs.contenteditable !== "false";
        return s === tag;
      });
      return hit ? this : null;
    },
  };
}

test("P toggles presentation from a slider, a checkbox or a button, not from a text field", () => {
  for (const t of ["range", "checkbox", "radio", "button"]) assert.equal(typesText(el("input", { type: t })), false, t);
  assert.equal(typesText(el("button")), false);
  assert.equal(typesText(el("canvas")), false);
  for (const t of ["text", "number", "search"]) assert.equal(typesText(el("input", { type: t })), true, t);
  assert.equal(typesText(el("input")), true, "an input without a type is text");
  assert.equal(typesText(el("textarea")), true);
  assert.equal(typesText(el("select")), true, "letters pick an option");
  assert.equal(typesText(el("div", { contenteditable: "" })), true);
  assert.equal(typesText(null), false);
});
