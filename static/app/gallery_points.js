// A gallery panel's draws (gallery_panel.js): a bounded buffer the
// stream's payloads of draws are added to, newest last. Every payload of
// draws goes through Points.add, so a change in how the stream sends them
// is met here alone. Pure, node-tested (static/test/gallery.test.mjs).

// Points is a bounded buffer of points, newest last: when full, the
// oldest are dropped.
export class Points {
  constructor(cap, chains) {
    this.cap = cap;
    this.x = new Float64Array(cap);
    this.y = new Float64Array(cap);
    this.chain = chains ? new Uint8Array(cap) : null;
    this.count = 0;
  }

  add(p) {
    const chain = chainsOf(p.chain);
    const n = Math.min(p.x.length, this.cap);
    const from = p.x.length - n;
    const drop = Math.max(0, this.count + n - this.cap);
    if (drop > 0) {
      this.x.copyWithin(0, drop, this.count);
      this.y.copyWithin(0, drop, this.count);
      this.chain?.copyWithin(0, drop, this.count);
      this.count -= drop;
    }
    for (let i = 0; i < n; i++) {
      this.x[this.count + i] = p.x[from + i];
      this.y[this.count + i] = p.y[from + i];
      if (this.chain) this.chain[this.count + i] = chain?.[from + i] ?? 0;
    }
    this.count += n;
  }

  // view is the buffer as the plane view reads it: a new object, so that
  // the view redraws its base.
  view() {
    const v = { x: this.x, y: this.y, count: this.count };
    if (this.chain) v.chain = this.chain;
    return v;
  }
}

// chainsOf reads the draws' chains as sent: Go encodes a []uint8 as
// base64 text, one byte a draw; an array of numbers is taken as it is.
export function chainsOf(c) {
  if (typeof c !== "string") return c ?? null;
  const bin = atob(c);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
