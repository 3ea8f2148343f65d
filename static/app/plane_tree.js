// Decoding one transition's mechanics (sim/sampler's Record, as the frame
// carries it: see Transition in plane.js) into what the plane view draws:
// the points in the order they were computed, the polylines joining them,
// the subtrees' ends, the chosen point, the arrow from start to proposal.

// decode returns {points, segments, ends, chosen, divergentAt, arrow,
// total}. points are the transition's positions in the order computed
// (a one-step proposal: [start, proposal]); total is their number, the
// count a slow-motion reveal runs to. segments are polylines {indices,
// merged} over points: HMC's trajectory is one; each NUTS doubling is one,
// from the end of the tree it grew from (its right end going forward, its
// left end going backward) through its 2^depth new points, merged false
// when the half was thrown away. ends are the indices of subtree
// boundaries {first, last, uturn, divergent}. chosen is the index of the
// point the chain moved to (−1 for a one-step proposal, which the arrow
// shows). A malformed index (outside the path) drops what it belongs to.
export function decode(t) {
  const path = Array.isArray(t?.path) && t.path.length > 0 ? t.path : null;
  const arrow = t?.start && t?.proposal ? { from: t.start, to: t.proposal, accepted: !!t.accepted } : null;
  if (!path) {
    const points = arrow ? [t.start, t.proposal] : [];
    return { points, segments: [], ends: [], chosen: -1, divergentAt: -1, arrow, total: points.length };
  }
  const n = path.length;
  const ok = (i) => Number.isInteger(i) && i >= 0 && i < n;
  const segments = [];
  const ends = [];
  const doublings = Array.isArray(t.doublings) ? t.doublings : [];
  if (doublings.length === 0) {
    segments.push({ indices: path.map((_, i) => i), merged: true });
  } else {
    let left = 0;
    let right = 0;
    for (const d of doublings) {
      if (!ok(d.first) || !ok(d.last) || d.last < d.first) continue;
      const from = d.dir < 0 ? left : right;
      const indices = [from];
      for (let i = d.first; i <= d.last; i++) indices.push(i);
      segments.push({ indices, merged: d.merged !== false, dir: d.dir < 0 ? -1 : 1, depth: d.depth });
      if (d.merged !== false) {
        if (d.dir < 0) left = d.last;
        else right = d.last;
      }
    }
    for (const s of t.subtrees ?? []) {
      if (ok(s.first) && ok(s.last)) ends.push({ first: s.first, last: s.last, depth: s.depth, uturn: !!s.uturn, divergent: !!s.divergent });
    }
  }
  const chosen = doublings.length > 0 && ok(t.chosen) ? t.chosen : -1;
  const divergentAt = t.divergent && ok(t.divergentAt) ? t.divergentAt : -1;
  return { points: path, segments, ends, chosen, divergentAt, arrow, total: n };
}

// visible returns the prefix of a segment's indices revealed when the
// first r points are shown: a segment's indices after its anchor increase,
// and its anchor was computed before them.
export function visible(segment, r) {
  const out = [];
  for (const i of segment.indices) {
    if (i >= r) break;
    out.push(i);
  }
  return out;
}
