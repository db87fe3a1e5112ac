'use strict';
// node:buffer — Buffer as a Uint8Array subclass, with Node's encodings
// (utf8, latin1/binary, ascii, hex, base64, base64url, utf16le/ucs2).

const { codes } = require('internal/errors');
const kMaxLength = 2 ** 31 - 1;

class FastBuffer extends Uint8Array {}

function normEncoding(enc) {
  if (enc === undefined || enc === null || enc === 'utf8' || enc === 'utf-8') return 'utf8';
  switch (String(enc).toLowerCase()) {
    case 'utf8': case 'utf-8': return 'utf8';
    case 'hex': return 'hex';
    case 'base64': return 'base64';
    case 'base64url': return 'base64url';
    case 'latin1': case 'binary': return 'latin1';
    case 'ascii': return 'ascii';
    case 'ucs2': case 'ucs-2': case 'utf16le': case 'utf-16le': return 'utf16le';
    default: return undefined;
  }
}
function checkEncoding(enc) {
  const e = normEncoding(enc);
  if (e === undefined) throw new codes.ERR_UNKNOWN_ENCODING(enc);
  return e;
}

const b64chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const b64urlchars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const b64lookup = new Int16Array(256).fill(-1);
for (let i = 0; i < 64; i++) { b64lookup[b64chars.charCodeAt(i)] = i; b64lookup[b64urlchars.charCodeAt(i)] = i; }

function bytesFromString(str, enc) {
  switch (enc) {
    case 'utf8': return new Uint8Array(native.utf8Encode(str));
    case 'latin1': case 'ascii': {
      const out = new Uint8Array(str.length);
      for (let i = 0; i < str.length; i++) out[i] = str.charCodeAt(i) & 0xff;
      return out;
    }
    case 'hex': {
      let n = str.length >>> 1;
      const out = new Uint8Array(n);
      let i = 0;
      for (; i < n; i++) {
        const b = Number.parseInt(str.substr(i * 2, 2), 16);
        if (Number.isNaN(b) || !/^[0-9a-fA-F]{2}$/.test(str.substr(i * 2, 2))) break;
        out[i] = b;
      }
      return i === n ? out : out.subarray(0, i);
    }
    case 'base64': case 'base64url': {
      const out = new Uint8Array(Math.ceil(str.length * 3 / 4));
      let bits = 0, acc = 0, o = 0;
      for (let i = 0; i < str.length; i++) {
        const c = str.charCodeAt(i);
        if (c === 61) break; // '='
        const v = c < 256 ? b64lookup[c] : -1;
        if (v < 0) continue;
        acc = (acc << 6) | v;
        bits += 6;
        if (bits >= 8) { bits -= 8; out[o++] = (acc >> bits) & 0xff; }
      }
      return out.subarray(0, o);
    }
    case 'utf16le': {
      const out = new Uint8Array(str.length * 2);
      for (let i = 0; i < str.length; i++) { const c = str.charCodeAt(i); out[2 * i] = c & 0xff; out[2 * i + 1] = c >> 8; }
      return out;
    }
  }
  throw new codes.ERR_UNKNOWN_ENCODING(enc);
}

