'use strict';
// node:http — the client, over the sandbox's network bridge
// (internal/http_bridge). A server cannot listen: the sandbox has no sockets.

const { Writable, Readable } = require('stream');
const EventEmitter = require('events');
const { Buffer } = require('buffer');
const { codes } = require('internal/errors');
const bridge = require('internal/http_bridge');

const STATUS_CODES = {
  100: 'Continue', 101: 'Switching Protocols', 102: 'Processing', 103: 'Early Hints', 200: 'OK', 201: 'Created', 202: 'Accepted',
  203: 'Non-Authoritative Information', 204: 'No Content', 205: 'Reset Content', 206: 'Partial Content', 207: 'Multi-Status',
  208: 'Already Reported', 226: 'IM Used', 300: 'Multiple Choices', 301: 'Moved Permanently', 302: 'Found', 303: 'See Other',
  304: 'Not Modified', 305: 'Use Proxy', 307: 'Temporary Redirect', 308: 'Permanent Redirect', 400: 'Bad Request',
  401: 'Unauthorized', 402: 'Payment Required', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed',
  406: 'Not Acceptable', 407: 'Proxy Authentication Required', 408: 'Request Timeout', 409: 'Conflict', 410: 'Gone',
  411: 'Length Required', 412: 'Precondition Failed', 413: 'Payload Too Large', 414: 'URI Too Long',
  415: 'Unsupported Media Type', 416: 'Range Not Satisfiable', 417: 'Expectation Failed', 418: "I'm a Teapot",
  421: 'Misdirected Request', 422: 'Unprocessable Entity', 423: 'Locked', 424: 'Failed Dependency', 425: 'Too Early',
  426: 'Upgrade Required', 428: 'Precondition Required', 429: 'Too Many Requests', 431: 'Request Header Fields Too Large',
  451: 'Unavailable For Legal Reasons', 500: 'Internal Server Error', 501: 'Not Implemented', 502: 'Bad Gateway',
  503: 'Service Unavailable', 504: 'Gateway Timeout', 505: 'HTTP Version Not Supported', 506: 'Variant Also Negotiates',
  507: 'Insufficient Storage', 508: 'Loop Detected', 509: 'Bandwidth Limit Exceeded', 510: 'Not Extended',
  511: 'Network Authentication Required',
};
const METHODS = ['ACL', 'BIND', 'CHECKOUT', 'CONNECT', 'COPY', 'DELETE', 'GET', 'HEAD', 'LINK', 'LOCK', 'M-SEARCH', 'MERGE',
  'MKACTIVITY', 'MKCALENDAR', 'MKCOL', 'MOVE', 'NOTIFY', 'OPTIONS', 'PATCH', 'POST', 'PROPFIND', 'PROPPATCH', 'PURGE', 'PUT',
  'QUERY', 'REBIND', 'REPORT', 'SEARCH', 'SOURCE', 'SUBSCRIBE', 'TRACE', 'UNBIND', 'UNLINK', 'UNLOCK', 'UNSUBSCRIBE'];

