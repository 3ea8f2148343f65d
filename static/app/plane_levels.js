// The contours of a density on a grid, for the plane view (plane.js):
// levels chosen by the mass they enclose (highest-density regions), and
// their polygons, traced by d3-contour (vendored from npm) and mapped from
// grid units to the target's box.
//
// A grid is {n, values, log}: values[j·n + i] is the density (or, with
// log set, its logarithm, up to a constant) at the centre of cell (i, j)
// of the box, i along the first parameter and rows from the box's lower
// edge (sim/target's Grid.Density order).

import { contours } from "../vendor/d3-contour.min.mjs";

// MASSES are the highest-density regions drawn, outermost first: the
// region holding 99% of the mass, 95%, … 10%.
export const MASSES = [0.99, 0.95, 0.8, 0.6, 0.4, 0.2];

// densities returns a grid's values as densities (a fresh Float64Array):
// exp(v − max v) for a log grid, so that the largest is 1 and nothing
// overflows, the values themselves otherwise. A value that is not finite
// is taken as zero density.
export function densities(grid) {
  const v = grid.values;
  const out = new Float64Array(v.length);
  if (!grid.log) {
    for (let k = 0; k < v.length; k++) out[k] = Number.isFinite(v[k]) && v[k] > 0 ? v[k] : 0;
    return out;
  }
  let max = -Infinity;
  for (let k = 0; k < v.length; k++) if (v[k] > max) max = v[k];
  for (let k = 0; k < v.length; k++) out[k] = Number.isFinite(v[k]) ? Math.exp(v[k] - max) : 0;
  return out;
}

// hpdLevels returns, for each mass m in masses, the density t whose
// superlevel set {p ≥ t} holds a share m of the grid's mass: the cells
// sorted by density, highest first, and t the density of the cell at
// which their running sum first reaches m. Cells have equal areas, so
// the unnormalised densities serve; the result is on their scale. Its
// error is a cell's mass at the boundary, O(h) in the enclosed mass.
export function hpdLevels(dens, masses = MASSES) {
  const sorted = Float64Array.from(dens).sort().reverse();
  let total = 0;
  for (const v of sorted) total += v;
  if (!(total > 0)) return masses.map(() => NaN);
  const out = new Array(masses.length);
  const order = masses.map((m, k) => [m, k]).sort((a, b) => a[0] - b[0]);
  let run = 0;
  let i = 0;
  for (const [m, k] of order) {
    while (i < sorted.length && run + sorted[i] < m * total) run += sorted[i++];
    out[k] = sorted[Math.min(i, sorted.length - 1)];
  }
  return out;
}

// massAbove returns the share of the grid's mass in cells of density ≥ t.
export function massAbove(dens, t) {
  let total = 0;
  let above = 0;
  for (const v of dens) {
    total += v;
    if (v >= t) above += v;
  }
  return total > 0 ? above / total : NaN;
}

// contourRings traces the superlevel set {p ≥ t} of an n × n grid of
// densities for each threshold, as a list per threshold of rings (closed
// polygons, holes included, [[x, y], …] in the box's coordinates). A
// cell's value sits at its centre: d3-contour's grid unit i + ½ is cell
// i's centre, so grid unit u is box coordinate lo + u·h.
export function contourRings(dens, n, thresholds, box) {
  const gen = contours().size([n, n]).smooth(true);
  const hx = (box.x[1] - box.x[0]) / n;
  const hy = (box.y[1] - box.y[0]) / n;
  return thresholds.map((t) => {
    if (!Number.isFinite(t)) return [];
    const rings = [];
    for (const polygon of gen.contour(dens, t).coordinates) {
      for (const ring of polygon) rings.push(ring.map(([u, v]) => [box.x[0] + u * hx, box.y[0] + v * hy]));
    }
    return rings;
  });
}

// gridContours is a grid's picture: its densities' HPD levels for masses
// and their rings.
export function gridContours(grid, box, masses = MASSES) {
  const dens = densities(grid);
  const levels = hpdLevels(dens, masses);
  return { masses, levels, rings: contourRings(dens, grid.n, levels, box) };
}
