// Geometry of the plane view (plane.js): where the plot and its two
// marginal strips sit on a canvas, the maps between a target's box and
// pixels, and the axes' ticks. Pure functions, tested by node
// (static/test/plane.test.mjs).

// fonts returns the sizes, in CSS pixels, of tick labels and axis names:
// at least 12 px on a page, 18 px in presentation mode, so that a row at
// the back of a lecture hall can read them.
export function fonts(presentation = false) {
  return presentation ? { tick: 18, label: 20 } : { tick: 12, label: 14 };
}

// layout splits a canvas of w × h CSS pixels into the joint plot (plot),
// the strip above it that holds the first parameter's marginal (top) and
// the strip to its right that holds the second's (right). The margins are
// sized from the fonts, so ticks and names are never clipped; the strips
// take a sixth of the smaller side, within [36, 110] px.
export function layout(w, h, presentation = false) {
  const f = fonts(presentation);
  const strip = Math.round(Math.min(110, Math.max(36, Math.min(w, h) / 6)));
  const left = Math.round(f.label * 1.4 + f.tick * 3.4 + 8); // name, then ticks like "−12.5"
  const bottom = Math.round(f.tick * 1.6 + f.label * 1.6 + 6);
  const top = 6;
  const right = 8;
  const plot = {
    x: left,
    y: top + strip + 4,
    w: Math.max(40, w - left - right - strip - 4),
    h: Math.max(40, h - top - strip - 4 - bottom),
  };
  return {
    w,
    h,
    fonts: f,
    plot,
    top: { x: plot.x, y: top, w: plot.w, h: strip },
    right: { x: plot.x + plot.w + 4, y: plot.y, w: strip, h: plot.h },
  };
}

// transform maps box = {x: [lo, hi], y: [lo, hi]} onto the pixel rectangle
// rect = {x, y, w, h}, y upwards: px(box.x[0]) = rect.x, py(box.y[0]) =
// rect.y + rect.h. invX and invY undo them.
export function transform(box, rect) {
  const [x0, x1] = box.x;
  const [y0, y1] = box.y;
  const sx = rect.w / (x1 - x0);
  const sy = rect.h / (y1 - y0);
  const bottom = rect.y + rect.h;
  return {
    px: (x) => rect.x + (x - x0) * sx,
    py: (y) => bottom - (y - y0) * sy,
    invX: (p) => x0 + (p - rect.x) / sx,
    invY: (p) => y0 + (bottom - p) / sy,
    sx,
    sy,
  };
}

// ticks returns round values (1, 2 or 5 times a power of ten apart) in
// [lo, hi]: the finest such spacing that gives at most max of them, or,
// when even that gives fewer than two, the next finer one, so that an axis
// always has at least two ticks to read its scale from.
export function ticks(lo, hi, max = 6) {
  if (!(hi > lo) || !Number.isFinite(lo) || !Number.isFinite(hi)) return [];
  const p = 10 ** Math.floor(Math.log10(hi - lo));
  const steps = [5, 2, 1, 0.5, 0.2, 0.1, 0.05, 0.02].map((m) => m * p); // coarse to fine
  const at = (step) => {
    const out = [];
    for (let k = Math.ceil(lo / step - 1e-9); k * step <= hi + 1e-9 * step; k++) out.push(Number((k * step).toPrecision(12)));
    return out;
  };
  let best = at(steps[0]);
  for (const step of steps) {
    const t = at(step);
    if (t.length > Math.max(2, max)) break;
    best = t;
  }
  if (best.length < 2) best = at(steps.find((step) => at(step).length >= 2));
  return best;
}

// tickLabel prints a tick value briefly, with a true minus sign.
export function tickLabel(v) {
  const s = Math.abs(v) >= 1e4 || (v !== 0 && Math.abs(v) < 1e-3) ? v.toExponential(1) : String(Number(v.toPrecision(6)));
  return s.replace(/^-/, "\u2212");
}

// tickCount is how many ticks fit along a side of len pixels with labels
// about labelPx wide (or tall) and two thirds of that between them.
export function tickCount(len, labelPx) {
  return Math.max(2, Math.min(10, Math.floor(len / (1.67 * labelPx))));
}

// edgePoint returns b if it lies in rect = {x, y, w, h}, else the point
// where the segment from a (inside) to b leaves rect: where a mark for b,
// a divergence far outside the box, is still seen.
export function edgePoint([ax, ay], [bx, by], rect) {
  let t = 1;
  const x1 = rect.x + rect.w;
  const y1 = rect.y + rect.h;
  if (bx < rect.x) t = Math.min(t, (rect.x - ax) / (bx - ax));
  if (bx > x1) t = Math.min(t, (x1 - ax) / (bx - ax));
  if (by < rect.y) t = Math.min(t, (rect.y - ay) / (by - ay));
  if (by > y1) t = Math.min(t, (y1 - ay) / (by - ay));
  t = Math.max(0, t);
  return [ax + t * (bx - ax), ay + t * (by - ay)];
}
