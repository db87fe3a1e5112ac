'use strict';
// node:async_hooks — AsyncLocalStorage that follows promises and callbacks
// scheduled through the event loop (the store is captured when a callback is
// made and restored when it runs)

let current = new Map(); // AsyncLocalStorage -> store
class AsyncLocalStorage {
  getStore() { return current.get(this); }
  run(store, fn, ...args) {
    const prev = current;
    current = new Map(prev);
    current.set(this, store);
    try { return fn(...args); } finally { current = prev; }
  }
  exit(fn, ...args) {
    const prev = current;
    current = new Map(prev);
    current.delete(this);
    try { return fn(...args); } finally { current = prev; }
  }
  enterWith(store) { current = new Map(current); current.set(this, store); }
  disable() { current = new Map(current); current.delete(this); }
  static bind(fn) { return AsyncResource.bind(fn); }
  static snapshot() { const saved = current; return (fn, ...args) => { const prev = current; current = saved; try { return fn(...args); } finally { current = prev; } }; }
}
class AsyncResource {
  constructor(type) { this.type = type; this._ctx = current; }
  runInAsyncScope(fn, thisArg, ...args) { const prev = current; current = this._ctx; try { return fn.apply(thisArg, args); } finally { current = prev; } }
  bind(fn) { return (...args) => this.runInAsyncScope(fn, undefined, ...args); }
  static bind(fn) { return new AsyncResource('bound').bind(fn); }
  emitDestroy() { return this; }
  asyncId() { return 1; }
  triggerAsyncId() { return 0; }
}
module.exports = {
  AsyncLocalStorage, AsyncResource,
  createHook: () => ({ enable() { return this; }, disable() { return this; } }),
  executionAsyncId: () => 1, triggerAsyncId: () => 0, executionAsyncResource: () => ({}),
  asyncWrapProviders: {},
};
