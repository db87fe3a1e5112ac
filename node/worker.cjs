// The Node worker thread that holds a wasmsand core (GOOS=js) and its
// sandboxes: index.cjs sends it {seq, method, args}, it calls the core's
// method synchronously and answers {seq, value} or {seq, error}. The core
// and every guest run here, so the host's event loop never waits for them.
"use strict";
const { parentPort, workerData } = require("worker_threads");
const fs = require("fs");
const path = require("path");
const crypto = require("crypto");

globalThis.fs ??= fs; // wasm_exec.js writes the core's own stdout/stderr through it
require("./wasm_exec.js");
const { install } = require("../platform/js/host.js"); // bundled in by scripts/npm

const dir = workerData.dir;
const assetsDir = workerData.assetsDir || path.join(dir, "assets");

function fetchAsset(name) {
  const clean = path.posix.normalize("/" + name).slice(1);
  try {
    return new Uint8Array(fs.readFileSync(path.join(assetsDir, clean)));
  } catch (e) {
    return { error: e.message };
  }
}

async function start() {
  const go = new Go();
  go.argv = ["wasmsand"];
  go.env = {}; // the host's environment stays out
  install(go);
  const ready = new Promise((resolve) => { globalThis.__wasmsandCoreReady = resolve; });
  const bytes = fs.readFileSync(path.join(dir, "wasmsand.wasm"));
  const { instance } = await WebAssembly.instantiate(bytes, go.importObject);
  go.run(instance).catch((e) => parentPort.postMessage({ seq: 0, fatal: String(e) }));
  await ready;
  const core = globalThis.__wasmsandCore;
  const manifest = fetchAsset("manifest.json");
  if (manifest.error) throw new Error("wasmsand: assets: " + manifest.error);
  const sha256 = (b) => crypto.createHash("sha256").update(b).digest("hex");
  const r = core.init(manifest, fetchAsset, sha256);
  if (r.error) throw new Error("wasmsand: assets: " + r.error.message);
  return core;
}

const corePromise = start();

parentPort.on("message", async ({ seq, method, args }) => {
  let core;
  try {
    core = await corePromise;
  } catch (e) {
    parentPort.postMessage({ seq, error: { code: "internal", message: String(e && e.message || e) } });
    return;
  }
  const fn = core[method];
  if (typeof fn !== "function") {
    parentPort.postMessage({ seq, error: { code: "invalid_argument", message: "no method " + method } });
    return;
  }
  if (method === "run" && args.length > 4 && args[4] === true) {
    // streamed output: each chunk as a message of its own, before the result
    args[4] = (stream, data) => parentPort.postMessage({ seq, stream, data }, [data.buffer]);
  }
  const res = fn(...args);
  const transfer = [];
  const v = res.value;
  if (v instanceof Uint8Array) transfer.push(v.buffer);
  else if (v && v.stdout instanceof Uint8Array) transfer.push(v.stdout.buffer, v.stderr.buffer);
  parentPort.postMessage({ seq, value: v, error: res.error }, transfer);
});
