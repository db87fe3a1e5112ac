'use strict';
// The event loop, in Node's phases: timers, I/O (poll), immediates; after each
// callback, process.nextTick's queue and then the promise jobs, repeated until
// both are empty (Node's processTicksAndRejections). I/O is poll(2) over the
// fds watchers registered (pipes to children, stdin); children's exits are
// found with a non-blocking wait.

const ticks = [];
let tickHead = 0;
let onUncaught = null; // set by the bootstrap: (err, origin) => void
let onRejections = null; // called after microtasks: the unhandled rejections

function nextTick(fn, ...args) {
  if (typeof fn !== 'function') {
    const { codes } = require('internal/errors');
    throw new codes.ERR_INVALID_ARG_TYPE('callback', 'Function', fn);
  }
  ticks.push(args.length ? () => fn(...args) : fn);
}

function runTicks() {
  do {
    while (tickHead < ticks.length) {
      const fn = ticks[tickHead++];
      if (tickHead > 1024 && tickHead * 2 > ticks.length) {
        ticks.splice(0, tickHead);
        tickHead = 0;
      }
      try { fn(); } catch (e) { onUncaught(e, 'uncaughtException'); }
    }
    ticks.length = 0;
    tickHead = 0;
    try { native.runMicrotasks(); } catch (e) { onUncaught(e, 'uncaughtException'); }
    if (onRejections) onRejections();
  } while (ticks.length > 0);
}

function invoke(fn, thisArg, args) {
  try {
    fn.apply(thisArg, args);
  } catch (e) {
    onUncaught(e, 'uncaughtException');
  }
  runTicks();
}

// --- timers ---------------------------------------------------------------------
let timerSeq = 0;
const timers = []; // binary heap by [when, seq]
let refedTimers = 0;

class Timeout {
  constructor(cb, ms, args, repeat) {
    ms = Number(ms);
    if (!(ms >= 1 && ms <= 2147483647)) ms = 1;
    this._idleTimeout = ms;
    this._onTimeout = cb;
    this._timerArgs = args;
    this._repeat = repeat ? ms : null;
    this._destroyed = false;
    this._refed = true;
    this._when = 0;
    this._seq = 0;
    this._index = -1;
    refedTimers++;
    schedule(this);
  }
  ref() { if (!this._refed && !this._destroyed) { this._refed = true; refedTimers++; } return this; }
  unref() { if (this._refed && !this._destroyed) { this._refed = false; refedTimers--; } return this; }
  hasRef() { return this._refed; }
  refresh() { if (!this._destroyed) { remove(this); schedule(this); } return this; }
  close() { clearTimer(this); return this; }
  [Symbol.toPrimitive]() {
    if (this._id === undefined) { this._id = ++idSeq; idMap.set(this._id, this); }
    return this._id;
  }
}
let idSeq = 0;
const idMap = new Map();

function now() { return native.os.now(); }

function less(a, b) { return a._when < b._when || (a._when === b._when && a._seq < b._seq); }
function swap(i, j) { const t = timers[i]; timers[i] = timers[j]; timers[j] = t; timers[i]._index = i; timers[j]._index = j; }
function up(i) { while (i > 0) { const p = (i - 1) >> 1; if (!less(timers[i], timers[p])) break; swap(i, p); i = p; } }
function down(i) {
  for (;;) {
    const l = 2 * i + 1, r = l + 1;
    let m = i;
    if (l < timers.length && less(timers[l], timers[m])) m = l;
    if (r < timers.length && less(timers[r], timers[m])) m = r;
    if (m === i) break;
    swap(i, m); i = m;
  }
}
function schedule(t) {
  t._when = now() + t._idleTimeout;
  t._seq = ++timerSeq;
  t._index = timers.length;
  timers.push(t);
  up(t._index);
}
function remove(t) {
  const i = t._index;
  if (i < 0) return;
  const last = timers.pop();
  if (i < timers.length) { timers[i] = last; last._index = i; up(i); down(last._index); }
  t._index = -1;
}
function clearTimer(t) {
  if (t == null) return;
  if (typeof t === 'number' || typeof t === 'string') t = idMap.get(+t);
  if (!(t instanceof Timeout) || t._destroyed) return;
  t._destroyed = true;
  if (t._refed) refedTimers--;
  if (t._id !== undefined) idMap.delete(t._id);
  remove(t);
}

