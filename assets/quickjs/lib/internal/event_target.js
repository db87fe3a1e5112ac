'use strict';
// EventTarget, Event, CustomEvent, AbortController, AbortSignal, DOMException

class DOMException extends Error {
  constructor(message = '', options = 'Error') {
    super(message);
    const name = typeof options === 'object' && options !== null ? options.name || 'Error' : String(options);
    if (typeof options === 'object' && options !== null && 'cause' in options) this.cause = options.cause;
    Object.defineProperty(this, 'name', { value: name, configurable: true, writable: true });
  }
  get code() { return codesByName[this.name] || 0; }
}
const codesByName = { IndexSizeError: 1, HierarchyRequestError: 3, WrongDocumentError: 4, InvalidCharacterError: 5, NoModificationAllowedError: 7, NotFoundError: 8, NotSupportedError: 9, InvalidStateError: 11, SyntaxError: 12, InvalidModificationError: 13, NamespaceError: 14, InvalidAccessError: 15, TypeMismatchError: 17, SecurityError: 18, NetworkError: 19, AbortError: 20, URLMismatchError: 21, QuotaExceededError: 22, TimeoutError: 23, InvalidNodeTypeError: 24, DataCloneError: 25 };

class Event {
  constructor(type, options = {}) {
    if (arguments.length === 0) throw new (require('internal/errors').codes.ERR_MISSING_ARGS)('type');
    this._type = String(type);
    this._bubbles = !!options.bubbles;
    this._cancelable = !!options.cancelable;
    this._composed = !!options.composed;
    this._defaultPrevented = false;
    this._timeStamp = native.os.now();
    this._target = null;
    this._stop = false;
  }
  get type() { return this._type; }
  get bubbles() { return this._bubbles; }
  get cancelable() { return this._cancelable; }
  get composed() { return this._composed; }
  get defaultPrevented() { return this._cancelable && this._defaultPrevented; }
  get timeStamp() { return this._timeStamp; }
  get target() { return this._target; }
  get currentTarget() { return this._target; }
  get srcElement() { return this._target; }
  get eventPhase() { return this._target ? 2 : 0; }
  get isTrusted() { return false; }
  get returnValue() { return !this.defaultPrevented; }
  composedPath() { return this._target ? [this._target] : []; }
  preventDefault() { this._defaultPrevented = true; }
  stopPropagation() {}
  stopImmediatePropagation() { this._stop = true; }
  get [Symbol.toStringTag]() { return 'Event'; }
}
for (const k of ['_type', '_bubbles', '_cancelable', '_composed', '_defaultPrevented', '_timeStamp', '_target', '_stop']) {
  Object.defineProperty(Event.prototype, k, { writable: true, enumerable: false, value: undefined });
}
Event.NONE = 0; Event.CAPTURING_PHASE = 1; Event.AT_TARGET = 2; Event.BUBBLING_PHASE = 3;
class CustomEvent extends Event {
  constructor(type, options = {}) { super(type, options); this._detail = options.detail === undefined ? null : options.detail; }
  get detail() { return this._detail; }
}

const kListeners = Symbol('kListeners');
class EventTarget {
  constructor() { Object.defineProperty(this, kListeners, { value: new Map(), enumerable: false }); }
  addEventListener(type, listener, options = {}) {
    if (listener == null) return;
    if (typeof options === 'boolean') options = { capture: options };
    const list = this[kListeners].get(type) || [];
    if (list.some((l) => l.listener === listener && l.capture === !!options.capture)) return;
    const entry = { listener, once: !!options.once, capture: !!options.capture };
    list.push(entry);
    this[kListeners].set(type, list);
    if (options.signal) options.signal.addEventListener('abort', () => this.removeEventListener(type, listener, options), { once: true });
  }
  removeEventListener(type, listener, options = {}) {
    if (typeof options === 'boolean') options = { capture: options };
    const list = this[kListeners].get(type);
    if (!list) return;
    const i = list.findIndex((l) => l.listener === listener && l.capture === !!options.capture);
    if (i !== -1) list.splice(i, 1);
  }
  dispatchEvent(event) {
    if (!(event instanceof Event)) throw new (require('internal/errors').codes.ERR_INVALID_ARG_TYPE)('event', 'Event', event);
    event._target = this;
    const list = (this[kListeners].get(event.type) || []).slice();
    for (const l of list) {
      if (l.once) this.removeEventListener(event.type, l.listener, l);
      try {
        if (typeof l.listener === 'function') l.listener.call(this, event);
        else if (l.listener && typeof l.listener.handleEvent === 'function') l.listener.handleEvent(event);
      } catch (e) {
        process.nextTick(() => { throw e; });
      }
      if (event._stop) break;
    }
    const handler = this[`on${event.type}`];
    if (typeof handler === 'function' && !list.some((l) => l.listener === handler)) handler.call(this, event);
    return !event.defaultPrevented;
  }
  get [Symbol.toStringTag]() { return 'EventTarget'; }
}

class AbortSignal extends EventTarget {
  constructor(key) {
    if (key !== kCreate) throw new TypeError('Illegal constructor');
    super();
    this._aborted = false;
    this._reason = undefined;
    this.onabort = null;
  }
  get aborted() { return this._aborted; }
  get reason() { return this._reason; }
  throwIfAborted() { if (this._aborted) throw this._reason; }
  static abort(reason) {
    const s = new AbortSignal(kCreate);
    s._aborted = true;
    s._reason = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
    return s;
  }
  static timeout(ms) {
    const s = new AbortSignal(kCreate);
    const t = setTimeout(() => abortSignal(s, new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms);
    if (t.unref) t.unref();
    return s;
  }
  static any(signals) {
    const s = new AbortSignal(kCreate);
    for (const sig of signals) {
      if (sig.aborted) { abortSignal(s, sig.reason); return s; }
      sig.addEventListener('abort', () => abortSignal(s, sig.reason), { once: true });
    }
    return s;
  }
  get [Symbol.toStringTag]() { return 'AbortSignal'; }
  [Symbol.for('nodejs.util.inspect.custom')](depth, opts, inspect) { return `AbortSignal { aborted: ${this._aborted} }`; }
}
for (const k of ['_aborted', '_reason']) Object.defineProperty(AbortSignal.prototype, k, { writable: true, enumerable: false, value: undefined });
const kCreate = Symbol('create');
function abortSignal(s, reason) {
  if (s._aborted) return;
  s._aborted = true;
  s._reason = reason;
  s.dispatchEvent(new Event('abort'));
}
class AbortController {
  constructor() { this._signal = new AbortSignal(kCreate); }
  get signal() { return this._signal; }
  abort(reason = new DOMException('This operation was aborted', 'AbortError')) { abortSignal(this._signal, reason); }
  get [Symbol.toStringTag]() { return 'AbortController'; }
  [Symbol.for('nodejs.util.inspect.custom')]() { return `AbortController { signal: AbortSignal { aborted: ${this._signal.aborted} } }`; }
}
Object.defineProperty(AbortController.prototype, '_signal', { writable: true, enumerable: false, value: undefined });

module.exports = { EventTarget, Event, CustomEvent, AbortController, AbortSignal, DOMException, NodeEventTarget: EventTarget };
