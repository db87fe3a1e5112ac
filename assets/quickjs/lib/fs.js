'use strict';
// node:fs over the sandbox's files (quickjs-libc's os module and a few native
// calls): the synchronous API, the callback API on top of it (the callback
// runs on a later tick, as Node's do), streams, and fs.promises.

const { os } = native;
const pathMod = require('path');
const { Buffer } = require('buffer');
const { codes, uvException, validateFunction } = require('internal/errors');
const { readAll, writeAll } = require('internal/fdio');

const constants = {
  UV_FS_SYMLINK_DIR: 1, UV_FS_SYMLINK_JUNCTION: 2,
  O_RDONLY: 0, O_WRONLY: 1, O_RDWR: 2,
  UV_DIRENT_UNKNOWN: 0, UV_DIRENT_FILE: 1, UV_DIRENT_DIR: 2, UV_DIRENT_LINK: 3, UV_DIRENT_FIFO: 4, UV_DIRENT_SOCKET: 5, UV_DIRENT_CHAR: 6, UV_DIRENT_BLOCK: 7,
  S_IFMT: 0o170000, S_IFREG: 0o100000, S_IFDIR: 0o40000, S_IFCHR: 0o20000, S_IFBLK: 0o60000, S_IFIFO: 0o10000, S_IFLNK: 0o120000, S_IFSOCK: 0o140000,
  O_CREAT: 0o100, O_EXCL: 0o200, UV_FS_O_FILEMAP: 0, O_NOCTTY: 0o400, O_TRUNC: 0o1000, O_APPEND: 0o2000, O_DIRECTORY: 0o200000,
  O_NOATIME: 0o1000000, O_NOFOLLOW: 0o400000, O_SYNC: 0o4010000, O_DSYNC: 0o10000, O_DIRECT: 0o40000, O_NONBLOCK: 0o4000,
  S_IRWXU: 0o700, S_IRUSR: 0o400, S_IWUSR: 0o200, S_IXUSR: 0o100, S_IRWXG: 0o70, S_IRGRP: 0o40, S_IWGRP: 0o20, S_IXGRP: 0o10,
  S_IRWXO: 0o7, S_IROTH: 0o4, S_IWOTH: 0o2, S_IXOTH: 0o1,
  F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1, UV_FS_COPYFILE_EXCL: 1, COPYFILE_EXCL: 1, UV_FS_COPYFILE_FICLONE: 2, COPYFILE_FICLONE: 2,
  UV_FS_COPYFILE_FICLONE_FORCE: 4, COPYFILE_FICLONE_FORCE: 4,
};

// Node's (Linux) open flags -> quickjs-libc's (wasi-libc's)
function toOsFlags(flags) {
  let f = 0;
  const acc = flags & 3;
  f |= acc === 0 ? os.O_RDONLY : acc === 1 ? os.O_WRONLY : os.O_RDWR;
  if (flags & constants.O_CREAT) f |= os.O_CREAT;
  if (flags & constants.O_EXCL) f |= os.O_EXCL;
  if (flags & constants.O_TRUNC) f |= os.O_TRUNC;
  if (flags & constants.O_APPEND) f |= os.O_APPEND;
  return f;
}
function stringToFlags(flags, def = 'r') {
  if (flags === undefined || flags === null) flags = def;
  if (typeof flags === 'number') return flags;
  const C = constants;
  switch (flags) {
    case 'r': return C.O_RDONLY;
    case 'rs': case 'sr': return C.O_RDONLY | C.O_SYNC;
    case 'r+': return C.O_RDWR;
    case 'rs+': case 'sr+': return C.O_RDWR | C.O_SYNC;
    case 'w': return C.O_TRUNC | C.O_CREAT | C.O_WRONLY;
    case 'wx': case 'xw': return C.O_TRUNC | C.O_CREAT | C.O_WRONLY | C.O_EXCL;
    case 'w+': return C.O_TRUNC | C.O_CREAT | C.O_RDWR;
    case 'wx+': case 'xw+': return C.O_TRUNC | C.O_CREAT | C.O_RDWR | C.O_EXCL;
    case 'a': return C.O_APPEND | C.O_CREAT | C.O_WRONLY;
    case 'ax': case 'xa': return C.O_APPEND | C.O_CREAT | C.O_WRONLY | C.O_EXCL;
    case 'as': case 'sa': return C.O_APPEND | C.O_CREAT | C.O_WRONLY | C.O_SYNC;
    case 'a+': return C.O_APPEND | C.O_CREAT | C.O_RDWR;
    case 'ax+': case 'xa+': return C.O_APPEND | C.O_CREAT | C.O_RDWR | C.O_EXCL;
    case 'as+': case 'sa+': return C.O_APPEND | C.O_CREAT | C.O_RDWR | C.O_SYNC;
  }
  throw new codes.ERR_INVALID_ARG_VALUE('flags', flags);
}

