'use strict';
// node:events

const kErrorMonitor = Symbol('events.errorMonitor');
let defaultMaxListeners = 10;

function EventEmitter(opts) {
  EventEmitter.init.call(this, opts);
}
EventEmitter.prototype._events = undefined;
EventEmitter.prototype._eventsCount = 0;
EventEmitter.prototype._maxListeners = undefined;

EventEmitter.init = function init() {
  if (this._events === undefined || this._events === Object.getPrototypeOf(this)._events) {
    this._events = Object.create(null);
    this._eventsCount = 0;
  }
  this._maxListeners = this._maxListeners || undefined;
};

Object.defineProperty(EventEmitter, 'defaultMaxListeners', {
  enumerable: true,
  get() { return defaultMaxListeners; },
  set(n) {
    if (typeof n !== 'number' || n < 0 || Number.isNaN(n)) {
      const { codes } = require('internal/errors');
      throw new codes.ERR_OUT_OF_RANGE('defaultMaxListeners', 'a non-negative number', n);
    }
    defaultMaxListeners = n;
  },
});
EventEmitter.errorMonitor = kErrorMonitor;
EventEmitter.captureRejectionSymbol = Symbol.for('nodejs.rejection');
EventEmitter.captureRejections = false;

EventEmitter.prototype.setMaxListeners = function setMaxListeners(n) {
  if (typeof n !== 'number' || n < 0 || Number.isNaN(n)) {
    const { codes } = require('internal/errors');
    throw new codes.ERR_OUT_OF_RANGE('n', 'a non-negative number', n);
  }
  this._maxListeners = n;
  return this;
};
function getMax(that) { return that._maxListeners === undefined ? defaultMaxListeners : that._maxListeners; }
EventEmitter.prototype.getMaxListeners = function getMaxListeners() { return getMax(this); };

EventEmitter.prototype.emit = function emit(type, ...args) {
  const events = this._events;
  let doError = type === 'error';
  if (events !== undefined) {
    if (doError && events[kErrorMonitor] !== undefined) this.emit(kErrorMonitor, ...args);
    doError = doError && events.error === undefined;
  } else if (!doError) {
    return false;
  }
  if (doError) {
    const er = args[0];
    if (er instanceof Error) throw er;
    const { codes } = require('internal/errors');
    const err = new codes.ERR_UNHANDLED_ERROR(er);
    err.context = er;
    throw err;
  }
  const handler = events[type];
  if (handler === undefined) return false;
  if (typeof handler === 'function') {
    handler.apply(this, args);
  } else {
    const listeners = handler.slice();
    for (let i = 0; i < listeners.length; ++i) listeners[i].apply(this, args);
  }
  return true;
};

function addListener(target, type, listener, prepend) {
  checkListener(listener);
  let events = target._events;
  if (events === undefined) {
    events = target._events = Object.create(null);
    target._eventsCount = 0;
  } else {
    if (events.newListener !== undefined) {
      target.emit('newListener', type, listener.listener ? listener.listener : listener);
      events = target._events;
    }
  }
  let existing = events[type];
  if (existing === undefined) {
    events[type] = listener;
    ++target._eventsCount;
  } else {
    if (typeof existing === 'function') {
      existing = events[type] = prepend ? [listener, existing] : [existing, listener];
    } else if (prepend) {
      existing.unshift(listener);
    } else {
      existing.push(listener);
    }
    const m = getMax(target);
    if (m > 0 && existing.length > m && !existing.warned) {
      existing.warned = true;
      const name = target.constructor && target.constructor.name;
      const w = new Error(`Possible EventEmitter memory leak detected. ${existing.length} ${String(type)} listeners added to ${name === 'EventEmitter' || !name ? '[EventEmitter]' : `[${name}]`}. MaxListeners is ${m}. Use emitter.setMaxListeners() to increase limit`);
      w.name = 'MaxListenersExceededWarning';
      w.emitter = target;
      w.type = type;
      w.count = existing.length;
      if (typeof process !== 'undefined' && process.emitWarning) process.emitWarning(w);
    }
  }
  return target;
}

