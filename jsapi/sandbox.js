// The Sandbox API, shared by Node (node/index.cjs) and the browser
// (web/index.js). Both hold the core in a worker (a worker thread, a Web
// Worker) and talk to it through a CoreClient; what differs per platform
// (starting the worker, where a persisted state lives, abort without shared
// memory, host mounts) comes in a `platform` object. Types: node/index.d.ts.
// The messages to and from the worker: jsapi/protocol.js.

import { StdinPipe, canStream, isStream } from "./stdin.js";
import * as protocol from "./protocol.js";

const { Code, Kind, CREATE, RUN } = protocol;

/** An error of the sandbox, with the Go API's stable code. */
export class SandboxError extends Error {
  constructor(code, message) {
    super(message);
    this.name = "SandboxError";
    this.code = code;
  }
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

export function bytes(data) {
  if (typeof data === "string") return encoder.encode(data);
  if (data instanceof Uint8Array) return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  throw new SandboxError(Code.invalidArgument, "data must be a string, Uint8Array or ArrayBuffer");
}

// CoreClient is the host side of one worker and the sandboxes living in it.
// port: {post(msg), terminate(), ref?(), unref?()}; the platform feeds the
// worker's messages to receive(). abortFlag, when shared memory exists, is
// the Int32Array the core polls (jsapi/protocol.js: abort).
export class CoreClient {
  constructor(port, { onProgress } = {}) {
    this.port = port;
    this.pending = new Map();
    this.seq = 1;
    this.users = 0;
    this.creating = 0; // creates under way (counted in the pool's load before they are users)
    this.onProgress = onProgress;
    this.onEvent = new Map(); // sandbox id → its onEvent
    this.abortFlag = protocol.abortFlag();
  }
  // receive takes a message of the worker's (jsapi/protocol.js)
  receive(m) {
    const kind = protocol.kindOf(m);
    if (kind === Kind.progress) {
      // the worker serves calls in order: what loads is for the oldest
      // call waiting, the sandbox that made it (else the worker's creator:
      // Pyodide loading between calls)
      const first = this.pending.values().next().value;
      const f = (first && first.onProgress) || this.onProgress;
      if (f) {
        try { f(m.progress); } catch (_) { /* the callback's own error */ }
      }
      return;
    }
    if (kind === Kind.event) {
      const { id, ...event } = m.event;
      const h = this.onEvent.get(id);
      if (h) {
        try { h(event); } catch (_) { /* the handler's own error */ }
      }
      return;
    }
    if (kind === Kind.fatal) return this.failAll(new SandboxError(Code.internal, "wasmsand core stopped: " + m.fatal));
    const p = this.pending.get(m.seq);
    if (!p) return;
    if (kind === Kind.output) {
      if (p.onOutput) p.onOutput(m.stream, m.data);
      return;
    }
    this.pending.delete(m.seq);
    if (this.pending.size === 0 && this.port.unref) this.port.unref();
    if (m.error) p.reject(new SandboxError(m.error.code, m.error.message));
    else p.resolve(m.value);
  }
  failAll(err) {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    if (!this.dead) this.dead = err;
  }
  call(method, ...args) { return this.callFor({}, method, ...args).promise; }
  // callFor: the call's own callbacks: onOutput(stream, bytes) gets a run's
  // output as it comes, onProgress what the worker loads for it; returns
  // {seq, promise}
  callFor({ onOutput = null, onProgress = null }, method, ...args) {
    if (this.dead) return { seq: 0, promise: Promise.reject(this.dead) };
    const seq = this.seq++;
    if (this.port.ref) this.port.ref();
    const promise = new Promise((resolve, reject) => {
      this.pending.set(seq, { resolve, reject, onOutput, onProgress });
      this.port.post(protocol.call(seq, method, args));
    });
    return { seq, promise };
  }
  // abort stops the call numbered seq: through shared memory when there is
  // some (the sandbox goes on), else by ending the worker and every
  // sandbox in it (the only way to stop a thread that does not yield).
  abort(seq) {
    if (!this.pending.has(seq)) return;
    if (this.abortFlag) {
      protocol.abort(this.abortFlag, seq);
      return;
    }
    this.port.terminate();
    this.failAll(new SandboxError(Code.closed, "the sandbox was stopped by an abort (no SharedArrayBuffer here: its worker had to end)"));
  }
  // release: the last sandbox of this worker is gone; the platform may keep
  // the worker for a later create (port.idle) instead of ending it.
  release() {
    if (--this.users > 0 || this.creating > 0) return;
    if (!(this.port.idle && !this.dead && this.pending.size === 0 && this.port.idle(this))) this.port.terminate();
  }
}

// CorePool holds the workers: up to `workers` live ones (each one Go core
// holding many sandboxes, as natively; its sandboxes run one at a time,
// different workers in parallel), and up to `idle` whose sandboxes were all
// destroyed, kept for the next create (starting a worker and its core costs
// ~100 ms in Node and more in a browser). A create takes a new worker while
// there are fewer than `workers`, else the least loaded live one with the
// same key (where the programs come from). Workers never hold a Node
// process open. A worker that ends (a crash, an abort without shared
// memory) takes only its own sandboxes with it; the next create starts
// another.
export class CorePool {
  constructor({ workers, idle }) {
    this.workers = workers;
    this.max = idle;
    this.cores = []; // idle
    this.live = new Set();
  }
  // load is how busy a core is: its sandboxes, creates under way and calls waiting
  static load(c) { return c.users + c.creating + c.pending.size; }
  // pick is the core a create with this key goes to: a live one to share
  // when there are as many as may be, else a kept one (which now reports
  // to onProgress); null: the platform starts another (and add()s it)
  pick(key, onProgress) {
    const shared = this.share(key);
    if (shared) return shared;
    const i = this.cores.findIndex((c) => c.poolKey === key && !c.dead);
    if (i < 0) return null;
    const kept = this.cores.splice(i, 1)[0];
    this.live.add(kept);
    kept.onProgress = onProgress;
    return kept;
  }
  // share is the least loaded live core with this key, once there are as
  // many live cores as may be
  share(key) {
    if (this.live.size < this.workers) return null;
    let best = null;
    for (const c of this.live) {
      if (c.dead || c.poolKey !== key) continue;
      if (!best || CorePool.load(c) < CorePool.load(best)) best = c;
    }
    return best;
  }
  add(core) { this.live.add(core); }
  // keep is a port's idle(): false when the pool is full
  keep(core) {
    this.live.delete(core);
    if (this.cores.length >= this.max) return false;
    this.cores.push(core);
    return true;
  }
  drop(core) {
    this.live.delete(core);
    const i = this.cores.indexOf(core);
    if (i >= 0) this.cores.splice(i, 1);
  }
  stats() {
    return {
      workers: [...this.live].map((c) => ({ sandboxes: c.users, queued: c.pending.size, closed: !!c.dead })),
      idleWorkers: this.cores.length,
      maxWorkers: this.workers,
    };
  }
}

export function defineSandbox(platform) {
  /** A sandbox: a shell session over its own files. */
  const defaults = {}; // create's options set by configure (baseUrl)
  class Sandbox {
    constructor(core, id, persist, onProgress) {
      this._core = core;
      this._onProgress = typeof onProgress === "function" ? onProgress : null; // (what its calls load)
      this._id = id;
      this._persist = persist;
      this._pipe = null; // the running command's streamed stdin
      core.users++;
    }

    /** Sets how many workers sandboxes are spread over (default: the cores of the machine
     *  in Node, 1 in a page; sandboxes made before keep theirs), and a page's baseUrl for
     *  the creates that give none. */
    static configure({ workers, baseUrl } = {}) {
      if (workers !== undefined) {
        if (!Number.isInteger(workers) || workers < 1) throw new SandboxError(Code.invalidArgument, "workers: a positive integer");
        platform.pool.workers = workers;
      }
      if (baseUrl !== undefined) defaults.baseUrl = baseUrl || undefined;
    }

    /** The workers and what each holds: {workers: [{sandboxes, queued, closed}], idleWorkers, maxWorkers}. */
    static stats() { return platform.pool.stats(); }

    static async create(opts = {}) {
      if (defaults.baseUrl !== undefined && opts.baseUrl === undefined) opts = { ...opts, baseUrl: defaults.baseUrl };
      const core = platform.newCore(opts);
      core.creating++;
      const o = {
        memoryLimitMb: opts.memoryLimitMb, timeoutMs: opts.timeoutMs, fsLimitMb: opts.fsLimitMb,
        maxProcesses: opts.maxProcesses, outputLimit: opts.outputLimit, env: opts.env,
        pipeBufferMb: opts.pipeBufferMb, python: opts.python, pythonIndex: opts.pythonIndex,
        events: typeof opts.onEvent === "function",
        // a policy document: YAML text, or an object (sent as JSON, which is YAML)
        policy: opts.policy == null ? undefined : typeof opts.policy === "string" ? opts.policy : JSON.stringify(opts.policy),
        profile: opts.profile, allowNet: opts.allowNet, secrets: opts.secrets,
      };
      let files;
      if (opts.files) {
        files = {};
        for (const [k, v] of Object.entries(opts.files)) files[k] = bytes(v);
      }
      try {
        const persist = opts.persist ? platform.persist(core, opts.persist) : null;
        const state = persist ? await persist.load() : undefined;
        const onProgress = typeof opts.onProgress === "function" ? opts.onProgress : null;
        const id = await core.callFor({ onProgress }, "create", ...protocol.callArgs(CREATE, { options: JSON.stringify(o), state, files })).promise;
        if (o.events) core.onEvent.set(id, opts.onEvent);
        const sb = new this(core, id, persist, onProgress);
        return sb;
      } catch (e) {
        // (a worker that holds other sandboxes goes on)
        if (core.users === 0 && core.creating === 1) core.port.terminate();
        throw e;
      } finally {
        core.creating--;
      }
    }

    /** Runs a bash command line; resolves to {exitCode, stdout, stderr, executionTimeMs, truncated}. */
    async run(cmd, opts = {}) {
      const signal = opts.signal;
      if (signal && signal.aborted) throw new SandboxError(Code.canceled, "aborted before it started");
      const o = {
        env: opts.env, cwd: opts.cwd, timeoutMs: opts.timeoutMs, stateless: opts.stateless,
        script: opts.script, name: opts.name, terminal: !!opts.terminal,
      };
      let stdin;
      let pipe = null;
      if (isStream(opts.stdin)) {
        if (!canStream()) {
          throw new SandboxError(Code.invalidArgument, "stdin: a stream needs SharedArrayBuffer (in a browser, a cross-origin isolated page); pass a string or bytes");
        }
        pipe = new StdinPipe();
        stdin = protocol.stdinPipe(pipe.sab);
      } else if (opts.stdin !== undefined) {
        stdin = bytes(opts.stdin);
      }
      const raw = opts.encoding === "buffer";
      const streaming = !!(opts.onStdout || opts.onStderr);
      const onOutput = streaming ? (stream, data) => {
        const f = stream === "stdout" ? opts.onStdout : opts.onStderr;
        if (f) f(raw ? data : decoder.decode(data));
      } : null;
      const core = this._core;
      // the call's number is its abort key: known before the message is sent
      if (signal && core.abortFlag) o.abortKey = core.seq;
      const call = core.callFor({ onOutput, onProgress: this._onProgress }, "run",
        ...protocol.callArgs(RUN, { id: this._id, command: String(cmd), options: JSON.stringify(o), stdin, streaming }));
      this._pipe = pipe;
      if (pipe) pipe.pump(opts.stdin, (t) => encoder.encode(t)).catch(() => { /* (the input ends there) */ });
      let aborted = false;
      const onAbort = () => { aborted = true; core.abort(call.seq); };
      if (signal) signal.addEventListener("abort", onAbort, { once: true });
      let r;
      let unread = null;
      try {
        r = await call.promise;
      } finally {
        if (signal) signal.removeEventListener("abort", onAbort);
        if (pipe) unread = pipe.stop();
        if (this._pipe === pipe) this._pipe = null;
      }
      if (aborted && r.exitCode !== 0) {
        throw new SandboxError(Code.canceled, "the run was aborted (exit status " + r.exitCode + ")");
      }
      const res = {
        exitCode: r.exitCode,
        stdout: raw ? r.stdout : decoder.decode(r.stdout),
        stderr: raw ? r.stderr : decoder.decode(r.stderr),
        executionTimeMs: r.executionTimeMs,
        truncated: r.truncated,
        timedOut: r.timedOut,
        exited: !!r.exited,
      };
      // a streamed stdin: what came from the source and the run did not read
      if (unread) res.unreadStdin = raw ? unread : decoder.decode(unread);
      if (this._persist) await this._persist.sync(this._id);
      return res;
    }

    _call(method, ...args) { return this._core.callFor({ onProgress: this._onProgress }, method, ...args).promise; }

    /** Whether script needs more lines to be complete commands (an open quote, block or
     *  here-document), as an interactive shell asks for them with its PS2 prompt. */
    incomplete(script) { return this._call("incomplete", this._id, String(script)); }

    /** Ctrl-C for the running command, as a terminal's SIGINT: a program that handles it
     *  (python3's interpreter: KeyboardInterrupt) goes on; resolves false when none took it
     *  within 300 ms (stop the run with its signal then). Only for a run with a streamed stdin. */
    async interrupt() {
      return this._pipe ? this._pipe.interrupt() : false;
    }

    /** Reads a file: a Uint8Array, or a string with {encoding: "utf8"}. */
    async readFile(p, opts = {}) {
      const b = await this._call("readFile", this._id, String(p));
      const enc = typeof opts === "string" ? opts : opts.encoding;
      return enc ? decoder.decode(b) : b;
    }

    /** Writes a file (parents are made); data is a string or bytes. */
    async writeFile(p, data, opts = {}) {
      await this._call("writeFile", this._id, String(p), bytes(data), opts.mode);
    }

    /** Lists a directory: [{name, type, size, mode, mtimeMs}]. */
    listDir(p = ".") { return this._call("listDir", this._id, String(p)); }

    /** {name, type, size, mode, mtimeMs} of a path. */
    stat(p) { return this._call("stat", this._id, String(p)); }

    /** Removes a file or (with {recursive: true}) a tree. */
    async remove(p, opts = {}) { await this._call("remove", this._id, String(p), !!opts.recursive); }

    /** Makes a directory and its missing parents. */
    async mkdir(p, opts = {}) { await this._call("mkdir", this._id, String(p), opts.mode); }

    /** Node: exposes a host directory at dir in the sandbox (read-only with {readOnly: true}),
     *  confined to it: no "..", absolute or escaping symlink reaches outside. */
    async mount(hostDir, dir, opts = {}) {
      if (!platform.hostMounts) throw new SandboxError(Code.invalidArgument, "mount: no host directories on this platform (Node only)");
      await this._call("mount", this._id, platform.hostPath(hostDir), String(dir), !!opts.readOnly);
    }

    /** Takes an O(1) snapshot of the files; restore() goes back to it. */
    async snapshot() { return { id: await this._call("snapshot", this._id), core: this._core }; }

    async restore(snap) {
      if (!snap || snap.core !== this._core) throw new SandboxError(Code.invalidArgument, "a snapshot of this sandbox (or its forks) expected");
      await this._call("restore", this._id, snap.id);
    }

    /** A new sandbox with a copy-on-write copy of this one's files and shell state (not persisted). */
    async fork() {
      return new this.constructor(this._core, await this._call("fork", this._id), null, this._onProgress);
    }

    /** The files as one Uint8Array; with persist, also saved there. */
    async save() {
      const state = await this._call("save", this._id);
      if (this._persist) await this._persist.sync(this._id, state);
      return state;
    }

    /** Frees the sandbox (the worker ends with its last sandbox). */
    async destroy() {
      if (this._destroyed) return;
      this._destroyed = true;
      try {
        await this._call("destroy", this._id);
      } catch (e) {
        if (e.code !== Code.closed) throw e;
      } finally {
        this._core.onEvent.delete(this._id);
        this._core.release();
      }
    }
  }
  return Sandbox;
}
