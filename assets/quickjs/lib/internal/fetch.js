'use strict';
// fetch, Headers, Request, Response, FormData — over the network bridge
// (internal/http_bridge), following redirects as undici does. The response
// arrives whole before it is handed over (no streaming of large bodies yet).

const { Buffer, Blob } = require('buffer');
const bridge = require('internal/http_bridge');
const { ReadableStream } = require('internal/webstreams');

const kGuard = Symbol('guard');
class Headers {
  constructor(init) {
    this._map = new Map(); // lower -> [name, values[]]
    if (init == null) return;
    if (init instanceof Headers) { for (const [k, v] of init) this.append(k, v); return; }
    if (typeof init[Symbol.iterator] === 'function') {
      for (const pair of init) {
        const p = [...pair];
        if (p.length !== 2) throw new TypeError('Headers constructor: expected name/value pair to be length 2, found ' + p.length + '.');
        this.append(p[0], p[1]);
      }
      return;
    }
    for (const k of Object.keys(init)) this.append(k, init[k]);
  }
  _check(name, value) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new TypeError(`Headers.append: "${name}" is an invalid header name.`);
    if (/[\r\n\0]/.test(value)) throw new TypeError(`Headers.append: "${value}" is an invalid header value.`);
  }
  append(name, value) {
    name = String(name); value = String(value).trim();
    this._check(name, value);
    const k = name.toLowerCase();
    const e = this._map.get(k);
    if (e) e[1].push(value); else this._map.set(k, [name, [value]]);
  }
  set(name, value) {
    name = String(name); value = String(value).trim();
    this._check(name, value);
    this._map.set(name.toLowerCase(), [name, [value]]);
  }
  get(name) {
    const e = this._map.get(String(name).toLowerCase());
    if (!e) return null;
    return e[1].join(name.toLowerCase() === 'cookie' ? '; ' : ', ');
  }
  getSetCookie() { const e = this._map.get('set-cookie'); return e ? e[1].slice() : []; }
  has(name) { return this._map.has(String(name).toLowerCase()); }
  delete(name) { this._map.delete(String(name).toLowerCase()); }
  forEach(fn, thisArg) { for (const [k, v] of this) fn.call(thisArg, v, k, this); }
  *entries() {
    const keys = [...this._map.keys()].sort();
    for (const k of keys) {
      if (k === 'set-cookie') { for (const v of this._map.get(k)[1]) yield [k, v]; } else yield [k, this.get(k)];
    }
  }
  *keys() { for (const [k] of this.entries()) yield k; }
  *values() { for (const [, v] of this.entries()) yield v; }
  [Symbol.iterator]() { return this.entries(); }
  get [Symbol.toStringTag]() { return 'Headers'; }
  [Symbol.for('nodejs.util.inspect.custom')](depth, opts, inspect) {
    const o = {};
    for (const [k, v] of this) o[k] = v;
    return `Headers ${inspect(o, opts)}`;
  }
}
Object.defineProperty(Headers.prototype, '_map', { writable: true, enumerable: false, value: undefined });

class FormData {
  constructor() { this._entries = []; }
  append(name, value, filename) { this._entries.push([String(name), value instanceof Blob ? value : String(value), filename]); }
  set(name, value, filename) { this.delete(name); this.append(name, value, filename); }
  get(name) { const e = this._entries.find(([n]) => n === name); return e ? e[1] : null; }
  getAll(name) { return this._entries.filter(([n]) => n === name).map(([, v]) => v); }
  has(name) { return this._entries.some(([n]) => n === name); }
  delete(name) { this._entries = this._entries.filter(([n]) => n !== name); }
  *entries() { for (const [n, v] of this._entries) yield [n, v]; }
  *keys() { for (const [n] of this._entries) yield n; }
  *values() { for (const [, v] of this._entries) yield v; }
  [Symbol.iterator]() { return this.entries(); }
  get [Symbol.toStringTag]() { return 'FormData'; }
}

