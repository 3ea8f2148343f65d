// Unit tests of the gallery page's pure parts: its links
// (gallery_link.js), its controls' rules (gallery_controls.js), its
// measures and Pareto k̂ (gallery_measure.js), its exports' text
// (gallery_export.js) and a scenario's link (gallery_scenario.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { isAuto, shownUnder, visibleControls } from "../app/gallery_controls.js";
import { drawsCSV, legendFor, qJSON } from "../app/gallery_export.js";
import { galleryQuery, replayParam } from "../app/gallery_link.js";
import { fmt3, latestK, latestMeasures, measureParts, paretoVerdict } from "../app/gallery_measure.js";
import { scenarioQuery } from "../app/gallery_scenario.js";
import { Points, chainsOf } from "../app/gallery_points.js";

// The family controls as sim/gallery's Methods gives them.
const div = { name: "divergence", options: ["reverse_kl", "forward_kl", "renyi"], default: "reverse_kl", help: "what the fit minimises" };
const alpha = { name: "alpha", default: 0.5, min: 0, max: 2, help: "the Rényi bound's α, read under renyi: 0 the importance-weighted bound, 1 the ELBO" };
const samples = { name: "samples", default: 0, min: 0, max: 4096, integer: true, help: "q's draws per step, each one target evaluation; 0: 32, or 256 under forward KL" };
const lr = { name: "lr", default: 0, min: 0, max: 1, log: true, help: "Adam's learning rate in the target's standardised units, live between steps; 0, at the start only: the family's default" };
const centred = { name: "centred", default: 1, min: 0, max: 1, integer: true, toggle: true, help: "1: the centred parameterisation" };
const rho = { name: "rho", default: 0.9, min: -0.99, max: 0.99, help: "the correlation" };

test("controls: 0 standing for the method's choice is auto; a toggle and a plain number are not", () => {
  assert.equal(isAuto(samples), true);
  assert.equal(isAuto(lr), true);
  assert.equal(isAuto(centred), false);
  assert.equal(isAuto(rho), false);
  assert.equal(isAuto({ ...rho, default: 0 }), false); // 0 is a value, its help says nothing of it
});

test("controls: Rényi α shows only under the Rényi divergence", () => {
  const specs = [div, alpha, samples, lr];
  assert.deepEqual(shownUnder(alpha, specs), { name: "divergence", value: "renyi" });
  assert.equal(shownUnder(samples, specs), null);
  assert.deepEqual(visibleControls(specs, {}), ["divergence", "samples", "lr"]);
  assert.deepEqual(visibleControls(specs, { divergence: "forward_kl" }), ["divergence", "samples", "lr"]);
  assert.deepEqual(visibleControls(specs, { divergence: "renyi" }), ["divergence", "alpha", "samples", "lr"]);
  // without the divergence control, α has no owner and shows
  assert.deepEqual(visibleControls([alpha], {}), ["alpha"]);
});

const limits = { max_replay_steps: 200000, max_replay_changes: 64 };

test("link: the state's query leaves defaults out and reads as the server parses it", () => {
  const q = galleryQuery({
    target: "funnel",
    targetControls: { centred: 0 },
    targetSpecs: [centred],
    seed: 3,
    present: true,
    panels: [
      { method: "nuts", controls: { step_size: 0.5, max_depth: 10 }, specs: [{ name: "step_size", default: 1 }, { name: "max_depth", default: 10 }], replay: "120,40:step_size:0.5" },
      { method: "mfvi", controls: { divergence: "renyi", lr: 0 }, specs: [div, lr], watch: "abc" },
    ],
  });
  const p = new URLSearchParams(q);
  assert.equal(p.get("target"), "funnel");
  assert.equal(p.get("centred"), "0");
  assert.equal(p.get("methods"), "nuts,mfvi");
  assert.equal(p.get("seed"), "3");
  assert.equal(p.get("p1.step_size"), "0.5");
  assert.equal(p.has("p1.max_depth"), false, "a default is left out");
  assert.equal(p.get("p1.replay"), "120,40:step_size:0.5");
  assert.equal(p.get("p2.divergence"), "renyi");
  assert.equal(p.has("p2.lr"), false);
  assert.equal(p.get("p2.watch"), "abc");
  assert.equal(p.get("present"), "1");
  assert.ok(q.includes("methods=nuts,mfvi") && q.includes("p1.replay=120,40:step_size:0.5"), q);
  // a typed density is the target's text, escaped
  const t = new URLSearchParams(galleryQuery({ target: "a ~ normal(0, 1);", panels: [{ method: "hmc" }] }));
  assert.equal(t.get("target"), "a ~ normal(0, 1);");
  assert.equal(t.has("seed"), false);
});

