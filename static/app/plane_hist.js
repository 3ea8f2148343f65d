// The marginal histograms of the plane view (plane.js): draws binned along
// one axis as a density, to be drawn under the exact marginal.

// histogram bins values[0 : count] into bins equal bins over [lo, hi] and
// returns {edges, density, outside}: density[k] = (draws in bin k) /
// (count · width), the estimate of the marginal density that converges to
// the bin's mean exact density; outside counts the draws beyond the range,
// which are in the denominator (so a truncated view does not inflate the
// bars). A value that is not finite is outside.
export function histogram(values, lo, hi, bins, count = values.length) {
  const counts = new Float64Array(bins);
  const width = (hi - lo) / bins;
  let outside = 0;
  for (let k = 0; k < count; k++) {
    const b = Math.floor((values[k] - lo) / width);
    if (b >= 0 && b < bins) counts[b]++;
    else if (values[k] === hi) counts[bins - 1]++;
    else outside++;
  }
  const density = new Float64Array(bins);
  if (count > 0) for (let b = 0; b < bins; b++) density[b] = counts[b] / (count * width);
  const edges = Array.from({ length: bins + 1 }, (_, b) => lo + b * width);
  return { edges, density, outside };
}

// binCount is the number of bins for count draws: about 2·count^(1/3)
// (Terrell & Scott's oversmoothed rule, the fewest that still show a
// marginal's shape), within [10, 60].
export function binCount(count) {
  return Math.max(10, Math.min(60, Math.round(2 * Math.cbrt(count))));
}

// marginalPoints returns a marginal given at the centres of n equal cells
// over [lo, hi] (sim/target's Grid.Marginal) as [coordinate, density]
// pairs.
export function marginalPoints(marginal, lo, hi) {
  const n = marginal.length;
  const h = (hi - lo) / n;
  return Array.from(marginal, (d, i) => [lo + (i + 0.5) * h, d]);
}

// maxOf is the largest finite value of arrays' elements (0 when none).
export function maxOf(...arrays) {
  let m = 0;
  for (const a of arrays) if (a) for (const v of a) if (Number.isFinite(v) && v > m) m = v;
  return m;
}
