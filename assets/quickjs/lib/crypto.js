'use strict';
// node:crypto — hashes (md5, sha1, sha224/256, sha384/512), HMAC, PBKDF2,
// randomness, timingSafeEqual, and webcrypto's getRandomValues, randomUUID
// and subtle.digest. Ciphers, signatures and key pairs are not here yet:
// they fail with ERR_FEATURE_UNAVAILABLE_ON_PLATFORM.

const { Buffer } = require('buffer');
const { codes } = require('internal/errors');
const { Transform } = require('stream');

const aliases = { 'sha-1': 'sha1', 'sha-256': 'sha256', 'sha-224': 'sha224', 'sha-384': 'sha384', 'sha-512': 'sha512', rsa: null };
function normAlg(alg) {
  const a = String(alg).toLowerCase();
  return aliases[a] !== undefined ? aliases[a] : a.replace(/^rsa-/, '');
}
const blockSizes = { md5: 64, sha1: 64, sha224: 64, sha256: 64, sha384: 128, sha512: 128 };

function toBytes(data, enc) {
  if (typeof data === 'string') return Buffer.from(data, enc || 'utf8');
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  throw new codes.ERR_INVALID_ARG_TYPE('data', ['string', 'Buffer', 'TypedArray', 'DataView'], data);
}
function output(bytes, enc) {
  const b = Buffer.from(bytes);
  return enc && enc !== 'buffer' ? b.toString(enc) : b;
}

class Hash extends Transform {
  constructor(algorithm, options) {
    super(options);
    const alg = normAlg(algorithm);
    const ctx = alg ? native.hashNew(alg) : null;
    if (!ctx) {
      const e = new Error('Digest method not supported');
      throw e;
    }
    this._alg = alg;
    this._ctx = ctx;
    this._done = false;
  }
  update(data, enc) {
    if (this._done) throw new codes.ERR_CRYPTO_HASH_FINALIZED();
    native.hashUpdate(this._ctx, toBytes(data, enc));
    return this;
  }
  digest(enc) {
    if (this._done) throw new codes.ERR_CRYPTO_HASH_FINALIZED();
    this._done = true;
    return output(native.hashDigest(this._ctx), enc);
  }
  copy() {
    const h = Object.create(Hash.prototype);
    Transform.call(h);
    h._alg = this._alg;
    h._ctx = this._ctx.slice(0);
    h._done = false;
    return h;
  }
  _transform(chunk, enc, cb) { this.update(chunk, enc); cb(); }
  _flush(cb) { this.push(this.digest()); cb(); }
}

function hmacKey(alg, key) {
  const block = blockSizes[alg];
  let k = toBytes(key);
  if (k.length > block) k = new Uint8Array(hashOnce(alg, k));
  const ipad = new Uint8Array(block), opad = new Uint8Array(block);
  for (let i = 0; i < block; i++) { const b = k[i] || 0; ipad[i] = b ^ 0x36; opad[i] = b ^ 0x5c; }
  return { ipad, opad };
}
function hashOnce(alg, ...parts) {
  const c = native.hashNew(alg);
  for (const p of parts) native.hashUpdate(c, p);
  return native.hashDigest(c);
}

class Hmac extends Transform {
  constructor(algorithm, key, options) {
    super(options);
    const alg = normAlg(algorithm);
    if (!blockSizes[alg]) throw new Error(`Invalid digest: ${algorithm}`);
    if (key && typeof key === 'object' && key._key) key = key._key;
    this._alg = alg;
    this._pads = hmacKey(alg, key);
    this._ctx = native.hashNew(alg);
    native.hashUpdate(this._ctx, this._pads.ipad);
    this._done = false;
  }
  update(data, enc) {
    native.hashUpdate(this._ctx, toBytes(data, enc));
    return this;
  }
  digest(enc) {
    if (this._done) return output(new Uint8Array(0), enc);
    this._done = true;
    const inner = native.hashDigest(this._ctx);
    return output(hashOnce(this._alg, this._pads.opad, inner), enc);
  }
  _transform(chunk, enc, cb) { this.update(chunk, enc); cb(); }
  _flush(cb) { this.push(this.digest()); cb(); }
}

