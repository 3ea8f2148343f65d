// What the predictive plot adds to f's band: the band of y, f plus the
// method's observation noise (mean ± 2√(sd_f² + σ²)), behind a toggle, so
// a method that "explains the data as noise" shows it; and the latest
// control change, marked on the plot as on the objective ("Prior scale =
// 0.5 at step 1,234"). yBand and changeNote are pure, for tests
// (static/test/yband.test.mjs).

const FILL = "rgba(37, 99, 235, 0.07)";
const EDGE = "rgba(37, 99, 235, 0.5)";

// yBand is the ±2σ band of y from f's band (mean ± 2 sd_f, so sd_f is
// (hi − lo)/4) and the noise std sigma: {x, lo, hi}; null without a band
// or a finite positive sigma.
export function yBand(band, sigma) {
  if (!band?.x?.length || !(sigma > 0) || !Number.isFinite(sigma)) return null;
  const lo = [];
  const hi = [];
  band.x.forEach((_, i) => {
    const sf = (band.hi[i] - band.lo[i]) / 4;
    const s = 2 * Math.sqrt(sf * sf + sigma * sigma);
    lo.push(band.mean[i] - s);
    hi.push(band.mean[i] + s);
  });
  return { x: band.x, lo, hi };
}

// speaksOfNoise reports whether a scenario's text is about noise: its band
// of y then starts shown.
export function speaksOfNoise(text) {
  return /\bnoise\b/i.test(text ?? "");
}

// changeNote says the latest control change for the predictive plot:
// "Prior scale = 0.5 at step 1,234"; "" with none. label(m) is the mark's
// label as the objective's marks say it.
export function changeNote(marks, label) {
  const m = marks?.at(-1);
  return m ? `${label(m)} at step ${Number(m.step).toLocaleString("en-US")}` : "";
}

// NoiseBand draws the band of y under f's on a PredictivePlot, names it in
// the legend and puts its toggle under the legend; it also writes the
// latest control change in the plot's top left corner.
export class NoiseBand {
  constructor(panel, { on = false } = {}) {
    this.panel = panel;
    this.plot = panel.predictive;
    this.sigma = NaN;
    this.on = on;
    // The toggle is the band's legend entry: the legend's last item.
    const li = document.createElement("li");
    li.className = "yband-toggle";
    li.dataset.key = "yband";
    const label = document.createElement("label");
    li.append(label);
    label.title = "The band of y: f plus the method's observation noise, mean ± 2√(sd of f² + σ²): where new data would fall";
    this.box = document.createElement("input");
    this.box.type = "checkbox";
    this.box.checked = on;
    this.box.addEventListener("change", () => {
      this.on = this.box.checked;
      this.plot.u?.redraw(false, false);
    });
    const text = document.createElement("span");
    text.textContent = "±2σ band of y (f + noise)";
    label.append(this.box, text);
    li.hidden = true;
    this.toggle = li;
    const legend = this.plot.legendEl;
    legend.keep = [li];
    legend.append(li);
    this.plot.underlay = (u) => this.draw(u);
    this.plot.overlay = (u) => this.note(u);
  }

  // setNoise takes the method's noise std in the data's units (its frame's
  // diagnostics.noise_std), NaN without one.
  setNoise(sigma) {
    const ok = this.plot.task !== "classification" && sigma > 0 && Number.isFinite(sigma);
    this.sigma = ok ? sigma : NaN;
    if (this.toggle.hidden === ok) {
      this.toggle.hidden = !ok;
      this.panel.app.fit?.(); // the toggle's line: the layout refits
    }
  }

  shown() {
    return this.on && Number.isFinite(this.sigma) && this.plot.band != null;
  }

  // draw fills the band of y under everything else (uPlot's drawAxes hook).
  draw(u) {
    if (!this.shown()) return;
    const y = yBand(this.plot.band, this.sigma);
    if (!y) return;
    const { ctx } = u;
    const px = (v) => u.valToPos(v, "x", true);
    const py = (v) => u.valToPos(v, "y", true);
    ctx.save();
    ctx.beginPath();
    ctx.rect(u.bbox.left, u.bbox.top, u.bbox.width, u.bbox.height);
    ctx.clip();
    ctx.beginPath();
    y.x.forEach((x, i) => (i ? ctx.lineTo(px(x), py(y.hi[i])) : ctx.moveTo(px(x), py(y.hi[i]))));
    for (let i = y.x.length - 1; i >= 0; i--) ctx.lineTo(px(y.x[i]), py(y.lo[i]));
    ctx.closePath();
    ctx.fillStyle = FILL;
    ctx.fill();
    ctx.strokeStyle = EDGE;
    ctx.lineWidth = devicePixelRatio;
    ctx.setLineDash([4 * devicePixelRatio, 3 * devicePixelRatio]);
    for (const edge of [y.lo, y.hi]) {
      ctx.beginPath();
      y.x.forEach((x, i) => (i ? ctx.lineTo(px(x), py(edge[i])) : ctx.moveTo(px(x), py(edge[i]))));
      ctx.stroke();
    }
    ctx.restore();
  }

  // note writes the latest control change in the plot's top left corner
  // (uPlot's draw hook), as the objective marks it.
  note(u) {
    const text = changeNote(this.panel.marks, (m) => this.panel.markLabels(m)[0]);
    if (!text) return;
    const { ctx } = u;
    const r = devicePixelRatio;
    ctx.save();
    ctx.font = `${11 * r}px system-ui, sans-serif`;
    const w = ctx.measureText(text).width;
    const x = u.bbox.left + 4 * r;
    const y = u.bbox.top + 4 * r;
    ctx.fillStyle = "rgba(255, 255, 255, 0.85)";
    ctx.fillRect(x - 2 * r, y - r, Math.min(w, u.bbox.width - 8 * r) + 4 * r, 15 * r);
    ctx.fillStyle = "#7c2d12";
    ctx.textAlign = "left"; // uPlot leaves its y-axis's right alignment set
    ctx.textBaseline = "top";
    ctx.fillText(text, x, y, u.bbox.width - 8 * r);
    ctx.restore();
  }
}
