// python3 in a helper thread, for the runs the core's own Pyodide cannot
// take: it is not loaded yet (a guest execs python3 through make, find
// -exec, a git hook, `sh -c "$CMD"`, and nothing on the command line said
// python), or it is busy (a python program runs python as a child). The
// core's thread is inside a synchronous run and cannot wait for a promise,
// so a helper thread (a Node worker thread, or a Web Worker started by the
// browser's worker) loads Pyodide while the core's thread sleeps on shared
// memory (Atomics.wait), then runs the program there; the program's files,
// stdin, output and children are the same host calls the core's own
// Pyodide makes (commands/pyodide), each one sent to the core's thread,
// which serves it and answers. The command-line prediction stays the fast
// path: this is for what it misses.
//
// Two channels, one each way, over SharedArrayBuffers; a message is
// encode()'d and sent in chunks of at most CAP bytes.

const CAP = 1 << 20;
// Int32 [0] state (0 empty, 1 full), [1] chunk length, [2] more chunks follow,
// [3] (the channel to the core) the helper thread: 0 not started yet, 1 running, 2 ended
const HEAD = 16;
const STARTED = 1, ENDED = 2;

export const newChannel = () => new SharedArrayBuffer(HEAD + CAP);

// Channel: one direction. recv(poll) waits for the next message, calling
// poll() every 50 ms while it waits: a true answer gives up (null), as
// does the helper's end (the channel to the core).
export class Channel {
  constructor(sab) {
    this.ctl = new Int32Array(sab, 0, 4);
    this.data = new Uint8Array(sab, HEAD);
  }

  send(bytes) {
    let off = 0;
    do {
      while (Atomics.load(this.ctl, 0) !== 0) Atomics.wait(this.ctl, 0, 1, 1000);
      const n = Math.min(CAP, bytes.length - off);
      this.data.set(bytes.subarray(off, off + n));
      this.ctl[1] = n;
      this.ctl[2] = off + n < bytes.length ? 1 : 0;
      Atomics.store(this.ctl, 0, 1);
      Atomics.notify(this.ctl, 0);
      off += n;
    } while (off < bytes.length);
  }

  full() { return Atomics.load(this.ctl, 0) === 1; }

  // the helper thread's state, on the channel to the core
  thread(state) {
    if (state === undefined) return Atomics.load(this.ctl, 3);
    Atomics.store(this.ctl, 3, state);
    Atomics.notify(this.ctl, 0);
  }

  recv(poll) {
    const parts = [];
    for (;;) {
      while (Atomics.load(this.ctl, 0) !== 1) {
        Atomics.wait(this.ctl, 0, 0, 50);
        if (Atomics.load(this.ctl, 0) !== 1 && (Atomics.load(this.ctl, 3) === ENDED || (poll && poll()))) return null;
      }
      parts.push(this.data.slice(0, this.ctl[1]));
      const more = this.ctl[2];
      Atomics.store(this.ctl, 0, 0);
      Atomics.notify(this.ctl, 0);
      if (!more) break;
    }
    if (parts.length === 1) return parts[0];
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }

  // waitFull resolves once a message is there, without holding the thread.
  async waitFull() {
    while (!this.full()) {
      const w = Atomics.waitAsync(this.ctl, 0, 0);
      if (w.async) await w.value;
    }
  }
}

// encode/decode: the values host calls take and give (undefined, null,
// booleans, numbers, strings, Uint8Arrays, arrays, plain objects).
const T = { undef: 0, nul: 1, f: 2, t: 3, num: 4, str: 5, bytes: 6, arr: 7, obj: 8 };
const te = new TextEncoder();
const td = new TextDecoder();

