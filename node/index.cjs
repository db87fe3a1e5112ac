// wasmsand for Node: a sandbox where bash, coreutils and python3 run as
// WebAssembly over a virtual filesystem. Sandboxes live in a pool of worker
// threads, each holding one core with many sandboxes (jsapi/sandbox.js:
// CorePool); fork() shares its parent's worker. The API itself is
// jsapi/sandbox.js (shared with the browser), bundled in by scripts/npm.
"use strict";
const { Worker } = require("worker_threads");
const fs = require("fs");
const path = require("path");
const os = require("os");
const { CoreClient, CorePool, SandboxError, defineSandbox } = require("../jsapi/sandbox.js");
const protocol = require("../jsapi/protocol.js"); // the messages to and from the worker
const { Code } = protocol;
const { createSandboxTools } = require("../jsapi/tools.js");

const STATE_FILE = "vfs.state"; // as the native CLI's --save DIR

// the workers: one per core of the machine by default (Sandbox.configure)
const pool = new CorePool({ workers: (os.availableParallelism ? os.availableParallelism() : os.cpus().length) || 1, idle: 2 });

// compiledCore: the core's WebAssembly.Module, compiled once per process
// (on this thread, while a first worker starts) and handed to each worker.
let corePromise = null;
function compiledCore() {
  corePromise ??= fs.promises.readFile(path.join(__dirname, "wasmsand.wasm")).then((b) => WebAssembly.compile(b));
  return corePromise;
}

// assetsDir: where the guest programs are read from (assetsDir, or
// assetsUrl as a file: URL or a path; default: the package's assets/).
function assetsDir(opts) {
  const u = opts.assetsDir || opts.assetsUrl;
  if (!u) return undefined;
  const s = String(u);
  if (/^[a-z][a-z0-9+.-]+:/i.test(s) && !s.startsWith("file:")) {
    throw new SandboxError(Code.invalidArgument, "assetsUrl: Node reads the programs from files (a file: URL or a path), not " + s);
  }
  return s.startsWith("file:") ? require("url").fileURLToPath(s) : path.resolve(s);
}

const Sandbox = defineSandbox({
  hostMounts: true,
  hostPath: (p) => path.resolve(String(p)),

  pool,

  newCore(opts) {
    const dir = assetsDir(opts);
    const pooled = pool.pick(dir, opts.onProgress);
    if (pooled) return pooled;
    let worker;
    const core = new CoreClient({
      post: (m) => worker.postMessage(m),
      terminate: () => {
        pool.drop(core);
        return worker.terminate();
      },
      ref: () => worker.ref(),
      unref: () => worker.unref(), // an idle sandbox does not keep Node running
      idle: (c) => pool.keep(c),
    }, { onProgress: opts.onProgress });
    core.poolKey = dir;
    pool.add(core);
    worker = new Worker(path.join(__dirname, "worker.cjs"), {
      workerData: { dir: __dirname, assetsDir: dir, abortFlag: core.abortFlag },
      env: {}, // process.env stays out of the core
      // guests recurse on V8's stack (QuickJS's node: about 10,000 JS calls
      // deep, as Node allows); the default 4 MB runs out long before
      resourceLimits: { stackSizeMb: 64 },
      stdout: false,
      stderr: false,
    });
    compiledCore().then(
      (module) => worker.postMessage(protocol.init({ module })),
      (e) => core.failAll(new SandboxError(Code.internal, "wasmsand core: " + e.message)));
    worker.on("message", (m) => core.receive(m));
    worker.on("error", (e) => core.failAll(new SandboxError(Code.internal, "wasmsand core: " + e.message)));
    worker.on("exit", () => {
      pool.drop(core);
      core.failAll(new SandboxError(Code.closed, "wasmsand core exited"));
    });
    worker.unref();
    return core;
  },

  // persist: a host directory holding vfs.state, replaced atomically.
  persist(core, dir) {
    dir = path.resolve(dir);
    const store = (state) => {
      fs.mkdirSync(dir, { recursive: true });
      const tmp = path.join(dir, ".vfs.state.tmp-" + process.pid + "-" + Date.now());
      fs.writeFileSync(tmp, state);
      fs.renameSync(tmp, path.join(dir, STATE_FILE));
    };
    return {
      async load() {
        try {
          return new Uint8Array(fs.readFileSync(path.join(dir, STATE_FILE)));
        } catch (e) {
          if (e.code !== "ENOENT") throw new SandboxError(Code.storage, e.message);
        }
      },
      async sync(id, state) {
        try {
          store(state || await core.call("save", id));
        } catch (e) {
          throw e instanceof SandboxError ? e : new SandboxError(Code.storage, e.message);
        }
      },
    };
  },
});

module.exports = { Sandbox, SandboxError, createSandboxTools };
