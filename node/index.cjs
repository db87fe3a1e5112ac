// wasmsand for Node: a sandbox where bash, coreutils and python3 run as
// WebAssembly over a virtual filesystem. Each Sandbox.create starts a
// worker thread holding the core; fork() shares its parent's worker.
"use strict";
const { Worker } = require("worker_threads");
const fs = require("fs");
const path = require("path");

/** An error of the sandbox, with the Go API's stable code. */
class SandboxError extends Error {
  constructor(code, message) {
    super(message);
    this.name = "SandboxError";
    this.code = code;
  }
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

// CoreWorker is one worker thread and the sandboxes that live in it.
class CoreWorker {
  constructor(opts) {
    this.worker = new Worker(path.join(__dirname, "worker.cjs"), {
      workerData: { dir: __dirname, assetsDir: opts.assetsDir },
      env: {}, // process.env stays out of the core
      stdout: false,
      stderr: false,
    });
    this.pending = new Map();
    this.seq = 1;
    this.users = 0;
    this.worker.on("message", (m) => {
      if (m.fatal) {
        this.failAll(new SandboxError("internal", "wasmsand core stopped: " + m.fatal));
        return;
      }
      const p = this.pending.get(m.seq);
      if (!p) return;
      if (m.stream) {
        if (p.onOutput) p.onOutput(m.stream, m.data);
        return;
      }
      this.pending.delete(m.seq);
      this.idle();
      if (m.error) p.reject(new SandboxError(m.error.code, m.error.message));
      else p.resolve(m.value);
    });
    this.worker.on("error", (e) => this.failAll(new SandboxError("internal", "wasmsand core: " + e.message)));
    this.worker.on("exit", () => this.failAll(new SandboxError("closed", "wasmsand core exited")));
    this.worker.unref(); // an idle sandbox does not keep Node running
  }
  failAll(err) {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    this.dead = err;
  }
  idle() {
    if (this.pending.size === 0) this.worker.unref();
  }
  call(method, ...args) {
    return this.callStreaming(null, method, ...args);
  }
  // callStreaming: onOutput(stream, bytes) gets a run's output as it comes
  callStreaming(onOutput, method, ...args) {
    if (this.dead) return Promise.reject(this.dead);
    const seq = this.seq++;
    this.worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(seq, { resolve, reject, onOutput });
      this.worker.postMessage({ seq, method, args });
    });
  }
  release() {
    if (--this.users <= 0) this.worker.terminate();
  }
}

function bytes(data) {
  if (typeof data === "string") return encoder.encode(data);
  if (data instanceof Uint8Array) return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  throw new SandboxError("invalid_argument", "data must be a string, Uint8Array or ArrayBuffer");
}

const STATE_FILE = "vfs.state"; // as the native CLI's --save DIR

/** A sandbox: a shell session over its own files. */
class Sandbox {
  constructor(core, id, persistDir) {
    this._core = core;
    this._id = id;
    this._persist = persistDir;
    core.users++;
  }

  /**
   * Creates a sandbox. persist: a host directory whose saved state is loaded
   * now and saved after each run (the format of `wasmsand run --save DIR`).
   */
  static async create(opts = {}) {
    const core = new CoreWorker(opts);
    const o = {
      memoryLimitMb: opts.memoryLimitMb, timeoutMs: opts.timeoutMs, fsLimitMb: opts.fsLimitMb,
      maxProcesses: opts.maxProcesses, outputLimit: opts.outputLimit, env: opts.env,
    };
    let state;
    const dir = opts.persist ? path.resolve(opts.persist) : null;
    if (dir) {
      try {
        state = new Uint8Array(fs.readFileSync(path.join(dir, STATE_FILE)));
      } catch (e) {
        if (e.code !== "ENOENT") throw new SandboxError("host_path", e.message);
      }
    }
    let files;
    if (opts.files) {
      files = {};
      for (const [k, v] of Object.entries(opts.files)) files[k] = bytes(v);
    }
    try {
      const id = await core.call("create", JSON.stringify(o), state, files);
      return new Sandbox(core, id, dir);
    } catch (e) {
      core.worker.terminate();
      throw e;
    }
  }

