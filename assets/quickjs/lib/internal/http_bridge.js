'use strict';
// One HTTP exchange through the sandbox's network bridge: the sandbox has no
// sockets, so the request goes to the `wasmsand-http ORIGIN` command (the
// bridge's policy, budgets and secrets; TLS is the bridge's), which answers
// with the whole response (HTTP/1.1, Connection: close). python's
// http.client goes the same way (assets/python/lib/_wasmsand_http.py).

const { Buffer } = require('buffer');

// wasmsand-http's exit statuses (commands/curl/rawhttp.go)
const USAGE = 2, DENIED = 3, BUDGET = 4, RESOLVE = 5, CONNECT = 6, TIMEOUT = 7, TOO_LARGE = 8;

function sysError(code, errno, syscall, message, extra) {
  const e = new Error(message);
  e.errno = errno;
  e.code = code;
  e.syscall = syscall;
  Object.assign(e, extra);
  return e;
}

function failure(status, stderr, url) {
  let text = stderr.toString('utf8').trim();
  const parts = text.split(': ');
  if (parts.length >= 3 && parts[0] === 'wasmsand-http') text = parts.slice(2).join(': ');
  const host = url.hostname;
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  switch (status) {
    case 127: return sysError('ENETUNREACH', -101, 'connect', `connect ENETUNREACH ${host}:${port} - the sandbox has no network`, { address: host, port: +port });
    case RESOLVE: return sysError('ENOTFOUND', -3008, 'getaddrinfo', `getaddrinfo ENOTFOUND ${host}`, { hostname: host });
    case CONNECT:
      if (/refused/i.test(text)) return sysError('ECONNREFUSED', -111, 'connect', `connect ECONNREFUSED ${host}:${port}`, { address: host, port: +port });
      return sysError('EHOSTUNREACH', -113, 'connect', `connect EHOSTUNREACH ${host}:${port}${text ? ` - ${text}` : ''}`, { address: host, port: +port });
    case TIMEOUT: return sysError('ETIMEDOUT', -110, 'connect', `connect ETIMEDOUT ${host}:${port}`, { address: host, port: +port });
    case DENIED: return sysError('EACCES', -13, 'connect', `blocked by the sandbox's network policy: ${text}`, { address: host, port: +port });
    case BUDGET: return sysError('EDQUOT', -122, 'connect', `the sandbox's network budget is spent: ${text}`);
    case TOO_LARGE: return sysError('EFBIG', -27, 'read', `response too large for the sandbox: ${text}`);
    case USAGE: return new Error(`wasmsand-http: ${text}`);
    default: return sysError('ECONNRESET', -104, 'read', text || `wasmsand-http failed with status ${status}`);
  }
}

function origin(url) {
  return `${url.protocol}//${url.host}`;
}

// request: { url: URL, method, headers: [[name, value]...], body: Uint8Array|null, timeout (ms) }
// cb(err, { statusCode, statusMessage, rawHeaders, httpVersion, body: Buffer })
function exchange(req, cb) {
  const { spawn } = require('child_process');
  const url = req.url;
  let head = `${req.method} ${url.pathname || '/'}${url.search || ''} HTTP/1.1\r\nHost: ${url.host}\r\n`;
  let hasLength = false;
  for (const [k, v] of req.headers) {
    const lk = k.toLowerCase();
    if (lk === 'host' || lk === 'connection' || lk === 'transfer-encoding') continue;
    if (lk === 'content-length') hasLength = true;
    if (/[\r\n]/.test(k) || /[\r\n]/.test(String(v))) {
      const e = new TypeError(`Invalid character in header content ["${k}"]`);
      e.code = 'ERR_INVALID_CHAR';
      process.nextTick(cb, e);
      return null;
    }
    head += `${k}: ${v}\r\n`;
  }
  const body = req.body && req.body.length ? req.body : null;
  if (body && !hasLength) head += `Content-Length: ${body.length}\r\n`;
  head += 'Connection: close\r\n\r\n';
  const args = [];
  if (req.timeout > 0) args.push('--timeout', String(req.timeout / 1000));
  args.push(origin(url));
  const child = spawn('wasmsand-http', args, { stdio: ['pipe', 'pipe', 'pipe'] });
  const out = [], err = [];
  let spawnError = null;
  child.on('error', (e) => { spawnError = e; });
  // (no wasmsand-http: the spawn failed, 'error' then 'close' follow)
  if (child.stdout) child.stdout.on('data', (c) => out.push(c));
  if (child.stderr) child.stderr.on('data', (c) => err.push(c));
  child.on('close', (status) => {
    if (spawnError) { cb(failure(127, Buffer.alloc(0), url)); return; }
    const answer = Buffer.concat(out);
    if (status !== 0 && answer.length === 0) { cb(failure(status, Buffer.concat(err), url)); return; }
    let res;
    try { res = parseResponse(answer); } catch (e) { cb(e); return; }
    cb(null, res);
  });
  if (child.stdin) {
    child.stdin.write(head);
    if (body) child.stdin.write(body);
    child.stdin.end();
  }
  return child;
}

function parseResponse(buf) {
  const end = buf.indexOf('\r\n\r\n');
  if (end < 0) throw sysError('ECONNRESET', -104, 'read', 'socket hang up');
  const lines = buf.subarray(0, end).toString('latin1').split('\r\n');
  const m = /^HTTP\/(\d\.\d) (\d{3})(?: (.*))?$/.exec(lines[0]);
  if (!m) throw sysError('HPE_INVALID_CONSTANT', undefined, undefined, 'Parse Error: Expected HTTP/');
  const rawHeaders = [];
  let chunked = false;
  for (const l of lines.slice(1)) {
    const i = l.indexOf(':');
    if (i <= 0) continue;
    const k = l.slice(0, i).trim();
    const v = l.slice(i + 1).trim();
    rawHeaders.push(k, v);
    if (k.toLowerCase() === 'transfer-encoding' && /chunked/i.test(v)) chunked = true;
  }
  let body = buf.subarray(end + 4);
  if (chunked) body = dechunk(body);
  return { httpVersion: m[1], statusCode: +m[2], statusMessage: m[3] || '', rawHeaders, body: Buffer.from(body) };
}

function dechunk(b) {
  const parts = [];
  let i = 0;
  while (i < b.length) {
    const le = b.indexOf('\r\n', i);
    if (le < 0) break;
    const size = Number.parseInt(b.subarray(i, le).toString('latin1').split(';')[0], 16);
    if (!(size > 0)) break;
    parts.push(b.subarray(le + 2, le + 2 + size));
    i = le + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

module.exports = { exchange, parseResponse };
