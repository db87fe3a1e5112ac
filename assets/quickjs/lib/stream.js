'use strict';
// node:stream — Readable, Writable, Duplex, Transform, PassThrough, pipeline,
// finished: the behaviour programs rely on (flowing and paused reading,
// backpressure with 'drain', objectMode, 'end'/'finish'/'close' order, async
// iteration, destroy with an error), written compactly for QuickJS.

const EE = require('events');
const { codes, AbortError } = require('internal/errors');
const loop = require('internal/loop');

const nextTick = loop.nextTick;

function Stream(opts) { EE.call(this, opts); }
Object.setPrototypeOf(Stream.prototype, EE.prototype);
Object.setPrototypeOf(Stream, EE);
Stream.prototype.pipe = function (dest, options) {
  const source = this;
  function ondata(chunk) { if (dest.writable && dest.write(chunk) === false && source.pause) source.pause(); }
  source.on('data', ondata);
  function ondrain() { if (source.readable && source.resume) source.resume(); }
  dest.on('drain', ondrain);
  if (!dest._isStdio && (!options || options.end !== false)) source.on('end', () => dest.end());
  dest.emit('pipe', source);
  return dest;
};

function getHWM(opts, objectMode, duplexKey) {
  let hwm = opts.highWaterMark;
  if (hwm == null && duplexKey) hwm = opts[duplexKey];
  if (hwm != null) {
    if (!Number.isInteger(hwm) || hwm < 0) throw new codes.ERR_INVALID_ARG_VALUE('options.highWaterMark', hwm);
    return hwm;
  }
  return objectMode ? 16 : 16384;
}

function toBuffer(chunk, encoding) {
  if (typeof chunk === 'string') return Buffer.from(chunk, encoding || 'utf8');
  if (chunk instanceof Uint8Array && !Buffer.isBuffer(chunk)) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return chunk;
}

// --- Readable ----------------------------------------------------------------------
function ReadableState(options, stream, isDuplex) {
  options = options || {};
  this.objectMode = !!(options.objectMode || (isDuplex && options.readableObjectMode));
  this.highWaterMark = getHWM(options, this.objectMode, isDuplex && 'readableHighWaterMark');
  this.buffer = [];
  this.length = 0;
  this.pipes = [];
  this.flowing = null;
  this.ended = false;
  this.endEmitted = false;
  this.reading = false;
  this.sync = true;
  this.needReadable = false;
  this.emittedReadable = false;
  this.readableListening = false;
  this.resumeScheduled = false;
  this.destroyed = false;
  this.errored = null;
  this.closed = false;
  this.closeEmitted = false;
  this.emitClose = options.emitClose !== false;
  this.autoDestroy = options.autoDestroy !== false;
  this.defaultEncoding = options.defaultEncoding || 'utf8';
  this.decoder = null;
  this.encoding = null;
  this.dataEmitted = false;
  if (options.encoding) this.setEncoding(options.encoding);
}
ReadableState.prototype.setEncoding = function (enc) {
  const { StringDecoder } = require('string_decoder');
  this.decoder = new StringDecoder(enc);
  this.encoding = this.decoder.encoding;
};

function Readable(options) {
  if (!(this instanceof Readable)) return new Readable(options);
  const isDuplex = this instanceof Duplex;
  this._readableState = new ReadableState(options, this, isDuplex);
  if (options) {
    if (typeof options.read === 'function') this._read = options.read;
    if (typeof options.destroy === 'function') this._destroy = options.destroy;
    if (typeof options.construct === 'function') this._construct = options.construct;
    if (options.signal) addAbortSignal(options.signal, this);
  }
  Stream.call(this, options);
  if (typeof this._construct === 'function') constructStream(this);
}
Object.setPrototypeOf(Readable.prototype, Stream.prototype);
Object.setPrototypeOf(Readable, Stream);

function constructStream(stream) {
  const r = stream._readableState, w = stream._writableState;
  if (r) r.constructed = false;
  if (w) w.constructed = false;
  nextTick(() => {
    stream._construct((err) => {
      if (r) r.constructed = true;
      if (w) w.constructed = true;
      if (err) { destroy.call(stream, err); return; }
      if (r && r.needReadable) maybeReadMore(stream, r);
      if (w) { clearBuffer(stream, w); finishMaybe(stream, w); }
      if (r && r.flowing) flow(stream);
      stream.emit('_constructed');
    });
  });
}

Readable.prototype.push = function (chunk, encoding) {
  return readableAddChunk(this, chunk, encoding, false);
};
Readable.prototype.unshift = function (chunk, encoding) {
  return readableAddChunk(this, chunk, encoding, true);
};
function readableAddChunk(stream, chunk, encoding, addToFront) {
  const state = stream._readableState;
  if (chunk === null) {
    state.reading = false;
    onEofChunk(stream, state);
    return false;
  }
  if (!state.objectMode) {
    if (typeof chunk === 'string') {
      encoding = encoding || state.defaultEncoding;
      if (state.encoding !== encoding) {
        chunk = Buffer.from(chunk, encoding);
      }
    } else if (chunk instanceof Uint8Array) {
      chunk = toBuffer(chunk);
    } else if (chunk !== undefined) {
      const err = new codes.ERR_INVALID_ARG_TYPE('chunk', ['string', 'Buffer', 'Uint8Array'], chunk);
      destroy.call(stream, err);
      return false;
    }
  }
  if (chunk === undefined) { state.reading = false; return state.length < state.highWaterMark; }
  if (addToFront) {
    if (state.endEmitted) { destroy.call(stream, new codes.ERR_STREAM_UNSHIFT_AFTER_END_EVENT()); return false; }
    addChunk(stream, state, chunk, true);
  } else if (state.ended) {
    destroy.call(stream, new codes.ERR_STREAM_PUSH_AFTER_EOF());
    return false;
  } else if (state.destroyed || state.errored) {
    return false;
  } else {
    state.reading = false;
    if (state.decoder && !encoding && typeof chunk !== 'string') {
      chunk = state.decoder.write(chunk);
      if (state.objectMode || chunk.length !== 0) addChunk(stream, state, chunk, false);
      else maybeReadMore(stream, state);
    } else {
      addChunk(stream, state, chunk, false);
    }
  }
  return !state.ended && (state.length < state.highWaterMark || state.length === 0);
}
function addChunk(stream, state, chunk, addToFront) {
  if (state.flowing && state.length === 0 && !state.sync && stream.listenerCount('data') > 0) {
    state.dataEmitted = true;
    stream.emit('data', chunk);
  } else {
    state.length += state.objectMode ? 1 : chunk.length;
    if (addToFront) state.buffer.unshift(chunk);
    else state.buffer.push(chunk);
    if (state.needReadable) emitReadable(stream);
  }
  maybeReadMore(stream, state);
}