export function encode(value) {
  let buf = new Uint8Array(256);
  let view = new DataView(buf.buffer);
  let n = 0;
  const room = (k) => {
    if (n + k <= buf.length) return;
    const b = new Uint8Array(Math.max(buf.length * 2, n + k));
    b.set(buf.subarray(0, n));
    buf = b;
    view = new DataView(buf.buffer);
  };
  const u32 = (x) => { room(4); view.setUint32(n, x, true); n += 4; };
  const raw = (b) => { u32(b.length); room(b.length); buf.set(b, n); n += b.length; };
  const put = (v) => {
    room(1);
    if (v === undefined) buf[n++] = T.undef;
    else if (v === null) buf[n++] = T.nul;
    else if (v === false) buf[n++] = T.f;
    else if (v === true) buf[n++] = T.t;
    else if (typeof v === "number") { buf[n++] = T.num; room(8); view.setFloat64(n, v, true); n += 8; }
    else if (typeof v === "string") { buf[n++] = T.str; raw(te.encode(v)); }
    else if (v instanceof Uint8Array) { buf[n++] = T.bytes; raw(v); }
    else if (ArrayBuffer.isView(v)) { buf[n++] = T.bytes; raw(new Uint8Array(v.buffer, v.byteOffset, v.byteLength)); }
    else if (Array.isArray(v)) { buf[n++] = T.arr; u32(v.length); for (const x of v) put(x); }
    else if (typeof v === "object") {
      buf[n++] = T.obj;
      const keys = Object.keys(v);
      u32(keys.length);
      for (const k of keys) { raw(te.encode(k)); put(v[k]); }
    } else throw new TypeError("pyremote: cannot send a " + typeof v);
  };
  put(value);
  return buf.subarray(0, n);
}

export function decode(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let n = 0;
  const u32 = () => { const x = view.getUint32(n, true); n += 4; return x; };
  const raw = () => { const len = u32(); const b = bytes.slice(n, n + len); n += len; return b; };
  const get = () => {
    switch (bytes[n++]) {
      case T.undef: return undefined;
      case T.nul: return null;
      case T.f: return false;
      case T.t: return true;
      case T.num: { const x = view.getFloat64(n, true); n += 8; return x; }
      case T.str: return td.decode(raw());
      case T.bytes: return raw();
      case T.arr: { const len = u32(); const a = []; for (let i = 0; i < len; i++) a.push(get()); return a; }
      case T.obj: { const len = u32(); const o = {}; for (let i = 0; i < len; i++) { const k = td.decode(raw()); o[k] = get(); } return o; }
      default: throw new Error("pyremote: a damaged message");
    }
  };
  return get();
}

// OUT: the host calls that fill a buffer they are given (its argument index).
const OUT = { read: 0, pread: 1 };

// The helper's side: python is the helper's jsapi/python.js runtime
// (installPython), toCore and toHelper the two channels' buffers. It says
// it has started, loads Pyodide when asked (and says whether it could),
// then serves runs until it is ended. (A thread whose only wait is
// Atomics.waitAsync's may be ended by its platform as idle, Node's: the
// platform keeps it alive, and marks it ended if it ends anyway: ended().)
export function ended(toCore) {
  new Channel(toCore).thread(ENDED);
}

export async function serveHelper({ python, toCore, toHelper, abortFlag }) {
  const out = new Channel(toCore);
  const inbox = new Channel(toHelper);
  const send = (m) => out.send(encode(m));
  // the host: each call a message to the core's thread, which answers
  const host = new Proxy({}, {
    get: (_, name) => (...args) => {
      const at = OUT[name];
      const sent = at === undefined ? args : args.map((a, i) => (i === at ? a.length : a));
      send({ op: "host", name, args: sent });
      const ret = decode(inbox.recv());
      if (at !== undefined && ret.out) args[at].set(ret.out);
      return ret.value;
    },
  });
  out.thread(STARTED);
  for (;;) {
    await inbox.waitFull();
    const m = decode(inbox.recv());
    if (m.op === "load") {
      try {
        await python.load();
        send({ op: "ready" });
      } catch (e) {
        send({ op: "failed", message: python.loadError() || String(e && e.message || e) });
      }
      continue;
    }
    if (m.op !== "run") continue;
    try {
      await python.loadImports(m.imports, m.index, m.packages);
    } catch (_) { /* (reported by the run: failures) */ }
    const r = m.r;
    if (r.abort && abortFlag) r.abort.flag = abortFlag;
    else delete r.abort;
    let rc;
    try {
      rc = python.run(r, host);
    } catch (e) {
      rc = 134;
    }
    send({ op: "done", rc });
  }
}

// Helpers: the core's side. spawn({toCore, toHelper}) starts a helper
// thread (the platform's: node/pyhelper.cjs, web/worker.js in its helper
// mode) → {terminate()}; unavailable: why there can be none (a page without
// SharedArrayBuffer), or "". At most MAX helpers: each is a Pyodide (~100 MB
// or more), and a deeper nesting of python in python is an error. spare:
// keep one helper started (Pyodide not loaded) ahead of need, for a
// platform where a thread started during a run would not start until the
// run ended (a browser's nested Web Worker needs its parent's thread).
const MAX = 2;
const NESTED = "too deeply nested (a python program running python running python)";

