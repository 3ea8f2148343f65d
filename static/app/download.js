// Saving a file from the page: plots.js (PNG buttons) and export.js (the
// slide PNG, CSV, JSON and draws) both use these. No DOM at import, so
// node tests can import its users.

// download saves href (a URL, a data or blob URL) as filename.
export function download(href, filename) {
  const a = document.createElement("a");
  a.href = href;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

// saveBlob downloads blob as filename.
export function saveBlob(blob, filename) {
  const url = URL.createObjectURL(blob);
  download(url, filename);
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