Readable.prototype.isPaused = function () {
  const s = this._readableState;
  return s.paused === true || s.flowing === false;
};
Readable.prototype.setEncoding = function (enc) {
  const state = this._readableState;
  state.setEncoding(enc);
  const decoder = state.decoder;
  let content = '';
  for (const data of state.buffer) content += decoder.write(data);
  state.buffer = content !== '' ? [content] : [];
  state.length = content.length;
  return this;
};

function howMuchToRead(n, state) {
  if (n <= 0 || (state.length === 0 && state.ended)) return 0;
  if (state.objectMode) return 1;
  if (Number.isNaN(n)) {
    if (state.flowing && state.length) return state.objectMode ? 1 : chunkLength(state.buffer[0]);
    return state.length;
  }
  if (n <= state.length) return n;
  return state.ended ? state.length : 0;
}
function chunkLength(c) { return c.length; }

Readable.prototype.read = function (n) {
  if (n === undefined) n = NaN;
  else if (!Number.isInteger(n)) n = Number.parseInt(n, 10);
  const state = this._readableState;
  const nOrig = n;
  if (n > state.highWaterMark) state.highWaterMark = Math.min(2 ** 30, 2 ** Math.ceil(Math.log2(n)));
  if (n !== 0) state.emittedReadable = false;
  if (n === 0 && state.needReadable && ((state.highWaterMark !== 0 ? state.length >= state.highWaterMark : state.length > 0) || state.ended)) {
    if (state.length === 0 && state.ended) endReadable(this);
    else emitReadable(this);
    return null;
  }
  n = howMuchToRead(n, state);
  if (n === 0 && state.ended) {
    if (state.length === 0) endReadable(this);
    return null;
  }
  let doRead = state.needReadable;
  if (state.length === 0 || state.length - n < state.highWaterMark) doRead = true;
  if (state.ended || state.reading || state.destroyed || state.errored || state.constructed === false) doRead = false;
  else if (doRead) {
    state.reading = true;
    state.sync = true;
    if (state.length === 0) state.needReadable = true;
    try {
      this._read(state.highWaterMark);
    } catch (err) {
      destroy.call(this, err);
    }
    state.sync = false;
    if (!state.reading) n = howMuchToRead(nOrig, state);
  }
  let ret = n > 0 ? fromList(n, state) : null;
  if (ret === null) {
    state.needReadable = state.length <= state.highWaterMark;
    n = 0;
  } else {
    state.length -= state.objectMode ? 1 : n;
  }
  if (state.length === 0) {
    if (!state.ended) state.needReadable = true;
    if (nOrig !== n && state.ended) endReadable(this);
  }
  if (ret !== null && !state.errorEmitted && !state.closeEmitted) {
    state.dataEmitted = true;
    this.emit('data', ret);
  }
  return ret;
};

function fromList(n, state) {
  if (state.length === 0) return null;
  let ret;
  if (state.objectMode) ret = state.buffer.shift();
  else if (!n || n >= state.length) {
    if (state.decoder) ret = state.buffer.join('');
    else if (state.buffer.length === 1) ret = state.buffer[0];
    else ret = Buffer.concat(state.buffer, state.length);
    state.buffer = [];
  } else {
    ret = consume(n, state.buffer, !!state.decoder);
  }
  return ret;
}
function consume(n, list, isString) {
  const first = list[0];
  if (n < first.length) {
    const ret = first.slice(0, n);
    list[0] = first.slice(n);
    return ret;
  }
  if (n === first.length) return list.shift();
  if (isString) {
    let ret = '';
    while (n > 0) {
      const s = list[0];
      if (n >= s.length) { ret += s; n -= s.length; list.shift(); } else { ret += s.slice(0, n); list[0] = s.slice(n); n = 0; }
    }
    return ret;
  }
  const ret = Buffer.allocUnsafe(n);
  let off = 0;
  while (n > 0) {
    const b = list[0];
    if (n >= b.length) { ret.set(b, off); off += b.length; n -= b.length; list.shift(); } else { ret.set(b.subarray(0, n), off); list[0] = b.slice(n); n = 0; }
  }
  return ret;
}

function onEofChunk(stream, state) {
  if (state.ended) return;
  if (state.decoder) {
    const chunk = state.decoder.end();
    if (chunk && chunk.length) {
      state.buffer.push(chunk);
      state.length += state.objectMode ? 1 : chunk.length;
    }
  }
  state.ended = true;
  if (state.sync) {
    emitReadable(stream);
  } else {
    state.needReadable = false;
    state.emittedReadable = true;
    emitReadable_(stream);
  }
}
function emitReadable(stream) {
  const state = stream._readableState;
  state.needReadable = false;
  if (!state.emittedReadable) {
    state.emittedReadable = true;
    nextTick(emitReadable_, stream);
  }
}
function emitReadable_(stream) {
  const state = stream._readableState;
  if (!state.destroyed && !state.errored && (state.length || state.ended)) {
    stream.emit('readable');
    state.emittedReadable = false;
  }
  state.needReadable = !state.flowing && !state.ended && state.length <= state.highWaterMark;
  flow(stream);
}
function maybeReadMore(stream, state) {
  if (!state.readingMore && state.constructed !== false) {
    state.readingMore = true;
    nextTick(maybeReadMore_, stream, state);
  }
}
function maybeReadMore_(stream, state) {
  while (!state.reading && !state.ended && (state.length < state.highWaterMark || (state.flowing && state.length === 0))) {
    const len = state.length;
    stream.read(0);
    if (len === state.length) break;
  }
  state.readingMore = false;
}

Readable.prototype._read = function () {
  throw new codes.ERR_METHOD_NOT_IMPLEMENTED('_read()');
};

