'use strict';
// Whole reads and writes on file descriptors, in bytes or UTF-8 text.

const { os } = native;

// writeAll(fd, Uint8Array | ArrayBuffer | string) -> 0 or -errno
function writeAll(fd, data) {
  let ab, off = 0, len;
  if (typeof data === 'string') {
    ab = native.utf8Encode(data);
    len = ab.byteLength;
  } else if (data instanceof ArrayBuffer) {
    ab = data; len = ab.byteLength;
  } else {
    ab = data.buffer; off = data.byteOffset; len = data.byteLength;
  }
  while (len > 0) {
    const n = os.write(fd, ab, off, len);
    if (n < 0) {
      if (n === -6 || n === -27) continue; // EAGAIN, EINTR
      return n;
    }
    off += n;
    len -= n;
  }
  return 0;
}

// readAll(fd) -> Uint8Array of everything up to EOF, or a negative errno
function readAll(fd, sizeHint = 0) {
  let cap = Math.max(65536, sizeHint + 1);
  let buf = new Uint8Array(cap);
  let len = 0;
  for (;;) {
    if (len === cap) {
      cap *= 2;
      const nb = new Uint8Array(cap);
      nb.set(buf);
      buf = nb;
    }
    const n = os.read(fd, buf.buffer, len, cap - len);
    if (n < 0) {
      if (n === -27) continue;
      return n;
    }
    if (n === 0) break;
    len += n;
  }
  return buf.subarray(0, len);
}

module.exports = { writeAll, readAll };
