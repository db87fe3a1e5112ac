'use strict';
// deep equality as assert.deepEqual / deepStrictEqual and util.isDeepStrictEqual decide it

const { isError } = require('internal/inspect');
const objToString = (v) => Object.prototype.toString.call(v);

function isDeepEqual(a, b, strict, memo) {
  if (a === b) return a !== 0 || !strict || Object.is(a, b);
  if (strict) {
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
      return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
    }
    if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  } else {
    if (a === null || typeof a !== 'object') {
      if (b === null || typeof b !== 'object') return a == b || (Number.isNaN(a) && Number.isNaN(b)); // eslint-disable-line eqeqeq
      return false;
    }
    if (b === null || typeof b !== 'object') return false;
  }
  const aTag = objToString(a), bTag = objToString(b);
  if (aTag !== bTag) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
  } else if (a instanceof Date) {
    if (!(b instanceof Date) || a.getTime() !== b.getTime()) return false;
  } else if (a instanceof RegExp) {
    if (!(b instanceof RegExp) || a.source !== b.source || a.flags !== b.flags || a.lastIndex !== b.lastIndex) return false;
  } else if (isError(a)) {
    if (!isError(b) || a.message !== b.message || a.name !== b.name) return false;
  } else if (ArrayBuffer.isView(a)) {
    if (!ArrayBuffer.isView(b) || a.byteLength !== b.byteLength) return false;
    if (!strict && (a instanceof Float32Array || a instanceof Float64Array)) {
      for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    } else {
      const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength), y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
      for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
    }
  } else if (a instanceof ArrayBuffer) {
    if (a.byteLength !== b.byteLength) return false;
    const x = new Uint8Array(a), y = new Uint8Array(b);
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  } else if (a instanceof Number || a instanceof String || a instanceof Boolean) {
    if (!Object.is(a.valueOf(), b.valueOf())) return false;
  }
  memo = memo || { a: new Map(), b: new Map(), depth: 0 };
  if (memo.a.has(a) && memo.b.has(b)) return memo.a.get(a) === memo.b.get(b);
  memo.depth++;
  memo.a.set(a, memo.depth);
  memo.b.set(b, memo.depth);
  const ok = keysEqual(a, b, strict, memo);
  memo.a.delete(a);
  memo.b.delete(b);
  return ok;
}

function ownKeys(o, strict) {
  const keys = Object.keys(o);
  if (strict) for (const s of Object.getOwnPropertySymbols(o)) if (Object.prototype.propertyIsEnumerable.call(o, s)) keys.push(s);
  return keys;
}
function keysEqual(a, b, strict, memo) {
  const ak = ownKeys(a, strict), bk = ownKeys(b, strict);
  if (ak.length !== bk.length) return false;
  for (const k of ak) if (!Object.prototype.propertyIsEnumerable.call(b, k)) return false;
  if (a instanceof Map) {
    if (!(b instanceof Map) || a.size !== b.size) return false;
    outer: for (const [k, v] of a) {
      if (b.has(k)) { if (!isDeepEqual(v, b.get(k), strict, memo)) return false; continue; }
      if (typeof k !== 'object' || k === null) {
        if (strict) return false;
      }
      for (const [k2, v2] of b) if (isDeepEqual(k, k2, strict, memo) && isDeepEqual(v, v2, strict, memo)) continue outer;
      return false;
    }
  } else if (a instanceof Set) {
    if (!(b instanceof Set) || a.size !== b.size) return false;
    outer2: for (const v of a) {
      if (b.has(v)) continue;
      if (typeof v !== 'object' || v === null) { if (strict) return false; }
      for (const v2 of b) if (isDeepEqual(v, v2, strict, memo)) continue outer2;
      return false;
    }
  }
  for (const k of ak) if (!isDeepEqual(a[k], b[k], strict, memo)) return false;
  return true;
}
module.exports = { isDeepEqual };
