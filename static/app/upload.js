// Bring your own data: a CSV dropped on the drop zone (or chosen) goes to
// POST /api/data, which validates it as the command line does; its errors
// are shown inline. On success the page's panels restart on the upload.

import { uploadCSV } from "./api.js";

const MAX_BYTES = 1 << 20; // the server's limit, checked here to fail fast

export function setupUpload(zone, input, errorEl, onUploaded) {
  const showError = (msg) => {
    errorEl.textContent = msg;
    errorEl.hidden = !msg;
  };
  const handle = async (file) => {
    if (!file) return;
    showError("");
    if (file.size > MAX_BYTES) {
      showError(`${file.name} is ${file.size} bytes; the limit is ${MAX_BYTES} bytes (1 MiB).`);
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

// gapCentre is the centre of the widest interval between consecutive sorted
// inputs when it spans more than a fifth of their range (the command line's
// rule for a CSV), else null.
export function gapCentre(xs) {
  if (!xs || xs.length < 3) return null;
  const s = [...xs].sort((a, b) => a - b);
  const range = s[s.length - 1] - s[0];
  let best = 0;
  let at = null;
  for (let i = 1; i < s.length; i++) {
    if (s[i] - s[i - 1] > best) {
      best = s[i] - s[i - 1];
      at = (s[i] + s[i - 1]) / 2;
    }
  }
  return range > 0 && best > range / 5 ? at : null;
}
