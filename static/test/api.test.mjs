// Unit tests of the JSON request helper (static/app/api.js) that the panels
// and the sweep card share, with fetch stubbed; and of escapeHTML.
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { APIError, request } from "../app/api.js";
import { escapeHTML } from "../app/history.js";

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

// stub answers every fetch with status and body, recording the call.
function stub(status, body) {
  const calls = [];
  globalThis.fetch = async (url, init) => {
    calls.push({ url, init });
    return new Response(body, { status, statusText: status === 200 ? "OK" : "Bad" });
  };
  return calls;
}

test("request: JSON body out, parsed JSON back", async () => {
  const calls = stub(200, '{"id":"r1"}');
  assert.deepEqual(await request("POST", "/api/x", { a: 1 }), { id: "r1" });
  assert.equal(calls[0].init.body, '{"a":1}');
  assert.equal(calls[0].init.headers["Content-Type"], "application/json");
  stub(200, "");
  assert.equal(await request("GET", "/api/x"), null);
});

test("request: errors carry the server's field and message, or its text", async () => {
  stub(400, '{"field":"steps","message":"must be ≥ 1"}');
  await assert.rejects(request("POST", "/api/x", {}), (e) => e instanceof APIError && e.status === 400 && e.field === "steps" && e.message === "must be ≥ 1" && String(e) === "steps: must be ≥ 1");
  stub(503, "busy\n");
  await assert.rejects(request("GET", "/api/x"), (e) => e.status === 503 && e.field === "" && e.message === "busy");
  globalThis.fetch = async () => {
    throw new TypeError("refused");
  };
  await assert.rejects(request("GET", "/api/x"), (e) => e.status === 0 && /cannot be reached \(refused\)/.test(e.message));
});

test("escapeHTML escapes markup and quotes", () => {
  assert.equal(escapeHTML(`<a href="x">'&'</a>`), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  assert.equal(escapeHTML(1.5), "1.5");
});
