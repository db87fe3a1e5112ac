'use strict';
// node:fs/promises — the synchronous calls, settled on a later tick

const fs = require('fs');
const { Buffer } = require('buffer');

function wrap(fn, name) {
  return (...args) => new Promise((resolve, reject) => {
    fs._later(name, () => fn(...args), (err, r) => (err ? reject(err) : resolve(r)));
  });
}

class FileHandle {
  constructor(fd) { this.fd = fd; }
  async read(buffer, offset, length, position) {
    if (buffer === undefined || (buffer && !ArrayBuffer.isView(buffer))) {
      const o = buffer || {};
      buffer = o.buffer || Buffer.alloc(16384);
      offset = o.offset || 0; length = o.length === undefined ? buffer.byteLength - offset : o.length; position = o.position;
    }
    const bytesRead = fs.readSync(this.fd, buffer, offset, length, position);
    return { bytesRead, buffer };
  }
  async write(data, ...rest) {
    const bytesWritten = fs.writeSync(this.fd, data, ...rest);
    return { bytesWritten, buffer: data };
  }
  async readFile(options) { return fs.readFileSync(this.fd, options); }
  async writeFile(data, options) { return fs.writeFileSync(this.fd, data, options); }
  async appendFile(data, options) { return fs.writeFileSync(this.fd, data, options); }
  async stat(options) { return fs.fstatSync(this.fd, options); }
  async truncate(len) { return fs.ftruncateSync(this.fd, len); }
  async sync() { return fs.fsyncSync(this.fd); }
  async datasync() { return fs.fsyncSync(this.fd); }
  async chmod(mode) { return fs.fchmodSync(this.fd, mode); }
  async utimes(a, m) { return fs.futimesSync(this.fd, a, m); }
  async close() { if (this.fd !== -1) { const fd = this.fd; this.fd = -1; fs.closeSync(fd); } }
  async [Symbol.asyncDispose || Symbol.for('nodejs.asyncDispose')]() { return this.close(); }
  createReadStream(options) { return fs.createReadStream(null, { ...options, fd: this.fd }); }
  createWriteStream(options) { return fs.createWriteStream(null, { ...options, fd: this.fd }); }
  async *readLines(options) {
    const text = fs.readFileSync(this.fd, 'utf8');
    const lines = text.split(/\r?\n/);
    if (lines[lines.length - 1] === '') lines.pop();
    yield* lines;
  }
}

const promises = {
  access: wrap(fs.accessSync, 'accessSync'), appendFile: wrap(fs.appendFileSync, 'appendFileSync'), chmod: wrap(fs.chmodSync, 'chmodSync'), chown: wrap(fs.chownSync, 'chownSync'),
  copyFile: wrap(fs.copyFileSync, 'copyFileSync'), cp: wrap(fs.cpSync, 'cpSync'), lchown: wrap(fs.lchownSync, 'lchownSync'), link: wrap(fs.linkSync, 'linkSync'),
  lstat: wrap(fs.lstatSync, 'lstatSync'), lutimes: wrap(fs.lutimesSync, 'lutimesSync'), mkdir: wrap(fs.mkdirSync, 'mkdirSync'), mkdtemp: wrap(fs.mkdtempSync, 'mkdtempSync'),
  readdir: wrap(fs.readdirSync, 'readdirSync'), readFile: wrap((p, o) => fs.readFileSync(p instanceof FileHandle ? p.fd : p, o), 'readFileSync'),
  readlink: wrap(fs.readlinkSync, 'readlinkSync'), realpath: wrap(fs.realpathSync, 'realpathSync'), rename: wrap(fs.renameSync, 'renameSync'), rm: wrap(fs.rmSync, 'rmSync'),
  rmdir: wrap(fs.rmdirSync, 'rmdirSync'), stat: wrap(fs.statSync, 'statSync'), statfs: wrap(fs.statfsSync, 'statfsSync'), symlink: wrap(fs.symlinkSync, 'symlinkSync'),
  truncate: wrap(fs.truncateSync, 'truncateSync'), unlink: wrap(fs.unlinkSync, 'unlinkSync'), utimes: wrap(fs.utimesSync, 'utimesSync'),
  writeFile: wrap((p, d, o) => fs.writeFileSync(p instanceof FileHandle ? p.fd : p, d, o), 'writeFileSync'),
  open: wrap((p, flags, mode) => new FileHandle(fs.openSync(p, flags, mode)), 'openSync'),
  opendir: wrap(fs.opendirSync, 'opendirSync'),
  watch: () => { throw new Error('fs.promises.watch is not supported in the wasmsand sandbox'); },
  constants: fs.constants,
  FileHandle,
};
module.exports = promises;
