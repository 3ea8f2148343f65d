// The JSON API, as the panels use it. Errors carry the server's field and
// message ({"field","message"}), so they can be shown next to what caused them.

export class APIError extends Error {
  constructor(status, field, message) {
    super(message);
    this.status = status;
    this.field = field ?? "";
  }

  toString() {
    return this.field ? `${this.field}: ${this.message}` : this.message;
  }
}

// request sends body (JSON unless contentType says otherwise) and returns the
// parsed JSON reply, or throws an APIError; sweep.js uses it too.
export async function request(method, url, body, contentType = "application/json") {
  let res;
  try {
    res = await fetch(url, {
      method,
      headers: body === undefined ? {} : { "Content-Type": contentType },
      body: body === undefined ? undefined : contentType === "application/json" ? JSON.stringify(body) : body,
    });
  } catch (e) {
    throw new APIError(0, "", `the server cannot be reached (${e.message})`);
  }
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const msg = data?.message ?? (text.trim() || res.statusText);
    throw new APIError(res.status, data?.field, msg);
  }
  return data;
}

export function createRun(spec) {
  return request("POST", "/api/runs", spec);
}

export function getRun(id) {
  return request("GET", `/api/runs/${encodeURIComponent(id)}`);
}

// discard DELETEs a resource as the page leaves: keepalive lets the request
// finish while the page unloads, and nobody is left to hear the answer.
export function discard(url) {
  return fetch(url, { method: "DELETE", keepalive: true }).catch(() => {});
}

// deleteRun frees a run.
export function deleteRun(id) {
  return discard(`/api/runs/${encodeURIComponent(id)}`);
}

// getMethods lists every method's spec, its ranges fitted to data when given.
export function getMethods(data) {
  return request("GET", data ? `/api/methods?data=${encodeURIComponent(data)}` : "/api/methods");
}

export function uploadCSV(text) {
  return request("POST", "/api/data", text, "text/csv");
}

export function streamURL(id) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}/api/runs/${encodeURIComponent(id)}/stream`;
}