function checkListener(listener) {
  if (typeof listener !== 'function') {
    const { codes } = require('internal/errors');
    throw new codes.ERR_INVALID_ARG_TYPE('listener', 'Function', listener);
  }
}

EventEmitter.prototype.addListener = function (type, listener) { return addListener(this, type, listener, false); };
EventEmitter.prototype.on = EventEmitter.prototype.addListener;
EventEmitter.prototype.prependListener = function (type, listener) { return addListener(this, type, listener, true); };

function onceWrapper() {
  if (!this.fired) {
    this.target.removeListener(this.type, this.wrapFn);
    this.fired = true;
    return this.listener.apply(this.target, arguments);
  }
}
function onceWrap(target, type, listener) {
  const state = { fired: false, wrapFn: undefined, target, type, listener };
  const wrapped = onceWrapper.bind(state);
  wrapped.listener = listener;
  state.wrapFn = wrapped;
  return wrapped;
}
EventEmitter.prototype.once = function once(type, listener) {
  checkListener(listener);
  this.on(type, onceWrap(this, type, listener));
  return this;
};
EventEmitter.prototype.prependOnceListener = function (type, listener) {
  checkListener(listener);
  this.prependListener(type, onceWrap(this, type, listener));
  return this;
};

EventEmitter.prototype.removeListener = function removeListener(type, listener) {
  checkListener(listener);
  const events = this._events;
  if (events === undefined) return this;
  const list = events[type];
  if (list === undefined) return this;
  if (list === listener || list.listener === listener) {
    this._eventsCount -= 1;
    if (this._eventsCount === 0) this._events = Object.create(null);
    else {
      delete events[type];
      if (events.removeListener) this.emit('removeListener', type, list.listener || listener);
    }
  } else if (typeof list !== 'function') {
    let position = -1;
    for (let i = list.length - 1; i >= 0; i--) {
      if (list[i] === listener || list[i].listener === listener) { position = i; break; }
    }
    if (position < 0) return this;
    if (position === 0) list.shift();
    else list.splice(position, 1);
    if (list.length === 1) events[type] = list[0];
    if (events.removeListener !== undefined) this.emit('removeListener', type, listener);
  }
  return this;
};
EventEmitter.prototype.off = EventEmitter.prototype.removeListener;

EventEmitter.prototype.removeAllListeners = function removeAllListeners(type) {
  const events = this._events;
  if (events === undefined) return this;
  if (events.removeListener === undefined) {
    if (arguments.length === 0) {
      this._events = Object.create(null);
      this._eventsCount = 0;
    } else if (events[type] !== undefined) {
      if (--this._eventsCount === 0) this._events = Object.create(null);
      else delete events[type];
    }
    return this;
  }
  if (arguments.length === 0) {
    for (const key of Reflect.ownKeys(events)) {
      if (key === 'removeListener') continue;
      this.removeAllListeners(key);
    }
    this.removeAllListeners('removeListener');
    this._events = Object.create(null);
    this._eventsCount = 0;
    return this;
  }
  const listeners = events[type];
  if (typeof listeners === 'function') this.removeListener(type, listeners);
  else if (listeners !== undefined) {
    for (let i = listeners.length - 1; i >= 0; i--) this.removeListener(type, listeners[i]);
  }
  return this;
};

function listenersOf(target, type, unwrap) {
  const events = target._events;
  if (events === undefined) return [];
  const l = events[type];
  if (l === undefined) return [];
  if (typeof l === 'function') return unwrap ? [l.listener || l] : [l];
  return unwrap ? l.map((f) => f.listener || f) : l.slice();
}
EventEmitter.prototype.listeners = function (type) { return listenersOf(this, type, true); };
EventEmitter.prototype.rawListeners = function (type) { return listenersOf(this, type, false); };
function listenerCount(type, listener) {
  const events = this._events;
  if (events !== undefined) {
    const l = events[type];
    if (typeof l === 'function') return listener == null || l === listener || l.listener === listener ? 1 : 0;
    if (l !== undefined) return listener == null ? l.length : l.filter((f) => f === listener || f.listener === listener).length;
  }
  return 0;
}
EventEmitter.prototype.listenerCount = listenerCount;
EventEmitter.listenerCount = (emitter, type) => (typeof emitter.listenerCount === 'function' ? emitter.listenerCount(type) : listenerCount.call(emitter, type));
EventEmitter.prototype.eventNames = function eventNames() {
  return this._eventsCount > 0 ? Reflect.ownKeys(this._events) : [];
};