Readable.prototype.pipe = function (dest, pipeOpts) {
  const src = this;
  const state = this._readableState;
  state.pipes.push(dest);
  const doEnd = (!pipeOpts || pipeOpts.end !== false) && !dest._isStdio;
  const endFn = doEnd ? onend : unpipe;
  if (state.endEmitted) nextTick(endFn);
  else src.once('end', endFn);
  dest.on('unpipe', onunpipe);
  function onunpipe(readable, info) {
    if (readable === src && info && info.hasUnpiped === false) { info.hasUnpiped = true; cleanup(); }
  }
  function onend() { dest.end(); }
  let ondrain;
  let cleanedUp = false;
  function cleanup() {
    dest.removeListener('close', onclose);
    dest.removeListener('finish', onfinish);
    if (ondrain) dest.removeListener('drain', ondrain);
    dest.removeListener('error', onerror);
    dest.removeListener('unpipe', onunpipe);
    src.removeListener('end', onend);
    src.removeListener('end', unpipe);
    src.removeListener('data', ondata);
    cleanedUp = true;
    if (ondrain && state.awaitDrainWriters && (!dest._writableState || dest._writableState.needDrain)) ondrain();
  }
  function pause() {
    if (!cleanedUp) {
      state.awaitDrainWriters = dest;
      state.multiAwaitDrain = false;
    }
    src.pause();
  }
  src.on('data', ondata);
  function ondata(chunk) {
    const ret = dest.write(chunk);
    if (ret === false) {
      pause();
      if (!ondrain) {
        ondrain = () => {
          if (state.awaitDrainWriters === dest) state.awaitDrainWriters = null;
          if (!state.awaitDrainWriters && src.listenerCount('data')) src.resume();
        };
        dest.on('drain', ondrain);
      }
    }
  }
  function onerror(er) {
    unpipe();
    dest.removeListener('error', onerror);
    if (dest.listenerCount('error') === 0) {
      const s = dest._writableState || dest._readableState;
      if (s && !s.errorEmitted) destroy.call(dest, er);
      else dest.emit('error', er);
    }
  }
  dest.prependListener('error', onerror);
  function onclose() { dest.removeListener('finish', onfinish); unpipe(); }
  dest.once('close', onclose);
  function onfinish() { dest.removeListener('close', onclose); unpipe(); }
  dest.once('finish', onfinish);
  function unpipe() { src.unpipe(dest); }
  dest.emit('pipe', src);
  if (dest.writableNeedDrain === true) pause();
  else if (!state.flowing) src.resume();
  return dest;
};
Readable.prototype.unpipe = function (dest) {
  const state = this._readableState;
  if (state.pipes.length === 0) return this;
  if (!dest) {
    const dests = state.pipes;
    state.pipes = [];
    this.pause();
    for (const d of dests) d.emit('unpipe', this, { hasUnpiped: false });
    return this;
  }
  const index = state.pipes.indexOf(dest);
  if (index === -1) return this;
  state.pipes.splice(index, 1);
  if (state.pipes.length === 0) this.pause();
  dest.emit('unpipe', this, { hasUnpiped: false });
  return this;
};

Readable.prototype.on = function (ev, fn) {
  const res = Stream.prototype.on.call(this, ev, fn);
  const state = this._readableState;
  if (ev === 'data') {
    state.readableListening = this.listenerCount('readable') > 0;
    if (state.flowing !== false) this.resume();
  } else if (ev === 'readable') {
    if (!state.endEmitted && !state.readableListening) {
      state.readableListening = state.needReadable = true;
      state.flowing = false;
      state.emittedReadable = false;
      if (state.length) emitReadable(this);
      else if (!state.reading) nextTick(() => this.read(0));
    }
  }
  return res;
};
Readable.prototype.addListener = Readable.prototype.on;
Readable.prototype.removeListener = function (ev, fn) {
  const res = Stream.prototype.removeListener.call(this, ev, fn);
  if (ev === 'readable') nextTick(updateReadableListening, this);
  return res;
};
Readable.prototype.off = Readable.prototype.removeListener;
function updateReadableListening(self) {
  const state = self._readableState;
  state.readableListening = self.listenerCount('readable') > 0;
  if (state.resumeScheduled && state.paused === false) state.flowing = true;
  else if (self.listenerCount('data') > 0) self.resume();
  else if (!state.readableListening) state.flowing = null;
}

Readable.prototype.resume = function () {
  const state = this._readableState;
  if (!state.flowing) {
    state.flowing = !state.readableListening;
    if (!state.resumeScheduled) {
      state.resumeScheduled = true;
      nextTick(resume_, this, state);
    }
  }
  state.paused = false;
  return this;
};
function resume_(stream, state) {
  if (!state.reading) stream.read(0);
  state.resumeScheduled = false;
  stream.emit('resume');
  flow(stream);
  if (state.flowing && !state.reading) stream.read(0);
}
Readable.prototype.pause = function () {
  const state = this._readableState;
  if (state.flowing !== false) {
    state.flowing = false;
    this.emit('pause');
  }
  state.paused = true;
  return this;
};
function flow(stream) {
  const state = stream._readableState;
  while (state.flowing && stream.read() !== null);
}

Readable.prototype.wrap = function (stream) {
  let paused = false;
  stream.on('data', (chunk) => {
    if (!this.push(chunk) && stream.pause) { paused = true; stream.pause(); }
  });
  stream.on('end', () => this.push(null));
  stream.on('error', (err) => destroy.call(this, err));
  stream.on('close', () => this.destroy());
  this._read = () => { if (paused && stream.resume) { paused = false; stream.resume(); } };
  return this;
};

Readable.prototype[Symbol.asyncIterator] = function () {
  return createAsyncIterator(this);
};
Readable.prototype.iterator = function (options) { return createAsyncIterator(this, options); };
async function* createAsyncIterator(stream, options) {
  let callback = nop;
  function next(resolve) {
    if (this === stream) { callback(); callback = nop; } else { callback = resolve; }
  }
  stream.on('readable', next);
  let error;
  const cleanup = eos(stream, { writable: false }, (err) => {
    error = err ? aggregateTwoErrors(error, err) : null;
    callback();
    callback = nop;
  });
  try {
    while (true) {
      const chunk = stream.destroyed ? null : stream.read();
      if (chunk !== null) yield chunk;
      else if (error) throw error;
      else if (error === null) return;
      else await new Promise(next);
    }
  } catch (err) {
    error = aggregateTwoErrors(error, err);
    throw error;
  } finally {
    if ((error || (options && options.destroyOnReturn === false) === false) && (error === undefined || stream._readableState.autoDestroy)) {
      destroy.call(stream, null);
    } else {
      stream.off('readable', next);
      cleanup();
    }
  }
}
function aggregateTwoErrors(a, b) { return a || b; }
function nop() {}

function endReadable(stream) {
  const state = stream._readableState;
  if (!state.endEmitted) {
    state.ended = true;
    nextTick(endReadableNT, state, stream);
  }
}
function endReadableNT(state, stream) {
  if (!state.errored && !state.closeEmitted && !state.endEmitted && state.length === 0) {
    state.endEmitted = true;
    stream.emit('end');
    if (stream.writable && stream.allowHalfOpen === false) nextTick(() => stream.end());
    else if (state.autoDestroy) {
      const ws = stream._writableState;
      const autoDestroy = !ws || (ws.autoDestroy && (ws.finished || ws.writable === false));
      if (autoDestroy) stream.destroy();
    }
  }
}

