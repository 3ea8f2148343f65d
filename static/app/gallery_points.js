// A gallery panel's draws (gallery_panel.js): a bounded buffer the
// stream's payloads of draws are added to, newest last. Every payload of
// draws goes through Points, so a change in how the stream sends them is
// met here alone. Pure, node-tested (static/test/gallery.test.mjs).
//
// A plane numbers its draws (sim/gallery.Plane): chain c's draws in it
// are numbered from[c] to totals[c] − 1, chain by chain, and carry the
// planes before it too, so that a viewer whose frames were skipped loses
// nothing; Points keeps, per chain, how many it has and adds only the
// draws numbered past that. Divergences are numbered the same way over
// all chains.

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

  // add adds the points p (x, y and chain arrays), from index start on.
  add(p, start = 0) {
    const chain = chainsOf(p.chain);
    const n = Math.min(p.x.length - start, this.cap);
    const from = p.x.length - n;
    this.room(n);
    for (let i = from; i < p.x.length; i++) this.put(p.x[i], p.y[i], chain?.[i] ?? 0);
  }

  // room drops the oldest points so that n ≤ cap more fit.
  room(n) {
    const drop = Math.max(0, this.count + n - this.cap);
    if (drop === 0) return;
    this.x.copyWithin(0, drop, this.count);
    this.y.copyWithin(0, drop, this.count);
    this.chain?.copyWithin(0, drop, this.count);
    this.count -= drop;
  }

  // put appends one point where room was made for it.
  put(x, y, c) {
    const k = this.count++;
    this.x[k] = x;
    this.y[k] = y;
    if (this.chain) this.chain[k] = c;
  }

  // addNumbered adds the draws p of a plane numbered by each chain's
  // total (from, totals) that the buffer does not have yet, and returns
  // how many were sent in planes this reader never got. A payload whose
  // size disagrees with its numbering is added whole. The new draws are
  // written straight into the buffer, a frame allocating nothing here.
  addNumbered(p, from, totals) {
    const x = p?.x ?? [];
    let sent = 0;
    for (let c = 0; c < totals.length; c++) sent += totals[c] - from[c];
    if (sent !== x.length) {
      if (x.length) this.add(p);
      return 0;
    }
    this.have ??= [];
    const chain = chainsOf(p?.chain);
    let missed = 0;
    let fresh = 0;
    for (let c = 0; c < totals.length; c++) {
      const have = this.have[c] ?? 0;
      missed += Math.max(0, from[c] - have);
      fresh += Math.max(0, totals[c] - Math.max(have, from[c]));
    }
    // more new draws than the buffer holds: the oldest of them go first
    let skip = Math.max(0, fresh - this.cap);
    this.room(fresh - skip);
    let i = 0;
    for (let c = 0; c < totals.length; c++) {
      const have = this.have[c] ?? 0;
      for (let n = from[c]; n < totals[c]; n++, i++) {
        if (n < have) continue;
        if (skip > 0) {
          skip--;
          continue;
        }
        this.put(x[i], p.y[i], chain?.[i] ?? c);
      }
      this.have[c] = Math.max(have, totals[c]);
    }
    return missed;
  }

  // addCounted is addNumbered for points numbered from to total − 1 over
  // all chains (the divergences).
  addCounted(p, from, total) {
    const x = p?.x ?? [];
    if (total - from !== x.length) {
      if (x.length) this.add(p);
      return 0;
    }
    const have = this.haveAll ?? 0;
    const skip = Math.max(0, have - from);
    if (skip < x.length) this.add(p, skip);
    this.haveAll = Math.max(have, total);
    return Math.max(0, from - have);
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
