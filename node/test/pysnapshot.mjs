// Pyodide's memory restored from scripts/npm/pyodide-snapshot.mjs's file by
// jsapi/python.js (only the snapshot's non-zero pages written, straight into
// the instance's memory) equals what Pyodide's own restoreSnapshot makes of
// the whole image, except the stack below its pointer, which holds nothing
// live; and the interpreter it gives works.
// Usage: node node/test/pysnapshot.mjs PYODIDE_DIR (build/npm/pyodide)
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { readSnapshot, readBytes, snapshotModule } from "../../jsapi/python.js";

const dir = path.resolve(process.argv[2] || "build/npm/pyodide") + path.sep;
const file = new Uint8Array(fs.readFileSync(dir + "snapshot.bin"));
const { loadPyodide } = await import(pathToFileURL(dir + "pyodide.mjs").href);
const loadAsm = async () => (await import(pathToFileURL(dir + "pyodide.asm.mjs").href)).default;
const opts = { indexURL: dir, jsglobals: {}, env: { HOME: "/home/user" }, args: [], stdout: () => {}, stderr: () => {} };

// the whole image, as the file's format says (the oracle: written here
// independently of readSnapshot)
const v = new DataView(file.buffer);
const total = v.getUint32(6, true), page = v.getUint32(10, true), n = v.getUint32(14, true);
const whole = new Uint8Array(total);
for (let i = 0, pos = 18 + 4 * n; i < n; i++, pos += page) {
  const at = v.getUint32(18 + 4 * i, true) * page;
  const len = Math.min(page, total - at);
  whole.set(file.subarray(pos, pos + len), at);
}

// each load's memory right after its restore, and its dead stack
const seen = {};
const keep = (name) => (m) => {
  seen[name] = { heap: m.HEAPU8.slice(), deadLo: m._emscripten_stack_get_end() >>> 0, deadHi: m._emscripten_stack_get_current() >>> 0 };
};
const stockAsm = async () => {
  const factory = await loadAsm();
  return async (settings) => {
    const m = await factory(settings);
    const stock = m.API.restoreSnapshot;
    m.API.restoreSnapshot = (t) => {
      const meta = stock(t);
      keep("stock")(m);
      return meta;
    };
    return m;
  };
};
await loadPyodide({ ...opts, _loadSnapshot: whole, createPyodideModule: await stockAsm() });

let closed = false;
const ours = readSnapshot(readBytes(file), () => { closed = true; });
if (ours.image.length !== total) throw new Error("image length " + ours.image.length + ", want " + total);
const py = await loadPyodide({ ...opts, _loadSnapshot: ours.image, createPyodideModule: snapshotModule(ours, loadAsm, keep("ours")) });
if (!closed) throw new Error("the snapshot was not closed after its restore");

const a = seen.stock, b = seen.ours;
if (!a || !b) throw new Error("a restore was not seen");
if (a.heap.length !== b.heap.length) throw new Error(`memory sizes differ: ${a.heap.length} ${b.heap.length}`);
let differ = 0, first = -1;
for (let p = 0; p < a.heap.length; p += page) {
  const end = Math.min(p + page, a.heap.length);
  if (p >= b.deadLo && end <= b.deadHi) continue; // the stack below its pointer
  for (let i = p; i < end; i++) {
    if (a.heap[i] !== b.heap[i]) {
      differ++;
      if (first < 0) first = i;
      break;
    }
  }
}
if (differ > 0) throw new Error(`${differ} pages differ from Pyodide's own restore, the first at ${first}`);
if (String(py.runPython("sum(range(10)) * 2")) !== "90") throw new Error("the restored interpreter does not compute");
console.log(`pyodide snapshot: ok (${n} of ${Math.ceil(total / page)} pages written, memory equal to Pyodide's own restore)`);
process.exit(0);
