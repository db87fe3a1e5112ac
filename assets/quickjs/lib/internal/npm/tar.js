'use strict';
// npm tarballs: gzip'd ustar (with pax headers for long names); entries under
// package/ (or any first directory) are written below dest.

const fs = require('fs');
const path = require('path');
const zlib = require('zlib');

function octal(b, off, len) {
  const s = b.toString('latin1', off, off + len).replace(/\0.*$/, '').trim();
  return s ? Number.parseInt(s, 8) : 0;
}
function str(b, off, len) {
  const s = b.toString('utf8', off, off + len);
  const z = s.indexOf('\0');
  return z === -1 ? s : s.slice(0, z);
}

function extract(tgz, dest) {
  const data = zlib.gunzipSync(tgz);
  let off = 0;
  let longName = null;
  let paxPath = null;
  const files = [];
  while (off + 512 <= data.length) {
    const h = data.subarray(off, off + 512);
    if (h.every((x) => x === 0)) break;
    let name = str(h, 0, 100);
    const size = octal(h, 124, 12);
    const mode = octal(h, 100, 8);
    const type = String.fromCharCode(h[156] || 48);
    const prefix = str(h, 345, 155);
    if (prefix && h.toString('latin1', 257, 262) === 'ustar') name = `${prefix}/${name}`;
    const body = data.subarray(off + 512, off + 512 + size);
    off += 512 + Math.ceil(size / 512) * 512;
    if (type === 'L') { longName = str(body, 0, body.length); continue; }
    if (type === 'x') {
      for (const rec of body.toString('utf8').split('\n')) {
        const m = /^\d+ path=(.*)$/.exec(rec);
        if (m) paxPath = m[1];
      }
      continue;
    }
    if (type === 'g') continue;
    if (longName) { name = longName; longName = null; }
    if (paxPath) { name = paxPath; paxPath = null; }
    // drop the first directory (package/), refuse escapes
    const parts = name.split('/').filter((p) => p !== '' && p !== '.');
    parts.shift();
    if (parts.length === 0 || parts.includes('..')) continue;
    const target = path.join(dest, ...parts);
    if (type === '5') { fs.mkdirSync(target, { recursive: true }); continue; }
    if (type !== '0' && type !== '\0' && type !== '7') continue; // links and devices: not in npm packages
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, body);
    // npm: files are 644, executables 755
    fs.chmodSync(target, mode & 0o111 ? 0o755 : 0o644);
    files.push(parts.join('/'));
  }
  return files;
}

module.exports = { extract };
