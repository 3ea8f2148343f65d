// Copies the front-end packages' dist files from node_modules into vendor/,
// which static/embed.go embeds. Run by `npm --prefix static run vendor`
// after `npm --prefix static ci`; it needs no network.
//
// d3-contour's ES module imports "d3-array" by its bare name, which a
// browser cannot resolve without an import map; the copy names the vendored
// file instead, so the gallery's plane view imports it as a plain module.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const files = [
  ["node_modules/uplot/dist/uPlot.iife.min.js", "vendor/uPlot.iife.min.js"],
  ["node_modules/uplot/dist/uPlot.min.css", "vendor/uPlot.min.css"],
  ["node_modules/uplot/LICENSE", "vendor/uPlot.LICENSE.txt"],
  ["node_modules/d3-array/dist/d3-array.min.mjs", "vendor/d3-array.min.mjs"],
  ["node_modules/d3-array/LICENSE", "vendor/d3-array.LICENSE.txt"],
  ["node_modules/d3-contour/LICENSE", "vendor/d3-contour.LICENSE.txt"],
];
// [from, to, [bare specifier, vendored path]]: copied with the import renamed.
const rewritten = [
  ["node_modules/d3-contour/dist/d3-contour.min.mjs", "vendor/d3-contour.min.mjs", ['from"d3-array"', 'from"./d3-array.min.mjs"']],
];
mkdirSync(join(here, "vendor"), { recursive: true });
for (const [from, to] of files) {
  copyFileSync(join(here, from), join(here, to));
  console.log(`vendor: ${from} -> ${to}`);
}
for (const [from, to, [bare, local]] of rewritten) {
  const src = readFileSync(join(here, from), "utf8");
  if (!src.includes(bare)) throw new Error(`vendor: ${from} no longer imports ${bare}; update copy-vendor.mjs`);
  writeFileSync(join(here, to), src.replaceAll(bare, local));
  console.log(`vendor: ${from} -> ${to} (${bare} -> ${local})`);
}
