// A run's streamed stdin (run(cmd, {stdin: a ReadableStream or an async
// iterable})): a ring buffer in shared memory that the page (or Node's main
// thread) fills as its source yields, and the core's worker drains while a
// program reads fd 0. The worker cannot take messages during a run (the
// run holds its thread), so the input comes through memory both can see:
// only where SharedArrayBuffer exists (Node; a cross-origin isolated page).
//
// Layout: Int32 [0] bytes written, [1] bytes read (both counted mod 2^32),
// [2] 1 once the input has ended; the data from byte 16, CAP bytes.
const CAP = 1 << 16;
const HEAD = 16;
const EMPTY = new Uint8Array(0);

export const canStream = () => typeof SharedArrayBuffer === "function" && typeof Atomics === "object";

// isStream: v is a source of chunks rather than the input itself.
export function isStream(v) {
  if (v == null || typeof v === "string" || ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return false;
  return typeof v.getReader === "function" || typeof v[Symbol.asyncIterator] === "function";
}

// StdinPipe is the writing end: pump(source, encode) copies the source's
// chunks (strings or bytes) in as the ring has room, then marks the end;
// stop() ends the pumping when the run is over (what was not read is
// dropped, as a pipe's unread bytes are when its reader exits).
export class StdinPipe {
  constructor() {
    this.sab = new SharedArrayBuffer(HEAD + CAP);
    this.ctl = new Int32Array(this.sab, 0, 3);
    this.data = new Uint8Array(this.sab, HEAD, CAP);
    this.stopped = false;
  }

  // write copies what fits now and returns how many bytes that was.
  write(b) {
    const w = Atomics.load(this.ctl, 0) >>> 0;
    const r = Atomics.load(this.ctl, 1) >>> 0;
    const n = Math.min(CAP - ((w - r) >>> 0), b.length);
    const at = w % CAP;
    const first = Math.min(n, CAP - at);
    this.data.set(b.subarray(0, first), at);
    if (first < n) this.data.set(b.subarray(first, n), 0);
    Atomics.store(this.ctl, 0, (w + n) | 0);
    Atomics.notify(this.ctl, 0);
    return n;
  }

  close() {
    Atomics.store(this.ctl, 2, 1);
    Atomics.notify(this.ctl, 0);
  }

  // room waits until the reader has taken something (or a short while).
  async room() {
    const r = Atomics.load(this.ctl, 1);
    if (typeof Atomics.waitAsync === "function") {
      const res = Atomics.waitAsync(this.ctl, 1, r, 50);
      if (res.async) await res.value;
    } else {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  async pump(source, encode) {
    let next;
    if (typeof source.getReader === "function") {
      const reader = source.getReader();
      next = () => reader.read();
      this.cancel = () => reader.cancel().catch(() => {});
    } else {
      const it = source[Symbol.asyncIterator]();
      next = () => it.next();
      this.cancel = () => typeof it.return === "function" && Promise.resolve(it.return()).catch(() => {});
    }
    try {
      while (!this.stopped) {
        const { value, done } = await next();
        if (done || this.stopped) break;
        let b = typeof value === "string" ? encode(value) : value instanceof ArrayBuffer ? new Uint8Array(value) : value;
        if (!ArrayBuffer.isView(b)) throw new TypeError("stdin: a stream's chunks must be strings or bytes");
        b = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
        while (b.length > 0 && !this.stopped) {
          b = b.subarray(this.write(b));
          if (b.length > 0) await this.room();
        }
      }
    } finally {
      this.close();
    }
  }

  // stop: the run is over; a source still waited on is cancelled.
  stop() {
    if (this.stopped) return;
    this.stopped = true;
    this.close();
    if (this.cancel) this.cancel();
  }
}

// stdinReader is the reading end, in the core's worker: read(max, waitMs) →
// a Uint8Array of at most max bytes (empty when nothing came within
// waitMs), or null once the input has ended and been read.
export function stdinReader(sab) {
  const ctl = new Int32Array(sab, 0, 3);
  const data = new Uint8Array(sab, HEAD, CAP);
  return (max, waitMs) => {
    const r = Atomics.load(ctl, 1) >>> 0;
    let w = Atomics.load(ctl, 0) >>> 0;
    if (w === r) {
      if (Atomics.load(ctl, 2)) {
        // (the end is marked after the last write: look once more)
        if ((Atomics.load(ctl, 0) >>> 0) === r) return null;
      } else {
        Atomics.wait(ctl, 0, w | 0, waitMs);
      }
      w = Atomics.load(ctl, 0) >>> 0;
      if (w === r) return EMPTY;
    }
    const n = Math.min((w - r) >>> 0, max);
    const out = new Uint8Array(n);
    const at = r % CAP;
    const first = Math.min(n, CAP - at);
    out.set(data.subarray(at, at + first));
    if (first < n) out.set(data.subarray(0, n - first), first);
    Atomics.store(ctl, 1, (r + n) | 0);
    Atomics.notify(ctl, 1);
    return out;
  };
}
