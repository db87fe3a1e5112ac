'use strict';
// node:worker_threads — the sandbox runs one thread per process: no Worker;
// MessageChannel works within the thread.
const EventEmitter = require('events');
const { codes } = require('internal/errors');

class MessagePort extends EventEmitter {
  constructor() { super(); this._other = null; this._closed = false; this.onmessage = null; }
  postMessage(msg) {
    const other = this._other;
    if (!other || other._closed) return;
    const data = require('internal/structured_clone').structuredClone(msg);
    setImmediate(() => {
      other.emit('message', data);
      if (typeof other.onmessage === 'function') other.onmessage({ data });
    });
  }
  start() {}
  close() { this._closed = true; if (this._other) this._other._closed = true; setImmediate(() => { this.emit('close'); }); }
  ref() { return this; }
  unref() { return this; }
  addEventListener(t, fn) { this.on(t, (data) => fn({ data })); }
  removeEventListener() {}
}
class MessageChannel {
  constructor() { this.port1 = new MessagePort(); this.port2 = new MessagePort(); this.port1._other = this.port2; this.port2._other = this.port1; }
}
class BroadcastChannel extends EventEmitter {
  constructor(name) { super(); this.name = name; }
  postMessage() {}
  close() {}
}
class Worker extends EventEmitter {
  constructor() { super(); throw new codes.ERR_FEATURE_UNAVAILABLE_ON_PLATFORM('worker_threads.Worker (the sandbox runs one thread per process)'); }
}
module.exports = {
  isMainThread: true, parentPort: null, workerData: null, threadId: 0, resourceLimits: {},
  Worker, MessageChannel, MessagePort, BroadcastChannel, SHARE_ENV: Symbol('nodejs.worker_threads.SHARE_ENV'),
  markAsUntransferable() {}, isMarkedAsUntransferable: () => false, moveMessagePortToContext: (p) => p, receiveMessageOnPort: () => undefined,
  getEnvironmentData: () => undefined, setEnvironmentData() {},
};
