// Synthetic frames for the plane view's harness (plane_bench.html) and
// tests: the banana x ~ N(0, 1), y | x ~ N(b(x² − 1), 1) on a grid, exact
// draws of it in several chains, and a NUTS-shaped tree of real leapfrog
// steps on it. Not the engine's: the page's frames come from sim/target
// and sim/sampler; this only gives the view something true to draw.

// rng returns a seeded uniform generator on [0, 1) (mulberry32).
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// normal returns a standard normal generator from a uniform one
// (Box–Muller).
export function normal(u) {
  return () => Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u());
}

export const bananaBox = { x: [-4, 4], y: [-5, 13] };

const bananaLogp = (b) => (x, y) => -0.5 * x * x - 0.5 * (y - b * (x * x - 1)) ** 2;
const bananaGrad = (b) => (x, y) => {
  const r = y - b * (x * x - 1);
  return [-x + 2 * b * x * r, -r];
};

// gridOf evaluates logp on an n × n grid of cell centres over box and
// returns the frame's Grid: log densities and both marginals, normalised
// by the midpoint rule.
export function gridOf(logp, box, n) {
  const values = new Float64Array(n * n);
  const hx = (box.x[1] - box.x[0]) / n;
  const hy = (box.y[1] - box.y[0]) / n;
  let max = -Infinity;
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const v = logp(box.x[0] + (i + 0.5) * hx, box.y[0] + (j + 0.5) * hy);
      values[j * n + i] = v;
      if (v > max) max = v;
    }
  }
  const mx = new Float64Array(n);
  const my = new Float64Array(n);
  let z = 0;
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const p = Math.exp(values[j * n + i] - max);
      mx[i] += p;
      my[j] += p;
      z += p;
    }
  }
  for (let i = 0; i < n; i++) {
    mx[i] /= z * hx;
    my[i] /= z * hy;
  }
  return { n, values, log: true, marginals: [mx, my] };
}

// leapfrog takes one step of size eps from (q, p) under grad.
function leapfrog(grad, [qx, qy], [px, py], eps) {
  let g = grad(qx, qy);
  px += 0.5 * eps * g[0];
  py += 0.5 * eps * g[1];
  qx += eps * px;
  qy += eps * py;
  g = grad(qx, qy);
  px += 0.5 * eps * g[0];
  py += 0.5 * eps * g[1];
  return [[qx, qy], [px, py]];
}

// nutsTree builds a transition shaped as sim/sampler's NUTS Record: from
// start with momentum p0, doublings in the directions dirs (depth k for
// the k-th), each of real leapfrog steps from the tree's end on its side;
// the last doubling is thrown away (a subtree turned) when lastMerged is
// false. Every depth ≥ 1 block of each doubling is a subtree; the chosen
// point is drawn uniformly from the merged points.
export function nutsTree({ b = 1, start = [0.5, -0.5], p0 = [1.5, -1.5], eps = 0.25, dirs = [1, -1, 1, -1, 1], lastMerged = false, seed = 1 } = {}) {
  const grad = bananaGrad(b);
  const path = [start];
  const doublings = [];
  const subtrees = [];
  const ends = { 1: [start, p0], [-1]: [start, p0.map((v) => -v)] };
  dirs.forEach((dir, depth) => {
    const first = path.length;
    let [q, p] = ends[dir];
    for (let s = 0; s < 2 ** depth; s++) {
      [q, p] = leapfrog(grad, q, p, eps);
      path.push(q);
    }
    const merged = depth < dirs.length - 1 || lastMerged;
    if (merged) ends[dir] = [q, p];
    doublings.push({ dir, depth, first, last: path.length - 1, merged });
    for (let k = 1; k <= depth; k++) {
      for (let s = first; s + 2 ** k - 1 < path.length; s += 2 ** k) {
        subtrees.push({ depth: k, first: s, last: s + 2 ** k - 1, uturn: !merged && k === depth, divergent: false });
      }
    }
  });
  const merged = [0];
  for (const d of doublings) if (d.merged) for (let i = d.first; i <= d.last; i++) merged.push(i);
  const chosen = merged[Math.floor(rng(seed)() * merged.length)];
  return {
    kind: "nuts",
    start,
    proposal: path[chosen],
    accepted: chosen !== 0,
    path,
    divergent: false,
    divergentAt: -1,
    doublings,
    subtrees,
    chosen,
    stop: lastMerged ? "uturn" : "subtree",
  };
}

// hmcPath returns an HMC transition on the banana: up to steps leapfrog
// steps of size eps from start with momentum p0, stopped, as sim/sampler
// stops it, at the first point where the energy error H − H₀ passes 1000
// (divergent, then rejected); otherwise accepted when H ≤ H₀ (this is
// for drawing: no random acceptance).
export function hmcPath({ b = 1, start = [1.6, 1.2], p0 = [1.5, 2.5], eps = 0.55, steps = 12 } = {}) {
  const logp = bananaLogp(b);
  const grad = bananaGrad(b);
  const H = ([qx, qy], [px, py]) => -logp(qx, qy) + 0.5 * (px * px + py * py);
  const h0 = H(start, p0);
  const path = [start];
  let q = start;
  let p = p0;
  let divergentAt = -1;
  for (let s = 0; s < steps; s++) {
    [q, p] = leapfrog(grad, q, p, eps);
    path.push(q);
    if (!(H(q, p) - h0 <= 1000)) {
      divergentAt = path.length - 1;
      break;
    }
  }
  const divergent = divergentAt >= 0;
  const accepted = !divergent && H(q, p) <= h0;
  return { kind: "hmc", start, proposal: q, accepted, path, divergent, divergentAt };
}

// bananaFrame returns a frame of the banana of curvature b: its grid (n
// cells a side), count exact draws round-robin over chains, a NUTS tree,
// and a few divergence marks.
export function bananaFrame({ b = 1, n = 256, count = 20000, chains = 4, seed = 7, tree = {}, transition } = {}) {
  const z = normal(rng(seed));
  const x = new Float64Array(count);
  const y = new Float64Array(count);
  const chain = new Uint8Array(count);
  for (let k = 0; k < count; k++) {
    x[k] = z();
    y[k] = b * (x[k] * x[k] - 1) + z();
    chain[k] = k % chains;
  }
  return {
    box: bananaBox,
    params: ["x", "y"],
    exact: gridOf(bananaLogp(b), bananaBox, n),
    draws: { x, y, chain, count },
    chains,
    transition: transition ?? nutsTree({ b, ...tree }),
    divergences: { x: [-2.6, 2.9], y: [8.1, 10.2] },
  };
}
