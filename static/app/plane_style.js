// The plane view's colours (plane.js and its helpers): chosen together so
// that each mark reads over the others.

// Okabe & Ito's colour-blind-safe palette, without its vermillion (the
// red of rejections and divergences) and its yellow (unreadable on white).
export const CHAIN_COLORS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#555555"];
// The exact density's regions, from the 99% region (lightest) in: greys
// evenly spaced in lightness, under coloured points.
export const RAMP = ["#f4f4f4", "#e4e4e4", "#d2d2d2", "#bfbfbf", "#ababab", "#969696"];
export const INK = "#1f2937";
export const Q = "#7b2cbf";
export const ACCEPT = "#1a9641";
export const REJECT = "#d7191c";
export const TURN = "#e66101";
export const HIST = "rgba(0, 114, 178, 0.30)";

// HIGHLIGHT is how many of the newest draws are drawn larger.
export const HIGHLIGHT = 300;