test("link: a replay carries the step and the changes since the reset, within the limits", () => {
  const marks = [
    { step: 10, name: "lr", value: 0.01 },
    { step: 30, name: "divergence", value: "forward_kl" },
  ];
  assert.equal(replayParam(50, marks, limits), "50,10:lr:0.01,30:divergence:forward_kl");
  assert.equal(replayParam(0, [], limits), null);
  assert.equal(replayParam(200001, [], limits), null);
  assert.equal(replayParam(5, Array(65).fill(marks[0]), limits), null);
});

test("measures: Pareto k̂ reads with Stan's thresholds", () => {
  assert.equal(paretoVerdict(0.2).word, "good");
  assert.equal(paretoVerdict(0.5).word, "good");
  assert.equal(paretoVerdict(0.51).word, "ok");
  assert.equal(paretoVerdict(0.7).word, "ok");
  assert.equal(paretoVerdict(0.71).cls, "k-bad");
  assert.equal(paretoVerdict(Infinity).cls, "k-bad");
  assert.equal(paretoVerdict(NaN), null);
  assert.equal(paretoVerdict(null), null);
  assert.equal(latestK([{ pareto_k: 0.3 }, { pareto_k: 0.9 }, { pareto_k: null }]), 0.9);
  assert.equal(latestK([]), null);
});

test("measures: a claim reads each measure's newest value the history has", () => {
  const h = [{ evals: 1, kl: 0.5, rhat: null }, { evals: 2, kl: 0.2, rhat: 1.1 }, { evals: 3, kl: null, rhat: null }];
  assert.deepEqual(latestMeasures(h), { evals: 3, kl: 0.2, rhat: 1.1 });
  assert.deepEqual(latestMeasures(undefined), {});
});

test("measures: numbers at three digits, the small ones with their exponent", () => {
  assert.equal(fmt3(-0.0000234), "-2.34e-5");
  assert.equal(fmt3(6.276e-7), "6.28e-7");
  assert.equal(fmt3(0.00012), "1.2e-4");
  assert.equal(fmt3(0.0123), "0.0123");
  assert.equal(fmt3(2.9412), "2.94");
  assert.equal(fmt3(1234567), "1230000");
  assert.equal(fmt3(0), "0");
  assert.equal(fmt3(null), "–");
  assert.equal(measureParts({ evals: 0, elbo: 0 }, 1, null)[3].text, "ELBO –");
  // no estimate yet: a dash, without a unit hanging after it
  assert.equal(measureParts({ evals: 4 }, 1, null)[1].text, "mean err –");
});

test("measures: a fit's line has its ELBO, log Z and k̂; a sampler's its divergences and acceptance", () => {
  const fit = measureParts({ evals: 12345, mean_error: 0.01234, cov_error: 0.5, elbo: 2.1549, acceptance: null }, 2.94, 0.82).map((p) => p.text);
  assert.deepEqual(fit, ["12,345 evals", "mean err 0.0123 sd", "cov err 0.5", "ELBO 2.15", "log Z 2.94", "Pareto k 0.82 bad"]);
  const s = measureParts({ evals: 10, mean_error: 1, cov_error: 2, divergences: 10962, acceptance: 0.7281, elbo: null }, 0, null).map((p) => p.text);
  assert.deepEqual(s, ["10 evals", "mean err 1 sd", "cov err 2", "10,962 divergent", "accept 0.728"]);
});