function createHash(algorithm, options) { return new Hash(algorithm, options); }
function createHmac(algorithm, key, options) { return new Hmac(algorithm, key, options); }
function hash(algorithm, data, outputEncoding = 'hex') {
  return createHash(algorithm).update(data).digest(outputEncoding);
}

function pbkdf2Sync(password, salt, iterations, keylen, digest) {
  const alg = normAlg(digest);
  if (!blockSizes[alg]) throw new TypeError(`Invalid digest: ${digest}`);
  const pads = hmacKey(alg, toBytes(password));
  const hmac = (data) => {
    const inner = hashOnce(alg, pads.ipad, data);
    return new Uint8Array(hashOnce(alg, pads.opad, inner));
  };
  const s = toBytes(salt);
  const out = Buffer.alloc(keylen);
  let pos = 0;
  for (let block = 1; pos < keylen; block++) {
    const ib = new Uint8Array(s.length + 4);
    ib.set(s);
    ib[s.length] = block >>> 24; ib[s.length + 1] = (block >>> 16) & 255; ib[s.length + 2] = (block >>> 8) & 255; ib[s.length + 3] = block & 255;
    let u = hmac(ib);
    const t = u.slice();
    for (let i = 1; i < iterations; i++) {
      u = hmac(u);
      for (let j = 0; j < t.length; j++) t[j] ^= u[j];
    }
    const n = Math.min(t.length, keylen - pos);
    out.set(t.subarray(0, n), pos);
    pos += n;
  }
  return out;
}
function pbkdf2(password, salt, iterations, keylen, digest, cb) {
  let r, err = null;
  try { r = pbkdf2Sync(password, salt, iterations, keylen, digest); } catch (e) { err = e; }
  process.nextTick(() => cb(err, r));
}

function randomFillSync(buf, offset = 0, size) {
  const view = new Uint8Array(buf.buffer || buf, (buf.byteOffset || 0) + offset, size === undefined ? (buf.byteLength - offset) : size);
  native.randomFill(view);
  return buf;
}
function randomBytes(size, cb) {
  if (typeof size !== 'number' || size < 0 || size > 2 ** 31 - 1 || Number.isNaN(size)) {
    if (typeof size !== 'number') throw new codes.ERR_INVALID_ARG_TYPE('size', 'number', size);
    throw new codes.ERR_OUT_OF_RANGE('size', `>= 0 && <= ${2 ** 31 - 1}`, size);
  }
  const b = Buffer.alloc(size);
  native.randomFill(b);
  if (typeof cb === 'function') { process.nextTick(cb, null, b); return undefined; }
  return b;
}
function randomFill(buf, offset, size, cb) {
  if (typeof offset === 'function') { cb = offset; offset = 0; size = undefined; }
  else if (typeof size === 'function') { cb = size; size = undefined; }
  randomFillSync(buf, offset, size);
  process.nextTick(cb, null, buf);
}
function randomInt(min, max, cb) {
  if (max === undefined || typeof max === 'function') { cb = max; max = min; min = 0; }
  if (!Number.isSafeInteger(min)) throw new codes.ERR_INVALID_ARG_TYPE('min', 'a safe integer', min);
  if (!Number.isSafeInteger(max)) throw new codes.ERR_INVALID_ARG_TYPE('max', 'a safe integer', max);
  if (max <= min) throw new codes.ERR_OUT_OF_RANGE('max', `greater than the value of "min" (${min})`, max);
  const range = max - min;
  const b = new Uint8Array(6);
  const limit = 2 ** 48 - (2 ** 48 % range);
  let x;
  do {
    native.randomFill(b);
    x = b[0] * 2 ** 40 + b[1] * 2 ** 32 + b[2] * 2 ** 24 + b[3] * 2 ** 16 + b[4] * 2 ** 8 + b[5];
  } while (x >= limit);
  const r = min + (x % range);
  if (typeof cb === 'function') { process.nextTick(cb, null, r); return undefined; }
  return r;
}
function randomUUID() {
  const b = new Uint8Array(16);
  native.randomFill(b);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Buffer.from(b).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
function getRandomValues(arr) {
  if (!ArrayBuffer.isView(arr) || arr instanceof Float32Array || arr instanceof Float64Array || arr instanceof DataView) {
    const { DOMException } = require('internal/event_target');
    throw new DOMException('The data argument must be an integer-type TypedArray', 'TypeMismatchError');
  }
  if (arr.byteLength > 65536) {
    const { DOMException } = require('internal/event_target');
    throw new DOMException(`The ArrayBufferView's byte length (${arr.byteLength}) exceeds the number of bytes of entropy available via this API (65536)`, 'QuotaExceededError');
  }
  native.randomFill(new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength));
  return arr;
}
function timingSafeEqual(a, b) {
  if (!ArrayBuffer.isView(a)) throw new codes.ERR_INVALID_ARG_TYPE('buf1', ['ArrayBuffer', 'Buffer', 'TypedArray', 'DataView'], a);
  if (!ArrayBuffer.isView(b)) throw new codes.ERR_INVALID_ARG_TYPE('buf2', ['ArrayBuffer', 'Buffer', 'TypedArray', 'DataView'], b);
  if (a.byteLength !== b.byteLength) {
    const e = new RangeError('Input buffers must have the same byte length');
    e.code = 'ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH';
    throw e;
  }
  const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength), y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  let d = 0;
  for (let i = 0; i < x.length; i++) d |= x[i] ^ y[i];
  return d === 0;
}