function runTimers() {
  const limit = now();
  while (timers.length > 0 && timers[0]._when <= limit) {
    const t = timers[0];
    remove(t);
    if (t._repeat !== null) {
      schedule(t);
    } else {
      t._destroyed = true;
      if (t._refed) refedTimers--;
      if (t._id !== undefined) idMap.delete(t._id);
    }
    invoke(t._onTimeout, t, t._timerArgs || []);
  }
}

function setTimeout(cb, ms, ...args) {
  if (typeof cb !== 'function') {
    const { codes } = require('internal/errors');
    throw new codes.ERR_INVALID_ARG_TYPE('callback', 'Function', cb);
  }
  return new Timeout(cb, ms, args, false);
}
function setInterval(cb, ms, ...args) {
  if (typeof cb !== 'function') {
    const { codes } = require('internal/errors');
    throw new codes.ERR_INVALID_ARG_TYPE('callback', 'Function', cb);
  }
  return new Timeout(cb, ms, args, true);
}

// --- immediates -----------------------------------------------------------------
let immediates = [];
let refedImmediates = 0;
class Immediate {
  constructor(cb, args) {
    this._onImmediate = cb;
    this._argv = args;
    this._destroyed = false;
    this._refed = true;
    refedImmediates++;
    immediates.push(this);
  }
  ref() { if (!this._refed && !this._destroyed) { this._refed = true; refedImmediates++; } return this; }
  unref() { if (this._refed && !this._destroyed) { this._refed = false; refedImmediates--; } return this; }
  hasRef() { return this._refed; }
}
function setImmediate(cb, ...args) {
  if (typeof cb !== 'function') {
    const { codes } = require('internal/errors');
    throw new codes.ERR_INVALID_ARG_TYPE('callback', 'Function', cb);
  }
  return new Immediate(cb, args);
}
function clearImmediate(im) {
  if (!(im instanceof Immediate) || im._destroyed) return;
  im._destroyed = true;
  if (im._refed) refedImmediates--;
}
function runImmediates() {
  const list = immediates;
  immediates = [];
  for (const im of list) {
    if (im._destroyed) continue;
    im._destroyed = true;
    if (im._refed) refedImmediates--;
    invoke(im._onImmediate, im, im._argv);
  }
}

// --- I/O watchers ---------------------------------------------------------------
// watcher: {fd, events (1 = in, 4 = out), cb(revents), refed}
const watchers = new Set();
function watch(fd, events, cb) {
  const w = { fd, events, cb, refed: true };
  watchers.add(w);
  return w;
}
function unwatch(w) { watchers.delete(w); }

// I/O done elsewhere (fs's asynchronous calls, made synchronously): the
// callback runs in a later poll phase, after as many loop turns as the call
// takes libuv requests (readFile: open, stat, read, close), so callbacks
// come in Node's order relative to timers, immediates and each other.
let ioQueue = [];
function ioComplete(steps, fn) { ioQueue.push({ steps, fn }); }
function runIo() {
  if (ioQueue.length === 0) return;
  const ready = [];
  const rest = [];
  for (const op of ioQueue) {
    if (--op.steps <= 0) ready.push(op);
    else rest.push(op);
  }
  ioQueue = rest;
  for (const op of ready) invoke(op.fn, null, []);
}

// children: {pid, cb(status)}; polled while no watcher is left to wake us
const children = new Map();
function watchChild(pid, cb) { children.set(pid, cb); }
function unwatchChild(pid) { children.delete(pid); }

