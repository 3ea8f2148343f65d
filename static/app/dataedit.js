// Editing the data in the predictive plots: a click adds a point, a drag
// moves one, Alt-click or a right-click removes one, a Shift-drag removes
// every point in its x-range (carves a gap), and "Reset data" restores the
// data set. Every panel shares the page's points: an edit is sent to every
// panel's run ({"op":"data","edit":…}), goes into the link (edit=) and is
// what the data CSV exports. GIP's first-layer inducing inputs (the frame
// extra "inducing") are markers on the x-axis; dragging one moves it in the
// running optimiser ({"op":"inducing","n":i,"value":x}).

import { Points } from "./dataedit_data.js";

const HIT_PX = 8; // a press this close to a point grabs it
const CLICK_PX = 4; // a press that moves less than this is a click

// setupDataEdit wires the editor to the panels. onEdit(encoded or "") is
// called with every change, for the link.
export function setupDataEdit(config, panels, { onEdit, status }) {
  const ed = new DataEditor(config, panels, onEdit, status);
  if (config.edit && config.points) {
    if (ed.points.decode(config.edit)) ed.show();
    else status(`The link's edit of the data does not fit this data set; showing the data set.`);
  }
  return ed;
}

export class DataEditor {
  constructor(config, panels, onEdit, status) {
    this.config = config;
    this.panels = panels;
    this.onEdit = onEdit;
    this.status = status;
    this.points = new Points(config.points);
    this.enabled = config.task !== "classification" && Boolean(config.points);
    for (const p of panels) this.bind(p);
    this.addButton();
  }

  // rebase takes a new data set (an upload): no edit.
  rebase(points) {
    this.points.rebase(points);
    this.enabled = this.config.task !== "classification" && Boolean(points);
    this.onEdit("");
  }

  addButton() {
    const bar = document.getElementById("toolbar");
    if (!bar || document.getElementById("reset-data")) return;
    const g = document.createElement("div");
    g.className = "group data-edit";
    g.setAttribute("role", "group");
    g.setAttribute("aria-label", "Data");
    const b = document.createElement("button");
    b.type = "button";
    b.id = "reset-data";
    b.textContent = "Reset data";
    b.title = "Edit the data in a plot: click adds a point, drag moves one, Alt-click or right-click removes one, Shift-drag removes a range (carves a gap). This restores the data set.";
    b.addEventListener("click", () => this.reset());
    g.append(b);
    bar.querySelector(".links")?.before(g);
    this.resetButton = b;
    this.syncButton();
  }

  // syncButton shows Reset data only while the data are edited: the
  // toolbar keeps to one row at 1280 px until then.
  syncButton() {
    if (this.resetButton) this.resetButton.parentElement.hidden = !this.points.edited;
  }

  reset() {
    this.points.rebase(this.points.base);
    this.commit("Data set restored.");
  }

  // bind listens on a panel's predictive plot. The plot's uPlot may be
  // rebuilt; the listeners sit on its host, which stays.
  bind(panel) {
    const host = panel.predictive.host;
    host.classList.add("editable");
    host.title = "Edit the data: click adds a point, drag moves one, Alt-click or right-click removes one, Shift-drag removes a range";
    // A right-click removes the point under it (the context menu's event:
    // browsers send it for a long press on touch screens too).
    host.addEventListener("contextmenu", (ev) => {
      if (!this.enabled || panel.readOnly || !this.over(panel)?.contains(ev.target)) return;
      ev.preventDefault();
      const at = this.at(panel, ev);
      const hit = this.nearest(panel, at.px, at.py);
      if (hit >= 0) {
        this.points.remove(hit);
        this.commit("Removed a point.");
      }
    });
    host.addEventListener("pointerdown", (ev) => this.down(panel, ev));
  }

  over(panel) {
    return panel.predictive.u?.over ?? null;
  }

  // at is a pointer event's position in the plot's units and pixels.
  at(panel, ev) {
    const u = panel.predictive.u;
    const r = u.over.getBoundingClientRect();
    const px = ev.clientX - r.left;
    const py = ev.clientY - r.top;
    return { px, py, x: u.posToVal(px, "x"), y: u.posToVal(py, "y") };
  }

  // nearest is the index of the point within HIT_PX of (px, py), or -1.
  nearest(panel, px, py) {
    const u = panel.predictive.u;
    let best = -1;
    let bestD = HIT_PX * HIT_PX;
    this.points.pts.forEach((p, i) => {
      const dx = u.valToPos(p.x, "x") - px;
      const dy = u.valToPos(p.y, "y") - py;
      if (dx * dx + dy * dy <= bestD) {
        best = i;
        bestD = dx * dx + dy * dy;
      }
    });
    return best;
  }