Readable.from = function from(iterable, opts) {
  if (typeof iterable === 'string' || iterable instanceof Uint8Array) {
    return new Readable({ objectMode: true, ...opts, read() { this.push(iterable); this.push(null); } });
  }
  let iterator;
  let isAsync;
  if (iterable && iterable[Symbol.asyncIterator]) { isAsync = true; iterator = iterable[Symbol.asyncIterator](); }
  else if (iterable && iterable[Symbol.iterator]) { isAsync = false; iterator = iterable[Symbol.iterator](); }
  else throw new codes.ERR_INVALID_ARG_TYPE('iterable', ['Iterable'], iterable);
  const readable = new Readable({ objectMode: true, highWaterMark: 1, ...opts });
  let reading = false;
  readable._read = function () {
    if (!reading) { reading = true; next(); }
  };
  readable._destroy = function (error, cb) {
    Promise.resolve().then(async () => {
      if (typeof iterator.return === 'function') await iterator.return();
    }).then(() => cb(error), (e) => cb(e || error));
  };
  async function next() {
    for (;;) {
      try {
        const { value, done } = isAsync ? await iterator.next() : iterator.next();
        if (done) { readable.push(null); } else {
          const res = await value;
          if (res === null) { reading = false; throw new codes.ERR_STREAM_NULL_VALUES(); }
          else if (readable.push(res)) continue;
          else reading = false;
        }
      } catch (err) {
        readable.destroy(err);
      }
      break;
    }
  }
  return readable;
};

for (const [name, get] of [
  ['readable', function () { const r = this._readableState; return !!r && r.readable !== false && !r.destroyed && !r.errorEmitted && !r.endEmitted; }],
  ['readableFlowing', function () { return this._readableState.flowing; }],
  ['readableLength', function () { return this._readableState.length; }],
  ['readableHighWaterMark', function () { return this._readableState.highWaterMark; }],
  ['readableEncoding', function () { return this._readableState ? this._readableState.encoding : null; }],
  ['readableEnded', function () { return this._readableState ? this._readableState.endEmitted : false; }],
  ['readableObjectMode', function () { return this._readableState ? this._readableState.objectMode : false; }],
  ['readableAborted', function () { const r = this._readableState; return !!(r.destroyed || r.errored) && !r.endEmitted; }],
  ['readableDidRead', function () { return this._readableState.dataEmitted; }],
  ['errored', function () { const s = this._readableState || this._writableState; return s ? s.errored : null; }],
  ['closed', function () { const s = this._readableState || this._writableState; return s ? s.closed : false; }],
]) {
  Object.defineProperty(Readable.prototype, name, {
    get, configurable: true, enumerable: false,
    set: name === 'readable' ? function (v) { if (this._readableState) this._readableState.readable = !!v; } : undefined,
  });
}
Object.defineProperty(Readable.prototype, 'destroyed', {
  get() { return this._readableState ? this._readableState.destroyed : false; },
  set(v) { if (this._readableState) this._readableState.destroyed = v; },
  configurable: true,
});

// --- destroy -------------------------------------------------------------------------
function destroy(err, cb) {
  const r = this._readableState;
  const w = this._writableState;
  const s = w || r;
  if ((w && w.destroyed) || (r && r.destroyed)) {
    if (typeof cb === 'function') cb();
    return this;
  }
  if (err) {
    if (w && !w.errored) w.errored = err;
    if (r && !r.errored) r.errored = err;
  }
  if (w) w.destroyed = true;
  if (r) r.destroyed = true;
  const self = this;
  const doDestroy = () => {
    let called = false;
    const onDestroy = (err2) => {
      if (called) return;
      called = true;
      if (err2) {
        if (w && !w.errored) w.errored = err2;
        if (r && !r.errored) r.errored = err2;
      }
      if (w) w.closed = true;
      if (r) r.closed = true;
      if (typeof cb === 'function') cb(err2);
      if (err2) nextTick(emitErrorCloseNT, self, err2);
      else nextTick(emitCloseNT, self);
    };
    try {
      self._destroy(err || null, onDestroy);
    } catch (e) {
      onDestroy(e);
    }
  };
  if (s && s.constructed === false) this.once('_constructed', doDestroy);
  else doDestroy();
  return this;
}
function emitErrorCloseNT(self, err) {
  emitErrorNT(self, err);
  emitCloseNT(self);
}
function emitCloseNT(self) {
  const r = self._readableState, w = self._writableState;
  if (w) w.closeEmitted = true;
  if (r) r.closeEmitted = true;
  if ((w && w.emitClose) || (r && r.emitClose)) self.emit('close');
}
function emitErrorNT(self, err) {
  const r = self._readableState, w = self._writableState;
  if ((w && w.errorEmitted) || (r && r.errorEmitted)) return;
  if (w) w.errorEmitted = true;
  if (r) r.errorEmitted = true;
  self.emit('error', err);
}
function errorOrDestroy(stream, err) {
  const r = stream._readableState, w = stream._writableState;
  if ((w && w.destroyed) || (r && r.destroyed)) return;
  if ((r && r.autoDestroy) || (w && w.autoDestroy)) stream.destroy(err);
  else if (err) {
    if (w && !w.errored) w.errored = err;
    if (r && !r.errored) r.errored = err;
    nextTick(emitErrorNT, stream, err);
  }
}
Readable.prototype.destroy = destroy;
Readable.prototype._destroy = function (err, cb) { cb(err); };
Readable.prototype._undestroy = function () {};
Readable.prototype[EE.captureRejectionSymbol] = function (err) { this.destroy(err); };

// --- Writable ------------------------------------------------------------------------
function WritableState(options, stream, isDuplex) {
  options = options || {};
  this.objectMode = !!(options.objectMode || (isDuplex && options.writableObjectMode));
  this.highWaterMark = getHWM(options, this.objectMode, isDuplex && 'writableHighWaterMark');
  this.finalCalled = false;
  this.needDrain = false;
  this.ending = false;
  this.ended = false;
  this.finished = false;
  this.destroyed = false;
  this.decodeStrings = options.decodeStrings !== false;
  this.defaultEncoding = options.defaultEncoding || 'utf8';
  this.length = 0;
  this.writing = false;
  this.corked = 0;
  this.sync = true;
  this.bufferProcessing = false;
  this.writecb = null;
  this.writelen = 0;
  this.buffered = [];
  this.pendingcb = 0;
  this.prefinished = false;
  this.errorEmitted = false;
  this.emitClose = options.emitClose !== false;
  this.autoDestroy = options.autoDestroy !== false;
  this.errored = null;
  this.closed = false;
  this.closeEmitted = false;
  this.allNoop = true;
  this.afterWriteTickInfo = null;
}

