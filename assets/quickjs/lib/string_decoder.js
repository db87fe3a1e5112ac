'use strict';
// node:string_decoder

const { _normEncoding, _stringFromBytes } = require('buffer');
const { codes } = require('internal/errors');

class StringDecoder {
  constructor(encoding) {
    const enc = _normEncoding(encoding);
    if (enc === undefined) throw new codes.ERR_UNKNOWN_ENCODING(encoding);
    this.encoding = enc;
    this.pending = new Uint8Array(0);
  }
  write(buf) {
    if (typeof buf === 'string') return buf;
    let b = buf;
    if (this.pending.length) {
      b = new Uint8Array(this.pending.length + buf.length);
      b.set(this.pending);
      b.set(buf, this.pending.length);
    }
    const keep = this._incomplete(b);
    this.pending = keep ? b.slice(b.length - keep) : new Uint8Array(0);
    return _stringFromBytes(b, this.encoding, 0, b.length - keep);
  }
  end(buf) {
    let s = buf ? this.write(buf) : '';
    if (this.pending.length) {
      s += _stringFromBytes(this.pending, this.encoding, 0, this.pending.length);
      this.pending = new Uint8Array(0);
    }
    return s;
  }
  _incomplete(b) {
    const n = b.length;
    switch (this.encoding) {
      case 'utf8': {
        for (let i = 1; i <= Math.min(3, n); i++) {
          const c = b[n - i];
          if ((c & 0xc0) === 0x80) continue;
          const need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
          return need > i ? i : 0;
        }
        return 0;
      }
      case 'utf16le': {
        let keep = n % 2;
        if (n - keep >= 2) {
          const hi = b[n - keep - 1];
          if (hi >= 0xd8 && hi <= 0xdb) keep += 2;
        }
        return keep;
      }
      case 'base64': case 'base64url': return n % 3;
      default: return 0;
    }
  }
  get lastNeed() { return this.pending.length ? 1 : 0; }
  get lastTotal() { return this.pending.length; }
}
module.exports = { StringDecoder };