  /** Runs a bash command line; resolves to {exitCode, stdout, stderr, executionTimeMs, truncated}. */
  async run(cmd, opts = {}) {
    const o = {
      env: opts.env, cwd: opts.cwd, timeoutMs: opts.timeoutMs, stateless: opts.stateless,
      script: opts.script, name: opts.name,
    };
    const stdin = opts.stdin === undefined ? undefined : bytes(opts.stdin);
    const raw = opts.encoding === "buffer";
    const streaming = !!(opts.onStdout || opts.onStderr);
    const onOutput = streaming ? (stream, data) => {
      const f = stream === "stdout" ? opts.onStdout : opts.onStderr;
      if (f) f(raw ? data : decoder.decode(data));
    } : null;
    const r = await this._core.callStreaming(onOutput, "run", this._id, String(cmd), JSON.stringify(o), stdin, streaming);
    const res = {
      exitCode: r.exitCode,
      stdout: raw ? r.stdout : decoder.decode(r.stdout),
      stderr: raw ? r.stderr : decoder.decode(r.stderr),
      executionTimeMs: r.executionTimeMs,
      truncated: r.truncated,
      timedOut: r.timedOut,
    };
    if (this._persist) await this.save();
    return res;
  }

  /** Reads a file: a Uint8Array, or a string with {encoding: "utf8"}. */
  async readFile(p, opts = {}) {
    const b = await this._core.call("readFile", this._id, String(p));
    const enc = typeof opts === "string" ? opts : opts.encoding;
    return enc ? decoder.decode(b) : b;
  }

  /** Writes a file (parents are made); data is a string or bytes. */
  async writeFile(p, data, opts = {}) {
    await this._core.call("writeFile", this._id, String(p), bytes(data), opts.mode);
  }

  /** Lists a directory: [{name, type, size, mode, mtimeMs}]. */
  listDir(p = ".") { return this._core.call("listDir", this._id, String(p)); }

  /** {name, type, size, mode, mtimeMs} of a path. */
  stat(p) { return this._core.call("stat", this._id, String(p)); }

  /** Removes a file or (with {recursive: true}) a tree. */
  async remove(p, opts = {}) { await this._core.call("remove", this._id, String(p), !!opts.recursive); }

  /** Makes a directory and its missing parents. */
  async mkdir(p, opts = {}) { await this._core.call("mkdir", this._id, String(p), opts.mode); }

  /** Takes an O(1) snapshot of the files; restore() goes back to it. */
  async snapshot() { return { id: await this._core.call("snapshot", this._id), core: this._core }; }

  async restore(snap) {
    if (!snap || snap.core !== this._core) throw new SandboxError("invalid_argument", "a snapshot of this sandbox (or its forks) expected");
    await this._core.call("restore", this._id, snap.id);
  }

  /** A new sandbox with a copy-on-write copy of this one's files and shell state. */
  async fork() {
    const id = await this._core.call("fork", this._id);
    return new Sandbox(this._core, id, null);
  }

  /** The files as one Uint8Array; with persist, also written to its directory. */
  async save() {
    const state = await this._core.call("save", this._id);
    if (this._persist) {
      fs.mkdirSync(this._persist, { recursive: true });
      const tmp = path.join(this._persist, ".vfs.state.tmp-" + process.pid + "-" + Date.now());
      fs.writeFileSync(tmp, state);
      fs.renameSync(tmp, path.join(this._persist, STATE_FILE));
    }
    return state;
  }

  /** Frees the sandbox (the worker ends with its last sandbox). */
  async destroy() {
    if (this._destroyed) return;
    this._destroyed = true;
    try {
      await this._core.call("destroy", this._id);
    } finally {
      this._core.release();
    }
  }
}

module.exports = { Sandbox, SandboxError };