function Writable(options) {
  const isDuplex = this instanceof Duplex;
  if (!isDuplex && !(this instanceof Writable)) return new Writable(options);
  this._writableState = new WritableState(options, this, isDuplex);
  if (options) {
    if (typeof options.write === 'function') this._write = options.write;
    if (typeof options.writev === 'function') this._writev = options.writev;
    if (typeof options.destroy === 'function') this._destroy = options.destroy;
    if (typeof options.final === 'function') this._final = options.final;
    if (typeof options.construct === 'function') this._construct = options.construct;
    if (options.signal) addAbortSignal(options.signal, this);
  }
  Stream.call(this, options);
  if (!isDuplex && typeof this._construct === 'function') constructStream(this);
}
Object.setPrototypeOf(Writable.prototype, Stream.prototype);
Object.setPrototypeOf(Writable, Stream);
Object.defineProperty(Writable, Symbol.hasInstance, {
  value(object) {
    if (Function.prototype[Symbol.hasInstance].call(this, object)) return true;
    if (this !== Writable) return false;
    return object && object._writableState instanceof WritableState;
  },
});

Writable.prototype.pipe = function () { errorOrDestroy(this, new Error('Cannot pipe, not readable')); };

Writable.prototype.write = function (chunk, encoding, cb) {
  const state = this._writableState;
  if (typeof encoding === 'function') { cb = encoding; encoding = state.defaultEncoding; }
  else {
    if (!encoding) encoding = state.defaultEncoding;
    else if (encoding !== 'buffer' && !Buffer.isEncoding(encoding)) throw new codes.ERR_UNKNOWN_ENCODING(encoding);
    if (typeof cb !== 'function') cb = nop;
  }
  if (chunk === null) throw new codes.ERR_STREAM_NULL_VALUES();
  else if (!state.objectMode) {
    if (typeof chunk === 'string') {
      if (state.decodeStrings !== false) { chunk = Buffer.from(chunk, encoding); encoding = 'buffer'; }
    } else if (chunk instanceof Uint8Array) {
      chunk = toBuffer(chunk);
      encoding = 'buffer';
    } else {
      throw new codes.ERR_INVALID_ARG_TYPE('chunk', ['string', 'Buffer', 'Uint8Array'], chunk);
    }
  }
  let err;
  if (state.ending) err = new codes.ERR_STREAM_WRITE_AFTER_END();
  else if (state.destroyed) err = new codes.ERR_STREAM_DESTROYED('write');
  if (err) {
    nextTick(cb, err);
    errorOrDestroy(this, err);
    return err;
  }
  state.pendingcb++;
  const len = state.objectMode ? 1 : chunk.length;
  state.length += len;
  const ret = state.length < state.highWaterMark;
  if (!ret) state.needDrain = true;
  if (state.writing || state.corked || state.errored || state.constructed === false) {
    state.buffered.push({ chunk, encoding, callback: cb });
    if (state.allNoop && cb !== nop) state.allNoop = false;
  } else {
    state.writelen = len;
    state.writecb = cb;
    state.writing = true;
    state.sync = true;
    this._write(chunk, encoding, state.onwrite || (state.onwrite = onwrite.bind(undefined, this)));
    state.sync = false;
  }
  return ret && !state.errored && !state.destroyed;
};

Writable.prototype.cork = function () { this._writableState.corked++; };
Writable.prototype.uncork = function () {
  const state = this._writableState;
  if (state.corked) {
    state.corked--;
    if (!state.writing) clearBuffer(this, state);
  }
};
Writable.prototype.setDefaultEncoding = function (encoding) {
  if (typeof encoding === 'string') encoding = encoding.toLowerCase();
  if (!Buffer.isEncoding(encoding)) throw new codes.ERR_UNKNOWN_ENCODING(encoding);
  this._writableState.defaultEncoding = encoding;
  return this;
};

function onwrite(stream, er) {
  const state = stream._writableState;
  const sync = state.sync;
  const cb = state.writecb;
  if (typeof cb !== 'function') { errorOrDestroy(stream, new codes.ERR_MULTIPLE_CALLBACK()); return; }
  state.writing = false;
  state.writecb = null;
  state.length -= state.writelen;
  state.writelen = 0;
  if (er) {
    if (!state.errored) state.errored = er;
    if (stream._readableState && !stream._readableState.errored) stream._readableState.errored = er;
    if (sync) nextTick(onwriteError, stream, state, er, cb);
    else onwriteError(stream, state, er, cb);
  } else {
    if (state.buffered.length > 0) clearBuffer(stream, state);
    if (sync) {
      if (state.afterWriteTickInfo !== null && state.afterWriteTickInfo.cb === cb) {
        state.afterWriteTickInfo.count++;
      } else {
        state.afterWriteTickInfo = { count: 1, cb, stream, state };
        nextTick(afterWriteTick, state.afterWriteTickInfo);
      }
    } else {
      afterWrite(stream, state, 1, cb);
    }
  }
}
function afterWriteTick({ stream, state, count, cb }) {
  state.afterWriteTickInfo = null;
  return afterWrite(stream, state, count, cb);
}
function afterWrite(stream, state, count, cb) {
  const needDrain = !state.ending && !stream.destroyed && state.length === 0 && state.needDrain;
  if (needDrain) {
    state.needDrain = false;
    stream.emit('drain');
  }
  while (count-- > 0) {
    state.pendingcb--;
    cb(null);
  }
  if (state.destroyed) errorBuffer(state);
  finishMaybe(stream, state);
}
function onwriteError(stream, state, er, cb) {
  --state.pendingcb;
  cb(er);
  errorBuffer(state);
  errorOrDestroy(stream, er);
}
function errorBuffer(state) {
  if (state.writing) return;
  for (const { chunk, callback } of state.buffered) {
    const len = state.objectMode ? 1 : chunk.length;
    state.length -= len;
    callback(state.errored || new codes.ERR_STREAM_DESTROYED('write'));
  }
  state.buffered = [];
}
function clearBuffer(stream, state) {
  if (state.corked || state.bufferProcessing || state.destroyed || state.constructed === false) return;
  const { buffered } = state;
  if (buffered.length === 0) return;
  state.bufferProcessing = true;
  if (buffered.length > 1 && stream._writev) {
    state.pendingcb -= buffered.length - 1;
    const callbacks = buffered.map((b) => b.callback);
    const chunks = state.allNoop ? buffered : buffered.slice();
    const callback = state.allNoop ? nop : (err) => { for (const cb of callbacks) cb(err); };
    state.buffered = [];
    state.allNoop = true;
    state.writelen = state.length;
    state.writecb = callback;
    state.writing = true;
    state.sync = true;
    stream._writev(chunks, state.onwrite || (state.onwrite = onwrite.bind(undefined, stream)));
    state.sync = false;
  } else {
    while (state.buffered.length > 0 && !state.writing) {
      const { chunk, encoding, callback } = state.buffered.shift();
      const len = state.objectMode ? 1 : chunk.length;
      state.writelen = len;
      state.writecb = callback;
      state.writing = true;
      state.sync = true;
      stream._write(chunk, encoding, state.onwrite || (state.onwrite = onwrite.bind(undefined, stream)));
      state.sync = false;
    }
    if (state.buffered.length === 0) state.allNoop = true;
  }
  state.bufferProcessing = false;
}

