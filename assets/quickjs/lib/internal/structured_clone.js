'use strict';
// structuredClone: the HTML structured clone of the types a program passes
// around (no transfer of ports).
function structuredClone(value, options) {
  if (arguments.length === 0) throw new (require('internal/errors').codes.ERR_MISSING_ARGS)('value');
  const seen = new Map();
  const { DOMException } = require('internal/event_target');
  function clone(v) {
    if (v === null || (typeof v !== 'object' && typeof v !== 'function')) {
      if (typeof v === 'symbol') throw new DOMException(`${String(v)} could not be cloned.`, 'DataCloneError');
      return v;
    }
    if (typeof v === 'function') throw new DOMException(`${v.toString().slice(0, 60)} could not be cloned.`, 'DataCloneError');
    if (seen.has(v)) return seen.get(v);
    let out;
    if (v instanceof Date) out = new Date(v.getTime());
    else if (v instanceof RegExp) out = new RegExp(v.source, v.flags);
    else if (v instanceof ArrayBuffer) out = v.slice(0);
    else if (ArrayBuffer.isView(v)) {
      const buf = clone(v.buffer);
      out = v instanceof DataView ? new DataView(buf, v.byteOffset, v.byteLength) : new (Object.getPrototypeOf(Object.getPrototypeOf(v)) === Uint8Array.prototype ? Uint8Array : v.constructor)(buf, v.byteOffset, v.length);
    } else if (v instanceof Map) { out = new Map(); seen.set(v, out); for (const [k, x] of v) out.set(clone(k), clone(x)); return out; }
    else if (v instanceof Set) { out = new Set(); seen.set(v, out); for (const x of v) out.add(clone(x)); return out; }
    else if (v instanceof Error || native.isError(v)) {
      const C = { EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError }[v.name] || Error;
      out = new C(v.message);
      out.stack = v.stack;
      if ('cause' in v) out.cause = clone(v.cause);
    } else if (v instanceof Boolean || v instanceof Number || v instanceof String) out = Object(v.valueOf());
    else if (Array.isArray(v)) { out = new Array(v.length); seen.set(v, out); for (const k of Object.keys(v)) out[k] = clone(v[k]); return out; }
    else if (v instanceof Promise || v instanceof WeakMap || v instanceof WeakSet) throw new DOMException(`#<${v.constructor.name}> could not be cloned.`, 'DataCloneError');
    else { out = {}; seen.set(v, out); for (const k of Object.keys(v)) out[k] = clone(v[k]); return out; }
    seen.set(v, out);
    return out;
  }
  return clone(value);
}
module.exports = { structuredClone };
