// Bring your own data: a CSV dropped on the drop zone (or chosen) goes to
// POST /api/data, which validates it as the command line does; its errors
// are shown inline. On success the page's panels restart on the upload.

import { uploadCSV } from "./api.js";

// setupUpload wires the drop zone. maxBytes is the server's limit
// (config.limits), checked here to fail fast.
export function setupUpload(zone, input, errorEl, maxBytes, onUploaded) {
  const showError = (msg) => {
    errorEl.textContent = msg;
    errorEl.hidden = !msg;
  };
  const handle = async (file) => {
    if (!file) return;
    showError("");
    if (file.size > maxBytes) {
      showError(`${file.name} is ${file.size} bytes; the limit is ${maxBytes} bytes.`);
      return;
    }
    zone.classList.add("busy");
    try {
      const text = await file.text();
      const res = await uploadCSV(text);
      await onUploaded(res, parsePoints(text), file.name);
    } catch (e) {
      showError(`${file.name}: ${e}`);
    } finally {
      zone.classList.remove("busy");
    }
  };
  zone.addEventListener("dragover", (ev) => {
    ev.preventDefault();
    zone.classList.add("over");
  });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (ev) => {
    ev.preventDefault();
    zone.classList.remove("over");
    handle(ev.dataTransfer?.files?.[0]);
  });
  input.addEventListener("change", () => {
    handle(input.files?.[0]);
    input.value = "";
  });
}

// parsePoints reads the x and y columns for plotting, in the file's units.
// The server has already validated the file, so this is a plain reader:
// comma separated, a header naming x and y, optional quotes.
export function parsePoints(text) {
  const rows = text.replace(/^\uFEFF/, "").split(/\r?\n/).filter((l) => l.trim() !== "");
  if (rows.length < 2) return null;
  const cells = (line) => line.split(",").map((c) => c.trim().replace(/^"(.*)"$/, "$1").trim());
  const header = cells(rows[0]).map((h) => h.toLowerCase());
  const ix = header.indexOf("x");
  const iy = header.indexOf("y");
  if (ix < 0 || iy < 0) return null;
  const x = [];
  const y = [];
  for (const line of rows.slice(1)) {
    const c = cells(line);
    const a = Number(c[ix]);
    const b = Number(c[iy]);
    if (Number.isFinite(a) && Number.isFinite(b)) {
      x.push(a);
      y.push(b);
    }
  }
  return x.length ? { x, y } : null;
}