function stringFromBytes(bytes, enc, start, end) {
  if (start === undefined || start < 0) start = 0;
  if (end === undefined || end > bytes.length) end = bytes.length;
  if (end <= start) return '';
  const b = start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end);
  switch (enc) {
    case 'utf8': return native.utf8Decode(b);
    case 'latin1': {
      let s = '';
      for (let i = 0; i < b.length; i += 8192) s += String.fromCharCode.apply(null, b.subarray(i, i + 8192));
      return s;
    }
    case 'ascii': {
      let s = '';
      for (let i = 0; i < b.length; i++) s += String.fromCharCode(b[i] & 0x7f);
      return s;
    }
    case 'hex': {
      let s = '';
      for (let i = 0; i < b.length; i++) s += hexTable[b[i]];
      return s;
    }
    case 'base64': case 'base64url': {
      const chars = enc === 'base64' ? b64chars : b64urlchars;
      let s = '';
      let i = 0;
      for (; i + 2 < b.length; i += 3) {
        const n = (b[i] << 16) | (b[i + 1] << 8) | b[i + 2];
        s += chars[n >> 18] + chars[(n >> 12) & 63] + chars[(n >> 6) & 63] + chars[n & 63];
      }
      if (i < b.length) {
        const n = (b[i] << 16) | ((i + 1 < b.length ? b[i + 1] : 0) << 8);
        s += chars[n >> 18] + chars[(n >> 12) & 63];
        if (i + 1 < b.length) s += chars[(n >> 6) & 63];
        if (enc === 'base64') s += i + 1 < b.length ? '=' : '==';
      }
      return s;
    }
    case 'utf16le': {
      let s = '';
      for (let i = 0; i + 1 < b.length; i += 2) s += String.fromCharCode(b[i] | (b[i + 1] << 8));
      return s;
    }
  }
  throw new codes.ERR_UNKNOWN_ENCODING(enc);
}
const hexTable = [];
for (let i = 0; i < 256; i++) hexTable.push(i.toString(16).padStart(2, '0'));

function Buffer(arg, encodingOrOffset, length) {
  if (typeof arg === 'number') {
    if (typeof encodingOrOffset === 'string') throw new codes.ERR_INVALID_ARG_TYPE('string', 'string', arg);
    return Buffer.alloc(arg);
  }
  return Buffer.from(arg, encodingOrOffset, length);
}
Object.setPrototypeOf(Buffer.prototype, FastBuffer.prototype);
Object.setPrototypeOf(Buffer, FastBuffer);
FastBuffer.prototype.constructor = Buffer;
Buffer.prototype = FastBuffer.prototype;
Object.defineProperty(Buffer, Symbol.hasInstance, { value: (v) => v instanceof FastBuffer });

function wrap(u8) {
  return new FastBuffer(u8.buffer, u8.byteOffset, u8.byteLength);
}

