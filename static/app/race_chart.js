// The race chart: one line per method of a measure against the budget
// spent (gradient evaluations or CPU seconds), so that panels stepping at
// different rates are compared at equal effort. The x-axis is always
// logarithmic; the y-axis is too when every value is positive (an error
// against the exact answer), linear otherwise (an objective).

const COLORS = ["#2563eb", "#d97706", "#059669", "#7c3aed", "#dc2626", "#0891b2", "#65a30d", "#db2777"];

// MAX_POINTS bounds a line: older points are thinned, every other one
// dropped, so a long race keeps its whole shape.
const MAX_POINTS = 2000;

export class RaceChart {
  constructor(canvas) {
    this.canvas = canvas;
    this.lines = new Map(); // key → {label, pts: [[x, y]]}
    this.xLabel = "gradient evaluations";
    this.yLabel = "";
    this.note = ""; // said after the legend: what the lines are measured against
  }

  // set replaces line key's points ([[budget, value]], budget ascending).
  set(key, label, pts) {
    this.lines.set(key, { label, pts: pts.filter(([x, y]) => x > 0 && Number.isFinite(x) && Number.isFinite(y)) });
  }

  // add appends a point to line key when its budget has grown.
  add(key, label, x, y) {
    if (!(x > 0) || !Number.isFinite(x) || !Number.isFinite(y)) return;
    let l = this.lines.get(key);
    if (!l) this.lines.set(key, (l = { label, pts: [] }));
    l.label = label;
    const last = l.pts[l.pts.length - 1];
    if (last && x < last[0]) l.pts.length = 0; // a reset: the budget starts again
    else if (last && x === last[0]) return;
    l.pts.push([x, y]);
    if (l.pts.length > MAX_POINTS) l.pts = l.pts.filter((_, i) => i % 2 === 0 || i === l.pts.length - 1);
  }

  clear(key) {
    if (key === undefined) this.lines.clear();
    else this.lines.delete(key);
  }

  // points counts the points drawn: for the browser test.
  points() {
    let n = 0;
    for (const l of this.lines.values()) n += l.pts.length;
    return n;
  }

  draw() {
    const c = this.canvas;
    const dpr = Math.min(2, globalThis.devicePixelRatio || 1);
    const w = Math.max(240, c.clientWidth || 480);
    const h = Math.max(120, c.clientHeight || 180);
    c.width = Math.round(w * dpr);
    c.height = Math.round(h * dpr);
    const ctx = c.getContext("2d");
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = "#fff";
    ctx.fillRect(0, 0, w, h);
    ctx.font = "11px system-ui, sans-serif";
    const all = [...this.lines.values()].flatMap((l) => l.pts);
    if (!all.length) {
      ctx.fillStyle = "#6b7280";
      ctx.fillText("play the panels to race them", 12, h / 2);
      return;
    }
    const logY = all.every(([, y]) => y > 0);
    const fy = logY ? Math.log10 : (v) => v;
    let [x0, x1, y0, y1] = [Infinity, -Infinity, Infinity, -Infinity];
    for (const [x, y] of all) {
      x0 = Math.min(x0, Math.log10(x));
      x1 = Math.max(x1, Math.log10(x));
      y0 = Math.min(y0, fy(y));
      y1 = Math.max(y1, fy(y));
    }
    if (x1 - x0 < 1e-9) [x0, x1] = [x0 - 0.5, x1 + 0.5];
    if (y1 - y0 < 1e-12) [y0, y1] = [y0 - 0.5, y1 + 0.5];
    // The legend (and the note) in rows above the plot, so no line runs
    // under a label however high it starts.
    const items = [...this.lines.values()].map((l, i) => ({ text: l.label, color: COLORS[i % COLORS.length] }));
    if (this.note) items.push({ text: this.note, color: "#6b7280" });
    const rows = [[]];
    let used = 0;
    for (const it of items) {
      const iw = ctx.measureText(it.text).width + 12;
      if (used && used + iw > w - 52) rows.push([]), (used = 0);
      rows.at(-1).push({ ...it, x: 46 + used });
      used += iw;
    }
    const pad = { l: 46, r: 10, t: 8 + 14 * rows.length, b: 30 };
    const px = (x) => pad.l + ((Math.log10(x) - x0) / (x1 - x0)) * (w - pad.l - pad.r);
    const py = (y) => h - pad.b - ((fy(y) - y0) / (y1 - y0)) * (h - pad.t - pad.b);
    rows.forEach((row, r) => {
      for (const it of row) {
        ctx.fillStyle = it.color;
        ctx.fillText(it.text, it.x, 12 + 14 * r);
      }
    });
    ctx.strokeStyle = "#d1d5db";
    ctx.fillStyle = "#6b7280";
    ctx.beginPath();
    ctx.moveTo(pad.l, pad.t);
    ctx.lineTo(pad.l, h - pad.b);
    ctx.lineTo(w - pad.r, h - pad.b);
    ctx.stroke();
    for (let e = Math.ceil(x0); e <= Math.floor(x1); e++) {
      const x = px(10 ** e);
      ctx.fillText(`1e${e}`, x - 10, h - pad.b + 12);
    }
    ctx.fillText(this.xLabel + " (log)", w / 2 - 50, h - 4);
    if (logY && Math.floor(y1) - Math.ceil(y0) >= 1) {
      // decades, every k-th so that at most five are labelled
      const k = Math.ceil((Math.floor(y1) - Math.ceil(y0) + 1) / 5);
      ctx.strokeStyle = "#f3f4f6";
      for (let e = Math.ceil(y0); e <= Math.floor(y1); e += k) {
        const y = py(10 ** e);
        ctx.beginPath();
        ctx.moveTo(pad.l, y);
        ctx.lineTo(w - pad.r, y);
        ctx.stroke();
        ctx.fillText(`1e${e}`, 2, y + 4);
      }
    } else {
      const fmt = (v) => (logY ? (10 ** v).toPrecision(2) : v.toPrecision(3));
      ctx.fillText(fmt(y1), 2, pad.t + 8);
      ctx.fillText(fmt(y0), 2, h - pad.b);
    }
    let i = 0;
    for (const l of this.lines.values()) {
      ctx.strokeStyle = COLORS[i++ % COLORS.length];
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      l.pts.forEach(([x, y], k) => (k ? ctx.lineTo(px(x), py(y)) : ctx.moveTo(px(x), py(y))));
      ctx.stroke();
    }
  }
}