test("exports: the draws' CSV names the parameters and holds every draw at full precision", () => {
  const d = { x: new Float64Array([0.1, -2.5, 9]), y: new Float64Array([1 / 3, 4, 0]), chain: new Uint8Array([0, 1, 2]), count: 2 };
  assert.equal(drawsCSV(d, ["v", "x"]), `chain,v,x\n0,0.1,${1 / 3}\n1,-2.5,4\n`);
  assert.equal(drawsCSV(undefined, ["x", "y"]), "chain,x,y\n");
});

test("exports: q's JSON has its moments and measures; the legend names every mark shown", () => {
  const j = JSON.parse(qJSON({ method: "fullrank", controls: { lr: 0 }, target: "gaussian", targetControls: { rho: 0.9 }, seed: 1, step: 7, params: ["x", "y"], moments: { mean: [0, 1], cov: [[1, 0.9], [0.9, 1]] }, measure: { evals: 3 }, logZ: 0.5, paretoK: 0.1 }));
  assert.deepEqual(j.q, { mean: [0, 1], cov: [[1, 0.9], [0.9, 1]] });
  assert.equal(j.pareto_k, 0.1);
  assert.equal(j.target_controls.rho, 0.9);
  const labels = legendFor({ q: {}, draws: { x: [1] }, chains: 2, transition: { accepted: false }, divergences: { x: [0], count: 1 } }).map((i) => i.label);
  assert.deepEqual(labels, ["exact density: 99 … 20% regions", "q: the same regions", "chain 1", "chain 2", "latest move (rejected)", "divergences"]);
});

test("scenario: its link sets the target, the methods and each control where the page reads it", () => {
  const s = { slug: "funnel-neck", target: "funnel", methods: ["hmc", "nuts", "hmc"], seed: 2, controls: { "hmc.step_size": "0.3", "target.centred": "1", "nuts.max_depth": "8", "unknown": "5" } };
  const p = new URLSearchParams(scenarioQuery(s, { controls: [centred] }));
  assert.equal(p.get("scenario"), "funnel-neck");
  assert.equal(p.get("target"), "funnel");
  assert.equal(p.get("methods"), "hmc,nuts,hmc");
  assert.equal(p.get("seed"), "2");
  assert.equal(p.get("centred"), "1");
  assert.equal(p.get("p1.step_size"), "0.3");
  assert.equal(p.get("p3.step_size"), "0.3");
  assert.equal(p.get("p2.max_depth"), "8");
  assert.equal(p.has("unknown"), false);
  // target controls under their own key
  const t = new URLSearchParams(scenarioQuery({ slug: "a", target: "gaussian", methods: ["mfvi"], target_controls: { rho: 0.9 } }, { controls: [rho] }));
  assert.equal(t.get("rho"), "0.9");
});

test("draws: chains sent as Go's base64 bytes or as numbers land in the buffer; the oldest drop when it is full", () => {
  assert.deepEqual(Array.from(chainsOf(Buffer.from([0, 3, 1]).toString("base64"))), [0, 3, 1]);
  assert.deepEqual(chainsOf([2, 1]), [2, 1]);
  const p = new Points(3, true);
  p.add({ x: [1, 2], y: [10, 20], chain: Buffer.from([0, 1]).toString("base64") });
  p.add({ x: [3, 4], y: [30, 40], chain: [2, 3] });
  assert.equal(p.count, 3);
  assert.deepEqual(Array.from(p.x), [2, 3, 4]);
  assert.deepEqual(Array.from(p.y), [20, 30, 40]);
  assert.deepEqual(Array.from(p.chain), [1, 2, 3]);
});

