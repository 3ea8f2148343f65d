// The plane view's picture in words (plane.js): the canvas's accessible
// name and the key under it.

import { markCount } from "./plane_marks.js";
import { HIGHLIGHT } from "./plane_style.js";

// describe is a frame's picture in words: the canvas's accessible name and
// the key a page shows under it.
export function describe(frame, view = {}) {
  if (!frame?.box) return "";
  const [nx, ny] = frame.params ?? ["x", "y"];
  const parts = [`${ny} against ${nx}. Shaded: the exact density, its regions of highest density holding 99, 95, 80, 60, 40 and 20% of the mass`];
  if (frame.q) parts.push("purple lines: q's regions holding the same shares");
  if (frame.particles) parts.push(`purple dots: ${frame.particles.x.length} SVGD particles`);
  const n = frame.draws ? Math.min(frame.draws.count ?? frame.draws.x.length, frame.draws.x.length) : 0;
  if (n > 0) parts.push(`dots: ${n} draws in ${frame.chains ?? 1} chain colours, the newest ${Math.min(n, view.highlight ?? HIGHLIGHT)} larger`);
  const t = frame.transition;
  if (t) {
    const kind = t.kind ?? "transition";
    if (t.doublings?.length) parts.push(`${kind}: its tree of ${t.path?.length ?? 0} leapfrog points in ${t.doublings.length} doublings (dashed: a half thrown away; orange: a subtree's ends that turned), the chosen point ringed`);
    else if (t.path?.length) parts.push(`${kind}: its leapfrog path of ${t.path.length} points`);
    if (t.divergent) parts.push("red cross: where the energy error blew up (rejected)");
    else parts.push(`arrow: the move, ${t.accepted ? "green: accepted" : "red, dashed: rejected"}`);
  }
  const divergences = frame.divergences?.x ? markCount(frame.divergences) : 0;
  if (divergences > 0) parts.push(`small red crosses: ${divergences} divergences so far`);
  parts.push(n > 0 ? "top and right: the draws' marginal histograms under the exact marginals" : "top and right: the exact marginals");
  return parts.join(" · ");
}