function toPath(p, name = 'path') {
  if (typeof p === 'string') {
    if (p.includes('\u0000')) throw new codes.ERR_INVALID_ARG_VALUE(name, p, 'must be a string, Uint8Array, or URL without null bytes');
    return p;
  }
  if (p instanceof Uint8Array) return Buffer.from(p).toString();
  if (p && typeof p === 'object' && p.href !== undefined && p.protocol !== undefined) {
    return require('url').fileURLToPath(p);
  }
  throw new codes.ERR_INVALID_ARG_TYPE(name, ['string', 'Buffer', 'URL'], p);
}
function getOptions(options, def) {
  if (options === null || options === undefined || typeof options === 'function') return def;
  if (typeof options === 'string') return { ...def, encoding: options };
  if (typeof options !== 'object') throw new codes.ERR_INVALID_ARG_TYPE('options', ['string', 'Object'], options);
  return { ...def, ...options };
}
function check(r, syscall, path, dest) {
  if (r < 0) throw uvException(-r, syscall, path, dest);
  return r;
}
function modeNum(mode, def) {
  if (mode === undefined || mode === null) return def;
  if (typeof mode === 'string') return Number.parseInt(mode, 8);
  return mode;
}

class Stats {
  constructor(st) {
    this.dev = st.dev; this.mode = st.mode; this.nlink = st.nlink; this.uid = st.uid; this.gid = st.gid;
    this.rdev = st.rdev; this.blksize = 4096; this.ino = st.ino; this.size = st.size; this.blocks = st.blocks;
    this.atimeMs = st.atime; this.mtimeMs = st.mtime; this.ctimeMs = st.ctime; this.birthtimeMs = st.ctime;
  }
  _type() { return this.mode & constants.S_IFMT; }
  isFile() { return this._type() === constants.S_IFREG; }
  isDirectory() { return this._type() === constants.S_IFDIR; }
  isSymbolicLink() { return this._type() === constants.S_IFLNK; }
  isFIFO() { return this._type() === constants.S_IFIFO; }
  isSocket() { return this._type() === constants.S_IFSOCK; }
  isCharacterDevice() { return this._type() === constants.S_IFCHR; }
  isBlockDevice() { return this._type() === constants.S_IFBLK; }
}
for (const k of ['atime', 'mtime', 'ctime', 'birthtime']) {
  Object.defineProperty(Stats.prototype, k, {
    get() { return new Date(this[`${k}Ms`]); },
    set(v) { Object.defineProperty(this, k, { value: v, writable: true, enumerable: true, configurable: true }); },
    enumerable: true, configurable: true,
  });
}
Object.defineProperty(Stats.prototype, '_type', { enumerable: false });
function makeStats(st, opts) {
  const s = new Stats(st);
  if (opts && opts.bigint) {
    for (const k of ['dev', 'mode', 'nlink', 'uid', 'gid', 'rdev', 'blksize', 'ino', 'size', 'blocks']) s[k] = BigInt(s[k]);
    for (const k of ['atime', 'mtime', 'ctime', 'birthtime']) {
      s[`${k}Ns`] = BigInt(Math.floor(s[`${k}Ms`] * 1e6));
      s[`${k}Ms`] = BigInt(Math.floor(s[`${k}Ms`]));
    }
    s._type = function () { return Number(this.mode) & constants.S_IFMT; };
  }
  return s;
}

