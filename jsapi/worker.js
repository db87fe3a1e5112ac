// The worker half of the Sandbox API, shared by node/worker.cjs (a worker
// thread) and web/worker.js (a Web Worker): boots the GOOS=js core beside
// platform/js's host.js and serves the page's calls one after another,
// answering each (the messages: jsapi/protocol.js). Go's wasm_exec
// (globalThis.Go) must be loaded first.
import "../platform/js/host.js"; // globalThis.wasmsandInstallHost
import { stdinReader } from "./stdin.js";
import { recordInit, restoreInit } from "./coreinit.js";
import { runtimeManifest } from "./manifest.js";
import * as protocol from "./protocol.js";

const { Code, CREATE, RUN } = protocol;

// startCore instantiates the core and hands it the assets:
// instantiate(importObject) → {instance}; fetchAsset(name) → Uint8Array |
// {error}; sha256(bytes) → hex, optional; abortFlag: an Int32Array over
// shared memory, optional.
// init: {file, core, onRecord}: the core's state after its start and its
// init (jsapi/coreinit.js) and the core's hash, put back instead of starting
// it when they fit. Otherwise, with onRecord, the start is recorded and
// onRecord(file) gets the state (or onRecord(null, error)), recordDelayMs
// after the start. onStarted(how), optional, hears "restored" or "started".
export async function startCore({ instantiate, fetchAsset, sha256, abortFlag, onFatal, init }) {
  const manifest = fetchAsset("manifest.json");
  if (manifest.error) throw new Error("wasmsand: assets: " + manifest.error);
  const initArgs = [runtimeManifest(manifest), fetchAsset, sha256, abortFlag];
  const boot = async (restore) => {
    const go = new globalThis.Go();
    go.argv = ["wasmsand"];
    // the host's environment stays out; stacks never shrink, which lets guest
    // imports take the quick way into Go (platform/js/host.go)
    go.env = { GODEBUG: "gcshrinkstackoff=1" };
    globalThis.wasmsandInstallHost(go);
    const ready = new Promise((resolve) => { globalThis.__wasmsandCoreReady = resolve; });
    const recorder = !restore && init && init.onRecord ? recordInit(go) : null;
    const { instance } = await instantiate(go.importObject);
    let r;
    if (restore) {
      const results = restoreInit(go, instance, init.file, init.core, [initArgs]);
      if (!results) return null;
      await ready;
      r = results[0];
    } else {
      const fresh = recorder && new Uint8Array(instance.exports.mem.buffer).slice();
      go.run(instance).catch((e) => onFatal(String(e)));
      await ready;
      const core = globalThis.__wasmsandCore;
      r = recorder ? recorder.call(() => core.init(...initArgs)) : core.init(...initArgs);
      if (recorder && r && !r.error) {
        // (the file is made after recordDelayMs, off the start's path)
        let encode = null;
        try {
          encode = recorder.finish(instance, fresh, init.core);
        } catch (e) {
          init.onRecord(null, e);
        }
        if (encode) {
          setTimeout(() => {
            let file = null, err = null;
            try {
              file = encode();
            } catch (e) {
              err = e;
            }
            init.onRecord(file, err);
          }, init.recordDelayMs || 0);
        }
      }
    }
    if (!r || r.error) throw new Error("wasmsand: assets: " + (r ? r.error.message : "no answer from the core"));
    return globalThis.__wasmsandCore;
  };
  const restored = init && init.file && await boot(true);
  const core = restored || await boot(false);
  if (init && init.onStarted) init.onStarted(restored ? "restored" : "started");
  return core;
}

// loadPython loads Pyodide before a run that may need it (it cannot load
// during one: runs are synchronous). A failure is kept for python3 to
// report.
async function loadPython(core, args) {
  const py = globalThis.__wasmsandPython;
  if (!py) return;
  const settled = py.settle(); // (a helper thread still starting: see jsapi/pyremote.js)
  if (settled) await settled;
  const need = core.needsPython(args[RUN.id], args[RUN.command]).value;
  if (!need || !need.python) return;
  try {
    await py.loadImports(need.imports, need.index, need.packages);
  } catch (_) { /* py.loadError() has it */ }
}

