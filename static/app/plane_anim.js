// The slow-motion reveal of a transition in the plane view (plane.js):
// the points of a path shown one by one at a set rate, driven by
// requestAnimationFrame and cancellable. The clock and the frame
// scheduler are parameters, so the state machine is tested without a
// browser (static/test/plane.test.mjs).

// Reveal is the state of one reveal of total points at rate points per
// second, begun at time t0 (ms): playing, then done once every point is
// shown, or cancelled. The first point (the start) shows at once.
export class Reveal {
  constructor(total, rate, t0) {
    if (!(rate > 0)) throw new RangeError(`rate ${rate} must be positive`);
    this.total = Math.max(0, total | 0);
    this.rate = rate;
    this.t0 = t0;
    this.shown = Math.min(1, this.total);
    this.state = this.total <= 1 ? "done" : "playing";
  }

  // at advances the reveal to time now (ms) and returns how many points
  // show. It never goes backwards, and does nothing once not playing.
  at(now) {
    if (this.state !== "playing") return this.shown;
    const n = 1 + Math.floor(((now - this.t0) * this.rate) / 1000);
    this.shown = Math.max(this.shown, Math.min(this.total, n));
    if (this.shown >= this.total) this.state = "done";
    return this.shown;
  }

  cancel() {
    if (this.state === "playing") this.state = "cancelled";
  }
}

// animate drives reveal frame by frame: onFrame(shown) on each animation
// frame until the reveal is done or cancelled. It returns {cancel, done}:
// cancel stops it (no onFrame after it) and done resolves to the final
// state. raf, caf and now default to the browser's.
export function animate(reveal, onFrame, sched = {}) {
  const raf = sched.raf ?? ((f) => requestAnimationFrame(f));
  const caf = sched.caf ?? ((id) => cancelAnimationFrame(id));
  const now = sched.now ?? (() => performance.now());
  let id = null;
  let finish;
  const done = new Promise((resolve) => (finish = resolve));
  const tick = () => {
    id = null;
    if (reveal.state === "cancelled") return finish("cancelled");
    onFrame(reveal.at(now()));
    if (reveal.state === "playing") id = raf(tick);
    else finish(reveal.state);
  };
  onFrame(reveal.at(now()));
  if (reveal.state === "playing") id = raf(tick);
  else finish(reveal.state);
  return {
    done,
    cancel() {
      reveal.cancel();
      if (id !== null) caf(id);
      id = null;
      finish("cancelled");
    },
  };
}