Buffer.poolSize = 8192;
Buffer.from = function from(value, encodingOrOffset, length) {
  if (typeof value === 'string') return wrap(bytesFromString(value, checkEncoding(encodingOrOffset)));
  if (value instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && value instanceof SharedArrayBuffer)) {
    const off = encodingOrOffset === undefined ? 0 : +encodingOrOffset || 0;
    const max = value.byteLength - off;
    if (max < 0) throw new codes.ERR_BUFFER_OUT_OF_BOUNDS('offset');
    const len = length === undefined ? max : +length || 0;
    if (len > max) throw new codes.ERR_BUFFER_OUT_OF_BOUNDS('length');
    return new FastBuffer(value, off, len);
  }
  if (ArrayBuffer.isView(value)) {
    if (value instanceof Uint8Array) return wrap(new Uint8Array(value));
    return wrap(Uint8Array.from(value, (x) => x & 0xff));
  }
  if (value == null) throw new codes.ERR_INVALID_ARG_TYPE('first argument', ['string', 'Buffer', 'ArrayBuffer', 'Array', 'Array-like Object'], value);
  if (typeof value === 'object') {
    if (typeof value[Symbol.toPrimitive] === 'function' || (typeof value.valueOf === 'function' && value.valueOf() !== value)) {
      const prim = typeof value[Symbol.toPrimitive] === 'function' ? value[Symbol.toPrimitive]('string') : value.valueOf();
      if (typeof prim === 'string' || ArrayBuffer.isView(prim) || prim instanceof ArrayBuffer) return Buffer.from(prim, encodingOrOffset, length);
    }
    if (value.type === 'Buffer' && Array.isArray(value.data)) return wrap(Uint8Array.from(value.data));
    if (typeof value.length === 'number' || Array.isArray(value)) {
      const out = new FastBuffer(value.length >>> 0);
      for (let i = 0; i < out.length; i++) out[i] = value[i] & 0xff;
      return out;
    }
  }
  throw new codes.ERR_INVALID_ARG_TYPE('first argument', ['string', 'Buffer', 'ArrayBuffer', 'Array', 'Array-like Object'], value);
};
function checkSize(size) {
  if (typeof size !== 'number') throw new codes.ERR_INVALID_ARG_TYPE('size', 'number', size);
  if (!(size >= 0 && size <= kMaxLength)) throw new codes.ERR_OUT_OF_RANGE('size', `>= 0 && <= ${kMaxLength}`, size);
}
Buffer.alloc = function alloc(size, fill, encoding) {
  checkSize(size);
  const b = new FastBuffer(size);
  if (fill !== undefined && fill !== 0 && size > 0) b.fill(fill, encoding);
  return b;
};
Buffer.allocUnsafe = function allocUnsafe(size) { checkSize(size); return new FastBuffer(size); };
Buffer.allocUnsafeSlow = Buffer.allocUnsafe;
Buffer.isBuffer = (b) => b instanceof FastBuffer;
Buffer.isEncoding = (e) => typeof e === 'string' && e.length !== 0 && normEncoding(e) !== undefined;
Buffer.byteLength = function byteLength(s, enc) {
  if (typeof s !== 'string') {
    if (ArrayBuffer.isView(s) || s instanceof ArrayBuffer) return s.byteLength;
    throw new codes.ERR_INVALID_ARG_TYPE('string', ['string', 'Buffer', 'ArrayBuffer'], s);
  }
  const e = normEncoding(enc) || 'utf8';
  if (e === 'utf8') return native.utf8Encode(s).byteLength;
  if (e === 'latin1' || e === 'ascii') return s.length;
  if (e === 'utf16le') return s.length * 2;
  return bytesFromString(s, e).length;
};
Buffer.concat = function concat(list, totalLength) {
  if (!Array.isArray(list)) throw new codes.ERR_INVALID_ARG_TYPE('list', 'Array', list);
  if (list.length === 0) return new FastBuffer(0);
  if (totalLength === undefined) {
    totalLength = 0;
    for (let i = 0; i < list.length; i++) {
      if (!(list[i] instanceof Uint8Array)) throw new codes.ERR_INVALID_ARG_TYPE(`list[${i}]`, ['Buffer', 'Uint8Array'], list[i]);
      totalLength += list[i].length;
    }
  }
  const out = Buffer.alloc(totalLength);
  let pos = 0;
  for (const b of list) {
    if (pos + b.length > totalLength) { out.set(b.subarray(0, totalLength - pos), pos); pos = totalLength; break; }
    out.set(b, pos);
    pos += b.length;
  }
  return out;
};
Buffer.compare = function compare(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
};
Buffer.copyBytesFrom = (view, offset = 0, length) => {
  const u8 = new Uint8Array(view.buffer, view.byteOffset + offset * view.BYTES_PER_ELEMENT, length === undefined ? undefined : length * view.BYTES_PER_ELEMENT);
  return wrap(new Uint8Array(u8));
};
Buffer.of = (...items) => Buffer.from(items);

