// Images the plane view (plane.js) keeps between paints, and the raster
// of its draws. A stream brings a new frame many times a second while the
// exact density's picture changes only with the target; and 20,000
// translucent squares drawn through a canvas path cost tens of
// milliseconds in a software rasteriser, where written straight into a
// pixel buffer they cost one.

// Layers caches images (canvases from make(w, h)) by name and key: image
// returns the one drawn for the same key, or draws it afresh with
// draw(ctx) on a cleared canvas.
export class Layers {
  constructor(make) {
    this.make = make;
    this.images = new Map(); // name → {key, canvas}
    this.data = new Map(); // name → {key, img}: an image's pixels
    this.work = null; // an ImageData to composite in
    this.drawn = 0; // images drawn, for the harness
  }

  image(name, key, W, H, dpr, draw) {
    let hit = this.images.get(name);
    if (hit && hit.key === key && hit.canvas.width === W && hit.canvas.height === H) return hit.canvas;
    const canvas = hit?.canvas ?? this.make(W, H);
    canvas.width = W;
    canvas.height = H;
    const ctx = canvas.getContext("2d");
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, W / dpr, H / dpr);
    draw(ctx);
    this.images.set(name, { key, canvas });
    this.drawn++;
    return canvas;
  }

  // imageData returns the pixels of image(name, key, …), read once per key.
  imageData(name, key, W, H, dpr, draw) {
    const hit = this.data.get(name);
    if (hit && hit.key === key && hit.img.width === W && hit.img.height === H) return hit.img;
    const canvas = this.image(name, key, W, H, dpr, draw);
    const img = canvas.getContext("2d", { willReadFrequently: true }).getImageData(0, 0, W, H);
    this.data.set(name, { key, img });
    return img;
  }

  // scratchData returns a W × H ImageData to work in, reused.
  scratchData(W, H) {
    if (!this.work || this.work.width !== W || this.work.height !== H) this.work = new ImageData(W, H);
    return this.work;
  }
}

// parseHex returns "#rrggbb" as [r, g, b].
export function parseHex(hex) {
  const v = parseInt(hex.slice(1), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
}

// rasterSquares composites squares of side size (device pixels) centred
// at (ax + bx·x[k], ay + by·y[k]), k in [from, to), each in
// colours[chain[k]] ([r, g, b]) at opacity alpha, over the RGBA pixels of
// an image w wide (data, a Uint8ClampedArray, not premultiplied), by the
// source-over rule: where squares overlap the colour deepens, as it would
// on a canvas. Squares are clipped to clip = {x0, y0, x1, y1} (device
// pixels, within the image).
export function rasterSquares(data, w, pts, colours, alpha, size, clip) {
  const { x, y, chain, ax, bx, ay, by, from, to } = pts;
  const { x0, y0, x1, y1 } = clip;
  const half = size / 2;
  const m = colours.length;
  // Over an opaque pixel (the usual case: the fill is opaque) the rule is
  // d ← d + α(c − d) in each channel, done in integers with α in 256ths:
  // d + ⌊A(c − d)/256⌋ = ⌊((256 − A)d + Ac)/256⌋, each term below 2¹⁶, so
  // red and blue (bytes 0 and 2 of a little-endian RGBA pixel, as every
  // browser's is) go through one multiplication side by side, and green
  // through another; Ac is per chain.
  const u32 = new Uint32Array(data.buffer, data.byteOffset, data.length >> 2);
  const A = Math.round(alpha * 256);
  const keepA = 256 - A;
  const RB = colours.map(([r, , b]) => A * r + A * b * 65536);
  const G = colours.map(([, g]) => A * g * 256);
  let PUT = null; // the tables for a pixel not opaque, made when one is met
  let OUT = null;
  for (let k = from; k < to; k++) {
    const i0 = Math.max(x0, Math.round(ax + bx * x[k] - half));
    const j0 = Math.max(y0, Math.round(ay + by * y[k] - half));
    const i1 = Math.min(x1, i0 + size);
    const j1 = Math.min(y1, j0 + size);
    if (!(i1 > i0 && j1 > j0)) continue; // outside, or not finite
    const c = chain ? chain[k] % m : 0;
    const rb = RB[c];
    const g = G[c];
    for (let j = j0; j < j1; j++) {
      for (let p = j * w + i0, end = j * w + i1; p < end; p++) {
        const v = u32[p];
        if (v >>> 24 === 255) {
          u32[p] = (0xff000000 | ((((v & 0xff00ff) * keepA + rb) >>> 8) & 0xff00ff) | ((((v & 0xff00) * keepA + g) >>> 8) & 0xff00)) >>> 0;
          continue;
        }
        // The result depends on the stored opacity a (0…255) only through
        // oa = α + (a/255)(1 − α) and put = α/oa: tabulated, not divided
        // per pixel.
        if (!PUT) [PUT, OUT] = opacityTables(alpha);
        const o = 4 * p;
        const a = data[o + 3];
        const put = PUT[a];
        const keep = 1 - put;
        const col = colours[c];
        data[o] = col[0] * put + data[o] * keep;
        data[o + 1] = col[1] * put + data[o + 1] * keep;
        data[o + 2] = col[2] * put + data[o + 2] * keep;
        data[o + 3] = OUT[a];
      }
    }
  }
}

// opacityTables returns, for each stored opacity a of a pixel under a
// square of opacity alpha, the share put of the square's colour and the
// opacity 255·oa of the result (source-over, not premultiplied).
function opacityTables(alpha) {
  const PUT = new Float64Array(256);
  const OUT = new Float64Array(256);
  for (let a = 0; a < 256; a++) {
    const oa = alpha + (a / 255) * (1 - alpha);
    PUT[a] = alpha / oa;
    OUT[a] = 255 * oa;
  }
  return [PUT, OUT];
}
