// Copies the front-end packages' dist files from node_modules into vendor/,
// which static/embed.go embeds. Run by `npm --prefix static run vendor`
// after `npm --prefix static ci`; it needs no network.
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const files = [
  ["node_modules/uplot/dist/uPlot.iife.min.js", "vendor/uPlot.iife.min.js"],
  ["node_modules/uplot/dist/uPlot.min.css", "vendor/uPlot.min.css"],
  ["node_modules/uplot/LICENSE", "vendor/uPlot.LICENSE.txt"],
];
mkdirSync(join(here, "vendor"), { recursive: true });
for (const [from, to] of files) {
  copyFileSync(join(here, from), join(here, to));
  console.log(`vendor: ${from} -> ${to}`);
}