// stat or lstat (syscall names os's call): ENOENT/ENOTDIR give undefined
// when options.throwIfNoEntry is false
function statWith(syscall, path, options) {
  path = toPath(path);
  const [st, err] = os[syscall](path);
  if (err) {
    if (options && options.throwIfNoEntry === false && (err === 44 || err === 54)) return undefined;
    throw uvException(err, syscall, path);
  }
  return makeStats(st, options);
}
function statSync(path, options) { return statWith('stat', path, options); }
function lstatSync(path, options) { return statWith('lstat', path, options); }
const fdPaths = new Map();
function fstatSync(fd, options) {
  const p = fdPaths.get(fd);
  if (p !== undefined) {
    const [st, err] = os.stat(p);
    if (!err) return makeStats(st, options);
  }
  const mode = native.fstatMode(fd);
  if (mode < 0) throw uvException(-mode, 'fstat');
  const size = (() => {
    if ((mode & constants.S_IFMT) !== constants.S_IFREG) return 0;
    const cur = os.seek(fd, 0, 1);
    const end = os.seek(fd, 0, 2);
    os.seek(fd, cur, 0);
    return Number(end);
  })();
  return makeStats({ dev: 0, ino: 0, mode, nlink: 1, uid: 0, gid: 0, rdev: 0, size, blocks: Math.ceil(size / 512), atime: 0, mtime: 0, ctime: 0 }, options);
}

function existsSync(path) {
  try { path = toPath(path); } catch { return false; }
  const [, err] = os.stat(path);
  return !err;
}
function accessSync(path, mode = constants.F_OK) {
  path = toPath(path);
  check(native.access(path, mode), 'access', path);
}

function openSync(path, flags, mode) {
  path = toPath(path);
  const f = stringToFlags(flags);
  const fd = os.open(path, toOsFlags(f), modeNum(mode, 0o666));
  if (fd < 0) {
    // opening a directory for writing: EISDIR, as Linux says
    throw uvException(-fd, 'open', path);
  }
  if ((f & 3) !== 0) {
    const m = native.fstatMode(fd);
    if (m >= 0 && (m & constants.S_IFMT) === constants.S_IFDIR) { os.close(fd); throw uvException(31, 'open', path); }
  }
  fdPaths.set(fd, pathMod.resolve(path));
  return fd;
}
function closeSync(fd) {
  fdPaths.delete(fd);
  check(os.close(fd), 'close');
}

function isFd(p) { return typeof p === 'number' && Number.isInteger(p) && p >= 0; }

function readFileSync(path, options) {
  options = getOptions(options, { flag: 'r' });
  let fd;
  const own = !isFd(path);
  if (own) {
    path = toPath(path);
    fd = openSync(path, options.flag, 0o666);
    const m = native.fstatMode(fd);
    if (m >= 0 && (m & constants.S_IFMT) === constants.S_IFDIR) {
      closeSync(fd);
      throw uvException(31, 'read');
    }
  } else {
    fd = path;
  }
  let data;
  try {
    data = readAll(fd);
    if (typeof data === 'number') throw uvException(-data, 'read');
  } finally {
    if (own) closeSync(fd);
  }
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (options.encoding && options.encoding !== 'buffer') return buf.toString(options.encoding);
  return buf;
}

function writeFileSync(path, data, options) {
  options = getOptions(options, { encoding: 'utf8', mode: 0o666, flag: 'w' });
  let fd;
  const own = !isFd(path);
  if (own) {
    path = toPath(path);
    fd = openSync(path, options.flag, options.mode);
  } else {
    fd = path;
  }
  try {
    let bytes;
    if (typeof data === 'string') bytes = options.encoding === 'utf8' || options.encoding === 'utf-8' || !options.encoding ? data : Buffer.from(data, options.encoding);
    else if (ArrayBuffer.isView(data)) bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    else if (data && typeof data === 'object' && typeof data[Symbol.iterator] === 'function') bytes = Buffer.concat([...data].map((c) => (typeof c === 'string' ? Buffer.from(c) : c)));
    else throw new codes.ERR_INVALID_ARG_TYPE('data', ['string', 'Buffer', 'TypedArray', 'DataView'], data);
    const r = writeAll(fd, bytes);
    if (r < 0) throw uvException(-r, 'write');
  } finally {
    if (own) closeSync(fd);
  }
}
function appendFileSync(path, data, options) {
  options = getOptions(options, { encoding: 'utf8', mode: 0o666, flag: 'a' });
  if (!options.flag || isFd(path)) options.flag = 'a';
  writeFileSync(path, data, { ...options, flag: options.flag || 'a' });
}

