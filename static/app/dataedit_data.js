// The data edited in the plot, without the page: the points as the data
// set's kept points (by index) and added ones, the link's encoding of them
// (handlers/dataedit.go: version, N, removal bits, float32 pairs, base64url)
// and the checks the server makes, so a refused edit never leaves the page.

export const EDIT_VERSION = 1;

// Points is an edited data set: base is the data set's points {x, y} (user
// units), pts the current points, each {x, y, b} with b the index of the
// base point it is (-1 for an added or moved one).
export class Points {
  constructor(base) {
    this.rebase(base);
  }

  rebase(base) {
    this.base = base ?? { x: [], y: [] };
    this.pts = this.base.x.map((x, i) => ({ x, y: this.base.y[i], b: i }));
  }

  get edited() {
    return this.pts.length !== this.base.x.length || this.pts.some((p, i) => p.b !== i);
  }

  // xy is the points for a plot, kept base points first in their order,
  // then the added ones: the order the server builds them in.
  xy() {
    const kept = this.pts.filter((p) => p.b >= 0).sort((a, b) => a.b - b.b);
    const added = this.pts.filter((p) => p.b < 0);
    const all = [...kept, ...added];
    return { x: all.map((p) => p.x), y: all.map((p) => p.y) };
  }

  // add adds a point at (x, y), as float32s (the link's precision).
  add(x, y) {
    this.pts.push({ x: Math.fround(x), y: Math.fround(y), b: -1 });
  }

  // move moves point i; a base point becomes an added one.
  move(i, x, y) {
    this.pts[i] = { x: Math.fround(x), y: Math.fround(y), b: -1 };
  }

  remove(i) {
    this.pts.splice(i, 1);
  }

  // removeRange removes every point with x in [lo, hi] and returns how many.
  removeRange(lo, hi) {
    const n = this.pts.length;
    this.pts = this.pts.filter((p) => p.x < lo || p.x > hi);
    return n - this.pts.length;
  }

  snapshot() {
    return this.pts.map((p) => ({ ...p }));
  }

  restore(s) {
    this.pts = s;
  }

  // encode is the link's and the data command's form of the edit.
  encode() {
    const n = this.base.x.length;
    const kept = new Set(this.pts.filter((p) => p.b >= 0).map((p) => p.b));
    const removed = [];
    for (let i = 0; i < n; i++) if (!kept.has(i)) removed.push(i);
    return encodeEdit(n, removed, this.pts.filter((p) => p.b < 0));
  }

  // decode applies an encoded edit to the base points; false (and no
  // change) when it does not fit them.
  decode(s) {
    const e = decodeEdit(s);
    if (!e || e.baseN !== this.base.x.length) return false;
    this.pts = [];
    for (let i = 0; i < e.baseN; i++) if (!e.removed.has(i)) this.pts.push({ x: this.base.x[i], y: this.base.y[i], b: i });
    for (const p of e.added) this.pts.push({ ...p, b: -1 });
    return true;
  }

  // check returns why the server would refuse these points, or "".
  check(limits, xRange, yRange = null) {
    const n = this.pts.length;
    if (n < limits.min_edit_points) return `at least ${limits.min_edit_points} points are needed`;
    if (n > limits.max_edit_points) return `at most ${limits.max_edit_points} points`;
    const added = this.pts.filter((p) => p.b < 0).length;
    if (added > limits.max_edit_added) return `at most ${limits.max_edit_added} added or moved points`;
    for (const p of this.pts) {
      if (!Number.isFinite(p.x) || !Number.isFinite(p.y)) return "a point is not finite";
      if (xRange && (p.x < xRange[0] || p.x > xRange[1])) return `x = ${p.x.toPrecision(3)} is outside the plot's x-range`;
      if (yRange && (p.y < yRange[0] || p.y > yRange[1])) return `y = ${p.y.toPrecision(3)} is too far from the data`;
    }
    if (n && this.pts.every((p) => p.x === this.pts[0].x)) return "x must vary";
    return "";
  }
}

// encodeEdit encodes removed base indices and added points {x, y}.
export function encodeEdit(baseN, removed, added) {
  const bits = Math.ceil(baseN / 8);
  const buf = new Uint8Array(3 + bits + 8 * added.length);
  const dv = new DataView(buf.buffer);
  buf[0] = EDIT_VERSION;
  dv.setUint16(1, baseN, true);
  for (const i of removed) buf[3 + (i >> 3)] |= 1 << (i & 7);
  added.forEach((p, k) => {
    dv.setFloat32(3 + bits + 8 * k, p.x, true);
    dv.setFloat32(3 + bits + 8 * k + 4, p.y, true);
  });
  let s = "";
  for (const b of buf) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

// decodeEdit is encodeEdit's inverse: {baseN, removed: Set, added}, or
// null for a malformed string.
export function decodeEdit(s) {
  if (typeof s !== "string" || !/^[A-Za-z0-9_-]*$/.test(s)) return null;
  let raw;
  try {
    raw = atob(s.replace(/-/g, "+").replace(/_/g, "/"));
  } catch {
    return null;
  }
  const buf = Uint8Array.from(raw, (c) => c.charCodeAt(0));
  if (buf.length < 3 || buf[0] !== EDIT_VERSION) return null;
  const dv = new DataView(buf.buffer);
  const baseN = dv.getUint16(1, true);
  const bits = Math.ceil(baseN / 8);
  if (buf.length < 3 + bits || (buf.length - 3 - bits) % 8 !== 0) return null;
  const removed = new Set();
  for (let i = 0; i < baseN; i++) if (buf[3 + (i >> 3)] & (1 << (i & 7))) removed.add(i);
  const added = [];
  for (let o = 3 + bits; o < buf.length; o += 8) added.push({ x: dv.getFloat32(o, true), y: dv.getFloat32(o + 4, true) });
  return { baseN, removed, added };
}
