// The frame of the plane view (plane.js): the axes with their ticks and
// the parameters' names, and the marginal strips above and to the right.

import { tickCount, tickLabel, ticks } from "./plane_geom.js";
import { binCount, histogram, marginalPoints, maxOf } from "./plane_hist.js";
import { HIST, INK, Q } from "./plane_style.js";

export function drawAxes(ctx, frame, L, T) {
  const { plot, fonts: f } = L;
  ctx.strokeStyle = "#6b7280";
  ctx.lineWidth = 1;
  ctx.strokeRect(plot.x + 0.5, plot.y + 0.5, plot.w - 1, plot.h - 1);
  ctx.fillStyle = INK;
  ctx.font = `${f.tick}px system-ui, sans-serif`;
  const tick = 5;
  ctx.textAlign = "center";
  ctx.textBaseline = "top";
  for (const v of ticks(...frame.box.x, tickCount(plot.w, f.tick * 3.2))) {
    const x = T.px(v);
    ctx.fillRect(x - 0.5, plot.y + plot.h, 1, tick);
    ctx.fillText(tickLabel(v), x, plot.y + plot.h + tick + 2);
  }
  ctx.textAlign = "right";
  ctx.textBaseline = "middle";
  for (const v of ticks(...frame.box.y, tickCount(plot.h, f.tick * 1.4))) {
    const y = T.py(v);
    ctx.fillRect(plot.x - tick, y - 0.5, tick, 1);
    ctx.fillText(tickLabel(v), plot.x - tick - 3, y);
  }
  const [nx, ny] = frame.params ?? ["x", "y"];
  ctx.font = `italic ${f.label}px system-ui, sans-serif`;
  ctx.textAlign = "center";
  ctx.textBaseline = "bottom";
  ctx.fillText(nx, plot.x + plot.w / 2, L.h - 4);
  ctx.save();
  ctx.translate(4 + f.label * 0.6, plot.y + plot.h / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.textBaseline = "middle";
  ctx.fillText(ny, 0, 0);
  ctx.restore();
}

// drawMarginals draws each parameter's histogram of the draws (as a
// density) in its strip with the exact marginal over it as a line, and
// q's marginal, where the frame has it, dashed.
export function drawMarginals(ctx, frame, L) {
  const d = frame.draws;
  const n = d ? Math.min(d.count ?? d.x.length, d.x.length) : 0;
  for (const axis of [0, 1]) {
    const strip = axis === 0 ? L.top : L.right;
    const [lo, hi] = axis === 0 ? frame.box.x : frame.box.y;
    const hist = n > 0 ? histogram(axis === 0 ? d.x : d.y, lo, hi, binCount(n), n) : null;
    const exact = frame.exact?.marginals?.[axis];
    const q = frame.q?.marginals?.[axis];
    const top = maxOf(hist?.density, exact, q) * 1.08;
    if (!(top > 0)) continue;
    // along = position along the axis, across = height of the density
    const along = (v) => (axis === 0 ? strip.x : strip.y + strip.h) + ((v - lo) / (hi - lo)) * (axis === 0 ? strip.w : -strip.h);
    const across = (dv) => (axis === 0 ? strip.y + strip.h : strip.x) + (dv / top) * (axis === 0 ? -strip.h : strip.w);
    const pt = (a, b) => (axis === 0 ? [a, b] : [b, a]);
    ctx.strokeStyle = "#d1d5db";
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(...pt(along(lo), across(0)));
    ctx.lineTo(...pt(along(hi), across(0)));
    ctx.stroke();
    if (hist) {
      ctx.fillStyle = HIST;
      ctx.beginPath();
      hist.density.forEach((dv, b) => {
        if (dv <= 0) return;
        const [a0, a1] = [along(hist.edges[b]), along(hist.edges[b + 1])];
        const [c0, c1] = [across(0), across(dv)];
        if (axis === 0) ctx.rect(a0, c1, a1 - a0, c0 - c1);
        else ctx.rect(c0, a1, c1 - c0, a0 - a1);
      });
      ctx.fill();
    }
    const line = (m, color, dash) => {
      ctx.strokeStyle = color;
      ctx.lineWidth = 1.8;
      ctx.setLineDash(dash);
      ctx.beginPath();
      marginalPoints(m, lo, hi).forEach(([v, dv], k) => (k ? ctx.lineTo(...pt(along(v), across(dv))) : ctx.moveTo(...pt(along(v), across(dv)))));
      ctx.stroke();
      ctx.setLineDash([]);
    };
    if (exact) line(exact, INK, []);
    if (q) line(q, Q, [5, 3]);
  }
}