class IncomingMessage extends Readable {
  constructor(res, req) {
    super();
    this.httpVersion = res.httpVersion;
    this.httpVersionMajor = +res.httpVersion[0];
    this.httpVersionMinor = +res.httpVersion[2];
    this.statusCode = res.statusCode;
    this.statusMessage = res.statusMessage;
    this.rawHeaders = res.rawHeaders;
    this.headers = {};
    this.headersDistinct = {};
    for (let i = 0; i < res.rawHeaders.length; i += 2) {
      const k = res.rawHeaders[i].toLowerCase();
      const v = res.rawHeaders[i + 1];
      (this.headersDistinct[k] || (this.headersDistinct[k] = [])).push(v);
      if (k === 'set-cookie') (this.headers[k] || (this.headers[k] = [])).push(v);
      else if (this.headers[k] === undefined) this.headers[k] = v;
      else if (!['content-type', 'content-length', 'user-agent', 'referer', 'host', 'authorization', 'proxy-authorization', 'if-modified-since', 'if-unmodified-since', 'from', 'location', 'max-forwards', 'retry-after', 'etag', 'last-modified', 'server', 'age', 'expires'].includes(k)) {
        this.headers[k] += `${k === 'cookie' ? '; ' : ', '}${v}`;
      }
    }
    this.rawTrailers = [];
    this.trailers = {};
    this.complete = false;
    this.req = req;
    this.url = '';
    this.method = null;
    this.socket = this.connection = { remoteAddress: undefined, encrypted: req && req.protocol === 'https:' };
    this._body = res.body;
  }
  _read() {
    if (this._body) {
      const b = this._body;
      this._body = null;
      if (b.length) this.push(b);
      this.complete = true;
      this.push(null);
    }
  }
  setTimeout(ms, cb) { if (cb) this.once('timeout', cb); return this; }
}

function normalizeArgs(input, options, cb) {
  let url;
  if (typeof input === 'string') {
    url = new URL(input);
  } else if (input instanceof URL) {
    url = input;
  } else {
    cb = options;
    options = input;
    input = null;
  }
  if (typeof options === 'function') { cb = options; options = {}; }
  options = { ...(url ? require('url').urlToHttpOptions(url) : {}), ...options };
  return { options, cb };
}

class ClientRequest extends Writable {
  constructor(input, options, cb, defaultProtocol) {
    super({ autoDestroy: false });
    ({ options, cb } = normalizeArgs(input, options, cb));
    const protocol = options.protocol || defaultProtocol;
    if (protocol !== defaultProtocol) throw new codes.ERR_INVALID_PROTOCOL(protocol, defaultProtocol);
    const host = options.hostname || (options.host ? String(options.host).replace(/:\d+$/, '') : 'localhost');
    const port = options.port || options.defaultPort || (protocol === 'https:' ? 443 : 80);
    this.method = (options.method || 'GET').toUpperCase();
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(this.method)) throw new codes.ERR_INVALID_HTTP_TOKEN('Method', this.method);
    this.path = options.path || '/';
    if (/[\u0000-\u0020]/.test(this.path)) {
      const e = new TypeError('Request path contains unescaped characters');
      e.code = 'ERR_UNESCAPED_CHARACTERS';
      throw e;
    }
    this.host = host;
    this.protocol = protocol;
    this._port = port;
    this._headers = new Map();
    if (options.headers) {
      const h = options.headers;
      if (Array.isArray(h)) for (let i = 0; i < h.length; i += 2) this.setHeader(h[i], h[i + 1]);
      else for (const k of Object.keys(h)) this.setHeader(k, h[k]);
    }
    if (options.auth && !this.hasHeader('authorization')) this.setHeader('Authorization', `Basic ${Buffer.from(options.auth).toString('base64')}`);
    this._chunks = [];
    this._timeoutMs = options.timeout || 0;
    this.headersSent = false;
    this.finished = false;
    this.aborted = false;
    this.reusedSocket = false;
    this.maxHeadersCount = null;
    this.socket = this.connection = new EventEmitter();
    if (cb) this.once('response', cb);
    if (options.signal) {
      const abort = () => this.destroy(new (require('internal/errors').AbortError)(undefined, { cause: options.signal.reason }));
      if (options.signal.aborted) process.nextTick(abort);
      else options.signal.addEventListener('abort', abort, { once: true });
    }
    process.nextTick(() => this.emit('socket', this.socket));
  }
  setHeader(name, value) {
    if (this.headersSent) throw new codes.ERR_HTTP_HEADERS_SENT('set');
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new codes.ERR_INVALID_HTTP_TOKEN('Header name', name);
    if (value === undefined) {
      const e = new TypeError(`Invalid value "undefined" for header "${name}"`);
      e.code = 'ERR_HTTP_INVALID_HEADER_VALUE';
      throw e;
    }
    this._headers.set(name.toLowerCase(), [name, value]);
    return this;
  }
  getHeader(name) { const h = this._headers.get(name.toLowerCase()); return h ? h[1] : undefined; }
  getHeaders() { const o = Object.create(null); for (const [k, [, v]] of this._headers) o[k] = v; return o; }
  getHeaderNames() { return [...this._headers.keys()]; }
  getRawHeaderNames() { return [...this._headers.values()].map(([n]) => n); }
  hasHeader(name) { return this._headers.has(name.toLowerCase()); }
  removeHeader(name) { this._headers.delete(name.toLowerCase()); }
  flushHeaders() {}
  setNoDelay() {}
  setSocketKeepAlive() {}
  setTimeout(ms, cb) {
    this._timeoutMs = ms;
    if (cb) this.once('timeout', cb);
    return this;
  }
  _write(chunk, enc, cb) { this._chunks.push(chunk); cb(); }
  _final(cb) {
    this.headersSent = true;
    this.finished = true;
    const url = new URL(`${this.protocol}//${this.host.includes(':') ? `[${this.host}]` : this.host}:${this._port}${this.path}`);
    const headers = [];
    for (const [, [n, v]] of this._headers) {
      if (Array.isArray(v)) for (const x of v) headers.push([n, String(x)]);
      else headers.push([n, String(v)]);
    }
    this._child = bridge.exchange({ url, method: this.method, headers, body: Buffer.concat(this._chunks), timeout: this._timeoutMs }, (err, res) => {
      if (this.destroyed && this.aborted) return;
      if (err) {
        if (err.code === 'ETIMEDOUT' && this.listenerCount('timeout')) this.emit('timeout');
        this.emit('error', err);
        this.emit('close');
        return;
      }
      const msg = new IncomingMessage(res, this);
      this.res = msg;
      if (!this.emit('response', msg)) msg.resume();
      msg.on('end', () => process.nextTick(() => this.emit('close')));
    });
    cb();
  }
  abort() {
    if (this.aborted) return;
    this.aborted = true;
    process.nextTick(() => this.emit('abort'));
    this.destroy();
  }
  _destroy(err, cb) {
    if (this._child) this._child.kill();
    if (!err && !this.res) {
      err = new Error('socket hang up');
      err.code = 'ECONNRESET';
      if (this.aborted) { cb(); return; }
    }
    cb(err);
  }
}