function readSync(fd, buffer, offsetOrOptions, length, position) {
  let offset = offsetOrOptions;
  if (offsetOrOptions && typeof offsetOrOptions === 'object') ({ offset = 0, length = buffer.byteLength - offset, position = null } = offsetOrOptions);
  if (offset === undefined) offset = 0;
  if (length === undefined) length = buffer.byteLength - offset;
  if (length === 0) return 0;
  let saved;
  if (position !== null && position !== undefined && position >= 0) {
    saved = os.seek(fd, 0, 1);
    os.seek(fd, Number(position), 0);
  }
  const n = os.read(fd, buffer.buffer, buffer.byteOffset + offset, length);
  if (saved !== undefined) os.seek(fd, saved, 0);
  return check(n, 'read');
}
function writeSync(fd, buffer, offsetOrOptions, length, position) {
  let bytes;
  if (typeof buffer === 'string') {
    position = offsetOrOptions;
    bytes = Buffer.from(buffer, typeof length === 'string' ? length : 'utf8');
  } else {
    let offset = offsetOrOptions;
    if (offset && typeof offset === 'object') ({ offset = 0, length, position = null } = offset);
    offset = offset || 0;
    if (length === undefined) length = buffer.byteLength - offset;
    bytes = new Uint8Array(buffer.buffer, buffer.byteOffset + offset, length);
  }
  let saved;
  if (typeof position === 'number' && position >= 0) {
    saved = os.seek(fd, 0, 1);
    os.seek(fd, position, 0);
  }
  const r = writeAll(fd, bytes);
  if (saved !== undefined) os.seek(fd, saved, 0);
  check(r, 'write');
  return bytes.length;
}

class Dirent {
  constructor(name, type, dir) { this.name = name; this.parentPath = dir; this.path = dir; this._t = type; }
  isFile() { return this._t === constants.S_IFREG; }
  isDirectory() { return this._t === constants.S_IFDIR; }
  isSymbolicLink() { return this._t === constants.S_IFLNK; }
  isFIFO() { return this._t === constants.S_IFIFO; }
  isSocket() { return this._t === constants.S_IFSOCK; }
  isCharacterDevice() { return this._t === constants.S_IFCHR; }
  isBlockDevice() { return this._t === constants.S_IFBLK; }
}
Object.defineProperty(Dirent.prototype, '_t', { writable: true, enumerable: false });

function readdirSync(path, options) {
  options = getOptions(options, { encoding: 'utf8', withFileTypes: false, recursive: false });
  path = toPath(path);
  const [names, err] = os.readdir(path);
  if (err) {
    if (err === 44) throw uvException(44, 'scandir', path);
    const [st] = os.stat(path);
    if (st && (st.mode & constants.S_IFMT) !== constants.S_IFDIR) throw uvException(54, 'scandir', path);
    throw uvException(err, 'scandir', path);
  }
  const list = names.filter((n) => n !== '.' && n !== '..').sort();
  let out = [];
  for (const n of list) {
    if (options.withFileTypes) {
      const [st] = os.lstat(`${path}/${n}`);
      const d = new Dirent(n, st ? st.mode & constants.S_IFMT : 0, path);
      Object.defineProperty(d, '_t', { enumerable: false, writable: true });
      out.push(d);
    } else {
      out.push(options.encoding === 'buffer' ? Buffer.from(n) : n);
    }
    if (options.recursive) {
      const [st] = os.lstat(`${path}/${n}`);
      if (st && (st.mode & constants.S_IFMT) === constants.S_IFDIR) {
        const sub = readdirSync(`${path}/${n}`, options);
        for (const s of sub) out.push(options.withFileTypes ? s : `${n}/${s}`);
      }
    }
  }
  return out;
}

