'use strict';
// node:readline — line events over a readable stream (no line editing: the
// sandbox's stdin is a pipe or a file)

const EventEmitter = require('events');
const { StringDecoder } = require('string_decoder');

class Interface extends EventEmitter {
  constructor(input, output, completer, terminal) {
    super();
    let opts = input;
    if (!input || typeof input.on === 'function' && !('input' in input)) opts = { input, output, completer, terminal };
    this.input = opts.input;
    this.output = opts.output;
    this.terminal = !!opts.terminal;
    this.crlfDelay = opts.crlfDelay === undefined ? 100 : opts.crlfDelay;
    this._prompt = opts.prompt === undefined ? '> ' : opts.prompt;
    this.line = '';
    this.cursor = 0;
    this.history = [];
    this.closed = false;
    this._buf = '';
    this._paused = false;
    this._questionCb = null;
    this._decoder = new StringDecoder('utf8');
    this._lastWasCR = false;
    this._queue = [];
    const onData = (chunk) => {
      const s = typeof chunk === 'string' ? chunk : this._decoder.write(chunk);
      this._buf += s;
      this._drain();
    };
    const onEnd = () => {
      const rest = this._decoder.end();
      if (rest) this._buf += rest;
      if (this._buf.length > 0) {
        const line = this._buf;
        this._buf = '';
        this._onLine(line);
      }
      this.close();
    };
    this._onData = onData;
    this._onEnd = onEnd;
    if (this.input) {
      this.input.on('data', onData);
      this.input.on('end', onEnd);
      this.input.on('error', (e) => this.emit('error', e));
      if (typeof this.input.resume === 'function') this.input.resume();
    }
    if (opts.signal) {
      if (opts.signal.aborted) process.nextTick(() => this.close());
      else opts.signal.addEventListener('abort', () => this.close(), { once: true });
    }
  }
  _drain() {
    for (;;) {
      const m = /\r\n|\n|\r/.exec(this._buf);
      if (!m) break;
      if (m[0] === '\r' && m.index === this._buf.length - 1) break; // maybe \r\n split across chunks
      const line = this._buf.slice(0, m.index);
      this._buf = this._buf.slice(m.index + m[0].length);
      this._onLine(line);
      if (this.closed) break;
    }
  }
  _onLine(line) {
    if (this._questionCb) {
      const cb = this._questionCb;
      this._questionCb = null;
      cb(line);
      return;
    }
    this.emit('line', line);
  }
  setPrompt(p) { this._prompt = p; }
  getPrompt() { return this._prompt; }
  prompt() {
    if (this.closed) {
      const e = new Error('readline was closed');
      e.code = 'ERR_USE_AFTER_CLOSE';
      throw e;
    }
    if (this.output && this.output.write) this.output.write(this._prompt);
  }
  question(query, options, cb) {
    if (typeof options === 'function') cb = options;
    if (this.closed) {
      const e = new Error('readline was closed');
      e.code = 'ERR_USE_AFTER_CLOSE';
      throw e;
    }
    if (this._questionCb) { this.prompt(); return; }
    if (this.output && this.output.write) this.output.write(query);
    this._questionCb = cb;
  }
  write(data) {
    if (this.closed) return;
    this._buf += String(data);
    this._drain();
  }
  pause() { if (!this._paused) { this._paused = true; if (this.input && this.input.pause) this.input.pause(); this.emit('pause'); } return this; }
  resume() { if (this._paused) { this._paused = false; if (this.input && this.input.resume) this.input.resume(); this.emit('resume'); } return this; }
  close() {
    if (this.closed) return;
    this.closed = true;
    if (this.input) {
      this.input.removeListener('data', this._onData);
      this.input.removeListener('end', this._onEnd);
      if (typeof this.input.pause === 'function') this.input.pause();
    }
    this.emit('close');
  }
  getCursorPos() { return { rows: 0, cols: this.cursor }; }
  [Symbol.asyncIterator]() {
    const lines = [];
    const waiting = [];
    let done = false;
    this.on('line', (l) => { if (waiting.length) waiting.shift()({ value: l, done: false }); else lines.push(l); });
    this.on('close', () => { done = true; while (waiting.length) waiting.shift()({ value: undefined, done: true }); });
    const self = this;
    return {
      next() {
        if (lines.length) return Promise.resolve({ value: lines.shift(), done: false });
        if (done) return Promise.resolve({ value: undefined, done: true });
        return new Promise((r) => waiting.push(r));
      },
      return() { self.close(); return Promise.resolve({ value: undefined, done: true }); },
      [Symbol.asyncIterator]() { return this; },
    };
  }
}

function createInterface(input, output, completer, terminal) {
  return new Interface(input, output, completer, terminal);
}
function clearLine(stream, dir, cb) { if (stream && stream.write) stream.write(dir < 0 ? '\x1b[1K' : dir > 0 ? '\x1b[0K' : '\x1b[2K'); if (cb) process.nextTick(cb); return true; }
function clearScreenDown(stream, cb) { if (stream && stream.write) stream.write('\x1b[0J'); if (cb) process.nextTick(cb); return true; }
function cursorTo(stream, x, y, cb) {
  if (typeof y === 'function') { cb = y; y = undefined; }
  if (stream && stream.write) stream.write(typeof y === 'number' ? `\x1b[${y + 1};${x + 1}H` : `\x1b[${x + 1}G`);
  if (cb) process.nextTick(cb);
  return true;
}
function moveCursor(stream, dx, dy, cb) {
  let s = '';
  if (dx) s += dx > 0 ? `\x1b[${dx}C` : `\x1b[${-dx}D`;
  if (dy) s += dy > 0 ? `\x1b[${dy}B` : `\x1b[${-dy}A`;
  if (stream && stream.write && s) stream.write(s);
  if (cb) process.nextTick(cb);
  return true;
}
function emitKeypressEvents() {}

const promises = {
  Interface: class extends Interface {
    question(query, options = {}) {
      return new Promise((resolve, reject) => {
        if (options.signal && options.signal.aborted) { const { AbortError } = require('internal/errors'); reject(new AbortError(undefined, { cause: options.signal.reason })); return; }
        super.question(query, resolve);
      });
    }
  },
  createInterface(input, output, completer, terminal) {
    return new promises.Interface(input, output, completer, terminal);
  },
  Readline: class Readline { constructor(stream) { this.stream = stream; } clearLine(dir) { clearLine(this.stream, dir); return this; } commit() { return Promise.resolve(); } },
};

module.exports = { Interface, createInterface, clearLine, clearScreenDown, cursorTo, moveCursor, emitKeypressEvents, promises };