// The buffer against a plain model of it: every draw numbered past what a
// chain has is appended, in the plane's order, and the newest cap are
// kept. Planes carry tails already held, skip numbers (frames lost) and
// bring more than the buffer holds.
test("draws: numbered planes land in the buffer as in a plain list of the newest", async () => {
  const { rng } = await import("../app/plane_synth.js");
  const u = rng(11);
  const cap = 40;
  const pts = new Points(cap, true);
  const model = [];
  const have = [0, 0, 0];
  const totals = [0, 0, 0];
  for (let step = 0; step < 300; step++) {
    const from = [];
    const p = { x: [], y: [], chain: [] };
    for (let c = 0; c < 3; c++) {
      totals[c] += Math.floor(u() * (step % 50 === 0 ? 60 : 6)); // now and then more than cap
      from[c] = Math.max(0, totals[c] - Math.floor(u() * 10)); // a tail, or a gap
      for (let n = from[c]; n < totals[c]; n++) {
        const v = c * 1e6 + n;
        p.x.push(v);
        p.y.push(-v);
        p.chain.push(c);
        if (n >= have[c]) model.push(v);
      }
    }
    const missed = pts.addNumbered(p, from, totals.slice());
    assert.equal(missed, from.reduce((m, f, c) => m + Math.max(0, f - have[c]), 0));
    for (let c = 0; c < 3; c++) have[c] = Math.max(have[c], totals[c]);
    const want = model.slice(-cap);
    assert.deepEqual([...pts.x.slice(0, pts.count)], want, `step ${step}`);
    assert.deepEqual([...pts.y.slice(0, pts.count)], want.map((v) => -v));
    assert.deepEqual([...pts.chain.slice(0, pts.count)], want.map((v) => Math.floor(v / 1e6)));
  }
});

test("draws: a plane's numbered draws are added once, and a reader that skipped frames loses nothing or counts what it lost", () => {
  const pts = new Points(100, true);
  // Two chains: chain 0 has draws 0–2, chain 1 draws 0–1.
  assert.equal(pts.addNumbered({ x: [0, 1, 2, 10, 11], y: [0, 1, 2, 10, 11], chain: [0, 0, 0, 1, 1] }, [0, 0], [3, 2]), 0);
  assert.equal(pts.count, 5);
  // The next plane carries its tail again (chain 0 from 1 to 4, chain 1 from 2): only 3, 4 are new.
  assert.equal(pts.addNumbered({ x: [1, 2, 3, 4, 12], y: [1, 2, 3, 4, 12], chain: [0, 0, 0, 0, 1] }, [1, 2], [5, 3]), 0);
  assert.deepEqual([...pts.x.slice(0, pts.count)], [0, 1, 2, 10, 11, 3, 4, 12]);
  // A plane past the tail: chain 0's 5 and 6 were never received.
  assert.equal(pts.addNumbered({ x: [7], y: [7], chain: [0] }, [7, 3], [8, 3]), 2);
  assert.equal(pts.count, 9);
  // Divergences, numbered over all chains.
  const dv = new Points(10, false);
  assert.equal(dv.addCounted({ x: [1, 2], y: [1, 2] }, 0, 2), 0);
  assert.equal(dv.addCounted({ x: [2, 3], y: [2, 3] }, 1, 3), 0);
  assert.deepEqual([...dv.x.slice(0, dv.count)], [1, 2, 3]);
  assert.equal(dv.addCounted(undefined, 3, 3), 0);
  assert.equal(dv.count, 3);
});

test("link: a race's pace is in the link while the panels race, and not otherwise", () => {
  const base = { target: "funnel", panels: [{ method: "nuts" }, { method: "mfvi" }] };
  assert.equal(new URLSearchParams(galleryQuery({ ...base, pace: "cpu" })).get("pace"), "cpu");
  assert.equal(new URLSearchParams(galleryQuery({ ...base, pace: null })).has("pace"), false);
  assert.equal(new URLSearchParams(galleryQuery(base)).has("pace"), false);
});