function mkdirSync(path, options) {
  let mode = 0o777, recursive = false;
  if (typeof options === 'number' || typeof options === 'string') mode = modeNum(options);
  else if (options) { recursive = !!options.recursive; mode = modeNum(options.mode, 0o777); }
  path = toPath(path);
  if (!recursive) {
    check(os.mkdir(path, mode), 'mkdir', path);
    return undefined;
  }
  const abs = pathMod.resolve(path);
  const parts = abs.split('/').filter(Boolean);
  let cur = '';
  let first;
  for (const p of parts) {
    cur += `/${p}`;
    const [st, err] = os.stat(cur);
    if (!err) {
      if ((st.mode & constants.S_IFMT) !== constants.S_IFDIR) throw uvException(54, 'mkdir', path);
      continue;
    }
    const r = os.mkdir(cur, mode);
    if (r < 0 && r !== -20) throw uvException(-r, 'mkdir', path); // (-20: EEXIST, a race)
    if (first === undefined) first = cur;
  }
  return first;
}

function rmdirSync(path, options) {
  path = toPath(path);
  if (options && options.recursive) return rmSync(path, { recursive: true, force: true });
  const [st, err] = os.lstat(path);
  if (err) throw uvException(err, 'rmdir', path);
  if ((st.mode & constants.S_IFMT) !== constants.S_IFDIR) throw uvException(54, 'rmdir', path);
  check(os.remove(path), 'rmdir', path);
}
function unlinkSync(path) {
  path = toPath(path);
  const [st, err] = os.lstat(path);
  if (err) throw uvException(err, 'unlink', path);
  if ((st.mode & constants.S_IFMT) === constants.S_IFDIR) throw uvException(31, 'unlink', path);
  check(os.remove(path), 'unlink', path);
}
function rmSync(path, options = {}) {
  path = toPath(path);
  const [st, err] = os.lstat(path);
  if (err) {
    if (options.force && err === 44) return;
    throw uvException(err, 'rm', path);
  }
  if ((st.mode & constants.S_IFMT) === constants.S_IFDIR) {
    if (!options.recursive) {
      const e = new Error(`Path is a directory: rm returned EISDIR (is a directory) ${path}`);
      e.code = 'ERR_FS_EISDIR';
      e.errno = 21;
      e.syscall = 'rm';
      e.path = path;
      e.name = 'SystemError';
      throw e;
    }
    const [names] = os.readdir(path);
    for (const n of names || []) if (n !== '.' && n !== '..') rmSync(`${path}/${n}`, options);
  }
  check(os.remove(path), 'rm', path);
}
function renameSync(a, b) {
  a = toPath(a, 'oldPath');
  b = toPath(b, 'newPath');
  check(os.rename(a, b), 'rename', a, b);
}
function copyFileSync(src, dest, mode = 0) {
  src = toPath(src, 'src');
  dest = toPath(dest, 'dest');
  if (mode & constants.COPYFILE_EXCL && existsSync(dest)) throw uvException(20, 'copyfile', src, dest);
  const [st, err] = os.stat(src);
  if (err) throw uvException(err, 'copyfile', src, dest);
  if ((st.mode & constants.S_IFMT) === constants.S_IFDIR) throw uvException(31, 'copyfile', src, dest);
  const data = readFileSync(src);
  const fd = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, st.mode & 0o777);
  if (fd < 0) throw uvException(-fd, 'copyfile', src, dest);
  writeAll(fd, data);
  os.close(fd);
}
function symlinkSync(target, path) {
  target = toPath(target, 'target');
  path = toPath(path);
  check(os.symlink(target, path), 'symlink', target, path);
}
function linkSync(existing, newPath) {
  existing = toPath(existing, 'existingPath');
  newPath = toPath(newPath, 'newPath');
  check(native.link(existing, newPath), 'link', existing, newPath);
}
function readlinkSync(path, options) {
  path = toPath(path);
  const [r, err] = os.readlink(path);
  if (err) throw uvException(err, 'readlink', path);
  options = getOptions(options, {});
  return options.encoding === 'buffer' ? Buffer.from(r) : r;
}
function realpathSync(path, options) {
  path = toPath(path);
  const [r, err] = os.realpath(path);
  if (err) throw uvException(err, 'lstat', path);
  options = getOptions(options, {});
  return options.encoding === 'buffer' ? Buffer.from(r) : r;
}
realpathSync.native = realpathSync;
function chmodSync(path, mode) {
  path = toPath(path);
  check(native.chmod(path, modeNum(mode)), 'chmod', path);
}
function fchmodSync(fd, mode) { const p = fdPaths.get(fd); if (p) chmodSync(p, mode); }
function chownSync() {}
function utimesSync(path, atime, mtime) {
  path = toPath(path);
  const ms = (t) => (t instanceof Date ? t.getTime() : typeof t === 'string' ? Number(t) * 1000 : t * 1000);
  check(os.utimes(path, ms(atime), ms(mtime)), 'utime', path);
}
function futimesSync(fd, atime, mtime) { const p = fdPaths.get(fd); if (p) utimesSync(p, atime, mtime); }
function truncateSync(path, len = 0) {
  if (isFd(path)) return ftruncateSync(path, len);
  path = toPath(path);
  check(native.truncate(path, len), 'open', path);
}
function ftruncateSync(fd, len = 0) { check(native.truncate(fd, len, true), 'ftruncate'); }
function fsyncSync(fd) { check(native.fsync(fd), 'fsync'); }
function mkdtempSync(prefix, options) {
  prefix = toPath(prefix, 'prefix');
  const chars = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  for (let tries = 0; tries < 100; tries++) {
    const b = new Uint8Array(6);
    native.randomFill(b);
    let s = '';
    for (const x of b) s += chars[x % chars.length];
    const r = os.mkdir(prefix + s, 0o700);
    if (r === 0) return prefix + s;
    if (r !== -20) throw uvException(-r, 'mkdtemp', `${prefix}XXXXXX`);
  }
  throw uvException(20, 'mkdtemp', `${prefix}XXXXXX`);
}
function cpSync(src, dest, options = {}) {
  src = toPath(src, 'src');
  dest = toPath(dest, 'dest');
  const st = lstatSync(src);
  if (st.isDirectory()) {
    if (!options.recursive) {
      const e = new Error(`Recursive option is required to copy a directory: ${src}`);
      e.code = 'ERR_FS_EISDIR';
      throw e;
    }
    mkdirSync(dest, { recursive: true });
    for (const n of readdirSync(src)) {
      if (options.filter && !options.filter(`${src}/${n}`, `${dest}/${n}`)) continue;
      cpSync(`${src}/${n}`, `${dest}/${n}`, options);
    }
  } else if (st.isSymbolicLink()) {
    symlinkSync(readlinkSync(src), dest);
  } else {
    if (options.errorOnExist && options.force === false && existsSync(dest)) {
      const e = new Error(`Target already exists: cp returned EEXIST (${dest} already exists)`);
      e.code = 'ERR_FS_CP_EEXIST';
      throw e;
    }
    if (options.force === false && existsSync(dest)) return;
    copyFileSync(src, dest);
  }
}
function opendirSync(path) {
  const entries = readdirSync(path, { withFileTypes: true });
  let i = 0;
  return {
    path,
    readSync: () => (i < entries.length ? entries[i++] : null),
    read(cb) { const v = i < entries.length ? entries[i++] : null; if (cb) { process.nextTick(cb, null, v); return undefined; } return Promise.resolve(v); },
    closeSync() {},
    close(cb) { if (cb) process.nextTick(cb, null); else return Promise.resolve(); return undefined; },
    async *[Symbol.asyncIterator]() { while (i < entries.length) yield entries[i++]; },
    *[Symbol.iterator]() { while (i < entries.length) yield entries[i++]; },
  };
}
function statfsSync() {
  return { type: 0x01021994, bsize: 4096, blocks: 1 << 20, bfree: 1 << 19, bavail: 1 << 19, files: 1 << 20, ffree: 1 << 19 };
}

