// Pure helpers of the joint (b0, b) view (joint.js), apart from the DOM so
// node's test runner can check them (static/test/joint.test.mjs). A
// Gaussian is {mean: [b0, b], cov: [[.., ..], [.., ..]]}, the payload's
// (sim/model's Gauss2).

// ellipse returns n + 1 points (closed) of the contour of g at Mahalanobis
// distance k: mean + k·L·(cos φ, sin φ) with L the Cholesky factor of the
// covariance, so a diagonal covariance gives an axis-aligned ellipse.
export function ellipse(g, k = 2, n = 96) {
  const [[a, b], [, c]] = g.cov;
  const l00 = Math.sqrt(a);
  const l10 = b / l00;
  const l11 = Math.sqrt(Math.max(0, c - l10 * l10));
  const pts = [];
  for (let i = 0; i <= n; i++) {
    const p = (2 * Math.PI * i) / n;
    const u = Math.cos(p);
    const v = Math.sin(p);
    pts.push([g.mean[0] + k * l00 * u, g.mean[1] + k * (l10 * u + l11 * v)]);
  }
  return pts;
}

// corr is g's correlation of b0 and b.
export function corr(g) {
  return g.cov[0][1] / Math.sqrt(g.cov[0][0] * g.cov[1][1]);
}

// bandAt returns f(x) = b0 + b·x's mean and the ±k sd band under g:
// var f = Σ00 + 2x Σ01 + x² Σ11.
export function bandAt(g, x, k = 2) {
  const m = g.mean[0] + g.mean[1] * x;
  const s = Math.sqrt(Math.max(0, g.cov[0][0] + 2 * x * g.cov[0][1] + x * x * g.cov[1][1]));
  return [m - k * s, m, m + k * s];
}

// moments returns [mean, sd] of each of b0 and b: a Gaussian's, the
// sampler's over all its retained draws, or the draws' shown (sample sd,
// n − 1), or null when there is none of these.
export function moments(j) {
  if (j.gaussian) return [0, 1].map((i) => [j.gaussian.mean[i], Math.sqrt(j.gaussian.cov[i][i])]);
  if (j.moments?.length === 2) return j.moments.map((m) => [m.mean, m.sd]); // a sampler's, over all its draws
  const cols = [j.b0 ?? [], j.b ?? []];
  if (cols[0].length < 2) return null;
  return cols.map((v) => {
    const m = v.reduce((s, x) => s + x, 0) / v.length;
    const ss = v.reduce((s, x) => s + (x - m) * (x - m), 0);
    return [m, Math.sqrt(ss / (v.length - 1))];
  });
}

// bounds returns [[lo0, hi0], [lo1, hi1]] covering the exact posterior to
// ±4 sd, the method's 2σ ellipse and the given points, with a 5% margin.
export function bounds(j, points = []) {
  const xs = [];
  const ys = [];
  const add = (p) => {
    if (Number.isFinite(p[0]) && Number.isFinite(p[1])) {
      xs.push(p[0]);
      ys.push(p[1]);
    }
  };
  if (j.exact) ellipse(j.exact, 4, 48).forEach(add);
  if (j.gaussian) ellipse(j.gaussian, 2.5, 48).forEach(add);
  points.forEach(add);
  if (xs.length === 0) return [[-1, 1], [-1, 1]];
  const span = (v) => {
    let lo = Math.min(...v);
    let hi = Math.max(...v);
    if (!(hi > lo)) {
      lo -= 0.5;
      hi += 0.5;
    }
    const m = 0.05 * (hi - lo);
    return [lo - m, hi + m];
  };
  return [span(xs), span(ys)];
}

// REPLAY_MS is how long a sampler's warm-up replay lasts: its first 40
// transitions (on linreg-offset the chains enter the posterior within
// about 10) take 8 s, five a second, the rest of the path 2 s.
export const REPLAY_MS = 10000;

// replayIndex is the last transition of a path of n states shown t ms into
// the replay.
export function replayIndex(t, n) {
  if (n <= 1) return 0;
  const slow = Math.min(40, n - 1);
  const i = t < 8000 ? (slow * t) / 8000 : slow + ((n - 1 - slow) * (t - 8000)) / 2000;
  return Math.max(0, Math.min(n - 1, Math.floor(i)));
}