Writable.prototype._write = function (chunk, encoding, cb) {
  if (this._writev) this._writev([{ chunk, encoding }], cb);
  else throw new codes.ERR_METHOD_NOT_IMPLEMENTED('_write()');
};
Writable.prototype._writev = null;

Writable.prototype.end = function (chunk, encoding, cb) {
  const state = this._writableState;
  if (typeof chunk === 'function') { cb = chunk; chunk = null; encoding = null; }
  else if (typeof encoding === 'function') { cb = encoding; encoding = null; }
  let err;
  if (chunk !== null && chunk !== undefined) {
    const ret = this.write(chunk, encoding);
    if (ret instanceof Error) err = ret;
  }
  if (state.corked) { state.corked = 1; this.uncork(); }
  if (err) { /* already reported */ } else if (!state.errored && !state.ending) {
    state.ending = true;
    finishMaybe(this, state, true);
    state.ended = true;
  } else if (state.finished) {
    err = new codes.ERR_STREAM_ALREADY_FINISHED('end');
  } else if (state.destroyed) {
    err = new codes.ERR_STREAM_DESTROYED('end');
  }
  if (typeof cb === 'function') {
    if (err || state.finished) nextTick(cb, err);
    else (state.finishCallbacks || (state.finishCallbacks = [])).push(cb);
  }
  return this;
};

function needFinish(state) {
  return state.ending && !state.destroyed && state.constructed !== false && state.length === 0 &&
    !state.errored && state.buffered.length === 0 && !state.finished && !state.writing && !state.errorEmitted && !state.closeEmitted;
}
function callFinal(stream, state) {
  let called = false;
  function onFinish(err) {
    if (called) { errorOrDestroy(stream, new codes.ERR_MULTIPLE_CALLBACK()); return; }
    called = true;
    state.pendingcb--;
    if (err) {
      for (const cb of state.finishCallbacks || []) cb(err);
      state.finishCallbacks = [];
      errorOrDestroy(stream, err, state.sync);
    } else if (needFinish(state)) {
      state.prefinished = true;
      stream.emit('prefinish');
      state.pendingcb++;
      nextTick(finish, stream, state);
    }
  }
  state.sync = true;
  state.pendingcb++;
  try { stream._final(onFinish); } catch (err) { onFinish(err); }
  state.sync = false;
}
function prefinish(stream, state) {
  if (!state.prefinished && !state.finalCalled) {
    if (typeof stream._final === 'function' && !state.destroyed) {
      state.finalCalled = true;
      callFinal(stream, state);
    } else {
      state.prefinished = true;
      stream.emit('prefinish');
    }
  }
}
function finishMaybe(stream, state, sync) {
  if (needFinish(state)) {
    prefinish(stream, state);
    if (state.pendingcb === 0) {
      if (sync) {
        state.pendingcb++;
        nextTick(() => {
          if (needFinish(state)) finish(stream, state);
          else state.pendingcb--;
        });
      } else if (needFinish(state)) {
        state.pendingcb++;
        finish(stream, state);
      }
    }
  }
}
function finish(stream, state) {
  state.pendingcb--;
  state.finished = true;
  const cbs = state.finishCallbacks || [];
  state.finishCallbacks = [];
  for (const cb of cbs) cb();
  stream.emit('finish');
  if (state.autoDestroy) {
    const rState = stream._readableState;
    const autoDestroy = !rState || (rState.autoDestroy && (rState.endEmitted || rState.readable === false));
    if (autoDestroy) stream.destroy();
  }
}

for (const [name, get] of [
  ['writable', function () { const w = this._writableState; return !!w && w.writable !== false && !w.destroyed && !w.errored && !w.ending && !w.ended; }],
  ['writableFinished', function () { return this._writableState ? this._writableState.finished : false; }],
  ['writableObjectMode', function () { return this._writableState ? this._writableState.objectMode : false; }],
  ['writableBuffer', function () { return this._writableState && this._writableState.buffered.map((b) => b.chunk); }],
  ['writableEnded', function () { return this._writableState ? this._writableState.ending : false; }],
  ['writableNeedDrain', function () { const w = this._writableState; return w ? !w.destroyed && !w.ending && w.needDrain : false; }],
  ['writableHighWaterMark', function () { return this._writableState && this._writableState.highWaterMark; }],
  ['writableCorked', function () { return this._writableState ? this._writableState.corked : 0; }],
  ['writableLength', function () { return this._writableState && this._writableState.length; }],
  ['writableAborted', function () { const w = this._writableState; return !!(w.writable !== false && (w.destroyed || w.errored) && !w.finished); }],
]) {
  Object.defineProperty(Writable.prototype, name, {
    get, configurable: true, enumerable: false,
    set: name === 'writable' ? function (v) { if (this._writableState) this._writableState.writable = !!v; } : undefined,
  });
}
Object.defineProperty(Writable.prototype, 'destroyed', {
  get() { return this._writableState ? this._writableState.destroyed : false; },
  set(v) { if (this._writableState) this._writableState.destroyed = v; },
  configurable: true,
});
Object.defineProperty(Writable.prototype, 'closed', { get() { return this._writableState ? this._writableState.closed : false; }, configurable: true });
Object.defineProperty(Writable.prototype, 'errored', { get() { return this._writableState ? this._writableState.errored : null; }, configurable: true });
Writable.prototype.destroy = function (err, cb) {
  const state = this._writableState;
  if (!state.destroyed && (state.buffered.length || (state.finishCallbacks && state.finishCallbacks.length))) nextTick(errorBuffer, state);
  destroy.call(this, err, cb);
  return this;
};
Writable.prototype._destroy = function (err, cb) { cb(err); };
Writable.prototype[EE.captureRejectionSymbol] = function (err) { this.destroy(err); };