const subtle = {
  async digest(algorithm, data) {
    const name = typeof algorithm === 'string' ? algorithm : algorithm.name;
    const alg = normAlg(name);
    if (!['sha1', 'sha256', 'sha384', 'sha512'].includes(alg)) {
      const { DOMException } = require('internal/event_target');
      throw new DOMException('Unrecognized algorithm name', 'NotSupportedError');
    }
    return hashOnce(alg, toBytes(data));
  },
};
for (const m of ['encrypt', 'decrypt', 'sign', 'verify', 'generateKey', 'deriveKey', 'deriveBits', 'importKey', 'exportKey', 'wrapKey', 'unwrapKey']) {
  subtle[m] = async () => { throw new codes.ERR_FEATURE_UNAVAILABLE_ON_PLATFORM(`crypto.subtle.${m}`); };
}
const webcrypto = { getRandomValues, randomUUID, subtle, get [Symbol.toStringTag]() { return 'Crypto'; } };

function unavailable(name) {
  return () => { throw new codes.ERR_FEATURE_UNAVAILABLE_ON_PLATFORM(`crypto.${name}`); };
}

module.exports = {
  createHash, createHmac, hash, Hash, Hmac, pbkdf2, pbkdf2Sync, randomBytes, pseudoRandomBytes: randomBytes,
  prng: randomBytes, rng: randomBytes, randomFill, randomFillSync, randomInt, randomUUID, getRandomValues,
  timingSafeEqual, webcrypto, subtle,
  getHashes: () => ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512'],
  getCiphers: () => [], getCurves: () => [],
  createCipheriv: unavailable('createCipheriv'), createDecipheriv: unavailable('createDecipheriv'),
  createSign: unavailable('createSign'), createVerify: unavailable('createVerify'),
  generateKeyPairSync: unavailable('generateKeyPairSync'), generateKeyPair: unavailable('generateKeyPair'),
  createPrivateKey: unavailable('createPrivateKey'), createPublicKey: unavailable('createPublicKey'),
  createSecretKey: (key) => ({ type: 'secret', _key: toBytes(key), export: () => Buffer.from(toBytes(key)) }),
  createDiffieHellman: unavailable('createDiffieHellman'), createECDH: unavailable('createECDH'),
  scryptSync: unavailable('scryptSync'), scrypt: unavailable('scrypt'), hkdfSync: unavailable('hkdfSync'),
  publicEncrypt: unavailable('publicEncrypt'), privateDecrypt: unavailable('privateDecrypt'),
  sign: unavailable('sign'), verify: unavailable('verify'),
  constants: {},
};