// Calls queued or in flight, and when the last one ended: preloadPython
// waits for a quiet moment.
let pending = 0;
let quietSince = 0;
const QUIET_MS = 1000;

// preloadPython starts loading Pyodide once a sandbox that asks for it by
// name has been made and the worker has been quiet for a second, so that its
// first python run waits less (loading goes on between runs) and the calls
// that follow create do not wait for it: loading holds the thread for a few
// hundred ms at a time. A run that needs python before then loads it itself.
// By default python3 is Pyodide too, loaded on first use.
function preloadPython(options) {
  const py = globalThis.__wasmsandPython;
  if (!py || py.loaded() || !options || options.python !== "pyodide") return;
  const when = () => {
    if (py.loaded()) return;
    if (pending > 0 || performance.now() - quietSince < QUIET_MS) {
      setTimeout(when, 250);
      return;
    }
    py.load().catch(() => { /* py.loadError() has it */ });
  };
  setTimeout(when, QUIET_MS);
}

// serve returns the handler of the page's calls: they run in order (a
// persisted save finishes before the next run starts); post(msg, transfer)
// answers, and sends the output and notes (jsapi/protocol.js).
// hooks.before(method, args, core) may return a promise awaited before the call
// (the browser fetches a run's programs ahead); hooks.after() runs after it.
// hooks.answer(method, args), optional, may answer a call without the core,
// before it has started: a promise of {value}, or of undefined to call it.
export function serve(corePromise, post, hooks = {}) {
  let queue = Promise.resolve();
  // a sandbox's events (create's events option), as they happen
  globalThis.__wasmsandEvent = (id, json) => post(protocol.event(id, JSON.parse(json)));
  const handle = async ({ seq, method, args }) => {
    const early = hooks.answer && await hooks.answer(method, args);
    if (early) {
      post(protocol.answer(seq, early.value));
      return;
    }
    let core;
    try {
      core = await corePromise;
    } catch (e) {
      post(protocol.failure(seq, Code.internal, String(e && e.message || e)));
      return;
    }
    const fn = core[method];
    if (typeof fn !== "function") {
      post(protocol.failure(seq, Code.invalidArgument, "no method " + method));
      return;
    }
    let stdin = null; // a streamed stdin's reader, for Python's Ctrl-C (jsapi/python.js) during the run
    const pipe = method === "run" ? protocol.pipeOf(args[RUN.stdin]) : null;
    if (pipe) {
      stdin = stdinReader(pipe);
      args[RUN.stdin] = stdin.read;
    }
    if (method === "run" && args.length > RUN.streaming && args[RUN.streaming] === true) {
      // streamed output: each chunk as a message of its own, before the result
      args[RUN.streaming] = (stream, data) => post(protocol.output(seq, stream, data), [data.buffer]);
    }
    // create's and run's options, JSON from the page, go to the core as
    // objects (cmd/wasmsand-js reads them field by field)
    const at = method === "create" ? CREATE.options : method === "run" ? RUN.options : -1;
    if (at >= 0 && typeof args[at] === "string" && args[at] !== "") {
      try {
        args[at] = JSON.parse(args[at]);
      } catch (_) { /* the core reports it */ }
    }
    if (hooks.before) await hooks.before(method, args, core);
    if (method === "run") await loadPython(core, args);
    if (method === "create") preloadPython(args[CREATE.options]);
    globalThis.__wasmsandStdin = stdin;
    let res;
    try {
      res = fn(...args);
    } finally {
      globalThis.__wasmsandStdin = null;
    }
    if (res && typeof res.then === "function") res = await res; // persistLoad/persistSave
    const transfer = [];
    const v = res.value;
    if (v instanceof Uint8Array) transfer.push(v.buffer);
    else if (v && v.stdout instanceof Uint8Array) transfer.push(v.stdout.buffer, v.stderr.buffer);
    post(protocol.answer(seq, v, res.error), transfer);
    if (hooks.after) await hooks.after();
  };
  return (msg) => {
    pending++;
    queue = queue.then(() => handle(msg)).catch((e) => post(protocol.failure(msg.seq, Code.internal, String(e && e.message || e))))
      .finally(() => {
        pending--;
        quietSince = performance.now();
      });
  };
}
