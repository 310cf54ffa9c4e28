// Loads a gallery's entries (written by tests/test_bundle.py) as anywidget would, one module copy per
// model, in the order `process.argv[3]` names, and checks each tile draws with the one bundle.
// Node imports neither blob: URLs nor DOM Blobs: the entry's Blob and object URL become a data: URL.
import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";

const [dir, order] = [process.argv[2], process.argv[3].split(",")];
const { key, css } = JSON.parse(process.argv[4]);
globalThis.Blob = class {
  constructor(parts) {
    this.source = parts.join("");
  }
};
URL.createObjectURL = (blob) => `data:text/javascript;base64,${Buffer.from(blob.source).toString("base64")}`;

let copies = 0;
const load = async (name) => (await import(`${pathToFileURL(dir).href}/${name}.mjs?model=${copies++}`)).default;
const PENDING = Symbol("pending");
// setImmediate runs once the microtasks queued so far ran: a promise not settled by then waits on something
const state = (promise) => Promise.race([promise, new Promise((done) => setImmediate(() => done(PENDING)))]);

const drawing = []; // [model, el, render's promise] of each view
for (const name of order) {
  const entry = await load(name);
  const model = {};
  const begun = entry.initialize?.({ model });
  if (name === "tile") assert.equal(begun, undefined, "a tile's initialize does not wait for the bundle");
  if (name === "carrier") {
    assert.equal(entry.render({ el: {} }), undefined, "the carrier draws nothing");
    continue;
  }
  await begun;
  const el = {};
  drawing.push([model, el, entry.render({ model, el })]);
}
const holds = order.some((name) => name !== "tile");
for (const [model, el, rendered] of drawing) {
  if (!holds) {
    assert.equal(await state(rendered), PENDING, "no entry holds the bundle: tiles wait for one");
    continue;
  }
  assert.equal(typeof (await rendered), "function", "render returns the bundle's cleanup");
  assert.equal(el.drawn, true);
  assert.equal(model.initialized, true, "the bundle's initialize ran for the model");
  assert.deepEqual(el.styles, [css, key], "the styles the holder carried, named by the key");
}
assert.equal(globalThis.evaluated, holds ? 1 : undefined, "the bundle is evaluated once per page");
console.log("ok", drawing.length);
