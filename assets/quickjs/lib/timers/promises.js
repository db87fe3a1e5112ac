'use strict';
// node:timers/promises
const loop = require('internal/loop');
const { AbortError } = require('internal/errors');

function withSignal(signal, start) {
  return new Promise((resolve, reject) => {
    if (signal && signal.aborted) { reject(new AbortError(undefined, { cause: signal.reason })); return; }
    const cancel = start(resolve);
    if (signal) signal.addEventListener('abort', () => { cancel(); reject(new AbortError(undefined, { cause: signal.reason })); }, { once: true });
  });
}
function setTimeout(ms, value, options = {}) {
  return withSignal(options.signal, (resolve) => {
    const t = loop.setTimeout(() => resolve(value), ms);
    if (options.ref === false) t.unref();
    return () => loop.clearTimeout(t);
  });
}
function setImmediate(value, options = {}) {
  return withSignal(options.signal, (resolve) => {
    const t = loop.setImmediate(() => resolve(value));
    if (options.ref === false) t.unref();
    return () => loop.clearImmediate(t);
  });
}
async function* setInterval(ms, value, options = {}) {
  let pending = 0;
  let wake = null;
  const t = loop.setInterval(() => { pending++; if (wake) { wake(); wake = null; } }, ms);
  if (options.ref === false) t.unref();
  try {
    for (;;) {
      if (pending === 0) await new Promise((r) => { wake = r; });
      pending--;
      yield value;
    }
  } finally {
    loop.clearInterval(t);
  }
}
const scheduler = { wait: (ms, options) => setTimeout(ms, undefined, options), yield: () => setImmediate() };
module.exports = { setTimeout, setImmediate, setInterval, scheduler };
