// wasmsand in the browser: the Sandbox on the page is a thin proxy to a Web
// Worker (web/worker.js) that holds the core and runs every guest. The API is
// the Node package's (node/index.d.ts); no SharedArrayBuffer or special
// headers are needed.
const here = new URL(".", import.meta.url);
const decoder = new TextDecoder();
const encoder = new TextEncoder();

export class SandboxError extends Error {
  constructor(code, message) {
    super(message);
    this.name = "SandboxError";
    this.code = code;
  }
}

class CoreWorker {
  constructor(opts) {
    this.worker = new Worker(opts.workerUrl || new URL("worker.js", here), { type: "module" });
    this.pending = new Map();
    this.seq = 1;
    this.users = 0;
    this.onProgress = opts.onProgress;
    this.worker.onmessage = ({ data: m }) => {
      if (m.progress) {
        if (this.onProgress) this.onProgress(m.progress);
        return;
      }
      if (m.fatal) return this.failAll(new SandboxError("internal", "wasmsand core stopped: " + m.fatal));
      const p = this.pending.get(m.seq);
      if (!p) return;
      if (m.stream) {
        if (p.onOutput) p.onOutput(m.stream, m.data);
        return;
      }
      this.pending.delete(m.seq);
      if (m.error) p.reject(new SandboxError(m.error.code, m.error.message));
      else p.resolve(m.value);
    };
    this.worker.onerror = (e) => this.failAll(new SandboxError("internal", "wasmsand core: " + (e.message || e)));
    this.worker.postMessage({ init: {
      coreUrl: String(opts.coreUrl || new URL("../wasmsand.wasm", here)),
      assetsUrl: String(opts.assetsUrl || new URL("../assets/", here)),
    } });
  }
  failAll(err) {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    this.dead = err;
  }
  call(method, ...args) { return this.callStreaming(null, method, ...args); }
  callStreaming(onOutput, method, ...args) {
    if (this.dead) return Promise.reject(this.dead);
    const seq = this.seq++;
    return new Promise((resolve, reject) => {
      this.pending.set(seq, { resolve, reject, onOutput });
      this.worker.postMessage({ seq, method, args });
    });
  }
  release() { if (--this.users <= 0) this.worker.terminate(); }
}

function bytes(data) {
  if (typeof data === "string") return encoder.encode(data);
  if (data instanceof Uint8Array) return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  throw new SandboxError("invalid_argument", "data must be a string, Uint8Array or ArrayBuffer");
}

export class Sandbox {
  constructor(core, id) {
    this._core = core;
    this._id = id;
    core.users++;
  }

  static async create(opts = {}) {
    const core = new CoreWorker(opts);
    const o = {
      memoryLimitMb: opts.memoryLimitMb, timeoutMs: opts.timeoutMs, fsLimitMb: opts.fsLimitMb,
      maxProcesses: opts.maxProcesses, outputLimit: opts.outputLimit, env: opts.env,
    };
    let files;
    if (opts.files) {
      files = {};
      for (const [k, v] of Object.entries(opts.files)) files[k] = bytes(v);
    }
    try {
      return new Sandbox(core, await core.call("create", JSON.stringify(o), undefined, files));
    } catch (e) {
      core.worker.terminate();
      throw e;
    }
  }

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
    return {
      exitCode: r.exitCode,
      stdout: raw ? r.stdout : decoder.decode(r.stdout),
      stderr: raw ? r.stderr : decoder.decode(r.stderr),
      executionTimeMs: r.executionTimeMs,
      truncated: r.truncated,
      timedOut: r.timedOut,
    };
  }

  async readFile(p, opts = {}) {
    const b = await this._core.call("readFile", this._id, String(p));
    const enc = typeof opts === "string" ? opts : opts.encoding;
    return enc ? decoder.decode(b) : b;
  }
  async writeFile(p, data, opts = {}) { await this._core.call("writeFile", this._id, String(p), bytes(data), opts.mode); }
  listDir(p = ".") { return this._core.call("listDir", this._id, String(p)); }
  stat(p) { return this._core.call("stat", this._id, String(p)); }
  async remove(p, opts = {}) { await this._core.call("remove", this._id, String(p), !!opts.recursive); }
  async mkdir(p, opts = {}) { await this._core.call("mkdir", this._id, String(p), opts.mode); }
  async snapshot() { return { id: await this._core.call("snapshot", this._id), core: this._core }; }
  async restore(snap) {
    if (!snap || snap.core !== this._core) throw new SandboxError("invalid_argument", "a snapshot of this sandbox (or its forks) expected");
    await this._core.call("restore", this._id, snap.id);
  }
  async fork() { return new Sandbox(this._core, await this._core.call("fork", this._id)); }
  save() { return this._core.call("save", this._id); }
  async destroy() {
    if (this._destroyed) return;
    this._destroyed = true;
    try { await this._core.call("destroy", this._id); } finally { this._core.release(); }
  }
}

export default { Sandbox, SandboxError };