  down(panel, ev) {
    const over = this.over(panel);
    if (!this.enabled || !over?.contains(ev.target) || ev.target.closest?.(".inducing-marker") || panel.readOnly) return;
    const start = this.at(panel, ev);
    if (ev.button === 2) return; // the contextmenu event removes
    const hit = this.nearest(panel, start.px, start.py);
    ev.preventDefault();
    if (ev.altKey && ev.button === 0) {
      if (hit >= 0) {
        this.points.remove(hit);
        this.commit("Removed a point.");
      }
      return;
    }
    if (ev.button !== 0) return;
    over.setPointerCapture?.(ev.pointerId);
    const before = this.points.snapshot();
    let brush = null;
    let moved = false;
    const move = (e) => {
      const at = this.at(panel, e);
      if (Math.hypot(at.px - start.px, at.py - start.py) >= CLICK_PX) moved = true;
      if (ev.shiftKey) {
        brush ??= brushEl(over);
        const [a, b] = [Math.min(start.px, at.px), Math.max(start.px, at.px)];
        brush.style.left = `${a}px`;
        brush.style.width = `${b - a}px`;
      } else if (hit >= 0 && moved) {
        this.points.move(hit, at.x, at.y);
        this.show(); // live, committed on release
      }
    };
    const up = (e) => {
      over.removeEventListener("pointermove", move);
      over.removeEventListener("pointerup", up);
      over.removeEventListener("pointercancel", up);
      brush?.remove();
      const at = this.at(panel, e);
      if (e.type === "pointercancel") {
        this.points.restore(before);
        this.show();
      } else if (ev.shiftKey && moved) {
        const [lo, hi] = [Math.min(start.x, at.x), Math.max(start.x, at.x)];
        const n = this.points.removeRange(lo, hi);
        if (n) this.commit(`Removed ${n} points in [${lo.toPrecision(3)}, ${hi.toPrecision(3)}].`, before);
      } else if (hit >= 0 && moved) {
        this.commit("Moved a point.", before);
      } else if (hit < 0 && !moved) {
        this.points.add(start.x, start.y);
        this.commit("Added a point.", before);
      }
    };
    over.addEventListener("pointermove", move);
    over.addEventListener("pointerup", up);
    over.addEventListener("pointercancel", up);
  }

  // commit checks the points as the server will, shows them in every
  // panel, sends them to every run and puts them in the link; a refused
  // edit goes back to before.
  commit(what, before = null) {
    const why = this.points.check(this.config.limits, this.config.x_range, this.config.y_range);
    if (why) {
      if (before) this.points.restore(before);
      this.show();
      this.status(`Not applied: ${why}.`);
      return;
    }
    this.show();
    const edited = this.points.edited;
    const enc = edited ? this.points.encode() : "";
    for (const p of this.panels) this.sendTo(p, enc);
    this.onEdit(enc);
    this.status(`${what} ${this.points.pts.length} points.`);
  }

  // sendTo sends the current data to a panel's run (also after a restart:
  // a new run starts on the data set).
  sendTo(panel, enc = this.points.edited ? this.points.encode() : "") {
    if (panel.readOnly) return;
    panel.send(enc ? { op: "data", edit: enc } : { op: "data" });
  }

  // onRunStart re-applies an edit to a panel's new run.
  onRunStart(panel) {
    if (this.points.edited) this.sendTo(panel);
  }

  // show draws the current points in every panel (and the compare view,
  // which reads config.points).
  show() {
    const xy = this.points.xy();
    this.config.points = xy;
    for (const p of this.panels) p.predictive.setPoints(xy);
    this.syncButton();
  }
}

function brushEl(over) {
  const b = document.createElement("div");
  b.className = "edit-brush";
  over.append(b);
  return b;
}

// InducingView draws a GIP run's first-layer inducing inputs (the frame
// extra "inducing": {x: […]}, user units) as markers on the predictive
// plot's x-axis; a dragged marker moves that input in the run.
export class InducingView {
  constructor(panel) {
    this.panel = panel;
    this.x = [];
    this.dragging = -1;
    this.layer = document.createElement("div");
    this.layer.className = "inducing-layer";
    this.layer.title = "GIP's inducing inputs (first layer): drag one to move it";
    this.markers = [];
  }

  onExtra(v) {
    if (!Array.isArray(v?.x)) return;
    this.x = v.x.slice();
  }

  clear() {
    this.x = [];
    this.draw();
  }

  draw() {
    const u = this.panel.predictive.u;
    if (!u) return;
    if (this.layer.parentNode !== u.over) u.over.append(this.layer); // the plot was rebuilt
    while (this.markers.length < this.x.length) this.markers.push(this.marker(this.markers.length));
    const width = u.over.clientWidth;
    let shown = 0;
    this.markers.forEach((m, i) => {
      if (i === this.dragging) return void shown++;
      // An input the optimiser moved off the plot's x-range is not drawn
      // (it would sit over the axis or the next panel).
      const px = i < this.x.length ? u.valToPos(this.x[i], "x") : NaN;
      m.hidden = !(px >= 0 && px <= width);
      if (!m.hidden) {
        m.style.left = `${px}px`;
        shown++;
      }
    });
    this.panel.predictive.setInducing(shown > 0); // the legend names the markers while any is drawn
  }

  marker(i) {
    const m = document.createElement("div");
    m.className = "inducing-marker";
    m.dataset.i = String(i);
    m.addEventListener("pointerdown", (ev) => this.drag(i, m, ev));
    this.layer.append(m);
    return m;
  }

  drag(i, m, ev) {
    if (ev.button !== 0 || this.panel.readOnly) return;
    ev.preventDefault();
    ev.stopPropagation();
    m.setPointerCapture?.(ev.pointerId);
    this.dragging = i;
    m.classList.add("dragging");
    const u = this.panel.predictive.u;
    const left = u.over.getBoundingClientRect().left;
    const range = this.panel.app.config.x_range;
    const xAt = (e) => {
      const x = u.posToVal(e.clientX - left, "x");
      return range ? Math.min(range[1], Math.max(range[0], x)) : x;
    };
    const move = (e) => {
      m.style.left = `${u.valToPos(xAt(e), "x")}px`;
    };
    const up = (e) => {
      m.removeEventListener("pointermove", move);
      m.removeEventListener("pointerup", up);
      m.removeEventListener("pointercancel", up);
      m.classList.remove("dragging");
      this.dragging = -1;
      if (e.type === "pointercancel") return this.draw();
      const x = xAt(e);
      this.x[i] = x;
      this.panel.send({ op: "inducing", n: i, value: x });
      this.draw();
    };
    m.addEventListener("pointermove", move);
    m.addEventListener("pointerup", up);
    m.addEventListener("pointercancel", up);
  }
}
