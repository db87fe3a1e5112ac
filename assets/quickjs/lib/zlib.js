'use strict';
// node:zlib — gzip, deflate and their raw forms through zlib (linked into
// quickjs.wasm). The streams gather their input and (de)compress it at the
// end; the *Sync and callback functions are one call. No brotli yet.

const { Transform } = require('stream');
const { Buffer } = require('buffer');
const { codes } = require('internal/errors');

const constants = {
  Z_NO_FLUSH: 0, Z_PARTIAL_FLUSH: 1, Z_SYNC_FLUSH: 2, Z_FULL_FLUSH: 3, Z_FINISH: 4, Z_BLOCK: 5,
  Z_OK: 0, Z_STREAM_END: 1, Z_NEED_DICT: 2, Z_ERRNO: -1, Z_STREAM_ERROR: -2, Z_DATA_ERROR: -3,
  Z_MEM_ERROR: -4, Z_BUF_ERROR: -5, Z_VERSION_ERROR: -6, Z_NO_COMPRESSION: 0, Z_BEST_SPEED: 1,
  Z_BEST_COMPRESSION: 9, Z_DEFAULT_COMPRESSION: -1, Z_FILTERED: 1, Z_HUFFMAN_ONLY: 2, Z_RLE: 3,
  Z_FIXED: 4, Z_DEFAULT_STRATEGY: 0, ZLIB_VERNUM: 4784, DEFLATE: 1, INFLATE: 2, GZIP: 3, GUNZIP: 4,
  DEFLATERAW: 5, INFLATERAW: 6, UNZIP: 7, BROTLI_DECODE: 8, BROTLI_ENCODE: 9, Z_MIN_WINDOWBITS: 8,
  Z_MAX_WINDOWBITS: 15, Z_DEFAULT_WINDOWBITS: 15, Z_MIN_CHUNK: 64, Z_MAX_CHUNK: Infinity,
  Z_DEFAULT_CHUNK: 16384, Z_MIN_MEMLEVEL: 1, Z_MAX_MEMLEVEL: 9, Z_DEFAULT_MEMLEVEL: 8, Z_MIN_LEVEL: -1,
  Z_MAX_LEVEL: 9, Z_DEFAULT_LEVEL: -1,
};
const codeNames = { 2: 'Z_NEED_DICT', 1: 'Z_STREAM_END', 0: 'Z_OK', [-1]: 'Z_ERRNO', [-2]: 'Z_STREAM_ERROR', [-3]: 'Z_DATA_ERROR', [-4]: 'Z_MEM_ERROR', [-5]: 'Z_BUF_ERROR', [-6]: 'Z_VERSION_ERROR' };

// mode -> [op (0 deflate, 1 inflate), windowBits adjustment]
const modes = {
  deflate: [0, 0], inflate: [1, 0], gzip: [0, 16], gunzip: [1, 16], deflateRaw: [0, -1], inflateRaw: [1, -1], unzip: [1, 32],
};

function toBytes(data) {
  if (typeof data === 'string') return Buffer.from(data);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  throw new codes.ERR_INVALID_ARG_TYPE('buffer', ['string', 'Buffer', 'TypedArray', 'DataView', 'ArrayBuffer'], data);
}

function run(mode, data, opts = {}) {
  const [op, adj] = modes[mode];
  const wb = opts.windowBits || 15;
  const windowBits = adj === -1 ? -wb : adj === 16 ? wb + 16 : adj === 32 ? wb + 32 : wb;
  const level = opts.level === undefined ? -1 : opts.level;
  const r = native.zlib(op, toBytes(data), level, windowBits, opts.memLevel || 8, opts.strategy || 0);
  if (Array.isArray(r)) {
    const [code, msg] = r;
    const e = new Error(msg);
    e.errno = code;
    e.code = codeNames[code] || 'Z_UNKNOWN';
    throw e;
  }
  let out = Buffer.from(r);
  if (opts.info) return { buffer: out, engine: {} };
  if (opts.maxOutputLength && out.length > opts.maxOutputLength) throw new RangeError('Cannot create a Buffer larger than maxOutputLength');
  return out;
}

class Zlib extends Transform {
  constructor(mode, opts = {}) {
    super(opts);
    this._mode = mode;
    this._opts = opts;
    this._chunks = [];
    this.bytesWritten = 0;
  }
  _transform(chunk, enc, cb) {
    this._chunks.push(chunk);
    this.bytesWritten += chunk.length;
    cb();
  }
  _flush(cb) {
    let out;
    try {
      out = run(this._mode, Buffer.concat(this._chunks), this._opts);
    } catch (e) {
      cb(e);
      return;
    }
    const size = this._opts.chunkSize || 16384;
    for (let i = 0; i < out.length; i += size) this.push(out.subarray(i, i + size));
    cb();
  }
  flush(kind, cb) { if (typeof kind === 'function') cb = kind; if (cb) process.nextTick(cb); }
  params(level, strategy, cb) { this._opts.level = level; this._opts.strategy = strategy; if (cb) process.nextTick(cb); }
  reset() { this._chunks = []; }
  close(cb) { if (cb) process.nextTick(cb); this.destroy(); }
}

const exportsObj = { constants, codes: {} };
for (const [k, v] of Object.entries(codeNames)) { exportsObj.codes[v] = +k; exportsObj.codes[k] = v; }
const classNames = { deflate: 'Deflate', inflate: 'Inflate', gzip: 'Gzip', gunzip: 'Gunzip', deflateRaw: 'DeflateRaw', inflateRaw: 'InflateRaw', unzip: 'Unzip' };
for (const [mode, cls] of Object.entries(classNames)) {
  const C = { [cls]: class extends Zlib { constructor(opts) { super(mode, opts); } } }[cls];
  exportsObj[cls] = C;
  exportsObj[`create${cls}`] = (opts) => new C(opts);
  exportsObj[`${mode}Sync`] = (data, opts) => run(mode, data, opts);
  exportsObj[mode] = (data, opts, cb) => {
    if (typeof opts === 'function') { cb = opts; opts = {}; }
    let r, err = null;
    try { r = run(mode, data, opts); } catch (e) { err = e; }
    require('internal/loop').ioComplete(1, () => cb(err, r));
  };
  exportsObj[mode][Symbol.for('nodejs.util.promisify.custom')] = (data, opts) => new Promise((resolve, reject) => exportsObj[mode](data, opts, (e, r) => (e ? reject(e) : resolve(r))));
}
for (const name of ['BrotliCompress', 'BrotliDecompress']) {
  exportsObj[name] = class { constructor() { throw new codes.ERR_FEATURE_UNAVAILABLE_ON_PLATFORM(`zlib.${name}`); } };
  exportsObj[`create${name}`] = () => { throw new codes.ERR_FEATURE_UNAVAILABLE_ON_PLATFORM(`zlib.create${name}`); };
}
for (const name of ['brotliCompress', 'brotliDecompress', 'brotliCompressSync', 'brotliDecompressSync']) {
  exportsObj[name] = () => { throw new codes.ERR_FEATURE_UNAVAILABLE_ON_PLATFORM(`zlib.${name}`); };
}
exportsObj.crc32 = (data, value = 0) => native.crc32(toBytes(data), value);
Object.assign(exportsObj, constants);
module.exports = exportsObj;