const proto = FastBuffer.prototype;
proto.toString = function toString(encoding, start, end) {
  if (arguments.length === 0) return native.utf8Decode(this);
  const enc = checkEncoding(encoding);
  start = start === undefined ? 0 : Math.max(0, start | 0);
  end = end === undefined ? this.length : Math.min(this.length, end | 0);
  return stringFromBytes(this, enc, start, end);
};
proto.toLocaleString = proto.toString;
proto.equals = function equals(other) {
  if (!(other instanceof Uint8Array)) throw new codes.ERR_INVALID_ARG_TYPE('otherBuffer', ['Buffer', 'Uint8Array'], other);
  return Buffer.compare(this, other) === 0;
};
proto.compare = function compare(target, tStart = 0, tEnd = target.length, sStart = 0, sEnd = this.length) {
  return Buffer.compare(this.subarray(sStart, sEnd), target.subarray(tStart, tEnd));
};
proto.toJSON = function toJSON() { return { type: 'Buffer', data: Array.from(this) }; };
proto.slice = function slice(start, end) { return this.subarray(start, end); };
proto.subarray = function subarray(start, end) {
  const u = Uint8Array.prototype.subarray.call(this, start, end);
  return new FastBuffer(u.buffer, u.byteOffset, u.byteLength);
};
proto.write = function write(string, offset, length, encoding) {
  if (typeof offset === 'string') { encoding = offset; offset = 0; length = this.length; }
  else if (typeof length === 'string') { encoding = length; length = this.length - (offset || 0); }
  offset = offset === undefined ? 0 : offset >>> 0;
  const enc = checkEncoding(encoding);
  let bytes = bytesFromString(string, enc);
  const max = Math.min(length === undefined ? this.length - offset : length, this.length - offset);
  if (bytes.length > max) {
    bytes = bytes.subarray(0, max);
    if (enc === 'utf8') { // no partial character
      let end = max;
      while (end > 0 && (bytes[end - 1] & 0xc0) === 0x80) end--;
      if (end > 0 && bytes[end - 1] >= 0xc0) {
        const need = bytes[end - 1] >= 0xf0 ? 4 : bytes[end - 1] >= 0xe0 ? 3 : 2;
        if (max - (end - 1) < need) bytes = bytes.subarray(0, end - 1);
      }
    }
  }
  this.set(bytes, offset);
  return bytes.length;
};
proto.fill = function fill(value, offset, end, encoding) {
  if (typeof offset === 'string') { encoding = offset; offset = 0; end = this.length; }
  else if (typeof end === 'string') { encoding = end; end = this.length; }
  offset = offset === undefined ? 0 : offset;
  end = end === undefined ? this.length : end;
  if (typeof value === 'number') return Uint8Array.prototype.fill.call(this, value & 255, offset, end);
  if (typeof value === 'boolean') return Uint8Array.prototype.fill.call(this, +value, offset, end);
  const bytes = typeof value === 'string' ? bytesFromString(value, checkEncoding(encoding)) : value;
  if (bytes.length === 0) {
    if (typeof value === 'string' && value.length === 0) return Uint8Array.prototype.fill.call(this, 0, offset, end);
    throw new codes.ERR_INVALID_ARG_VALUE('value', value);
  }
  for (let i = offset, j = 0; i < end; i++, j++) this[i] = bytes[j % bytes.length];
  return this;
};
proto.indexOf = function indexOf(val, byteOffset, encoding) { return bufIndexOf(this, val, byteOffset, encoding, true); };
proto.lastIndexOf = function lastIndexOf(val, byteOffset, encoding) { return bufIndexOf(this, val, byteOffset, encoding, false); };
proto.includes = function includes(val, byteOffset, encoding) { return this.indexOf(val, byteOffset, encoding) !== -1; };
function bufIndexOf(buf, val, byteOffset, encoding, first) {
  if (typeof byteOffset === 'string') { encoding = byteOffset; byteOffset = undefined; }
  if (typeof val === 'number') val = Uint8Array.of(val & 255);
  else if (typeof val === 'string') val = bytesFromString(val, checkEncoding(encoding));
  let start = byteOffset === undefined ? (first ? 0 : buf.length - val.length) : +byteOffset;
  if (start < 0) start += buf.length;
  if (first) {
    if (val.length === 0) return Math.min(Math.max(start, 0), buf.length);
    outer: for (let i = Math.max(start, 0); i <= buf.length - val.length; i++) {
      for (let j = 0; j < val.length; j++) if (buf[i + j] !== val[j]) continue outer;
      return i;
    }
  } else {
    outer2: for (let i = Math.min(start, buf.length - val.length); i >= 0; i--) {
      for (let j = 0; j < val.length; j++) if (buf[i + j] !== val[j]) continue outer2;
      return i;
    }
  }
  return -1;
}
proto.copy = function copy(target, targetStart = 0, sourceStart = 0, sourceEnd = this.length) {
  if (sourceEnd > this.length) sourceEnd = this.length;
  if (targetStart >= target.length || sourceStart >= sourceEnd) return 0;
  const n = Math.min(sourceEnd - sourceStart, target.length - targetStart);
  target.set(this.subarray(sourceStart, sourceStart + n), targetStart);
  return n;
};
proto.swap16 = function () { for (let i = 0; i + 1 < this.length; i += 2) { const t = this[i]; this[i] = this[i + 1]; this[i + 1] = t; } return this; };
proto.swap32 = function () { for (let i = 0; i + 3 < this.length; i += 4) { this.subarray(i, i + 4).reverse(); } return this; };
proto.swap64 = function () { for (let i = 0; i + 7 < this.length; i += 8) { this.subarray(i, i + 8).reverse(); } return this; };
proto.inspect = function inspect(recurseTimes, ctx) {
  const max = 50;
  let str = '';
  const n = Math.min(max, this.length);
  for (let i = 0; i < n; i++) str += (i ? ' ' : '') + hexTable[this[i]];
  const remaining = this.length - max;
  if (remaining > 0) str += ` ... ${remaining} more byte${remaining > 1 ? 's' : ''}`;
  return `<${this.constructor.name} ${str}>`;
};
proto[Symbol.for('nodejs.util.inspect.custom')] = proto.inspect;
Object.defineProperty(proto, 'parent', { get() { return this.buffer; }, configurable: true });
Object.defineProperty(proto, 'offset', { get() { return this.byteOffset; }, configurable: true });
for (const enc of ['utf8', 'latin1', 'ascii', 'hex', 'base64', 'base64url', 'ucs2', 'utf16le']) {
  proto[`${enc}Slice`] = function (s, e) { return this.toString(enc, s, e); };
  proto[`${enc}Write`] = function (str, off, len) { return this.write(str, off, len, enc); };
}

