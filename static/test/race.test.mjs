// The race chart's lines (static/app/race_chart.js): points against the
// budget, a reset starting a line again, and the drawing on a stub canvas.
import assert from "node:assert/strict";
import { test } from "node:test";

import { RaceChart } from "../app/race_chart.js";

// stubCanvas records the calls a draw makes on its 2-D context.
function stubCanvas() {
  const calls = [];
  const ctx = new Proxy(
    { measureText: (s) => ({ width: 6 * s.length }) },
    {
      get: (o, k) => (k in o ? o[k] : (...args) => calls.push([k, ...args])),
      set: (o, k, v) => ((o[k] = v), true),
    },
  );
  return { calls, canvas: { clientWidth: 400, clientHeight: 160, getContext: () => ctx } };
}

test("RaceChart.add keeps a line's points in budget order and starts again at a reset", () => {
  const c = new RaceChart(stubCanvas().canvas);
  c.add("nuts", "NUTS", 10, 0.5);
  c.add("nuts", "NUTS", 10, 0.4); // the same budget: a frame with no step
  c.add("nuts", "NUTS", 0, 0.4); // nothing spent: no point on a log axis
  c.add("nuts", "NUTS", 20, NaN); // not measured yet
  c.add("nuts", "NUTS", 40, 0.2);
  assert.deepEqual(c.lines.get("nuts").pts, [
    [10, 0.5],
    [40, 0.2],
  ]);
  c.add("nuts", "NUTS", 5, 0.9); // the run was reset
  assert.deepEqual(c.lines.get("nuts").pts, [[5, 0.9]]);
  assert.equal(c.points(), 1);
});

test("RaceChart.add thins a long line but keeps its last point", () => {
  const c = new RaceChart(stubCanvas().canvas);
  for (let i = 1; i <= 5000; i++) c.add("m", "m", i, 1 / i);
  const pts = c.lines.get("m").pts;
  assert.ok(pts.length <= 2000, `${pts.length} points`);
  assert.deepEqual(pts[pts.length - 1], [5000, 1 / 5000]);
  for (let i = 1; i < pts.length; i++) assert.ok(pts[i][0] > pts[i - 1][0]);
});

test("RaceChart.draw draws one line per method, or a hint when empty", () => {
  const s = stubCanvas();
  const c = new RaceChart(s.canvas);
  c.draw();
  assert.ok(s.calls.some(([k, t]) => k === "fillText" && /play the panels/.test(t)));
  c.add("a", "NUTS", 100, 0.3);
  c.add("a", "NUTS", 1000, 0.1);
  c.add("b", "Mean-field", 100, 0.9);
  c.add("b", "Mean-field", 1000, 0.9);
  s.calls.length = 0;
  c.draw();
  assert.equal(s.calls.filter(([k]) => k === "stroke").length, 3); // the axes and two lines
  const labels = s.calls.filter(([k]) => k === "fillText").map(([, t]) => t);
  assert.ok(labels.includes("NUTS") && labels.includes("Mean-field"), labels.join(", "));
});

test("exactErrors: a fit's mean in exact sds and its sds' relative error, none without an exact posterior", async () => {
  const { exactErrors } = await import("../app/race_page.js");
  const exact = { mean: [1, 2], cov: [[4, 0], [0, 0.25]] };
  // b0 one exact sd (2) off, b right; sds 3 (1.5×) and 0.5 (exact).
  const e = exactErrors({ exact, gaussian: { mean: [3, 2], cov: [[9, 0], [0, 0.25]] } });
  assert.ok(Math.abs(e.mean_error - 1) < 1e-12 && Math.abs(e.sd_error - 0.5) < 1e-12, JSON.stringify(e));
  // A sampler's moments over all its draws.
  const s = exactErrors({ exact, moments: [{ mean: 1, sd: 2 }, { mean: 2.5, sd: 0.4 }] });
  assert.ok(Math.abs(s.mean_error - 1) < 1e-12 && Math.abs(s.sd_error - 0.2) < 1e-12, JSON.stringify(s));
  assert.deepEqual(exactErrors({ gaussian: { mean: [0, 0], cov: [[1, 0], [0, 1]] } }), {});
  assert.deepEqual(exactErrors({ exact, warmup: true, moments: [{ mean: 1, sd: 2 }, { mean: 2, sd: 0.5 }] }), {});
  assert.deepEqual(exactErrors(undefined), {});
});

test("momentsError computes sim.MomentsError's numbers on its cases", async () => {
  const { readFile } = await import("node:fs/promises");
  const { momentsError } = await import("../app/race_page.js");
  const { cases } = JSON.parse(await readFile(new URL("../../sim/testdata/moments_error.json", import.meta.url), "utf8"));
  assert.ok(cases.length > 0);
  for (const c of cases) {
    const [me, se] = momentsError(c.mean, c.sd, c.exact_mean, c.exact_sd);
    const near = (got, want) => (want === null ? Number.isNaN(got) : Math.abs(got - want) <= 1e-12);
    assert.ok(near(me, c.mean_error) && near(se, c.sd_error), `${c.why}: ${me}, ${se}`);
  }
});

