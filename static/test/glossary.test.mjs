// The glossary: one line for every term of art, found in labels as the page
// writes them.
import assert from "node:assert/strict";
import { test } from "node:test";

import { abbreviations, GLOSSARY, gloss, glossSpans, SHORT, shortName } from "../app/glossary.js";

test("glossary: every gloss is one line of words, no longer than a tooltip reads", () => {
  for (const [term, g] of Object.entries(GLOSSARY)) {
    assert.ok(term.trim() === term && term.length > 0, `term ${JSON.stringify(term)}`);
    assert.ok(typeof g === "string" && g.length >= 10 && g.length <= 160, `${term}: ${g.length} characters`);
    assert.ok(!g.includes("\n"), `${term}'s gloss is one line`);
  }
});

test("glossary: abbreviations are words with two capitals or a hatted letter", () => {
  assert.deepEqual(abbreviations("Smallest bulk ESS · R̂ (rank) · k̂ · Mean-field VI · IWBO ± 2 s.e."), ["ESS", "R̂", "k̂", "VI", "IWBO"]);
  assert.deepEqual(abbreviations("Functional VI (fBNN) and MC samples, ELBO/KL"), ["VI", "fBNN", "MC", "ELBO", "KL"]);
  assert.deepEqual(abbreviations("Prior scale, Learning rate"), []);
});

test("glossary: every abbreviation the page's labels use has a gloss", () => {
  // The labels' abbreviations, as the methods' specs, the scenarios, the
  // diagnostics and the plots' legends write them; the browser test finds
  // any other on every scenario's page.
  for (const a of ["ELBO", "IWBO", "KL", "ESS", "R̂", "GIP", "MFVI", "NUTS", "HMC", "SGLD", "LIVI", "fBNN", "k̂", "GP", "VI", "MCMC", "MAP", "MC", "RMS", "BNN"]) {
    assert.ok(gloss(a), `${a} has no gloss`);
  }
  for (const [method, name] of Object.entries(SHORT)) {
    for (const a of abbreviations(name)) assert.ok(gloss(a), `${method}'s short name ${name}: ${a} has no gloss`);
  }
  assert.equal(gloss("toString"), undefined); // not an object's own keys
});

test("glossary: a label split into runs, each term with its gloss, longest term first", () => {
  const spans = glossSpans("ELBO of GIP vs R-hat; GIPS");
  assert.deepEqual(spans.map((s) => s.text), ["ELBO", " of ", "GIP", " vs ", "R-hat", "; GIPS"]);
  assert.deepEqual(spans.filter((s) => s.gloss).map((s) => s.gloss), [GLOSSARY.ELBO, GLOSSARY.GIP, GLOSSARY["R-hat"]]);
  assert.equal(glossSpans("in-between ratio 3").find((s) => s.gloss)?.text, "in-between ratio");
  assert.equal(shortName("mfvi", "Mean-field VI"), "mean-field");
  assert.equal(shortName("new", "A new method"), "A new method");
});
