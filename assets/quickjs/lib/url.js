'use strict';
// node:url — WHATWG URL and URLSearchParams (the parsing rules of the URL
// standard for the special schemes and opaque ones), file URL helpers, and
// the legacy url.parse/format/resolve.

const { codes } = require('internal/errors');

const special = { 'ftp:': 21, 'file:': null, 'http:': 80, 'https:': 443, 'ws:': 80, 'wss:': 443 };

function pctEncode(str, set) {
  let out = '';
  const bytes = new Uint8Array(native.utf8Encode(str));
  for (const b of bytes) {
    const c = String.fromCharCode(b);
    if (b < 0x21 || b > 0x7e || set.includes(c)) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
    else out += c;
  }
  return out;
}
const C0 = '';
const FRAGMENT = ' "<>`';
const QUERY = ' "#<>';
const SPECIAL_QUERY = ` "#<>'`;
const PATH = ' "#<>?`{}';
const USERINFO = ' "#<>?`{}/:;=@[\\]^|';
function encodeSet(s, set) {
  // keep existing %XX, encode the rest of the set and non-ASCII
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0);
    if (c < 0x20 || c > 0x7e || set.includes(ch)) out += pctEncode(ch, '');
    else out += ch;
  }
  return out;
}

function parseIPv4(host) {
  const parts = host.split('.');
  if (parts[parts.length - 1] === '' && parts.length > 1) parts.pop();
  if (parts.length > 4 || parts.length === 0) return null;
  const nums = [];
  for (const p of parts) {
    if (p === '') return null;
    let n;
    if (/^0[xX][0-9a-fA-F]*$/.test(p)) n = p.length === 2 ? 0 : Number.parseInt(p.slice(2), 16);
    else if (/^0[0-7]+$/.test(p)) n = Number.parseInt(p.slice(1), 8);
    else if (/^(0|[1-9][0-9]*)$/.test(p)) n = Number(p);
    else return null;
    nums.push(n);
  }
  for (let i = 0; i < nums.length - 1; i++) if (nums[i] > 255) return undefined;
  if (nums[nums.length - 1] >= 256 ** (5 - nums.length)) return undefined;
  let ipv4 = nums[nums.length - 1];
  for (let i = 0; i < nums.length - 1; i++) ipv4 += nums[i] * 256 ** (3 - i);
  return [ipv4 >>> 24, (ipv4 >>> 16) & 255, (ipv4 >>> 8) & 255, ipv4 & 255].join('.');
}

