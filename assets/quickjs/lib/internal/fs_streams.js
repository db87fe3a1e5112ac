'use strict';
// fs.ReadStream and fs.WriteStream: chunks read and written synchronously,
// handed over through the stream machinery on later ticks.

const { Readable, Writable } = require('stream');
const fs = require('fs');
const { Buffer } = require('buffer');
const { os } = native;

// both streams close the fd they opened (autoClose) when destroyed
function closeOwnFd(stream, err, cb) {
  if (stream.fd !== null && stream.autoClose) {
    const fd = stream.fd;
    stream.fd = null;
    try { fs.closeSync(fd); } catch (e) { err = err || e; }
  }
  cb(err);
}

class ReadStream extends Readable {
  constructor(path, options) {
    if (typeof options === 'string') options = { encoding: options };
    options = { highWaterMark: 64 * 1024, ...options };
    super(options);
    this.path = path === null || path === undefined ? undefined : fs._toPath(path);
    this.fd = options.fd === undefined ? null : (typeof options.fd === 'object' ? options.fd.fd : options.fd);
    this.flags = options.flags === undefined ? 'r' : options.flags;
    this.mode = options.mode === undefined ? 0o666 : options.mode;
    this.start = options.start;
    this.end = options.end === undefined ? Infinity : options.end;
    this.pos = this.start;
    this.bytesRead = 0;
    this.autoClose = options.autoClose !== false;
    this.pending = true;
    if (this.fd === null) {
      process.nextTick(() => this._openNow());
    } else {
      this.pending = false;
    }
  }
  _openNow() {
    if (this.destroyed) return;
    try {
      this.fd = fs.openSync(this.path, this.flags, this.mode);
    } catch (e) {
      this.destroy(e);
      return;
    }
    this.pending = false;
    this.emit('open', this.fd);
    this.emit('ready');
    this.read(0);
  }
  _read(n) {
    if (this.fd === null) { this.once('open', () => this._read(n)); return; }
    let want = n;
    if (this.end !== Infinity) {
      const pos = this.pos === undefined ? this.bytesRead + (this.start || 0) : this.pos;
      want = Math.min(n, this.end - pos + 1);
      if (want <= 0) { this.push(null); return; }
    }
    const buf = Buffer.allocUnsafe(want);
    let got;
    try {
      got = fs.readSync(this.fd, buf, 0, want, this.pos === undefined ? null : this.pos);
    } catch (e) {
      this.destroy(e);
      return;
    }
    if (this.pos !== undefined) this.pos += got;
    this.bytesRead += got;
    this.push(got > 0 ? buf.subarray(0, got) : null);
  }
  _destroy(err, cb) { closeOwnFd(this, err, cb); }
  close(cb) {
    if (cb) this.once('close', cb);
    this.destroy();
  }
}

class WriteStream extends Writable {
  constructor(path, options) {
    if (typeof options === 'string') options = { encoding: options };
    options = { ...options };
    super({ ...options, decodeStrings: true });
    this.path = path === null || path === undefined ? undefined : fs._toPath(path);
    this.fd = options.fd === undefined ? null : (typeof options.fd === 'object' ? options.fd.fd : options.fd);
    this.flags = options.flags === undefined ? 'w' : options.flags;
    this.mode = options.mode === undefined ? 0o666 : options.mode;
    this.start = options.start;
    this.pos = this.start;
    this.bytesWritten = 0;
    this.autoClose = options.autoClose !== false;
    this.pending = true;
    if (options.encoding) this.setDefaultEncoding(options.encoding);
    if (this.fd === null) {
      try {
        this.fd = fs.openSync(this.path, this.flags, this.mode);
        this.pending = false;
        process.nextTick(() => { this.emit('open', this.fd); this.emit('ready'); });
      } catch (e) {
        process.nextTick(() => this.destroy(e));
      }
    } else {
      this.pending = false;
    }
  }
  _write(chunk, encoding, cb) {
    try {
      const n = fs.writeSync(this.fd, chunk, 0, chunk.length, this.pos === undefined ? null : this.pos);
      if (this.pos !== undefined) this.pos += n;
      this.bytesWritten += n;
    } catch (e) {
      cb(e);
      return;
    }
    cb();
  }
  _destroy(err, cb) { closeOwnFd(this, err, cb); }
  close(cb) {
    if (cb) {
      if (this.closed) { process.nextTick(cb); return; }
      this.on('close', cb);
    }
    if (!this.writableEnded) this.end();
    else this.destroy();
  }
  destroySoon() { this.end(); }
}

module.exports = { ReadStream, WriteStream };
