// A run's streamed stdin (run(cmd, {stdin: a ReadableStream or an async
// iterable})): a ring buffer in shared memory that the page (or Node's main
// thread) fills from its source, and the core's worker drains while a
// program reads fd 0. The worker cannot take messages during a run (the
// run holds its thread), so the input comes through memory both can see:
// only where SharedArrayBuffer exists (Node; a cross-origin isolated page).
//
// The source is read on demand, as a terminal's input is: a chunk is taken
// only when a program waits for input and the ring is empty. What the run
// never asked for stays in the source (a line typed ahead is the shell's
// next command), and what it left in the ring comes back from stop().
//
// Ctrl-C (Sandbox.interrupt) goes the same way, as a terminal's SIGINT: a
// program that handles it takes it (python3's interpreter: KeyboardInterrupt,
// jsapi/python.js); else the caller stops the run.
//
// Layout: Int32 [0] bytes written, [1] bytes read (both counted mod 2^32),
// [2] 1 once the input has ended, [3] 1 while the reader waits for input,
// [4] interrupts sent, [5] interrupts taken; the data from byte 32, CAP
// bytes.
const CAP = 1 << 16;
const HEAD = 32;
const EMPTY = new Uint8Array(0);
const WRITTEN = 0, READ = 1, ENDED = 2, WAITING = 3, SENT = 4, TAKEN = 5;

export const canStream = () => typeof SharedArrayBuffer === "function" && typeof Atomics === "object";