export function remotePython({ spawn, unavailable = "", spare = false }) {
  const helpers = []; // {inbox, out, state: "spare"|"loading"|"ready", busy, handle}

  function start() {
    const toCore = newChannel(), toHelper = newChannel();
    const h = { state: "spare", busy: false, inbox: new Channel(toCore), out: new Channel(toHelper) };
    h.handle = spawn({ toCore, toHelper });
    helpers.push(h);
    return h;
  }

  function drop(h) {
    const i = helpers.indexOf(h);
    if (i >= 0) helpers.splice(i, 1);
    try { h.handle.terminate(); } catch (_) { /* gone */ }
  }

  // refill starts a spare once the thread is free (between runs)
  function refill() {
    if (!spare || unavailable) return;
    setTimeout(() => {
      if (helpers.length < MAX && !helpers.some((h) => h.state === "spare")) start();
    }, 0);
  }
  refill();

  const free = () => helpers.find((h) => !h.busy && h.state === "ready") || helpers.find((h) => !h.busy && h.state === "loading")
    || helpers.find((h) => !h.busy && h.state === "spare" && (!spare || h.inbox.thread() === STARTED));

  return {
    // why a run cannot be taken now ("" when it can)
    unavailable() {
      if (unavailable) return unavailable;
      if (free() || (!spare && helpers.length < MAX)) return "";
      return helpers.length >= MAX ? NESTED : "no python helper thread has started yet";
    },

    // run(r, goHost, extra, stopped) → the exit status, or a string saying
    // why it could not run; extra: {imports, packages, index}; stopped():
    // whether the run was cancelled or is out of time (while Pyodide loads):
    // then -1, and the helper goes on loading, for the next run.
    run(r, goHost, extra, stopped) {
      const why = this.unavailable();
      if (why) return why;
      const h = free() || start();
      h.busy = true;
      try {
        if (h.state === "spare") {
          h.out.send(encode({ op: "load" }));
          h.state = "loading";
        }
        if (h.state === "loading") {
          const m = h.inbox.recv(stopped);
          if (m === null && h.inbox.thread() === ENDED) {
            drop(h);
            return "the Python helper thread ended while it loaded Pyodide";
          }
          if (m === null) return -1;
          const msg = decode(m);
          if (msg.op !== "ready") {
            drop(h);
            return "Pyodide could not be loaded: " + msg.message;
          }
          h.state = "ready";
        }
        // (the flag is shared memory the helper has already: only the run's key goes)
        h.out.send(encode({ op: "run", r: { ...r, abort: r.abort ? { run: r.abort.run } : undefined }, ...extra }));
        for (;;) {
          const m = h.inbox.recv();
          if (m === null) {
            drop(h);
            return "the Python helper thread ended during the run";
          }
          const msg = decode(m);
          if (msg.op === "done") return msg.rc;
          if (msg.op !== "host") continue;
          const at = OUT[msg.name];
          let buf = null;
          if (at !== undefined) {
            buf = new Uint8Array(msg.args[at]);
            msg.args[at] = buf;
          }
          const value = goHost[msg.name](...msg.args);
          h.out.send(encode({ value, out: buf && typeof value === "number" && value > 0 ? buf.subarray(0, value) : undefined }));
        }
      } finally {
        h.busy = false;
        refill();
      }
    },

    // settle → a promise, resolved once every helper started is running (or
    // after 3 s), for the platform to await between runs: where a thread
    // cannot start while its parent sleeps, a run must not find a spare
    // that has not started yet (null when none is starting)
    settle() {
      const starting = () => helpers.some((h) => h.state === "spare" && h.inbox.thread() === 0);
      if (!spare || !starting()) return null;
      const until = performance.now() + 3000;
      return new Promise((resolve) => {
        const look = () => (!starting() || performance.now() > until ? resolve() : setTimeout(look, 5));
        look();
      });
    },

    // trim: the core's own Pyodide is loaded; the helpers that loaded one
    // for its misses are no longer needed (a spare stays)
    trim() {
      for (const h of helpers.slice()) if (!h.busy && h.state !== "spare") drop(h);
      refill();
    },
  };
}