// numbers
function dv(buf) { return new DataView(buf.buffer, buf.byteOffset, buf.byteLength); }
function checkOffset(buf, offset, size) {
  if (offset === undefined) offset = 0;
  if (typeof offset !== 'number') throw new codes.ERR_INVALID_ARG_TYPE('offset', 'number', offset);
  if (!Number.isInteger(offset)) throw new codes.ERR_OUT_OF_RANGE('offset', 'an integer', offset);
  if (offset < 0 || offset + size > buf.length) {
    if (buf.length - size < 0) throw new codes.ERR_BUFFER_OUT_OF_BOUNDS();
    throw new codes.ERR_OUT_OF_RANGE('offset', `>= 0 and <= ${buf.length - size}`, offset);
  }
  return offset;
}
const numTypes = [
  ['UInt8', 1, 'getUint8', 'setUint8'], ['Int8', 1, 'getInt8', 'setInt8'],
  ['UInt16', 2, 'getUint16', 'setUint16'], ['Int16', 2, 'getInt16', 'setInt16'],
  ['UInt32', 4, 'getUint32', 'setUint32'], ['Int32', 4, 'getInt32', 'setInt32'],
  ['Float', 4, 'getFloat32', 'setFloat32'], ['Double', 8, 'getFloat64', 'setFloat64'],
  ['BigUInt64', 8, 'getBigUint64', 'setBigUint64'], ['BigInt64', 8, 'getBigInt64', 'setBigInt64'],
];
const ranges = { UInt8: [0, 255], Int8: [-128, 127], UInt16: [0, 65535], Int16: [-32768, 32767], UInt32: [0, 4294967295], Int32: [-2147483648, 2147483647] };
for (const [name, size, get, set] of numTypes) {
  for (const end of size === 1 ? [''] : ['LE', 'BE']) {
    const le = end === 'LE';
    proto[`read${name}${end}`] = function (offset) {
      offset = checkOffset(this, offset, size);
      return dv(this)[get](offset, le);
    };
    proto[`write${name}${end}`] = function (value, offset) {
      offset = checkOffset(this, offset, size);
      const r = ranges[name];
      if (r && (value < r[0] || value > r[1])) {
        throw new codes.ERR_OUT_OF_RANGE('value', `>= ${r[0]} and <= ${r[1]}`, value);
      }
      dv(this)[set](offset, name.startsWith('Big') ? value : +value, le);
      return offset + size;
    };
    if (name.startsWith('UInt') || name.startsWith('BigUInt')) {
      proto[`read${name.replace('UInt', 'Uint')}${end}`] = proto[`read${name}${end}`];
      proto[`write${name.replace('UInt', 'Uint')}${end}`] = proto[`write${name}${end}`];
    }
  }
}
for (const [sign, endian] of [['U', 'LE'], ['U', 'BE'], ['', 'LE'], ['', 'BE']]) {
  proto[`read${sign}Int${endian}`] = function (offset, byteLength) {
    let v = 0;
    for (let i = 0; i < byteLength; i++) {
      const b = this[offset + (endian === 'LE' ? i : byteLength - 1 - i)];
      v += b * 2 ** (8 * i);
    }
    if (!sign && v >= 2 ** (8 * byteLength - 1)) v -= 2 ** (8 * byteLength);
    return v;
  };
  proto[`write${sign}Int${endian}`] = function (value, offset, byteLength) {
    let v = value < 0 ? value + 2 ** (8 * byteLength) : value;
    for (let i = 0; i < byteLength; i++) {
      this[offset + (endian === 'LE' ? i : byteLength - 1 - i)] = v % 256;
      v = Math.floor(v / 256);
    }
    return offset + byteLength;
  };
  if (sign) {
    proto[`readUint${endian}`] = proto[`readUInt${endian}`];
    proto[`writeUint${endian}`] = proto[`writeUInt${endian}`];
  }
}