function once(emitter, name, options = {}) {
  const signal = options ? options.signal : undefined;
  return new Promise((resolve, reject) => {
    if (signal && signal.aborted) {
      const { AbortError } = require('internal/errors');
      reject(new AbortError(undefined, { cause: signal.reason }));
      return;
    }
    if (typeof emitter.addEventListener === 'function' && typeof emitter.on !== 'function') {
      emitter.addEventListener(name, (...args) => resolve(args), { once: true });
      return;
    }
    const errorListener = (err) => {
      emitter.removeListener(name, resolver);
      reject(err);
    };
    const resolver = (...args) => {
      if (name !== 'error') emitter.removeListener('error', errorListener);
      resolve(args);
    };
    emitter.once(name, resolver);
    if (name !== 'error') emitter.once('error', errorListener);
    if (signal) {
      signal.addEventListener('abort', () => {
        emitter.removeListener(name, resolver);
        emitter.removeListener('error', errorListener);
        const { AbortError } = require('internal/errors');
        reject(new AbortError(undefined, { cause: signal.reason }));
      }, { once: true });
    }
  });
}

function on(emitter, event, options = {}) {
  const queue = [];
  const waiting = [];
  let error = null;
  let finished = false;
  const handler = (...args) => {
    if (waiting.length) waiting.shift().resolve({ value: args, done: false });
    else queue.push(args);
  };
  const errorHandler = (err) => {
    finished = true;
    if (waiting.length) waiting.shift().reject(err);
    else error = err;
    iterator.return();
  };
  emitter.on(event, handler);
  if (event !== 'error') emitter.on('error', errorHandler);
  const signal = options && options.signal;
  if (signal) {
    const abort = () => {
      const { AbortError } = require('internal/errors');
      errorHandler(new AbortError(undefined, { cause: signal.reason }));
    };
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
  }
  const iterator = {
    next() {
      if (queue.length) return Promise.resolve({ value: queue.shift(), done: false });
      if (error) { const p = Promise.reject(error); error = null; return p; }
      if (finished) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    return() {
      emitter.removeListener(event, handler);
      emitter.removeListener('error', errorHandler);
      finished = true;
      for (const w of waiting) w.resolve({ value: undefined, done: true });
      return Promise.resolve({ value: undefined, done: true });
    },
    throw(err) {
      error = err;
      emitter.removeListener(event, handler);
      emitter.removeListener('error', errorHandler);
      return Promise.reject(err);
    },
    [Symbol.asyncIterator]() { return this; },
  };
  return iterator;
}

function getEventListeners(emitter, type) {
  if (typeof emitter.listeners === 'function') return emitter.listeners(type);
  return [];
}
function setMaxListeners(n = defaultMaxListeners, ...targets) {
  if (targets.length === 0) defaultMaxListeners = n;
  else for (const t of targets) if (typeof t.setMaxListeners === 'function') t.setMaxListeners(n);
}

module.exports = EventEmitter;
EventEmitter.EventEmitter = EventEmitter;
EventEmitter.usingDomains = false;
EventEmitter.once = once;
EventEmitter.on = on;
EventEmitter.getEventListeners = getEventListeners;
EventEmitter.setMaxListeners = setMaxListeners;
EventEmitter.getMaxListeners = (e) => (typeof e.getMaxListeners === 'function' ? e.getMaxListeners() : defaultMaxListeners);
EventEmitter.addAbortListener = (signal, listener) => {
  signal.addEventListener('abort', listener, { once: true });
  return { [Symbol.dispose || Symbol.for('nodejs.dispose')]() { signal.removeEventListener('abort', listener); } };
};