// isStream: v is a source of chunks rather than the input itself.
export function isStream(v) {
  if (v == null || typeof v === "string" || ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return false;
  return typeof v.getReader === "function" || typeof v[Symbol.asyncIterator] === "function";
}

// copyOut copies n bytes of the ring from position r (mod 2^32) into out at off.
function copyOut(data, r, n, out, off = 0) {
  const at = r % CAP;
  const first = Math.min(n, CAP - at);
  out.set(data.subarray(at, at + first), off);
  if (first < n) out.set(data.subarray(0, n - first), off + first);
}

// sleep until ctl[i] is no longer v (or ms have passed).
async function waitFor(ctl, i, v, ms) {
  if (typeof Atomics.waitAsync === "function") {
    const res = Atomics.waitAsync(ctl, i, v, ms);
    if (res.async) await res.value;
  } else {
    await new Promise((resolve) => setTimeout(resolve, Math.min(ms, 10)));
  }
}

// StdinPipe is the writing end: pump(source, encode) copies the source's
// chunks (strings or bytes) in as the reader asks, then marks the end;
// stop() ends the pumping when the run is over and returns what was in the
// ring unread.
export class StdinPipe {
  constructor() {
    this.sab = new SharedArrayBuffer(HEAD + CAP);
    this.ctl = new Int32Array(this.sab, 0, 6);
    this.data = new Uint8Array(this.sab, HEAD, CAP);
    this.stopped = false;
    this.cancel = null;
  }

  // write copies what fits now and returns how many bytes that was.
  write(b) {
    const w = Atomics.load(this.ctl, WRITTEN) >>> 0;
    const r = Atomics.load(this.ctl, READ) >>> 0;
    const n = Math.min(CAP - ((w - r) >>> 0), b.length);
    const at = w % CAP;
    const first = Math.min(n, CAP - at);
    this.data.set(b.subarray(0, first), at);
    if (first < n) this.data.set(b.subarray(first, n), 0);
    Atomics.store(this.ctl, WRITTEN, (w + n) | 0);
    Atomics.notify(this.ctl, WRITTEN);
    return n;
  }

  close() {
    Atomics.store(this.ctl, ENDED, 1);
    Atomics.notify(this.ctl, WRITTEN);
  }

  // demand waits until the reader waits on an empty ring.
  async demand() {
    while (!this.stopped) {
      const empty = Atomics.load(this.ctl, WRITTEN) === Atomics.load(this.ctl, READ);
      if (empty && Atomics.load(this.ctl, WAITING) === 1) return;
      await waitFor(this.ctl, WAITING, empty ? 0 : Atomics.load(this.ctl, WAITING), 50);
    }
  }

  async pump(source, encode) {
    let next;
    if (typeof source.getReader === "function") {
      const reader = source.getReader();
      next = () => reader.read();
      this.cancel = () => { reader.releaseLock(); };
    } else {
      const it = source[Symbol.asyncIterator]();
      next = () => it.next();
      this.cancel = () => typeof it.return === "function" && Promise.resolve(it.return()).catch(() => {});
    }
    try {
      for (;;) {
        await this.demand();
        if (this.stopped) break;
        const { value, done } = await next();
        if (done || this.stopped) break;
        let b = typeof value === "string" ? encode(value) : value instanceof ArrayBuffer ? new Uint8Array(value) : value;
        if (!ArrayBuffer.isView(b)) throw new TypeError("stdin: a stream's chunks must be strings or bytes");
        b = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
        while (b.length > 0 && !this.stopped) {
          b = b.subarray(this.write(b));
          if (b.length > 0) await waitFor(this.ctl, READ, Atomics.load(this.ctl, READ), 50);
        }
        if (b.length > 0) this.left = b; // (the run ended with it half written)
      }
    } finally {
      this.close();
    }
  }

  // interrupt sends a Ctrl-C; resolves whether a program took it within ms.
  async interrupt(ms = 300) {
    const sent = Atomics.add(this.ctl, SENT, 1) + 1;
    Atomics.notify(this.ctl, WRITTEN); // (a reader waiting for input looks)
    for (const until = Date.now() + ms; Date.now() < until && !this.stopped;) {
      if (Atomics.load(this.ctl, TAKEN) === sent) return true;
      await waitFor(this.ctl, TAKEN, Atomics.load(this.ctl, TAKEN), until - Date.now());
    }
    return Atomics.load(this.ctl, TAKEN) === sent;
  }

  // stop: the run is over. A read of the source still pending is given up
  // (a ReadableStream's lock is released: the caller may read on); returns
  // the bytes that came from the source and were not read.
  stop() {
    if (!this.stopped) {
      this.stopped = true;
      this.close();
      if (this.cancel) {
        try { this.cancel(); } catch { /* (a read in flight: released once it settles) */ }
      }
    }
    const w = Atomics.load(this.ctl, WRITTEN) >>> 0;
    const r = Atomics.load(this.ctl, READ) >>> 0;
    const n = (w - r) >>> 0;
    const out = new Uint8Array(n + (this.left ? this.left.length : 0));
    copyOut(this.data, r, n, out);
    if (this.left) out.set(this.left, n);
    Atomics.store(this.ctl, READ, w | 0);
    return out;
  }
}

// stdinReader is the reading end, in the core's worker: {read, pending,
// take, eintr}. read(max, waitMs) → a Uint8Array of at most max bytes
// (empty when nothing came within waitMs), null once the input has ended
// and been read, or "EINTR" when a Ctrl-C is pending while eintr is set (the
// reader is Python's, which then takes it); pending() says a Ctrl-C was
// sent and not taken, take() takes it.
export function stdinReader(sab) {
  const ctl = new Int32Array(sab, 0, 6);
  const data = new Uint8Array(sab, HEAD, CAP);
  const st = { eintr: false };
  st.pending = () => Atomics.load(ctl, SENT) !== Atomics.load(ctl, TAKEN);
  st.take = () => {
    Atomics.store(ctl, TAKEN, Atomics.load(ctl, SENT));
    Atomics.notify(ctl, TAKEN);
  };
  st.read = (max, waitMs) => {
    if (st.eintr && st.pending()) return "EINTR";
    const r = Atomics.load(ctl, READ) >>> 0;
    let w = Atomics.load(ctl, WRITTEN) >>> 0;
    if (w === r) {
      if (Atomics.load(ctl, ENDED)) {
        // (the end is marked after the last write: look once more)
        if ((Atomics.load(ctl, WRITTEN) >>> 0) === r) return null;
      } else {
        Atomics.store(ctl, WAITING, 1);
        Atomics.notify(ctl, WAITING);
        Atomics.wait(ctl, WRITTEN, w | 0, waitMs);
        Atomics.store(ctl, WAITING, 0);
        if (st.eintr && st.pending()) return "EINTR";
      }
      w = Atomics.load(ctl, WRITTEN) >>> 0;
      if (w === r) return EMPTY;
    }
    const n = Math.min((w - r) >>> 0, max);
    const out = new Uint8Array(n);
    copyOut(data, r, n, out);
    Atomics.store(ctl, READ, (r + n) | 0);
    Atomics.notify(ctl, READ);
    return out;
  };
  return st;
}
