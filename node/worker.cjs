// The Node worker thread that holds a wasmsand core (GOOS=js) and its
// sandboxes (jsapi/worker.js does the work): the core and every guest run
// here, so the host's event loop never waits for them. Guest programs are
// read from the package's assets/ directory.
"use strict";
const { parentPort, workerData } = require("worker_threads");
const fs = require("fs");
const path = require("path");
const crypto = require("crypto");

// Go's os package (under GOOS=js) calls these with a callback and waits for
// it; a run holds the thread, so an asynchronous answer would never come.
// Each is served by Node's synchronous call and calls back at once. Only
// platform/hostdir uses os, for a directory mounted with Sandbox.mount.
const FS_CALLS = ["chmod", "chown", "close", "fchmod", "fchown", "fstat", "fsync", "ftruncate", "lchown",
  "link", "lstat", "mkdir", "open", "read", "readdir", "readlink", "rename", "rmdir", "stat", "symlink",
  "truncate", "unlink", "utimes", "write"];
const syncFS = { constants: fs.constants, writeSync: fs.writeSync.bind(fs) };
for (const name of FS_CALLS) {
  const call = fs[name + "Sync"].bind(fs);
  syncFS[name] = (...args) => {
    const cb = args.pop();
    let res;
    try {
      res = call(...args);
    } catch (e) {
      return cb(e);
    }
    cb(null, res);
  };
}
globalThis.fs = syncFS; // (wasm_exec.js also writes the core's own stdout/stderr through it)
require("./wasm_exec.js");
const { startCore, serve } = require("../jsapi/worker.js"); // bundled in by scripts/npm
const protocol = require("../jsapi/protocol.js"); // the messages to and from the main thread
const { installPython } = require("../jsapi/python.js");
const { remotePython } = require("../jsapi/pyremote.js");
const { nodePython } = require("./pyodide.cjs");

// python3 may be Pyodide (Sandbox.create({python: "pyodide"})), read from
// the package's pyodide/ directory when a run first needs it; a run that
// needs it before then, or while it is busy, runs in a helper thread of
// its own (pyhelper.cjs).
const python = nodePython(workerData.dir, (p) => parentPort.postMessage(protocol.progress(p)));
if (python) {
  installPython({
    ...python,
    remote: remotePython({
      spawn: ({ toCore, toHelper }) => {
        const { Worker } = require("worker_threads");
        const w = new Worker(path.join(__dirname, "pyhelper.cjs"), {
          workerData: { dir: workerData.dir, toCore, toHelper, abortFlag: workerData.abortFlag },
        });
        w.unref();
        w.on("error", () => { /* (its run, if any, reports what it can) */ });
        return { terminate: () => w.terminate() };
      },
    }),
  });
}

// The network bridge's transport (bridge/transport_js.go): each call posts
// to the helper thread (net.cjs, started on first use) and sleeps until it
// answers; an answer that comes after its call gave up is dropped.
let net = null;
let netSeq = 0;
globalThis.__wasmsandHTTP = (op, arg) => {
  if (!net) {
    const { Worker, MessageChannel } = require("worker_threads");
    const { port1, port2 } = new MessageChannel();
    const counter = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(path.join(__dirname, "net.cjs"), { workerData: { port: port2, counter }, transferList: [port2] });
    worker.unref();
    net = { port: port1, counter };
  }
  const { receiveMessageOnPort } = require("worker_threads");
  const id = ++netSeq;
  const wait = (op === "request" ? arg.timeoutMs : 10000) + 2000;
  const until = Date.now() + wait;
  let seen = Atomics.load(net.counter, 0);
  net.port.postMessage({ id, op, arg });
  for (;;) {
    for (let m; (m = receiveMessageOnPort(net.port));) if (m.message.id === id) return m.message.answer;
    const left = until - Date.now();
    if (left <= 0) return { error: { kind: "timeout", message: "timed out" } };
    Atomics.wait(net.counter, 0, seen, left);
    seen = Atomics.load(net.counter, 0);
  }
};

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

// CORE_SHA256: the core's hash, written in by scripts/npm; the state the
// core has after its start (wasmsand.init, jsapi/coreinit.js) is for it alone.
// workerData.recordInit: the file to record that state into (scripts/npm),
// instead of serving a sandbox.
const CORE_SHA256 = typeof __WASMSAND_CORE_SHA256__ === "string" ? __WASMSAND_CORE_SHA256__ : "";
const INIT_FILE = "wasmsand.init";
function coreInit() {
  if (!CORE_SHA256) return undefined;
  if (workerData.recordInit) {
    return {
      core: CORE_SHA256,
      onRecord: (file, err) => {
        if (file) fs.writeFileSync(workerData.recordInit, file);
        parentPort.postMessage(protocol.recorded(file ? file.length : 0, err && String(err.message || err)));
      },
    };
  }
  try {
    return { file: new Uint8Array(fs.readFileSync(path.join(dir, INIT_FILE))), core: CORE_SHA256 };
  } catch (_) {
    return undefined; // (none: the core starts the usual way)
  }
}
const init = coreInit(); // (read while the main thread compiles the core)

// The first message is init {module}: the core compiled by the main
// thread (once per process, while this thread was starting); calls follow.
let handler = null;
const early = [];
parentPort.on("message", (data) => {
  if (data && protocol.kindOf(data) === protocol.Kind.init) {
    const corePromise = startCore({
      instantiate: async (imports) => ({ instance: await WebAssembly.instantiate(data.init.module, imports) }),
      fetchAsset,
      sha256: (b) => crypto.createHash("sha256").update(b).digest("hex"),
      abortFlag: workerData.abortFlag,
      onFatal: (msg) => parentPort.postMessage(protocol.fatal(msg)),
      init,
    });
    if (workerData.recordInit) {
      corePromise.catch((e) => parentPort.postMessage(protocol.recorded(0, String(e && e.message || e))));
      return;
    }
    corePromise.catch(() => {}); // reported to each call
    handler = serve(corePromise, (msg, transfer) => parentPort.postMessage(msg, transfer));
    for (const m of early.splice(0)) handler(m);
    return;
  }
  if (handler) handler(data);
  else early.push(data);
});
