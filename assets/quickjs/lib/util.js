'use strict';
// node:util

const ins = require('internal/inspect');
const { codes, validateFunction } = require('internal/errors');

function promisify(original) {
  validateFunction(original, 'original');
  if (original[promisify.custom]) {
    const fn = original[promisify.custom];
    validateFunction(fn, 'util.promisify.custom');
    return Object.defineProperty(fn, promisify.custom, { value: fn, configurable: true });
  }
  const argumentNames = original[kCustomPromisifyArgs];
  function fn(...args) {
    return new Promise((resolve, reject) => {
      original.call(this, ...args, (err, ...values) => {
        if (err) return reject(err);
        if (argumentNames !== undefined && values.length > 1) {
          const obj = {};
          for (let i = 0; i < argumentNames.length; i++) obj[argumentNames[i]] = values[i];
          resolve(obj);
        } else {
          resolve(values[0]);
        }
      });
    });
  }
  Object.setPrototypeOf(fn, Object.getPrototypeOf(original));
  Object.defineProperty(fn, promisify.custom, { value: fn, configurable: true });
  return Object.defineProperties(fn, Object.getOwnPropertyDescriptors(original));
}
promisify.custom = Symbol.for('nodejs.util.promisify.custom');
const kCustomPromisifyArgs = Symbol('customPromisifyArgs');

function callbackify(original) {
  validateFunction(original, 'original');
  function callbackified(...args) {
    const cb = args.pop();
    validateFunction(cb, 'last argument');
    const onOk = (ret) => process.nextTick(cb, null, ret);
    const onErr = (rej) => {
      if (!rej) {
        const e = new Error('Promise was rejected with a falsy value');
        e.code = 'ERR_FALSY_VALUE_REJECTION';
        e.reason = rej;
        rej = e;
      }
      process.nextTick(cb, rej);
    };
    Reflect.apply(original, this, args).then(onOk, onErr);
  }
  Object.defineProperties(callbackified, Object.getOwnPropertyDescriptors(original));
  return callbackified;
}

function inherits(ctor, superCtor) {
  if (ctor === undefined || ctor === null) throw new codes.ERR_INVALID_ARG_TYPE('ctor', 'Function', ctor);
  if (superCtor === undefined || superCtor === null) throw new codes.ERR_INVALID_ARG_TYPE('superCtor', 'Function', superCtor);
  if (superCtor.prototype === undefined) throw new codes.ERR_INVALID_ARG_TYPE('superCtor.prototype', 'Object', superCtor.prototype);
  Object.defineProperty(ctor, 'super_', { value: superCtor, writable: true, configurable: true });
  Object.setPrototypeOf(ctor.prototype, superCtor.prototype);
}

const deprecated = new Set();
function deprecate(fn, msg, code) {
  let warned = false;
  function deprecated2(...args) {
    if (!warned && !process.noDeprecation) {
      warned = true;
      if (code === undefined || !deprecated.has(code)) {
        if (code !== undefined) deprecated.add(code);
        process.emitWarning(msg, 'DeprecationWarning', code);
      }
    }
    return new.target ? Reflect.construct(fn, args, new.target) : fn.apply(this, args);
  }
  Object.setPrototypeOf(deprecated2, fn);
  if (fn.prototype) deprecated2.prototype = fn.prototype;
  return deprecated2;
}

class TextEncoder {
  get encoding() { return 'utf-8'; }
  encode(input = '') { return new Uint8Array(native.utf8Encode(String(input))); }
  encodeInto(src, dest) {
    const bytes = new Uint8Array(native.utf8Encode(String(src)));
    let n = Math.min(bytes.length, dest.length);
    while (n > 0 && n < bytes.length && (bytes[n] & 0xc0) === 0x80) n--;
    dest.set(bytes.subarray(0, n));
    let read = 0;
    const s = String(src);
    let written = 0;
    for (const ch of s) {
      const c = ch.codePointAt(0);
      const len = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
      if (written + len > n) break;
      written += len;
      read += ch.length;
    }
    return { read, written: n };
  }
  get [Symbol.toStringTag]() { return 'TextEncoder'; }
}