function watch() { throw new codes.ERR_FEATURE_UNAVAILABLE_ON_PLATFORM('fs.watch'); }
function watchFile() { throw new codes.ERR_FEATURE_UNAVAILABLE_ON_PLATFORM('fs.watchFile'); }

const fs = module.exports = {
  constants, Stats, Dirent,
  existsSync, statSync, lstatSync, fstatSync, accessSync, openSync, closeSync, readFileSync, writeFileSync,
  appendFileSync, readSync, writeSync, readdirSync, mkdirSync, rmdirSync, unlinkSync, rmSync, renameSync,
  copyFileSync, symlinkSync, linkSync, readlinkSync, realpathSync, chmodSync, fchmodSync, lchmodSync: chmodSync,
  chownSync, lchownSync: chownSync, fchownSync: chownSync, utimesSync, futimesSync, lutimesSync: utimesSync,
  truncateSync, ftruncateSync, fsyncSync, fdatasyncSync: fsyncSync, mkdtempSync, cpSync, opendirSync, statfsSync,
  watch, watchFile, unwatchFile: () => {},
  F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1,
};

// the callback API: the sync call, its result delivered in a later poll
// phase of the event loop (internal/loop's ioComplete), as libuv's would be
const loop = require('internal/loop');
const requestCounts = { readFileSync: 4, writeFileSync: 3, appendFileSync: 3, copyFileSync: 2, cpSync: 2, rmSync: 2, mkdtempSync: 1 };
function later(name, run, deliver) {
  let result, error = null;
  try { result = run(); } catch (e) { error = e; }
  loop.ioComplete(requestCounts[name] || 1, () => deliver(error, result));
}
fs._later = later;
const noCallbackArgs = new Set(['existsSync']);
for (const name of Object.keys(fs)) {
  if (!name.endsWith('Sync') || noCallbackArgs.has(name)) continue;
  const syncFn = fs[name];
  const cbName = name.slice(0, -4);
  fs[cbName] = function (...args) {
    const cb = args.pop();
    validateFunction(cb, 'cb');
    later(name, () => syncFn(...args), (error, result) => (error ? cb(error) : cb(null, result)));
  };
}
fs.exists = function exists(path, cb) {
  validateFunction(cb, 'cb');
  const r = existsSync(path);
  loop.ioComplete(1, () => cb(r));
};
fs.realpath.native = fs.realpath;
fs.read = function read(fd, buffer, offset, length, position, cb) {
  if (typeof buffer === 'function') { cb = buffer; buffer = Buffer.alloc(16384); offset = 0; length = buffer.length; position = null; }
  else if (typeof offset === 'function') { cb = offset; offset = 0; length = buffer.byteLength; position = null; }
  else if (offset && typeof offset === 'object') { cb = length; ({ offset = 0, length = buffer.byteLength - offset, position = null } = offset); }
  later('readSync', () => readSync(fd, buffer, offset, length, position), (err, n) => (err ? cb(err) : cb(null, n, buffer)));
};
fs.write = function write(fd, buffer, ...rest) {
  const cb = rest.pop();
  later('writeSync', () => writeSync(fd, buffer, ...rest), (err, n) => (err ? cb(err) : cb(null, n, buffer)));
};

Object.defineProperty(fs, 'promises', { enumerable: true, configurable: true, get: () => require('fs/promises') });
fs.createReadStream = (path, options) => new (require('internal/fs_streams').ReadStream)(path, options);
fs.createWriteStream = (path, options) => new (require('internal/fs_streams').WriteStream)(path, options);
Object.defineProperty(fs, 'ReadStream', { get: () => require('internal/fs_streams').ReadStream, enumerable: true, configurable: true });
Object.defineProperty(fs, 'WriteStream', { get: () => require('internal/fs_streams').WriteStream, enumerable: true, configurable: true });
fs._toPath = toPath;
fs._stringToFlags = stringToFlags;
