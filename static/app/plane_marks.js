// The marks of the plane view (plane.js) drawn over the density: SVGD's
// particles, the divergences so far, and the latest transition with its
// arrow, path or tree, each over a white halo so it reads over 20,000
// points.

import { edgePoint } from "./plane_geom.js";
import { ACCEPT, INK, Q, REJECT, TURN } from "./plane_style.js";
import { visible } from "./plane_tree.js";

export function drawParticles(ctx, p, T, s) {
  ctx.fillStyle = Q;
  ctx.strokeStyle = "#ffffff";
  ctx.lineWidth = 1;
  for (let k = 0; k < Math.min(p.x.length, p.y.length); k++) {
    ctx.beginPath();
    ctx.arc(T.px(p.x[k]), T.py(p.y[k]), 3.5 * s, 0, 2 * Math.PI);
    ctx.fill();
    ctx.stroke();
  }
}

function cross(ctx, x, y, r) {
  ctx.moveTo(x - r, y - r);
  ctx.lineTo(x + r, y + r);
  ctx.moveTo(x - r, y + r);
  ctx.lineTo(x + r, y - r);
}

// markCount is how many points a {x, y, count?} holds: count when the
// arrays are a buffer's whole capacity, as the draws' and divergences'
// growing buffers are.
export function markCount(dv) {
  const n = Math.min(dv.x.length, dv.y.length);
  return dv.count === undefined ? n : Math.min(dv.count, n);
}

export function drawDivergences(ctx, dv, T, s) {
  ctx.strokeStyle = REJECT;
  ctx.lineWidth = 1.5 * s;
  ctx.beginPath();
  for (let k = 0, n = markCount(dv); k < n; k++) cross(ctx, T.px(dv.x[k]), T.py(dv.y[k]), 3.5 * s);
  ctx.stroke();
}

function arrow(ctx, [x0, y0], [x1, y1], color, dashed, s) {
  const len = Math.hypot(x1 - x0, y1 - y0);
  if (len < 1) return;
  const ux = (x1 - x0) / len;
  const uy = (y1 - y0) / len;
  const head = Math.min(12 * s, len / 2);
  ctx.fillStyle = color;
  ctx.setLineDash(dashed ? [6, 4] : []);
  ctx.beginPath();
  ctx.moveTo(x0, y0);
  ctx.lineTo(x1 - ux * head * 0.8, y1 - uy * head * 0.8);
  halo(ctx, 2.5 * s, color);
  ctx.setLineDash([]);
  ctx.beginPath();
  ctx.moveTo(x1, y1);
  ctx.lineTo(x1 - ux * head - uy * head * 0.45, y1 - uy * head + ux * head * 0.45);
  ctx.lineTo(x1 - ux * head + uy * head * 0.45, y1 - uy * head - ux * head * 0.45);
  ctx.closePath();
  ctx.fill();
}

// drawTransition draws the first r points of a decoded transition: its
// polylines and points (a thrown-away NUTS half dashed and hollow), the
// ends of the subtrees that made a U-turn joined by a dashed chord, the
// start, the divergence once reached, and, when every point shows, the
// chosen point and the arrow from start to proposal (green accepted,
// red and dashed rejected).
export function drawTransition(ctx, tr, T, r, s, plot) {
  const shown = Math.min(r, tr.total);
  const P = (i) => [T.px(tr.points[i][0]), T.py(tr.points[i][1])];
  const dot = (i, rad) => {
    ctx.beginPath();
    ctx.arc(...P(i), rad, 0, 2 * Math.PI);
  };
  for (const seg of tr.segments) {
    const idx = visible(seg, shown);
    if (idx.length === 0) continue;
    ctx.setLineDash(seg.merged ? [] : [4, 3]);
    ctx.beginPath();
    idx.forEach((i, k) => (k ? ctx.lineTo(...P(i)) : ctx.moveTo(...P(i))));
    halo(ctx, 1.8 * s, seg.merged ? INK : "#4b5563");
    ctx.setLineDash([]);
    ctx.lineWidth = 1.2 * s;
    for (const i of idx.slice(1)) {
      dot(i, 3 * s);
      ctx.fillStyle = seg.merged ? INK : "#ffffff";
      ctx.fill();
      ctx.strokeStyle = seg.merged ? "#ffffff" : "#4b5563";
      ctx.stroke();
    }
  }
  for (const e of tr.ends) {
    if (e.last >= shown || !e.uturn) continue;
    ctx.setLineDash([3, 3]);
    ctx.beginPath();
    ctx.moveTo(...P(e.first));
    ctx.lineTo(...P(e.last));
    halo(ctx, 2 * s, TURN);
    ctx.setLineDash([]);
    for (const i of [e.first, e.last]) {
      dot(i, 5.5 * s);
      ctx.stroke();
    }
  }
  if (tr.points.length > 0) {
    const [sx, sy] = P(0);
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(sx - 5.5 * s, sy - 5.5 * s, 11 * s, 11 * s);
    ctx.fillStyle = "#000000";
    ctx.fillRect(sx - 4 * s, sy - 4 * s, 8 * s, 8 * s);
  }
  if (tr.divergentAt >= 0 && tr.divergentAt < shown) {
    // far outside the box, it is marked where its last step leaves it
    const m = 10 * s; // the cross whole inside the plot
    const inner = { x: plot.x + m, y: plot.y + m, w: plot.w - 2 * m, h: plot.h - 2 * m };
    const [x, y] = tr.divergentAt > 0 ? edgePoint(P(tr.divergentAt - 1), P(tr.divergentAt), inner) : P(0);
    ctx.beginPath();
    cross(ctx, x, y, 9 * s);
    halo(ctx, 3.5 * s, REJECT);
  }
  if (shown < tr.total) return;
  // A divergent transition's rejection is its cross; an arrow to a point
  // far outside the box would only point away.
  if (tr.arrow && tr.divergentAt < 0) {
    const to = [T.px(tr.arrow.to[0]), T.py(tr.arrow.to[1])];
    arrow(ctx, P(0), to, tr.arrow.accepted ? ACCEPT : REJECT, !tr.arrow.accepted, s);
    if (tr.segments.length === 0) {
      ctx.beginPath();
      ctx.arc(...to, 4 * s, 0, 2 * Math.PI);
      ctx.fillStyle = tr.arrow.accepted ? ACCEPT : REJECT;
      ctx.fill();
    }
  }
  if (tr.chosen >= 0) {
    dot(tr.chosen, 9 * s);
    halo(ctx, 2.5 * s, ACCEPT);
  }
}

// halo strokes the current path in color over a white band twice as wide,
// so that a mark reads over 20,000 points.
function halo(ctx, width, color) {
  ctx.strokeStyle = "rgba(255, 255, 255, 0.9)";
  ctx.lineWidth = width * 2.4;
  ctx.stroke();
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  ctx.stroke();
}