const decoders = {
  'utf-8': 'utf8', utf8: 'utf8', 'unicode-1-1-utf-8': 'utf8', 'utf-16le': 'utf16le', 'utf-16': 'utf16le',
  latin1: 'latin1', 'iso-8859-1': 'latin1', ascii: 'latin1', 'us-ascii': 'latin1', 'windows-1252': 'latin1',
};
class TextDecoder {
  constructor(encoding = 'utf-8', options = {}) {
    const key = String(encoding).trim().toLowerCase();
    const enc = decoders[key];
    if (!enc) {
      const e = new RangeError(`The "${encoding}" encoding is not supported`);
      e.code = 'ERR_ENCODING_NOT_SUPPORTED';
      throw e;
    }
    this._enc = enc;
    this._name = enc === 'utf8' ? 'utf-8' : enc === 'utf16le' ? 'utf-16le' : 'windows-1252';
    this.fatal = !!options.fatal;
    this.ignoreBOM = !!options.ignoreBOM;
    this._pending = null;
  }
  get encoding() { return this._name; }
  decode(input, options = {}) {
    let bytes;
    if (input === undefined) bytes = new Uint8Array(0);
    else if (input instanceof ArrayBuffer) bytes = new Uint8Array(input);
    else if (ArrayBuffer.isView(input)) bytes = new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
    else throw new codes.ERR_INVALID_ARG_TYPE('input', ['ArrayBuffer', 'ArrayBufferView'], input);
    if (this._pending) {
      const b = new Uint8Array(this._pending.length + bytes.length);
      b.set(this._pending); b.set(bytes, this._pending.length);
      bytes = b;
      this._pending = null;
    }
    if (options.stream && this._enc === 'utf8') {
      let keep = 0;
      for (let i = 1; i <= Math.min(3, bytes.length); i++) {
        const c = bytes[bytes.length - i];
        if ((c & 0xc0) === 0x80) continue;
        const need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
        keep = need > i ? i : 0;
        break;
      }
      if (keep) { this._pending = bytes.slice(bytes.length - keep); bytes = bytes.subarray(0, bytes.length - keep); }
    }
    if (this.fatal && this._enc === 'utf8' && !validUtf8(bytes)) {
      const e = new TypeError('The encoded data was not valid for encoding utf-8');
      e.code = 'ERR_ENCODING_INVALID_ENCODED_DATA';
      throw e;
    }
    let s = require('buffer')._stringFromBytes(bytes, this._enc, 0, bytes.length);
    if (!this.ignoreBOM && s.charCodeAt(0) === 0xfeff && !this._sawStart) s = s.slice(1);
    this._sawStart = !!options.stream;
    return s;
  }
  get [Symbol.toStringTag]() { return 'TextDecoder'; }
}
function validUtf8(b) {
  for (let i = 0; i < b.length;) {
    const c = b[i];
    let n;
    if (c < 0x80) { i++; continue; }
    if (c >= 0xc2 && c <= 0xdf) n = 1;
    else if (c >= 0xe0 && c <= 0xef) n = 2;
    else if (c >= 0xf0 && c <= 0xf4) n = 3;
    else return false;
    if (i + n >= b.length + 0 && i + n > b.length - 1 + 1) return false;
    for (let j = 1; j <= n; j++) if ((b[i + j] & 0xc0) !== 0x80) return false;
    if (c === 0xe0 && b[i + 1] < 0xa0) return false;
    if (c === 0xed && b[i + 1] > 0x9f) return false;
    if (c === 0xf0 && b[i + 1] < 0x90) return false;
    if (c === 0xf4 && b[i + 1] > 0x8f) return false;
    i += n + 1;
  }
  return true;
}

function isDeepStrictEqual(a, b) {
  return require('internal/comparisons').isDeepEqual(a, b, true);
}

function parseArgs(config = {}) {
  return require('internal/parse_args').parseArgs(config);
}

function styleText(format, text) {
  const formats = Array.isArray(format) ? format : [format];
  let left = '', right = '';
  for (const f of formats) {
    const c = ins.inspect.colors[f];
    if (!c) throw new codes.ERR_INVALID_ARG_VALUE('format', f, `must be one of: ${Object.keys(ins.inspect.colors).join(', ')}`);
    left += `\u001b[${c[0]}m`;
    right = `\u001b[${c[1]}m` + right;
  }
  return `${left}${text}${right}`;
}

const types = { ...ins.types };
delete types.isProxy;
types.isProxy = () => false;

module.exports = {
  format: ins.format,
  formatWithOptions: ins.formatWithOptions,
  inspect: ins.inspect,
  promisify,
  callbackify,
  inherits,
  deprecate,
  debuglog: (set) => {
    const enabled = new RegExp(`^(${(process.env.NODE_DEBUG || '').replace(/[|\\{}()[\]^$+?.]/g, '\\$&').replace(/\*/g, '.*').replace(/,/g, '$|^')})$`, 'i').test(set) && process.env.NODE_DEBUG;
    const fn = (...args) => { if (enabled) process.stderr.write(`${set.toUpperCase()} ${process.pid}: ${ins.format(...args)}\n`); };
    fn.enabled = !!enabled;
    return fn;
  },
  isDeepStrictEqual,
  types,
  TextEncoder,
  TextDecoder,
  parseArgs,
  styleText,
  stripVTControlCharacters: ins.stripVTControlCharacters,
  toUSVString: (s) => String(s).replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'),
  getSystemErrorName: (n) => {
    for (const [, v] of Object.entries(require('internal/errors').byCode)) if (-v[1] === n) return v[0];
    return `Unknown system error ${n}`;
  },
  getSystemErrorMap: () => new Map(Object.values(require('internal/errors').byCode).map((v) => [-v[1], [v[0], v[2]]])),
  aborted: (signal) => new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true })),
  isArray: Array.isArray,
  isBoolean: (v) => typeof v === 'boolean',
  isNull: (v) => v === null,
  isNullOrUndefined: (v) => v == null,
  isNumber: (v) => typeof v === 'number',
  isString: (v) => typeof v === 'string',
  isSymbol: (v) => typeof v === 'symbol',
  isUndefined: (v) => v === undefined,
  isRegExp: types.isRegExp,
  isObject: (v) => v !== null && typeof v === 'object',
  isDate: types.isDate,
  isError: (v) => ins.isError(v),
  isFunction: (v) => typeof v === 'function',
  isPrimitive: (v) => v === null || (typeof v !== 'object' && typeof v !== 'function'),
  isBuffer: (v) => require('buffer').Buffer.isBuffer(v),
  _extend: (target, source) => Object.assign(target, source),
  log: (...args) => {
    const d = new Date();
    const pad = (n) => String(n).padStart(2, '0');
    const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
    console.log('%s - %s', `${d.getDate()} ${months[d.getMonth()]} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`, ins.format(...args));
  },
};