function request(input, options, cb) { return new ClientRequest(input, options, cb, 'http:'); }
function get(input, options, cb) { const r = request(input, options, cb); r.end(); return r; }

class Agent extends EventEmitter {
  constructor(options = {}) { super(); this.options = options; this.keepAlive = !!options.keepAlive; this.maxSockets = options.maxSockets || Infinity; this.sockets = {}; this.freeSockets = {}; this.requests = {}; this.defaultPort = 80; this.protocol = 'http:'; }
  destroy() {}
  getName(o = {}) { return `${o.host || 'localhost'}:${o.port || ''}:${o.localAddress || ''}`; }
}

function createServer() {
  throw new codes.ERR_FEATURE_UNAVAILABLE_ON_PLATFORM('http.createServer (a sandboxed program cannot listen; the sandbox reaches the network only as a client)');
}

module.exports = {
  request, get, ClientRequest, IncomingMessage, Agent, globalAgent: new Agent(), STATUS_CODES, METHODS,
  createServer, Server: class Server extends EventEmitter { constructor() { super(); createServer(); } },
  ServerResponse: class ServerResponse extends Writable {}, OutgoingMessage: Writable,
  maxHeaderSize: 16384, validateHeaderName() {}, validateHeaderValue() {}, setMaxIdleHTTPParsers() {},
  _requestFor: (input, options, cb, protocol) => new ClientRequest(input, options, cb, protocol),
};
