// A gallery panel's history against the truth (sim/gallery's Measure
// list, the stream's plane_history): the error of the mean, of the
// covariance and the distance to the exact answer (KL on the grid for a
// fit with a density, the energy distance for draws) against the budget,
// density plus gradient evaluations, on log-log axes, so that a sampler
// and a fit share the x-axis.

export const SERIES = [
  { key: "mean_error", label: "mean error", color: "#2563eb" },
  { key: "cov_error", label: "cov error", color: "#d97706" },
  { key: "kl", label: "KL(q‖p)", color: "#7c3aed" },
  { key: "energy_distance", label: "energy distance", color: "#059669" },
];

// drawHistory draws points (oldest first) on canvas, sized to its
// element; it returns the number of points drawn.
export function drawHistory(canvas, points) {
  const dpr = Math.min(2, globalThis.devicePixelRatio || 1);
  const w = Math.max(200, canvas.clientWidth || 300);
  const h = Math.max(80, canvas.clientHeight || 100);
  canvas.width = Math.round(w * dpr);
  canvas.height = Math.round(h * dpr);
  const ctx = canvas.getContext("2d");
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, w, h);
  const ok = (v) => typeof v === "number" && v > 0 && Number.isFinite(v);
  const pts = (points ?? []).filter((p) => ok(p.evals));
  let [x0, x1, y0, y1] = [Infinity, -Infinity, Infinity, -Infinity];
  for (const p of pts) {
    x0 = Math.min(x0, Math.log10(p.evals));
    x1 = Math.max(x1, Math.log10(p.evals));
    for (const s of SERIES) {
      if (!ok(p[s.key])) continue;
      y0 = Math.min(y0, Math.log10(p[s.key]));
      y1 = Math.max(y1, Math.log10(p[s.key]));
    }
  }
  const pad = { l: 34, r: 8, t: 16, b: 18 };
  ctx.font = "11px system-ui, sans-serif";
  ctx.fillStyle = "#4b5563";
  if (!(x1 > x0) || !(y1 >= y0)) {
    ctx.fillText("against the truth: waiting for the budget to grow", pad.l, h / 2);
    return 0;
  }
  y0 = Math.floor(y0);
  y1 = Math.max(Math.ceil(y1), y0 + 1);
  const X = (v) => pad.l + ((Math.log10(v) - x0) / (x1 - x0)) * (w - pad.l - pad.r);
  const Y = (v) => h - pad.b - ((Math.log10(v) - y0) / (y1 - y0)) * (h - pad.t - pad.b);
  ctx.strokeStyle = "#e5e7eb";
  ctx.textAlign = "right";
  // every decade a grid line, every k-th a label, at least 13 px apart
  const k = Math.max(1, Math.ceil(13 / ((h - pad.t - pad.b) / (y1 - y0))));
  for (let e = y0; e <= y1; e++) {
    const y = Y(10 ** e);
    ctx.beginPath();
    ctx.moveTo(pad.l, y);
    ctx.lineTo(w - pad.r, y);
    ctx.stroke();
    if ((y1 - e) % k === 0) ctx.fillText(`1e${e}`, pad.l - 3, y + 4);
  }
  ctx.textAlign = "left";
  ctx.fillText(`evaluations, 1e${x0.toFixed(1)} to 1e${x1.toFixed(1)} (log)`, pad.l, h - 4);
  let lx = pad.l;
  for (const s of SERIES) {
    const line = pts.filter((p) => ok(p[s.key]));
    if (!line.length) continue;
    ctx.strokeStyle = ctx.fillStyle = s.color;
    ctx.beginPath();
    line.forEach((p, i) => (i ? ctx.lineTo(X(p.evals), Y(p[s.key])) : ctx.moveTo(X(p.evals), Y(p[s.key]))));
    ctx.stroke();
    for (const p of line) ctx.fillRect(X(p.evals) - 1.5, Y(p[s.key]) - 1.5, 3, 3);
    ctx.fillText(s.label, lx, 11);
    lx += ctx.measureText(s.label).width + 10;
  }
  return pts.length;
}