// --- Duplex, Transform, PassThrough ---------------------------------------------------------
function Duplex(options) {
  if (!(this instanceof Duplex)) return new Duplex(options);
  this._readableState = new ReadableState(options, this, true);
  this._writableState = new WritableState(options, this, true);
  if (options) {
    this.allowHalfOpen = options.allowHalfOpen !== false;
    if (options.readable === false) { this._readableState.readable = false; this._readableState.ended = true; this._readableState.endEmitted = true; }
    if (options.writable === false) { this._writableState.writable = false; this._writableState.ending = true; this._writableState.ended = true; this._writableState.finished = true; }
    for (const k of ['read', 'write', 'writev', 'final', 'destroy', 'construct']) {
      if (typeof options[k] === 'function') this[`_${k}`] = options[k];
    }
    if (options.signal) addAbortSignal(options.signal, this);
  } else {
    this.allowHalfOpen = true;
  }
  Stream.call(this, options);
  if (typeof this._construct === 'function') constructStream(this);
}
Object.setPrototypeOf(Duplex.prototype, Readable.prototype);
Object.setPrototypeOf(Duplex, Readable);
for (const key of Object.getOwnPropertyNames(Writable.prototype)) {
  if (key === 'constructor' || key === 'destroy' || key === 'destroyed' || key === 'closed' || key === 'errored') continue;
  if (!(key in Duplex.prototype)) {
    Object.defineProperty(Duplex.prototype, key, Object.getOwnPropertyDescriptor(Writable.prototype, key));
  }
}
Object.defineProperty(Duplex.prototype, 'destroyed', {
  get() { return this._readableState && this._writableState ? this._readableState.destroyed && this._writableState.destroyed : false; },
  set(v) { if (this._readableState) this._readableState.destroyed = v; if (this._writableState) this._writableState.destroyed = v; },
  configurable: true,
});
Duplex.prototype.destroy = Writable.prototype.destroy;
Duplex.from = function (body) {
  if (body instanceof Duplex) return body;
  if (body instanceof Readable) return body;
  if (typeof body === 'function' || (body && (body[Symbol.asyncIterator] || body[Symbol.iterator]))) return Readable.from(body);
  throw new codes.ERR_INVALID_ARG_TYPE('body', ['Stream', 'Iterable', 'AsyncIterable', 'Function'], body);
};

function Transform(options) {
  if (!(this instanceof Transform)) return new Transform(options);
  const readableHighWaterMark = options ? getHWM(options, !!(options.objectMode || options.readableObjectMode), 'readableHighWaterMark') : null;
  if (readableHighWaterMark === 0) {
    options = { ...options, highWaterMark: null, readableHighWaterMark, writableHighWaterMark: options.writableHighWaterMark || 0 };
  }
  Duplex.call(this, options);
  this._readableState.sync = false;
  this._callback = null;
  if (options) {
    if (typeof options.transform === 'function') this._transform = options.transform;
    if (typeof options.flush === 'function') this._flush = options.flush;
  }
  this.on('prefinish', prefinishTransform);
}
Object.setPrototypeOf(Transform.prototype, Duplex.prototype);
Object.setPrototypeOf(Transform, Duplex);
function finalTransform(cb) {
  if (typeof this._flush === 'function' && !this.destroyed) {
    this._flush((er, data) => {
      if (er) { if (cb) cb(er); else this.destroy(er); return; }
      if (data != null) this.push(data);
      this.push(null);
      if (cb) cb();
    });
  } else {
    this.push(null);
    if (cb) cb();
  }
}
function prefinishTransform() {
  if (this._final !== finalTransform) finalTransform.call(this);
}
Transform.prototype._final = finalTransform;
Transform.prototype._transform = function () { throw new codes.ERR_METHOD_NOT_IMPLEMENTED('_transform()'); };
Transform.prototype._write = function (chunk, encoding, callback) {
  const rState = this._readableState;
  const wState = this._writableState;
  const length = rState.length;
  this._transform(chunk, encoding, (err, val) => {
    if (err) { callback(err); return; }
    if (val != null) this.push(val);
    if (rState.ended) nextTick(callback);
    else if (wState.ended || length === rState.length || rState.length < rState.highWaterMark) callback();
    else this._callback = callback;
  });
};
Transform.prototype._read = function () {
  if (this._callback) {
    const cb = this._callback;
    this._callback = null;
    cb();
  }
};

function PassThrough(options) {
  if (!(this instanceof PassThrough)) return new PassThrough(options);
  Transform.call(this, options);
}
Object.setPrototypeOf(PassThrough.prototype, Transform.prototype);
Object.setPrototypeOf(PassThrough, Transform);
PassThrough.prototype._transform = function (chunk, enc, cb) { cb(null, chunk); };

// --- finished, pipeline, addAbortSignal -----------------------------------------------------------
function eos(stream, options, callback) {
  if (typeof options === 'function') { callback = options; options = {}; }
  else if (!options) options = {};
  let called = false;
  const cb = (...args) => { if (!called) { called = true; callback.apply(stream, args); } };
  const rState = stream._readableState;
  const wState = stream._writableState;
  const readable = options.readable !== undefined ? options.readable : !!rState && (rState.readable !== false);
  const writable = options.writable !== undefined ? options.writable : !!wState && (wState.writable !== false);
  let writableFinished = !!(wState && wState.finished);
  let readableFinished = !!(rState && rState.endEmitted);
  const onfinish = () => {
    writableFinished = true;
    if (!readable || readableFinished) cb();
  };
  const onend = () => {
    readableFinished = true;
    if (!writable || writableFinished) cb();
  };
  const onerror = (err) => cb(err);
  const onclose = () => {
    if (readable && !readableFinished && !(rState && rState.endEmitted)) return cb(new codes.ERR_STREAM_PREMATURE_CLOSE());
    if (writable && !writableFinished && !(wState && wState.finished)) return cb(new codes.ERR_STREAM_PREMATURE_CLOSE());
    cb();
  };
  stream.on('end', onend);
  stream.on('finish', onfinish);
  if (options.error !== false) stream.on('error', onerror);
  stream.on('close', onclose);
  const closed = (wState && wState.closeEmitted) || (rState && rState.closeEmitted);
  if (closed) nextTick(onclose);
  else if ((wState && wState.errorEmitted) || (rState && rState.errorEmitted)) {
    if (!(wState && wState.emitClose) && !(rState && rState.emitClose)) nextTick(onclose);
  } else if ((!readable || readableFinished) && (!writable || writableFinished) && (readable || writable)) {
    nextTick(onclose);
  }
  const cleanup = () => {
    callback = nop;
    stream.removeListener('end', onend);
    stream.removeListener('finish', onfinish);
    stream.removeListener('error', onerror);
    stream.removeListener('close', onclose);
  };
  if (options.signal) {
    const abort = () => cb.call(stream, new AbortError(undefined, { cause: options.signal.reason }));
    if (options.signal.aborted) nextTick(abort);
    else options.signal.addEventListener('abort', abort, { once: true });
  }
  return cleanup;
}

