// Records the core's state once it has started (jsapi/coreinit.js) into
// PKG/wasmsand.init, through the package's own worker thread, so that it is
// the state a worker of that package has. Run by scripts/npm: node core-init.mjs PKG.
import fs from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import * as protocol from "../../jsapi/protocol.js";

const dir = path.resolve(process.argv[2]);
const out = path.join(dir, "wasmsand.init");
fs.rmSync(out, { force: true });
const module = await WebAssembly.compile(fs.readFileSync(path.join(dir, "wasmsand.wasm")));
const worker = new Worker(path.join(dir, "worker.cjs"), {
  // (as node/index.cjs starts a worker: the core records its init with these)
  workerData: { dir, recordInit: out, abortFlag: new Int32Array(new SharedArrayBuffer(4)) }, env: {}, stdout: false, stderr: false,
});
const m = await new Promise((resolve, reject) => {
  worker.on("message", resolve);
  worker.on("error", reject);
  worker.postMessage(protocol.init({ module }));
});
await worker.terminate();
if (!m.recorded) {
  console.error("npm: core-init: " + m.error);
  process.exit(1);
}
console.log(`npm: core state after start-up: ${(m.recorded / 1048576).toFixed(2)} MB (${path.relative(process.cwd(), out)})`);
