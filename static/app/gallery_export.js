// A gallery panel's exports: the plane as a PNG for slides (a title, the
// scenario's claim when one is open, the plane drawn afresh at twice the
// screen's resolution with every mark, a legend and the key in words),
// the draws the page holds as CSV, and q's parameters as JSON. The
// builders of text are pure and node-tested (static/test/gallery.test.mjs).

import { saveBlob } from "./download.js";
import { drawPlane, describe } from "./plane.js";
import { ACCEPT, CHAIN_COLORS, Q, RAMP, REJECT } from "./plane_style.js";

// drawsCSV is draws ({x, y, chain, count}, newest last) as CSV: chain and
// the two parameters by name, at full precision.
export function drawsCSV(draws, params) {
  const lines = [["chain", ...params].join(",")];
  const n = draws ? Math.min(draws.count ?? draws.x.length, draws.x.length) : 0;
  for (let i = 0; i < n; i++) lines.push(`${draws.chain ? draws.chain[i] : 0},${draws.x[i]},${draws.y[i]}`);
  return lines.join("\n") + "\n";
}

// qJSON is what a family's fit is, as JSON: the method and its controls,
// the target and its controls, the seed and step, q's mean and covariance
// in the coordinates it is fitted in (a Gaussian family's parameters),
// SVGD's particles, and the measures beside the exact log Z.
export function qJSON({ method, controls, target, targetControls, seed, step, params, moments, particles, measure, logZ, paretoK }) {
  const out = { method, controls, target, target_controls: targetControls, seed, step, params };
  if (moments) out.q = { mean: Array.from(moments.mean), cov: moments.cov.map((r) => Array.from(r)) };
  if (particles) out.particles = { x: Array.from(particles.x), y: Array.from(particles.y) };
  if (measure) out.measure = measure;
  out.log_z = logZ;
  if (paretoK != null) out.pareto_k = paretoK;
  return JSON.stringify(out, null, 2) + "\n";
}

// legendFor lists what the PNG of frame shows, each {label, color, kind}.
export function legendFor(frame) {
  const items = [{ label: "exact density: 99 … 20% regions", color: RAMP[3], kind: "fill" }];
  if (frame.q) items.push({ label: "q: the same regions", color: Q, kind: "line" });
  if (frame.particles) items.push({ label: "q's particles", color: Q, kind: "dot" });
  const chains = frame.draws ? Math.max(1, frame.chains ?? 1) : 0;
  for (let c = 0; c < chains; c++) items.push({ label: `chain ${c + 1}`, color: CHAIN_COLORS[c % CHAIN_COLORS.length], kind: "dot" });
  const t = frame.transition;
  if (t) items.push({ label: t.accepted && !t.divergent ? "latest move (accepted)" : "latest move (rejected)", color: t.accepted && !t.divergent ? ACCEPT : REJECT, kind: "line" });
  if (frame.divergences?.count ?? frame.divergences?.x?.length) items.push({ label: "divergences", color: REJECT, kind: "cross" });
  return items;
}

// savePNG draws frame with a title, a claim and a legend on a canvas at
// scale × the plot's CSS size and hands it to save (by default, a
// download as filename).
export function savePNG(frame, { title, claim, size, filename, scale = 2, save = saveBlob }) {
  const W = Math.round(size);
  const font = 13;
  const wrap = (ctx, text, width) => {
    const lines = [];
    let line = "";
    for (const w of String(text).split(" ")) {
      const next = line ? `${line} ${w}` : w;
      if (ctx.measureText(next).width > width && line) {
        lines.push(line);
        line = w;
      } else line = next;
    }
    if (line) lines.push(line);
    return lines;
  };
  const probe = document.createElement("canvas").getContext("2d");
  probe.font = `bold ${font + 2}px system-ui, sans-serif`;
  const titleLines = wrap(probe, title, W - 16);
  probe.font = `${font}px system-ui, sans-serif`;
  const claimLines = claim ? wrap(probe, `Claim: ${claim}`, W - 16) : [];
  const keyLines = wrap(probe, describe(frame), W - 16);
  const legend = legendFor(frame);
  const col = 28 + Math.max(...legend.map((it) => probe.measureText(it.label).width));
  const perRow = Math.max(1, Math.floor((W - 16) / col));
  const lh = font + 5;
  const head = 8 + titleLines.length * (lh + 2) + claimLines.length * lh + 4;
  const foot = 6 + Math.ceil(legend.length / perRow) * lh + keyLines.length * lh + 8;
  const H = head + W + foot;
  const c = document.createElement("canvas");
  c.width = W * scale;
  c.height = H * scale;
  const ctx = c.getContext("2d");
  ctx.scale(scale, scale);
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, W, H);
  ctx.fillStyle = "#111827";
  ctx.textBaseline = "top";
  let y = 8;
  ctx.font = `bold ${font + 2}px system-ui, sans-serif`;
  for (const l of titleLines) (ctx.fillText(l, 8, y), (y += lh + 2));
  ctx.font = `${font}px system-ui, sans-serif`;
  for (const l of claimLines) (ctx.fillText(l, 8, y), (y += lh));
  ctx.save();
  ctx.translate(0, head);
  drawPlane(ctx, frame, { revealed: Infinity }, W, W);
  ctx.restore();
  y = head + W + 6;
  ctx.font = `${font}px system-ui, sans-serif`;
  legend.forEach((it, i) => {
    const x = 8 + (i % perRow) * col;
    const yy = y + Math.floor(i / perRow) * lh;
    ctx.fillStyle = ctx.strokeStyle = it.color;
    ctx.lineWidth = 2;
    if (it.kind === "fill") ctx.fillRect(x, yy + 2, 14, 10);
    else if (it.kind === "line") (ctx.beginPath(), ctx.moveTo(x, yy + 7), ctx.lineTo(x + 14, yy + 7), ctx.stroke());
    else if (it.kind === "cross") (ctx.beginPath(), ctx.moveTo(x + 3, yy + 3), ctx.lineTo(x + 11, yy + 11), ctx.moveTo(x + 11, yy + 3), ctx.lineTo(x + 3, yy + 11), ctx.stroke());
    else ctx.fillRect(x + 4, yy + 4, 6, 6);
    ctx.fillStyle = "#111827";
    ctx.fillText(it.label, x + 20, yy);
  });
  y += Math.ceil(legend.length / perRow) * lh + 2;
  ctx.fillStyle = "#4b5563";
  for (const l of keyLines) (ctx.fillText(l, 8, y), (y += lh));
  return new Promise((resolve) =>
    c.toBlob((b) => {
      if (b) save(b, filename);
      resolve({ width: c.width, height: c.height, legend: legend.map((it) => it.label) });
    }, "image/png"),
  );
}

// saveText downloads text as filename with type.
export function saveText(text, filename, type) {
  saveBlob(new Blob([text], { type }), filename);
}