function reapChildren() {
  for (const [pid, cb] of children) {
    const st = native.wait(pid, false);
    if (st === -6 /* EAGAIN (WASI) */) continue;
    children.delete(pid);
    invoke(cb, null, [st]);
  }
}

let pollBuf = new Int32Array(48);
function poll(timeout) {
  const list = [];
  for (const w of watchers) list.push(w);
  if (list.length === 0) {
    if (timeout > 0) native.os.sleep(Math.min(timeout, 2147483647));
    return;
  }
  if (pollBuf.length < list.length * 3) pollBuf = new Int32Array(list.length * 3);
  for (let i = 0; i < list.length; i++) {
    pollBuf[3 * i] = list[i].fd;
    pollBuf[3 * i + 1] = list[i].events;
    pollBuf[3 * i + 2] = 0;
  }
  const n = native.poll(pollBuf.subarray(0, list.length * 3), timeout);
  if (n <= 0) return;
  const ready = [];
  for (let i = 0; i < list.length; i++) {
    const rev = pollBuf[3 * i + 2];
    if (rev !== 0) ready.push([list[i], rev]);
  }
  for (const [w, rev] of ready) {
    if (watchers.has(w)) invoke(w.cb, null, [rev]);
  }
}

function alive() {
  if (refedTimers > 0 || refedImmediates > 0 || children.size > 0 || ioQueue.length > 0) return true;
  for (const w of watchers) if (w.refed) return true;
  return false;
}

let childPollDelay = 1;
// run: the loop until nothing keeps it alive; onIdle(): beforeExit's chance to add work.
function run(onIdle) {
  // Node's loop starts after the main script, which takes a millisecond or
  // more: a setTimeout(fn, 0) from it is due at the first turn, before I/O
  const start = now();
  for (const t of timers) if (t._idleTimeout === 1 && t._when > start) t._when = start;
  for (;;) {
    runTicks();
    while (alive()) {
      runTimers();
      let timeout = -1;
      if (immediates.length > 0 || ioQueue.length > 0) timeout = 0;
      else if (timers.length > 0) {
        // the nearest timer (unrefed ones only count when something else is alive)
        timeout = Math.max(0, Math.ceil(timers[0]._when - now()));
        if (refedTimers === 0 && timeout > 0 && !hasRefedIO() && children.size === 0) timeout = -1;
      }
      if (children.size > 0) {
        reapChildren();
        if (children.size > 0) {
          timeout = timeout < 0 ? childPollDelay : Math.min(timeout, childPollDelay);
          childPollDelay = Math.min(childPollDelay * 2, 20);
        }
      } else {
        childPollDelay = 1;
      }
      if (!alive()) break;
      if (timeout < 0 && !hasRefedIO()) break;
      poll(timeout);
      runIo();
      runImmediates();
    }
    if (!onIdle || !onIdle()) return;
  }
}
function hasRefedIO() {
  for (const w of watchers) if (w.refed) return true;
  return false;
}

function setHandlers(uncaught, rejections) {
  onUncaught = uncaught;
  onRejections = rejections;
}

Object.defineProperty(setTimeout, Symbol.for('nodejs.util.promisify.custom'), {
  get() { return require('timers/promises').setTimeout; }, enumerable: false, configurable: true,
});
Object.defineProperty(setImmediate, Symbol.for('nodejs.util.promisify.custom'), {
  get() { return require('timers/promises').setImmediate; }, enumerable: false, configurable: true,
});

module.exports = {
  nextTick, runTicks, invoke, setTimeout, setInterval, clearTimeout: clearTimer, clearInterval: clearTimer,
  setImmediate, clearImmediate, Timeout, Immediate, watch, unwatch, watchChild, unwatchChild, run, setHandlers,
  reapChildren, alive, ioComplete,
};
