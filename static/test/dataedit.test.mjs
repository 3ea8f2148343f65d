import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeEdit, encodeEdit, Points } from "../app/dataedit_data.js";

const base = { x: [-1, -0.5, 0, 0.5, 1, 1.5, 2, 2.5, 3], y: [0, 1, 2, 3, 4, 5, 6, 7, 8] };

test("an edit encodes and decodes to the same points", () => {
  const p = new Points(base);
  assert.equal(p.edited, false);
  p.remove(2);
  p.move(0, 0.3, -1.1);
  p.add(0.7, 2.2);
  assert.equal(p.edited, true);
  const s = p.encode();
  assert.match(s, /^[A-Za-z0-9_-]+$/);
  const q = new Points(base);
  assert.ok(q.decode(s));
  assert.deepEqual(q.xy(), p.xy());
  // kept base points first in order, then the added ones as float32
  assert.deepEqual(q.xy().x.slice(0, 7), [-0.5, 0.5, 1, 1.5, 2, 2.5, 3]);
  assert.equal(q.xy().x[7], Math.fround(0.3));
});

test("the encoding is the server's: version, N, bits, float32 pairs", () => {
  const s = encodeEdit(9, [0, 8], [{ x: 1, y: -2 }]);
  const e = decodeEdit(s);
  assert.equal(e.baseN, 9);
  assert.deepEqual([...e.removed], [0, 8]);
  assert.deepEqual(e.added, [{ x: 1, y: -2 }]);
  const bytes = Buffer.from(s, "base64url");
  assert.deepEqual([...bytes.subarray(0, 5)], [1, 9, 0, 1, 1]);
  assert.equal(bytes.length, 3 + 2 + 8);
});

test("malformed edits and edits of another data set are refused", () => {
  for (const s of ["", "!!", "AQ", "AgkAAAA", "AQkAAAAA"]) assert.equal(decodeEdit(s), null, s);
  const p = new Points(base);
  assert.equal(p.decode(encodeEdit(10, [], [])), false);
  assert.equal(p.pts.length, 9);
});

test("a range carves a gap; the checks are the server's", () => {
  const p = new Points(base);
  assert.equal(p.removeRange(0, 1.6), 4);
  assert.equal(p.check({ min_edit_points: 2, max_edit_points: 100, max_edit_added: 5 }, [-2, 4]), "");
  p.add(9, 0);
  assert.match(p.check({ min_edit_points: 2, max_edit_points: 100, max_edit_added: 5 }, [-2, 4]), /outside/);
  p.restore([{ x: 0, y: 0, b: 0 }]);
  assert.match(p.check({ min_edit_points: 2, max_edit_points: 100, max_edit_added: 5 }, [-2, 4]), /at least 2/);
});
