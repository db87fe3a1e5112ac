'use strict';
// node:querystring

function qsEscape(str) {
  if (typeof str !== 'string') {
    if (typeof str === 'object') str = String(str);
    else str += '';
  }
  return encodeURIComponent(str).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
function qsUnescape(s) {
  try { return decodeURIComponent(s); } catch { return unescapeBuffer(s); }
}
function unescapeBuffer(s) {
  const bytes = [];
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '%' && /^[0-9a-fA-F]{2}$/.test(s.substr(i + 1, 2))) { bytes.push(Number.parseInt(s.substr(i + 1, 2), 16)); i += 2; }
    else for (const b of new Uint8Array(native.utf8Encode(s[i]))) bytes.push(b);
  }
  return native.utf8Decode(new Uint8Array(bytes));
}
function stringifyPrimitive(v) {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return `${v}`;
  if (typeof v === 'bigint') return `${v}`;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return '';
}
function stringify(obj, sep = '&', eq = '=', options) {
  const encode = (options && options.encodeURIComponent) || qsEscape;
  if (obj === null || typeof obj !== 'object') return '';
  const fields = [];
  for (const k of Object.keys(obj)) {
    const v = obj[k];
    const ks = encode(stringifyPrimitive(k)) + eq;
    if (Array.isArray(v)) for (const item of v) fields.push(ks + encode(stringifyPrimitive(item)));
    else fields.push(ks + encode(stringifyPrimitive(v)));
  }
  return fields.join(sep);
}
function parse(qs, sep = '&', eq = '=', options) {
  const obj = Object.create(null);
  if (typeof qs !== 'string' || qs.length === 0) return obj;
  const maxKeys = options && typeof options.maxKeys === 'number' ? options.maxKeys : 1000;
  const decode = (options && options.decodeURIComponent) || qsUnescape;
  let parts = qs.split(sep);
  if (maxKeys > 0 && parts.length > maxKeys) parts = parts.slice(0, maxKeys);
  for (const part of parts) {
    if (part === '' && parts.length > 1) continue;
    const idx = part.indexOf(eq);
    const kstr = idx >= 0 ? part.slice(0, idx) : part;
    const vstr = idx >= 0 ? part.slice(idx + eq.length) : '';
    const k = decode(kstr.replace(/\+/g, ' '));
    const v = decode(vstr.replace(/\+/g, ' '));
    if (!(k in obj)) obj[k] = v;
    else if (Array.isArray(obj[k])) obj[k].push(v);
    else obj[k] = [obj[k], v];
  }
  return obj;
}
module.exports = { stringify, parse, escape: qsEscape, unescape: qsUnescape, unescapeBuffer, encode: stringify, decode: parse };