function pipeline(...streams) {
  let callback = streams.pop();
  if (typeof callback !== 'function') throw new codes.ERR_INVALID_ARG_TYPE('callback', 'Function', callback);
  if (streams.length === 1 && Array.isArray(streams[0])) streams = streams[0];
  return pipelineImpl(streams, callback);
}
function pipelineImpl(streams, callback, opts) {
  if (streams.length < 2) throw new codes.ERR_MISSING_ARGS('streams');
  let error;
  let finished = 0;
  const destroys = [];
  let done = false;
  function finish(err, final) {
    if (err && (!error || error.code === 'ERR_STREAM_PREMATURE_CLOSE')) error = err;
    if (!error && !final) return;
    while (destroys.length) destroys.shift()(error);
    if (final && !done) { done = true; nextTick(callback, error, value); }
  }
  let value;
  let ret;
  for (let i = 0; i < streams.length; i++) {
    const stream = streams[i];
    const reading = i < streams.length - 1;
    const writing = i > 0;
    const end = reading || !opts || opts.end !== false;
    const isLast = i === streams.length - 1;
    if (typeof stream === 'function') {
      ret = stream(ret, opts);
      if (!ret || !(ret.on || ret[Symbol.asyncIterator] || ret.then)) throw new codes.ERR_INVALID_RETURN_VALUE('Iterable, AsyncIterable or Stream', 'source', ret);
      if (ret && typeof ret.then === 'function' && isLast) {
        ret.then((v) => { value = v; finish(null, true); }, (e) => finish(e, true));
        continue;
      }
      if (!ret.on) ret = Readable.from(ret);
      if (isLast) {
        finished++;
        eos(ret, { readable: true, writable: false }, (err) => finish(err, --finished === 0));
      }
      continue;
    }
    if (stream && typeof stream.on === 'function') {
      if (isLast || reading) {
        finished++;
        destroys.push((err) => { if (err && !stream.destroyed) stream.destroy(err); });
        eos(stream, { readable: reading, writable: writing }, (err) => {
          if (err && err.code === 'ERR_STREAM_PREMATURE_CLOSE' && reading && !isLast) { finish(err, --finished === 0); return; }
          finish(err, --finished === 0);
        });
      }
      if (ret !== undefined && writing) {
        if (ret.pipe) ret.pipe(stream, { end });
        else {
          (async () => {
            try {
              for await (const chunk of ret) if (!stream.write(chunk)) await new Promise((r) => stream.once('drain', r));
              if (end) stream.end();
            } catch (e) { stream.destroy(e); }
          })();
        }
      }
      ret = stream;
    } else if (stream && (stream[Symbol.asyncIterator] || stream[Symbol.iterator])) {
      ret = Readable.from(stream);
    } else {
      throw new codes.ERR_INVALID_ARG_TYPE(`streams[${i}]`, ['Stream', 'Iterable', 'AsyncIterable', 'Function'], stream);
    }
  }
  return ret;
}

function addAbortSignal(signal, stream) {
  const onAbort = () => stream.destroy(new AbortError(undefined, { cause: signal.reason }));
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return stream;
}

const promises = {
  pipeline(...streams) {
    let opts;
    if (streams.length && streams[streams.length - 1] && typeof streams[streams.length - 1] === 'object' &&
        !streams[streams.length - 1].on && !streams[streams.length - 1][Symbol.asyncIterator] && !Array.isArray(streams[streams.length - 1])) {
      opts = streams.pop();
    }
    if (streams.length === 1 && Array.isArray(streams[0])) streams = streams[0];
    return new Promise((resolve, reject) => {
      pipelineImpl(streams, (err, value) => (err ? reject(err) : resolve(value)), opts);
    });
  },
  finished(stream, opts) {
    return new Promise((resolve, reject) => eos(stream, opts, (err) => (err ? reject(err) : resolve())));
  },
};

// Readable helpers (map, filter, toArray, forEach ...), as async iteration
Readable.prototype.toArray = async function (options) {
  const out = [];
  for await (const c of this) out.push(c);
  return out;
};
Readable.prototype.forEach = async function (fn) { for await (const c of this) await fn(c); };
Readable.prototype.map = function (fn, options) {
  const src = this;
  return Readable.from((async function* () { for await (const c of src) yield await fn(c); })(), options);
};
Readable.prototype.filter = function (fn, options) {
  const src = this;
  return Readable.from((async function* () { for await (const c of src) if (await fn(c)) yield c; })(), options);
};
Readable.prototype.take = function (n) {
  const src = this;
  return Readable.from((async function* () { if (n <= 0) return; let i = 0; for await (const c of src) { yield c; if (++i >= n) return; } })());
};
Readable.prototype.reduce = async function (fn, initial) {
  let acc = initial;
  let first = arguments.length < 2;
  for await (const c of this) { if (first) { acc = c; first = false; } else acc = await fn(acc, c); }
  return acc;
};

Stream.Stream = Stream;
Stream.Readable = Readable;
Stream.Writable = Writable;
Stream.Duplex = Duplex;
Stream.Transform = Transform;
Stream.PassThrough = PassThrough;
Stream.pipeline = pipeline;
Stream.finished = eos;
Stream.addAbortSignal = addAbortSignal;
Stream.promises = promises;
Stream.destroy = (s, err) => s.destroy(err);
Stream.isReadable = (s) => !!(s && s.readable);
Stream.isErrored = (s) => !!(s && s.errored);
Stream.isDisturbed = (s) => !!(s && s._readableState && (s._readableState.dataEmitted || s._readableState.endEmitted));
Stream.getDefaultHighWaterMark = (objectMode) => (objectMode ? 16 : 16384);
Stream.setDefaultHighWaterMark = () => {};
Stream.compose = (...streams) => { throw new codes.ERR_METHOD_NOT_IMPLEMENTED('compose()'); };
Stream._isUint8Array = (v) => v instanceof Uint8Array;
Stream._uint8ArrayToBuffer = (c) => Buffer.from(c.buffer, c.byteOffset, c.byteLength);
Stream.eos = eos;

module.exports = Stream;