// body: [bytes, content type or null]
async function extractBody(body) {
  if (body == null) return [null, null];
  if (typeof body === 'string') return [Buffer.from(body), 'text/plain;charset=UTF-8'];
  if (body instanceof URLSearchParams) return [Buffer.from(body.toString()), 'application/x-www-form-urlencoded;charset=UTF-8'];
  if (body instanceof ArrayBuffer) return [Buffer.from(body.slice(0)), null];
  if (ArrayBuffer.isView(body)) return [Buffer.from(body.buffer, body.byteOffset, body.byteLength), null];
  if (body instanceof Blob) return [Buffer.from(await body.arrayBuffer()), body.type || null];
  if (body instanceof FormData) {
    const boundary = `----formdata-wasmsand-${Math.random().toString().slice(2, 13)}`;
    const parts = [];
    for (const [n, v, filename] of body._entries) {
      const esc = (s) => s.replace(/\n/g, '%0A').replace(/\r/g, '%0D').replace(/"/g, '%22');
      if (typeof v === 'string') {
        parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${esc(n)}"\r\n\r\n${v.replace(/\r(?!\n)|(?<!\r)\n/g, '\r\n')}\r\n`));
      } else {
        parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${esc(n)}"; filename="${esc(filename || v.name || 'blob')}"\r\nContent-Type: ${v.type || 'application/octet-stream'}\r\n\r\n`));
        parts.push(Buffer.from(await v.arrayBuffer()), Buffer.from('\r\n'));
      }
    }
    parts.push(Buffer.from(`--${boundary}--\r\n`));
    return [Buffer.concat(parts), `multipart/form-data; boundary=${boundary}`];
  }
  if (body instanceof ReadableStream || typeof body[Symbol.asyncIterator] === 'function') {
    const chunks = [];
    for await (const c of body) chunks.push(typeof c === 'string' ? Buffer.from(c) : Buffer.from(c));
    return [Buffer.concat(chunks), null];
  }
  return [Buffer.from(String(body)), 'text/plain;charset=UTF-8'];
}

class Body {
  _initBody(bytes) { this._bytes = bytes; this._used = false; this._stream = null; }
  get body() {
    if (this._bytes === null) return null;
    if (!this._stream) {
      const bytes = this._bytes;
      this._stream = new ReadableStream({
        start(c) { if (bytes.length) c.enqueue(new Uint8Array(bytes)); c.close(); },
      });
    }
    return this._stream;
  }
  get bodyUsed() { return this._used; }
  _consume() {
    if (this._used) return Promise.reject(new TypeError('Body is unusable: Body has already been read'));
    this._used = true;
    return Promise.resolve(this._bytes || Buffer.alloc(0));
  }
  async arrayBuffer() { const b = await this._consume(); return b.buffer.slice(b.byteOffset, b.byteOffset + b.length); }
  async bytes() { return new Uint8Array(await this.arrayBuffer()); }
  async text() { return (await this._consume()).toString('utf8'); }
  async json() { return JSON.parse(await this.text()); }
  async blob() { const b = await this._consume(); return new Blob([b], { type: this.headers.get('content-type') || '' }); }
  async formData() { throw new TypeError('Response.formData: not supported in the sandbox yet'); }
}

class Request extends Body {
  constructor(input, init = {}) {
    super();
    let url;
    if (input instanceof Request) {
      url = input.url;
      init = { method: input.method, headers: input.headers, body: input._bytes, redirect: input.redirect, signal: input.signal, ...init };
    } else {
      try { url = new URL(String(input)).href; } catch {
        throw new TypeError(`Failed to parse URL from ${input}`);
      }
    }
    this.url = url;
    this.method = (init.method || 'GET').toUpperCase();
    this.headers = new Headers(init.headers);
    this.redirect = init.redirect || 'follow';
    this.signal = init.signal || null;
    this.credentials = init.credentials || 'same-origin';
    this.mode = init.mode || 'cors';
    this.cache = init.cache || 'default';
    this._rawBody = init.body === undefined ? null : init.body;
    if (this._rawBody !== null && (this.method === 'GET' || this.method === 'HEAD')) throw new TypeError('Request with GET/HEAD method cannot have body.');
    this._initBody(Buffer.isBuffer(this._rawBody) ? this._rawBody : null);
  }
  clone() { return new Request(this); }
  get [Symbol.toStringTag]() { return 'Request'; }
}

class Response extends Body {
  constructor(body = null, init = {}) {
    super();
    this.status = init.status === undefined ? 200 : init.status;
    if (this.status < 200 || this.status > 599) throw new RangeError(`init["status"] must be in the range of 200 to 599, inclusive.`);
    this.statusText = init.statusText === undefined ? '' : String(init.statusText);
    this.headers = new Headers(init.headers);
    this.type = 'default';
    this.url = '';
    this.redirected = false;
    let bytes = null;
    if (body !== null && body !== undefined) {
      if (typeof body === 'string') { bytes = Buffer.from(body); if (!this.headers.has('content-type')) this.headers.set('content-type', 'text/plain;charset=UTF-8'); }
      else if (ArrayBuffer.isView(body)) bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
      else if (body instanceof ArrayBuffer) bytes = Buffer.from(body);
      else if (body instanceof URLSearchParams) { bytes = Buffer.from(body.toString()); this.headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8'); }
      else if (body instanceof Blob) bytes = body._bytes;
      else bytes = Buffer.from(String(body));
    }
    this._initBody(bytes);
  }
  get ok() { return this.status >= 200 && this.status <= 299; }
  clone() {
    if (this._used) throw new TypeError('Response.clone: Body has already been consumed.');
    const r = new Response(this._bytes, { status: this.status === 0 ? 200 : this.status, statusText: this.statusText, headers: this.headers });
    r.url = this.url; r.redirected = this.redirected; r.type = this.type; r.status = this.status;
    return r;
  }
  static json(data, init = {}) {
    const headers = new Headers(init.headers);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    return new Response(JSON.stringify(data), { ...init, headers });
  }
  static error() { const r = new Response(null, { status: 200 }); r.status = 0; r.type = 'error'; return r; }
  static redirect(url, status = 302) { return new Response(null, { status, headers: { location: new URL(url).href } }); }
  get [Symbol.toStringTag]() { return 'Response'; }
  [Symbol.for('nodejs.util.inspect.custom')](depth, opts, inspect) {
    return `Response ${inspect({ status: this.status, statusText: this.statusText, headers: this.headers, body: this.body, bodyUsed: this.bodyUsed, ok: this.ok, redirected: this.redirected, type: this.type, url: this.url }, opts)}`;
  }
}

// the fetch standard's blocked ports: fetch refuses them before connecting
const badPorts = new Set([1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103,
  104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531,
  532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000,
  6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080]);

function fetchFailed(cause) {
  const e = new TypeError('fetch failed');
  e.cause = cause;
  return e;
}

async function fetch(input, init = {}) {
  const req = new Request(input, init);
  const [bodyBytes, contentType] = await extractBody(req._rawBody);
  const headers = new Headers(req.headers);
  if (contentType && !headers.has('content-type')) headers.set('content-type', contentType);
  if (!headers.has('accept')) headers.set('accept', '*/*');
  if (!headers.has('accept-language')) headers.set('accept-language', '*');
  if (!headers.has('user-agent')) headers.set('user-agent', 'node');
  if (!headers.has('sec-fetch-mode')) headers.set('sec-fetch-mode', 'cors');
  let url = new URL(req.url);
  let method = req.method;
  let body = bodyBytes;
  const signal = req.signal;
  const urlList = [url.href];
  for (let redirects = 0; ; redirects++) {
    if (signal && signal.aborted) throw signal.reason;
    if ((url.protocol === 'http:' || url.protocol === 'https:') && url.port && badPorts.has(+url.port)) throw fetchFailed(new Error('bad port'));
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      if (url.protocol === 'data:') return dataResponse(url);
      throw fetchFailed(new Error('unknown scheme'));
    }
    const res = await new Promise((resolve, reject) => {
      const hs = [];
      for (const [k, v] of headers) hs.push([k, v]);
      const child = bridge.exchange({ url, method, headers: hs, body, timeout: 0 }, (err, r) => (err ? reject(fetchFailed(err)) : resolve(r)));
      if (signal) signal.addEventListener('abort', () => { if (child) child.kill(); reject(signal.reason); }, { once: true });
    });
    const location = headerOf(res.rawHeaders, 'location');
    if ([301, 302, 303, 307, 308].includes(res.statusCode) && location !== null && req.redirect !== 'manual') {
      if (req.redirect === 'error') throw fetchFailed(new Error('unexpected redirect'));
      if (redirects >= 20) throw fetchFailed(new Error('redirect count exceeded'));
      const next = new URL(location, url);
      if ((res.statusCode === 303 && method !== 'HEAD') || ((res.statusCode === 301 || res.statusCode === 302) && method === 'POST')) {
        method = 'GET';
        body = null;
        for (const h of ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location']) headers.delete(h);
      }
      if (next.origin !== url.origin) { headers.delete('authorization'); headers.delete('cookie'); headers.delete('proxy-authorization'); }
      url = next;
      urlList.push(url.href);
      continue;
    }
    const rh = new Headers();
    for (let i = 0; i < res.rawHeaders.length; i += 2) rh.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
    const out = new Response(null, { status: 200, headers: rh });
    out.status = res.statusCode;
    out.statusText = res.statusMessage;
    out.url = url.href;
    out.redirected = urlList.length > 1;
    out.type = 'basic';
    out._initBody(method === 'HEAD' || [101, 204, 205, 304].includes(res.statusCode) ? null : res.body);
    return out;
  }
}
function headerOf(raw, name) {
  for (let i = 0; i < raw.length; i += 2) if (raw[i].toLowerCase() === name) return raw[i + 1];
  return null;
}
function dataResponse(url) {
  const m = /^data:([^,]*?)(;base64)?,(.*)$/s.exec(url.href);
  if (!m) throw fetchFailed(new Error('invalid data: URL'));
  const bytes = m[2] ? Buffer.from(decodeURIComponent(m[3]), 'base64') : Buffer.from(decodeURIComponent(m[3]), 'latin1');
  const r = new Response(bytes, { headers: { 'content-type': m[1] || 'text/plain;charset=US-ASCII' } });
  r.url = url.href;
  return r;
}

module.exports = { fetch, Headers, Request, Response, FormData };