function atob(s) {
  s = String(s).replace(/[\t\n\f\r ]/g, '');
  if (s.length % 4 === 0) s = s.replace(/==?$/, '');
  if (s.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(s)) {
    const { DOMException } = require('internal/event_target');
    throw new DOMException('Invalid character', 'InvalidCharacterError');
  }
  return stringFromBytes(bytesFromString(s, 'base64'), 'latin1');
}
function btoa(s) {
  s = String(s);
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) > 255) {
      const { DOMException } = require('internal/event_target');
      throw new DOMException('Invalid character', 'InvalidCharacterError');
    }
  }
  return stringFromBytes(bytesFromString(s, 'latin1'), 'base64');
}

class Blob {
  constructor(parts = [], options = {}) {
    const chunks = [];
    for (const p of parts) {
      if (p instanceof Blob) chunks.push(p._bytes);
      else if (typeof p === 'string') chunks.push(bytesFromString(p, 'utf8'));
      else if (p instanceof ArrayBuffer) chunks.push(new Uint8Array(p));
      else if (ArrayBuffer.isView(p)) chunks.push(new Uint8Array(p.buffer, p.byteOffset, p.byteLength));
      else chunks.push(bytesFromString(String(p), 'utf8'));
    }
    this._bytes = Buffer.concat(chunks.map((c) => wrap(c)));
    this.type = options.type ? String(options.type).toLowerCase() : '';
  }
  get size() { return this._bytes.length; }
  async text() { return this._bytes.toString('utf8'); }
  async arrayBuffer() { return this._bytes.buffer.slice(this._bytes.byteOffset, this._bytes.byteOffset + this._bytes.length); }
  async bytes() { return new Uint8Array(this._bytes); }
  slice(start, end, type) { const b = new Blob([], { type }); b._bytes = this._bytes.slice(start, end); return b; }
  stream() { return require('stream').Readable.from([this._bytes]); }
  get [Symbol.toStringTag]() { return 'Blob'; }
}
class File extends Blob {
  constructor(parts, name, options = {}) {
    super(parts, options);
    this.name = String(name);
    this.lastModified = options.lastModified || Date.now();
  }
  get [Symbol.toStringTag]() { return 'File'; }
}

module.exports = {
  Buffer, SlowBuffer: Buffer, kMaxLength, kStringMaxLength: 2 ** 29 - 24, constants: { MAX_LENGTH: kMaxLength, MAX_STRING_LENGTH: 2 ** 29 - 24 },
  INSPECT_MAX_BYTES: 50, atob, btoa, Blob, File, isUtf8: (b) => { try { new (require('util').TextDecoder)('utf-8', { fatal: true }).decode(b); return true; } catch { return false; } },
  isAscii: (b) => { for (const x of b) if (x > 127) return false; return true; },
  transcode: (buf, from, to) => Buffer.from(Buffer.from(buf).toString(from), to),
  _bytesFromString: bytesFromString, _stringFromBytes: stringFromBytes, _normEncoding: normEncoding,
};