test("bandErrors: a GP band's closed-form moments against the exact GP's, none without them", async () => {
  const { bandErrors } = await import("../app/race_page.js");
  const x = [-1, 0, 1];
  const exact = { x, mean: [9, 9, 9], f_mean: [0, 1, 2], f_sd: [1, 0.5, 2] };
  // the mean 0.2/0.5 = 0.4 exact sds off at x = 0, the sd 10% wide at x = 1
  const e = bandErrors({ x, mean: [5, 5, 5], f_mean: [0, 1.2, 2], f_sd: [1, 0.5, 2.2] }, exact);
  assert.ok(Math.abs(e.mean_error - 0.4) < 1e-12 && Math.abs(e.sd_error - 0.1) < 1e-12, JSON.stringify(e));
  assert.deepEqual(bandErrors({ x, mean: [0, 1, 2] }, exact), {}, "a band of sampled functions only");
  assert.deepEqual(bandErrors({ x, f_mean: [0, 1, 2], f_sd: [1, 1, 1] }, { x, mean: [0, 1, 2] }), {}, "an exact band without moments");
  assert.deepEqual(bandErrors({ x: [0], f_mean: [0], f_sd: [1] }, exact), {}, "another grid");
  assert.deepEqual(bandErrors(undefined, exact), {});
});

// fakeDocument is the least of a DOM that Race builds its control from.
function fakeDocument() {
  const el = () => {
    const e = {
      children: [],
      dataset: {},
      style: {},
      listeners: {},
      append: (...c) => {
        e.children.push(...c);
        if (e.value === "" && c[0]?.value !== undefined) e.value = c[0].value; // a select shows its first option
      },
      after: () => {},
      setAttribute: () => {},
      addEventListener: (type, fn) => (e.listeners[type] = fn),
      getContext: () => stubCanvas().canvas.getContext(),
      value: "",
    };
    return e;
  };
  return { createElement: el };
}

test("Race: a link's pace arms the race, and Play then paces the runs by it and says so to the link", async () => {
  globalThis.document = fakeDocument();
  globalThis.Option = function (text, value) {
    return { text, value };
  };
  const posts = [];
  globalThis.fetch = async (url, init) => {
    posts.push([url, JSON.parse(init.body)]);
    return { ok: true, text: async () => "{}" };
  };
  try {
    const { Race } = await import("../app/race.js");
    const paced = [];
    let played = 0;
    const race = new Race(document.createElement("div"), {
      runs: () => ["r1", null, "r2"],
      play: () => played++,
      measures: [{ key: "mean_error", label: "mean error" }],
      onPace: (u) => paced.push(u),
    });
    race.unit.input.value = "grads";
    race.arm("fast"); // not a unit: nothing armed
    assert.equal(race.armed, undefined);
    race.arm("cpu");
    assert.equal(race.armed, "cpu");
    assert.equal(race.unit.input.value, "cpu", "the unit shown is the link's");
    await race.start();
    assert.deepEqual(posts, [["/api/pace", { runs: ["r1", "r2"], unit: "cpu" }]]);
    assert.deepEqual(paced, ["cpu"]);
    assert.equal(race.paced, "cpu");
    assert.equal(race.armed, null, "raced: Play plays from here on");
    assert.equal(played, 1);
    race.rearm(); // new runs: Play races them again by the same unit
    assert.equal(race.paced, null);
    assert.equal(race.armed, "cpu");
  } finally {
    delete globalThis.document;
    delete globalThis.Option;
    delete globalThis.fetch;
  }
});

test("RaceChart.draw labels at most five decades of an error and keeps the legend above the lines", () => {
  const s = stubCanvas();
  const c = new RaceChart(s.canvas);
  c.note = "against the exact GP";
  c.add("gpvi", "Variational GP", 3, 48);
  c.add("gpvi", "Variational GP", 3000, 1.3e-12);
  c.draw();
  const texts = s.calls.filter(([k]) => k === "fillText");
  // 1e-12 to 48: thirteen decades, labelled every third at the left edge (x = 2)
  const yDecades = texts.filter(([, t, x]) => /^1e-?\d+$/.test(t) && x === 2).map(([, t]) => t);
  assert.deepEqual(yDecades, ["1e-11", "1e-8", "1e-5", "1e-2", "1e1"]);
  const legend = texts.filter(([, t]) => t === "Variational GP" || t === "against the exact GP");
  assert.equal(legend.length, 2);
  const moves = s.calls.filter(([k]) => k === "moveTo" || k === "lineTo").map(([, , y]) => y);
  const top = Math.min(...moves);
  for (const [, t, , y] of legend) assert.ok(y < top, `${t} at y ${y}, the plot from ${top}`);
});