function parseHost(input, isSpecial) {
  if (input.startsWith('[')) {
    if (!input.endsWith(']')) return null;
    const inner = input.slice(1, -1);
    if (!/^[0-9a-fA-F:.]+$/.test(inner)) return null;
    return `[${compressIPv6(inner)}]`;
  }
  if (!isSpecial) {
    if (/[\x00\t\n\r #/<>?@[\\\]^|]/.test(input)) return null;
    return encodeSet(input, '');
  }
  let host;
  try { host = decodeURIComponent(input); } catch { host = input; }
  host = host.toLowerCase();
  if (/[^\x00-\x7f]/.test(host)) host = toASCII(host);
  if (host === '' || /[\x00\t\n\r #%/:<>?@[\\\]^|]/.test(host)) return null;
  const last = host.split('.').filter((x, i, a) => !(x === '' && i === a.length - 1)).pop();
  if (last !== undefined && /^(0[xX][0-9a-fA-F]*|[0-9]+)$/.test(last)) {
    const v4 = parseIPv4(host);
    if (!v4) return null;
    return v4;
  }
  return host;
}
function compressIPv6(s) {
  // normalise: expand then compress the longest zero run
  let parts = s.split('::');
  if (parts.length > 2) return s;
  const conv = (x) => (x ? x.split(':') : []);
  let head = conv(parts[0]), tail = parts.length === 2 ? conv(parts[1]) : [];
  const last = tail.length ? tail[tail.length - 1] : head[head.length - 1];
  if (last && last.includes('.')) {
    const v4 = last.split('.').map(Number);
    const arr = tail.length ? tail : head;
    arr.splice(arr.length - 1, 1, ((v4[0] << 8) | v4[1]).toString(16), ((v4[2] << 8) | v4[3]).toString(16));
  }
  const fill = parts.length === 2 ? 8 - head.length - tail.length : 0;
  const all = [...head, ...Array(fill).fill('0'), ...tail].map((x) => Number.parseInt(x || '0', 16).toString(16));
  let best = -1, bestLen = 1;
  for (let i = 0; i < all.length;) {
    if (all[i] === '0') {
      let j = i;
      while (j < all.length && all[j] === '0') j++;
      if (j - i > bestLen) { best = i; bestLen = j - i; }
      i = j;
    } else i++;
  }
  if (best === -1) return all.join(':');
  return `${all.slice(0, best).join(':')}::${all.slice(best + bestLen).join(':')}`;
}

// punycode (RFC 3492) for internationalised host names
function toASCII(domain) {
  return domain.split('.').map((label) => (/[^\x00-\x7f]/.test(label) ? `xn--${punyEncode(label)}` : label)).join('.');
}
function toUnicode(domain) {
  return domain.split('.').map((label) => (label.startsWith('xn--') ? punyDecode(label.slice(4)) : label)).join('.');
}
function adapt(delta, numPoints, first) {
  let k = 0;
  delta = first ? Math.floor(delta / 700) : delta >> 1;
  delta += Math.floor(delta / numPoints);
  for (; delta > 455; k += 36) delta = Math.floor(delta / 35);
  return Math.floor(k + (36 * delta) / (delta + 38));
}
function digit(d) { return String.fromCharCode(d + 22 + 75 * (d < 26)); }
function punyEncode(input) {
  const cps = Array.from(input, (c) => c.codePointAt(0));
  let n = 128, delta = 0, bias = 72;
  let out = cps.filter((c) => c < 128).map((c) => String.fromCharCode(c)).join('');
  const b = out.length;
  let h = b;
  if (b) out += '-';
  while (h < cps.length) {
    let m = Infinity;
    for (const c of cps) if (c >= n && c < m) m = c;
    delta += (m - n) * (h + 1);
    n = m;
    for (const c of cps) {
      if (c < n) delta++;
      if (c === n) {
        let q = delta;
        for (let k = 36; ; k += 36) {
          const t = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias;
          if (q < t) break;
          out += digit(t + ((q - t) % (36 - t)));
          q = Math.floor((q - t) / (36 - t));
        }
        out += digit(q);
        bias = adapt(delta, h + 1, h === b);
        delta = 0;
        h++;
      }
    }
    delta++;
    n++;
  }
  return out;
}
function punyDecode(input) {
  const out = [];
  let n = 128, i = 0, bias = 72;
  let basic = input.lastIndexOf('-');
  if (basic < 0) basic = 0;
  for (let j = 0; j < basic; j++) out.push(input.charCodeAt(j));
  for (let idx = basic > 0 ? basic + 1 : 0; idx < input.length;) {
    const oldi = i;
    for (let w = 1, k = 36; ; k += 36) {
      const c = input.charCodeAt(idx++);
      const d = c - 48 < 10 ? c - 22 : c - 65 < 26 ? c - 65 : c - 97 < 26 ? c - 97 : 36;
      i += d * w;
      const t = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias;
      if (d < t) break;
      w *= 36 - t;
    }
    bias = adapt(i - oldi, out.length + 1, oldi === 0);
    n += Math.floor(i / (out.length + 1));
    i %= out.length + 1;
    out.splice(i++, 0, n);
  }
  return String.fromCodePoint(...out);
}

function invalidURL(input, base) {
  const e = new codes.ERR_INVALID_URL(input);
  e.input = input;
  if (base !== undefined) e.base = base;
  return e;
}

function parse(input, base) {
  input = String(input).replace(/^[\x00-\x20]+|[\x00-\x20]+$/g, '').replace(/[\t\n\r]/g, '');
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):(.*)$/s.exec(input);
  let u;
  if (m) {
    const protocol = `${m[1].toLowerCase()}:`;
    let rest = m[2];
    u = { protocol, username: '', password: '', hostname: '', port: '', pathname: '', search: '', hash: '', opaque: false, hasHost: false };
    const isSpecial = protocol in special;
    if (isSpecial && base && base.protocol === protocol && !/^[/\\]/.test(rest)) {
      return parseRelative(rest, base);
    }
    if (isSpecial) rest = rest.replace(/\\/g, '/');
    if (isSpecial && protocol !== 'file:') {
      rest = rest.replace(/^\/*/, '');
      return parseAuthority(u, rest, true);
    }
    if (protocol === 'file:') {
      if (rest.startsWith('//')) return parseAuthority(u, rest.slice(2), true, true);
      if (base && base.protocol === 'file:') return parseRelative(rest, base);
      u.hasHost = true;
      return parsePathEtc(u, rest, true);
    }
    if (rest.startsWith('//')) return parseAuthority(u, rest.slice(2), false);
    if (rest.startsWith('/')) return parsePathEtc(u, rest, false);
    // opaque path
    u.opaque = true;
    const hi = rest.indexOf('#');
    if (hi !== -1) { u.hash = `#${encodeSet(rest.slice(hi + 1), FRAGMENT)}`; rest = rest.slice(0, hi); }
    const qi = rest.indexOf('?');
    if (qi !== -1) { u.search = `?${encodeSet(rest.slice(qi + 1), QUERY)}`; rest = rest.slice(0, qi); }
    u.pathname = encodeSet(rest, C0);
    return u;
  }
  if (!base) return null;
  if (base.opaque) {
    if (input.startsWith('#')) return { ...base, hash: `#${encodeSet(input.slice(1), FRAGMENT)}` };
    return null;
  }
  return parseRelative(input, base);
}

function parseAuthority(u, rest, isSpecial, isFile) {
  let end = rest.search(isSpecial ? /[/?#\\]/ : /[/?#]/);
  if (end === -1) end = rest.length;
  let auth = rest.slice(0, end);
  const after = rest.slice(end);
  const at = auth.lastIndexOf('@');
  if (at !== -1) {
    const cred = auth.slice(0, at);
    auth = auth.slice(at + 1);
    const ci = cred.indexOf(':');
    u.username = encodeSet(ci === -1 ? cred : cred.slice(0, ci), USERINFO);
    u.password = ci === -1 ? '' : encodeSet(cred.slice(ci + 1), USERINFO);
  }
  let hostPart = auth, port = '';
  const pm = /^(\[[^\]]*\]|[^:]*)(?::(.*))?$/.exec(auth);
  if (pm) { hostPart = pm[1]; port = pm[2] === undefined ? '' : pm[2]; }
  if (port !== '') {
    if (!/^[0-9]+$/.test(port)) return null;
    const n = Number(port);
    if (n > 65535) return null;
    port = special[u.protocol] === n ? '' : String(n);
  }
  if (isFile) {
    if (hostPart === 'localhost') hostPart = '';
  }
  if (hostPart === '' && isSpecial && !isFile) return null;
  const host = hostPart === '' ? '' : parseHost(hostPart, isSpecial);
  if (host === null) return null;
  u.hostname = host;
  u.port = port;
  u.hasHost = true;
  return parsePathEtc(u, after, isSpecial);
}

function normalizePath(path, isSpecial) {
  const segs = path.split(isSpecial ? /[/\\]/ : '/');
  const out = [];
  for (let i = 1; i < segs.length; i++) {
    const s = segs[i];
    const low = s.toLowerCase();
    const isDot = s === '.' || low === '%2e';
    const isDotDot = s === '..' || low === '.%2e' || low === '%2e.' || low === '%2e%2e';
    if (isDotDot) {
      out.pop();
      if (i === segs.length - 1) out.push('');
    } else if (isDot) {
      if (i === segs.length - 1) out.push('');
    } else {
      out.push(encodeSet(s, PATH));
    }
  }
  return `/${out.join('/')}`;
}

function parsePathEtc(u, rest, isSpecial) {
  const hi = rest.indexOf('#');
  if (hi !== -1) { u.hash = `#${encodeSet(rest.slice(hi + 1), FRAGMENT)}`; rest = rest.slice(0, hi); }
  const qi = rest.indexOf('?');
  if (qi !== -1) { u.search = `?${encodeSet(rest.slice(qi + 1), isSpecial ? SPECIAL_QUERY : QUERY)}`; rest = rest.slice(0, qi); }
  if (u.search === '?') u.search = '';
  if (u.hash === '#') u.hash = '';
  if (rest === '' && isSpecial) rest = '/';
  u.pathname = rest === '' ? '' : normalizePath(rest.startsWith('/') || (isSpecial && rest.startsWith('\\')) ? rest : `/${rest}`, isSpecial);
  return u;
}

function parseRelative(input, base) {
  const isSpecial = base.protocol in special;
  if (isSpecial) input = input.replace(/\\/g, '/');
  const u = { ...base, search: '', hash: '' };
  if (input.startsWith('//')) {
    return parseAuthority({ ...u, username: '', password: '', hostname: '', port: '' }, input.slice(2), isSpecial, base.protocol === 'file:');
  }
  if (input === '') return { ...base, hash: '' };
  if (input.startsWith('?')) return parsePathEtc({ ...u, pathname: base.pathname }, `${base.pathname}${input}`, isSpecial);
  if (input.startsWith('#')) return { ...base, hash: input.length > 1 ? `#${encodeSet(input.slice(1), FRAGMENT)}` : '' };
  if (input.startsWith('/')) return parsePathEtc(u, input, isSpecial);
  const dir = base.pathname.slice(0, base.pathname.lastIndexOf('/') + 1) || '/';
  return parsePathEtc(u, dir + input, isSpecial);
}

const kURL = Symbol('url');
class URLSearchParams {
  constructor(init = undefined) {
    this._list = [];
    this._url = null;
    if (init === undefined || init === null) return;
    if (typeof init === 'object' || typeof init === 'function') {
      if (typeof init[Symbol.iterator] === 'function') {
        for (const pair of init) {
          const p = [...pair];
          if (p.length !== 2) {
            const e = new TypeError('Each query pair must be an iterable [name, value] tuple');
            e.code = 'ERR_INVALID_TUPLE';
            throw e;
          }
          this._list.push([String(p[0]), String(p[1])]);
        }
      } else {
        for (const k of Object.keys(init)) this._list.push([k, String(init[k])]);
      }
    } else {
      let s = String(init);
      if (s.startsWith('?')) s = s.slice(1);
      this._list = parseQuery(s);
    }
  }
  _update() { if (this._url) { const s = this.toString(); this._url.search = s ? `?${s}` : ''; this._url._setSearchInternal(s); } }
  append(k, v) { this._list.push([String(k), String(v)]); this._update(); }
  delete(k, v) { k = String(k); this._list = this._list.filter(([a, b]) => a !== k || (v !== undefined && b !== String(v))); this._update(); }
  get(k) { k = String(k); const e = this._list.find(([a]) => a === k); return e ? e[1] : null; }
  getAll(k) { k = String(k); return this._list.filter(([a]) => a === k).map(([, b]) => b); }
  has(k, v) { k = String(k); return this._list.some(([a, b]) => a === k && (v === undefined || b === String(v))); }
  set(k, v) {
    k = String(k); v = String(v);
    const i = this._list.findIndex(([a]) => a === k);
    if (i === -1) this._list.push([k, v]);
    else { this._list[i][1] = v; this._list = this._list.filter(([a], j) => a !== k || j === i); }
    this._update();
  }
  sort() { this._list.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)); this._update(); }
  forEach(fn, thisArg) { for (const [k, v] of this._list) fn.call(thisArg, v, k, this); }
  keys() { return this._list.map(([k]) => k)[Symbol.iterator](); }
  values() { return this._list.map(([, v]) => v)[Symbol.iterator](); }
  entries() { return this._list.map(([k, v]) => [k, v])[Symbol.iterator](); }
  [Symbol.iterator]() { return this.entries(); }
  get size() { return this._list.length; }
  toString() { return this._list.map(([k, v]) => `${formEncode(k)}=${formEncode(v)}`).join('&'); }
  get [Symbol.toStringTag]() { return 'URLSearchParams'; }
  [Symbol.for('nodejs.util.inspect.custom')](depth, opts, inspect) {
    if (this._list.length === 0) return 'URLSearchParams {}';
    return `URLSearchParams { ${this._list.map(([k, v]) => `${inspect(k)} => ${inspect(v)}`).join(', ')} }`;
  }
}
for (const k of ['_list', '_url']) Object.defineProperty(URLSearchParams.prototype, k, { writable: true, enumerable: false, value: undefined });
function formEncode(s) {
  let out = '';
  const bytes = new Uint8Array(native.utf8Encode(s));
  for (const b of bytes) {
    if (b === 0x20) out += '+';
    else if ((b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x2a || b === 0x2d || b === 0x2e || b === 0x5f) out += String.fromCharCode(b);
    else out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
function formDecode(s) {
  s = s.replace(/\+/g, ' ');
  const bytes = [];
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '%' && /^[0-9a-fA-F]{2}$/.test(s.substr(i + 1, 2))) { bytes.push(Number.parseInt(s.substr(i + 1, 2), 16)); i += 2; }
    else { const b = new Uint8Array(native.utf8Encode(s[i] + (s.charCodeAt(i) >= 0xd800 && s.charCodeAt(i) < 0xdc00 && i + 1 < s.length ? s[++i] : ''))); for (const x of b) bytes.push(x); }
  }
  return native.utf8Decode(new Uint8Array(bytes));
}
function parseQuery(s) {
  const out = [];
  for (const part of s.split('&')) {
    if (part === '') continue;
    const i = part.indexOf('=');
    out.push(i === -1 ? [formDecode(part), ''] : [formDecode(part.slice(0, i)), formDecode(part.slice(i + 1))]);
  }
  return out;
}

class URL {
  constructor(input, base) {
    if (arguments.length === 0) throw new codes.ERR_MISSING_ARGS('url');
    let b;
    if (base !== undefined) {
      b = base instanceof URL ? base[kURL] : parse(String(base));
      if (!b) throw invalidURL(String(input), String(base));
    }
    const u = parse(input instanceof URL ? input.href : String(input), b);
    if (!u) throw invalidURL(String(input), base === undefined ? undefined : String(base));
    this[kURL] = u;
    this._sp = null;
  }
  static canParse(input, base) {
    try { new URL(input, base); return true; } catch { return false; }
  }
  static parse(input, base) { try { return new URL(input, base); } catch { return null; } }
  get href() {
    const u = this[kURL];
    let s = u.protocol;
    if (u.hasHost || u.hostname !== '') {
      s += '//';
      if (u.username || u.password) s += u.username + (u.password ? `:${u.password}` : '') + '@';
      s += u.hostname + (u.port ? `:${u.port}` : '');
    } else if (!u.opaque && u.pathname.startsWith('//')) {
      s += '/.';
    }
    return s + u.pathname + u.search + u.hash;
  }
  set href(v) {
    const u = parse(String(v));
    if (!u) throw invalidURL(String(v));
    this[kURL] = u;
    if (this._sp) this._sp._list = parseQuery(u.search.slice(1));
  }
  get origin() {
    const u = this[kURL];
    if (u.protocol === 'blob:') { try { return new URL(u.pathname).origin; } catch { return 'null'; } }
    if (!(u.protocol in special) || u.protocol === 'file:') return 'null';
    return `${u.protocol}//${u.hostname}${u.port ? `:${u.port}` : ''}`;
  }
  get protocol() { return this[kURL].protocol; }
  set protocol(v) {
    const p = `${String(v).replace(/:.*$/, '').toLowerCase()}:`;
    if (!/^[a-z][a-z0-9+.-]*:$/.test(p)) return;
    const u = this[kURL];
    if ((p in special) !== (u.protocol in special)) return;
    if (p === 'file:' && (u.username || u.password || u.port)) return;
    u.protocol = p;
    if (special[p] !== undefined && String(special[p]) === u.port) u.port = '';
  }
  get username() { return this[kURL].username; }
  set username(v) { const u = this[kURL]; if (u.hostname === '' || u.protocol === 'file:') return; u.username = encodeSet(String(v), USERINFO); }
  get password() { return this[kURL].password; }
  set password(v) { const u = this[kURL]; if (u.hostname === '' || u.protocol === 'file:') return; u.password = encodeSet(String(v), USERINFO); }
  get host() { const u = this[kURL]; return u.hostname + (u.port ? `:${u.port}` : ''); }
  set host(v) {
    const u = this[kURL];
    if (u.opaque) return;
    const m = /^(\[[^\]]*\]|[^:/?#]*)(?::([0-9]*))?/.exec(String(v));
    const h = parseHost(m[1], u.protocol in special);
    if (h === null || (h === '' && u.protocol in special)) return;
    u.hostname = h;
    if (m[2] !== undefined && m[2] !== '') u.port = special[u.protocol] === Number(m[2]) ? '' : String(Number(m[2]));
  }
  get hostname() { return this[kURL].hostname; }
  set hostname(v) {
    const u = this[kURL];
    if (u.opaque) return;
    const h = parseHost(String(v), u.protocol in special);
    if (h === null || (h === '' && u.protocol in special)) return;
    u.hostname = h;
  }
  get port() { return this[kURL].port; }
  set port(v) {
    const u = this[kURL];
    if (u.hostname === '' || u.protocol === 'file:') return;
    const s = String(v);
    if (s === '') { u.port = ''; return; }
    const m = /^[0-9]+/.exec(s);
    if (!m || Number(m[0]) > 65535) return;
    u.port = special[u.protocol] === Number(m[0]) ? '' : String(Number(m[0]));
  }
  get pathname() { return this[kURL].pathname; }
  set pathname(v) {
    const u = this[kURL];
    if (u.opaque) return;
    const s = String(v);
    u.pathname = normalizePath(s.startsWith('/') ? s : `/${s}`, u.protocol in special);
  }
  get search() { return this[kURL].search; }
  set search(v) {
    let s = String(v);
    if (s.startsWith('?')) s = s.slice(1);
    this[kURL].search = s ? `?${encodeSet(s, this[kURL].protocol in special ? SPECIAL_QUERY : QUERY)}` : '';
    if (this._sp) this._sp._list = parseQuery(s);
  }
  _setSearchInternal(s) { this[kURL].search = s ? `?${s}` : ''; }
  get searchParams() {
    if (!this._sp) {
      this._sp = new URLSearchParams(this[kURL].search);
      this._sp._url = this;
    }
    return this._sp;
  }
  get hash() { return this[kURL].hash; }
  set hash(v) {
    let s = String(v);
    if (s.startsWith('#')) s = s.slice(1);
    this[kURL].hash = s ? `#${encodeSet(s, FRAGMENT)}` : '';
  }
  toString() { return this.href; }
  toJSON() { return this.href; }
  get [Symbol.toStringTag]() { return 'URL'; }
  [Symbol.for('nodejs.util.inspect.custom')](depth, opts, inspect) {
    const obj = {
      href: this.href, origin: this.origin, protocol: this.protocol, username: this.username, password: this.password,
      host: this.host, hostname: this.hostname, port: this.port, pathname: this.pathname, search: this.search,
      searchParams: this.searchParams, hash: this.hash,
    };
    if (depth < 0) return '[URL]';
    return `URL ${inspect(obj, { ...opts, depth }).replace(/^\{/, '{')}`;
  }
  static createObjectURL() { throw new codes.ERR_METHOD_NOT_IMPLEMENTED('URL.createObjectURL'); }
  static revokeObjectURL() {}
}
Object.defineProperty(URL.prototype, '_sp', { writable: true, enumerable: false, value: null });
for (const k of ['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'searchParams', 'hash', 'toString', 'toJSON']) {
  const d = Object.getOwnPropertyDescriptor(URL.prototype, k);
  d.enumerable = true;
  Object.defineProperty(URL.prototype, k, d);
}

function fileURLToPath(path) {
  if (typeof path === 'string') path = new URL(path);
  else if (!(path instanceof URL)) throw new codes.ERR_INVALID_ARG_TYPE('path', ['string', 'URL'], path);
  if (path.protocol !== 'file:') throw new codes.ERR_INVALID_URL_SCHEME('file');
  if (path.hostname !== '') throw new codes.ERR_INVALID_FILE_URL_HOST('linux');
  const pathname = path.pathname;
  for (let n = 0; n < pathname.length; n++) {
    if (pathname[n] === '%' && pathname.substr(n + 1, 2).toLowerCase() === '2f') {
      throw new codes.ERR_INVALID_FILE_URL_PATH('must not include encoded / characters');
    }
  }
  return decodeURIComponent(pathname);
}
function pathToFileURL(filepath) {
  let resolved = require('path').resolve(filepath);
  if (filepath.endsWith('/') && !resolved.endsWith('/')) resolved += '/';
  const u = new URL('file://');
  u[kURL].pathname = encodeSet(resolved.replace(/%/g, '%25').replace(/\\/g, '%5C').replace(/\n/g, '%0A').replace(/\r/g, '%0D').replace(/\t/g, '%09'), ' "#<>?`{}').replace(/\?/g, '%3F').replace(/#/g, '%23');
  return u;
}
function urlToHttpOptions(url) {
  const options = {
    protocol: url.protocol,
    hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
    hash: url.hash, search: url.search, pathname: url.pathname,
    path: `${url.pathname || ''}${url.search || ''}`, href: url.href,
  };
  if (url.port !== '') options.port = Number(url.port);
  if (url.username || url.password) options.auth = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return options;
}

// --- legacy API ---------------------------------------------------------------------
function Url() {
  this.protocol = null; this.slashes = null; this.auth = null; this.host = null; this.port = null;
  this.hostname = null; this.hash = null; this.search = null; this.query = null; this.pathname = null;
  this.path = null; this.href = null;
}
function urlParse(url, parseQueryString, slashesDenoteHost) {
  if (url instanceof Url) return url;
  const u = new Url();
  let rest = String(url).trim();
  const hi = rest.indexOf('#');
  if (hi !== -1) { u.hash = rest.slice(hi); rest = rest.slice(0, hi); }
  const qi = rest.indexOf('?');
  if (qi !== -1) { u.search = rest.slice(qi); u.query = rest.slice(qi + 1); rest = rest.slice(0, qi); } else if (parseQueryString) { u.search = ''; u.query = {}; }
  if (parseQueryString && typeof u.query === 'string') u.query = require('querystring').parse(u.query);
  const pm = /^([a-zA-Z][a-zA-Z0-9+.-]*:)/.exec(rest);
  if (pm) { u.protocol = pm[1].toLowerCase(); rest = rest.slice(pm[1].length); }
  if (rest.startsWith('//') && (slashesDenoteHost || u.protocol === null || u.protocol in special || true) && !(u.protocol === 'javascript:')) {
    u.slashes = true;
    rest = rest.slice(2);
    let end = rest.search(/[/]/);
    if (end === -1) end = rest.length;
    let host = rest.slice(0, end);
    rest = rest.slice(end);
    const at = host.lastIndexOf('@');
    if (at !== -1) { u.auth = decodeURIComponent(host.slice(0, at)); host = host.slice(at + 1); }
    const portm = /:([0-9]*)$/.exec(host);
    if (portm) { u.port = portm[1]; host = host.slice(0, -portm[0].length); }
    u.hostname = host.toLowerCase().replace(/^\[|\]$/g, '');
    u.host = u.hostname + (u.port ? `:${u.port}` : '');
    if (rest === '' && u.protocol in special) rest = '/';
  }
  u.pathname = rest || (u.slashes ? '/' : null);
  if (u.pathname === null && !u.protocol) u.pathname = rest;
  u.path = (u.pathname || '') + (u.search || '') || null;
  u.href = urlFormat(u);
  return u;
}
function urlFormat(obj, options) {
  if (typeof obj === 'string') obj = urlParse(obj);
  if (obj instanceof URL) {
    let s = obj.protocol + (obj.host || obj.protocol === 'file:' ? '//' : '');
    if ((obj.username || obj.password) && (!options || options.auth !== false)) s += `${obj.username}${obj.password ? `:${obj.password}` : ''}@`;
    s += options && options.unicode ? toUnicode(obj.host) : obj.host;
    s += obj.pathname;
    if (!options || options.search !== false) s += obj.search;
    if (!options || options.fragment !== false) s += obj.hash;
    return s;
  }
  let auth = obj.auth || '';
  if (auth) auth = `${encodeURIComponent(auth).replace(/%3A/i, ':')}@`;
  let protocol = obj.protocol || '';
  if (protocol && !protocol.endsWith(':')) protocol += ':';
  let host = '';
  if (obj.host) host = auth + obj.host;
  else if (obj.hostname) host = auth + (obj.hostname.includes(':') ? `[${obj.hostname}]` : obj.hostname) + (obj.port ? `:${obj.port}` : '');
  let pathname = obj.pathname || '';
  let hash = obj.hash || '';
  let search = obj.search || '';
  if (!search && obj.query && typeof obj.query === 'object' && Object.keys(obj.query).length) search = `?${require('querystring').stringify(obj.query)}`;
  else if (!search && typeof obj.query === 'string' && obj.query) search = `?${obj.query}`;
  if (search && search[0] !== '?') search = `?${search}`;
  if (hash && hash[0] !== '#') hash = `#${hash}`;
  if (obj.slashes || (protocol in special && protocol !== 'file:' ? true : false) || (host && protocol)) {
    if (host || protocol === 'file:') host = `//${host}`;
    if (pathname && pathname[0] !== '/') pathname = `/${pathname}`;
  }
  pathname = pathname.replace(/[?#]/g, encodeURIComponent);
  search = search.replace('#', '%23');
  return protocol + host + pathname + search + hash;
}
function urlResolve(from, to) {
  return urlFormat(new URL(to, new URL(from, 'resolve://')).href.replace(/^resolve:\/\/\/?/, from.startsWith('/') ? '/' : ''));
}

module.exports = {
  URL, URLSearchParams, fileURLToPath, pathToFileURL, urlToHttpOptions, domainToASCII: (d) => { const h = parseHost(d, true); return h === null ? '' : h; },
  domainToUnicode: toUnicode, parse: urlParse, format: urlFormat, resolve: urlResolve, Url,
  resolveObject: (from, to) => urlParse(urlResolve(from, to)),
};
