'use strict';
// WHATWG streams, the part programs use with fetch: ReadableStream (reader,
// async iteration, tee, pipeTo/pipeThrough), WritableStream, TransformStream.

class ReadableStream {
  constructor(source = {}, strategy = {}) {
    this._queue = [];
    this._closed = false;
    this._errored = null;
    this._waiting = [];
    this._locked = false;
    this._source = source;
    this._hwm = strategy.highWaterMark === undefined ? 1 : strategy.highWaterMark;
    this._pulling = false;
    const controller = {
      enqueue: (chunk) => {
        if (this._closed) throw new TypeError('Invalid state: Controller is already closed');
        if (this._waiting.length) this._waiting.shift().resolve({ value: chunk, done: false });
        else this._queue.push(chunk);
      },
      close: () => {
        this._closed = true;
        while (this._waiting.length) this._waiting.shift().resolve({ value: undefined, done: true });
      },
      error: (e) => {
        this._errored = e || new Error('stream errored');
        while (this._waiting.length) this._waiting.shift().reject(this._errored);
      },
      get desiredSize() { return 1; },
    };
    this._controller = controller;
    if (typeof source.start === 'function') {
      Promise.resolve(source.start(controller)).catch((e) => controller.error(e));
    }
  }
  get locked() { return this._locked; }
  _pull() {
    if (this._pulling || this._closed || this._errored || typeof this._source.pull !== 'function') return;
    this._pulling = true;
    Promise.resolve().then(() => this._source.pull(this._controller)).then(() => {
      this._pulling = false;
      if (this._waiting.length && !this._closed) this._pull();
    }, (e) => { this._pulling = false; this._controller.error(e); });
  }
  _read() {
    if (this._queue.length) return Promise.resolve({ value: this._queue.shift(), done: false });
    if (this._errored) return Promise.reject(this._errored);
    if (this._closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => { this._waiting.push({ resolve, reject }); this._pull(); });
  }
  getReader() {
    if (this._locked) throw new TypeError('Invalid state: ReadableStream is locked');
    this._locked = true;
    const stream = this;
    return {
      read: () => stream._read(),
      releaseLock: () => { stream._locked = false; },
      cancel: (reason) => stream.cancel(reason),
      get closed() { return new Promise((r) => { const check = () => (stream._closed ? r() : setTimeout(check, 1)); check(); }); },
    };
  }
  async cancel(reason) {
    this._queue = [];
    this._closed = true;
    if (typeof this._source.cancel === 'function') await this._source.cancel(reason);
    while (this._waiting.length) this._waiting.shift().resolve({ value: undefined, done: true });
  }
  async *[Symbol.asyncIterator]() {
    const reader = this.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        yield value;
      }
    } finally {
      reader.releaseLock();
    }
  }
  values() { return this[Symbol.asyncIterator](); }
  tee() {
    const chunks = [[], []];
    const self = this;
    let reading = null;
    const make = (i) => new ReadableStream({
      async pull(c) {
        if (chunks[i].length) { c.enqueue(chunks[i].shift()); return; }
        if (!reading) reading = self._read().finally(() => { reading = null; });
        const { value, done } = await reading;
        if (done) { c.close(); return; }
        chunks[1 - i].push(value);
        c.enqueue(value);
      },
    });
    this._locked = true;
    return [make(0), make(1)];
  }
  async pipeTo(dest, options = {}) {
    const w = dest.getWriter();
    for await (const c of this) await w.write(c);
    if (!options.preventClose) await w.close();
    w.releaseLock();
  }
  pipeThrough({ writable, readable }, options) {
    this.pipeTo(writable, options);
    return readable;
  }
  static from(iterable) {
    const it = iterable[Symbol.asyncIterator] ? iterable[Symbol.asyncIterator]() : iterable[Symbol.iterator]();
    return new ReadableStream({
      async pull(c) {
        const { value, done } = await it.next();
        if (done) c.close(); else c.enqueue(value);
      },
    });
  }
  get [Symbol.toStringTag]() { return 'ReadableStream'; }
}
class WritableStream {
  constructor(sink = {}) {
    this._sink = sink;
    this._locked = false;
    this._controller = { error: () => {} };
    if (typeof sink.start === 'function') sink.start(this._controller);
  }
  get locked() { return this._locked; }
  getWriter() {
    this._locked = true;
    const sink = this._sink;
    const ctl = this._controller;
    let chain = Promise.resolve();
    return {
      write: (chunk) => (chain = chain.then(() => sink.write && sink.write(chunk, ctl))),
      close: () => (chain = chain.then(() => sink.close && sink.close())),
      abort: (r) => (chain = chain.then(() => sink.abort && sink.abort(r))),
      releaseLock: () => { this._locked = false; },
      get ready() { return chain; },
      get closed() { return chain; },
      get desiredSize() { return 1; },
    };
  }
  async close() { const w = this.getWriter(); await w.close(); w.releaseLock(); }
  async abort(r) { if (this._sink.abort) await this._sink.abort(r); }
  get [Symbol.toStringTag]() { return 'WritableStream'; }
}
class TransformStream {
  constructor(transformer = {}) {
    let ctl;
    this.readable = new ReadableStream({ start(c) { ctl = c; } });
    const controller = { enqueue: (c) => ctl.enqueue(c), error: (e) => ctl.error(e), terminate: () => ctl.close(), get desiredSize() { return 1; } };
    if (typeof transformer.start === 'function') transformer.start(controller);
    this.writable = new WritableStream({
      async write(chunk) {
        if (typeof transformer.transform === 'function') await transformer.transform(chunk, controller);
        else controller.enqueue(chunk);
      },
      async close() {
        if (typeof transformer.flush === 'function') await transformer.flush(controller);
        ctl.close();
      },
    });
  }
  get [Symbol.toStringTag]() { return 'TransformStream'; }
}
module.exports = { ReadableStream, WritableStream, TransformStream };
