'use strict';
// Node's errors: the classes with a `code` (ERR_*), and the system errors of
// fs, child_process and the rest (errno, code, syscall, path), with libuv's
// messages and Linux errno numbers whatever the sandbox's errno numbering.

// wasi-libc's errno (WASI numbering) -> [code, Linux errno, libuv's message]
const table = {
  1: ['E2BIG', 7, 'argument list too long'],
  2: ['EACCES', 13, 'permission denied'],
  3: ['EADDRINUSE', 98, 'address already in use'],
  4: ['EADDRNOTAVAIL', 99, 'address not available'],
  5: ['EAFNOSUPPORT', 97, 'address family not supported'],
  6: ['EAGAIN', 11, 'resource temporarily unavailable'],
  7: ['EALREADY', 114, 'connection already in progress'],
  8: ['EBADF', 9, 'bad file descriptor'],
  10: ['EBUSY', 16, 'resource busy or locked'],
  11: ['ECANCELED', 125, 'operation canceled'],
  12: ['ECHILD', 10, 'no child processes'],
  13: ['ECONNABORTED', 103, 'software caused connection abort'],
  14: ['ECONNREFUSED', 111, 'connection refused'],
  15: ['ECONNRESET', 104, 'connection reset by peer'],
  17: ['EDESTADDRREQ', 89, 'destination address required'],
  20: ['EEXIST', 17, 'file already exists'],
  21: ['EFAULT', 14, 'bad address in system call argument'],
  22: ['EFBIG', 27, 'file too large'],
  23: ['EHOSTUNREACH', 113, 'host is unreachable'],
  25: ['EILSEQ', 84, 'illegal byte sequence'],
  27: ['EINTR', 4, 'interrupted system call'],
  28: ['EINVAL', 22, 'invalid argument'],
  29: ['EIO', 5, 'i/o error'],
  30: ['EISCONN', 106, 'socket is already connected'],
  31: ['EISDIR', 21, 'illegal operation on a directory'],
  32: ['ELOOP', 40, 'too many symbolic links encountered'],
  33: ['EMFILE', 24, 'too many open files'],
  34: ['EMLINK', 31, 'too many links'],
  35: ['EMSGSIZE', 90, 'message too long'],
  37: ['ENAMETOOLONG', 36, 'name too long'],
  38: ['ENETDOWN', 100, 'network is down'],
  40: ['ENETUNREACH', 101, 'network is unreachable'],
  41: ['ENFILE', 23, 'file table overflow'],
  42: ['ENOBUFS', 105, 'no buffer space available'],
  43: ['ENODEV', 19, 'no such device'],
  44: ['ENOENT', 2, 'no such file or directory'],
  45: ['ENOEXEC', 8, 'exec format error'],
  48: ['ENOMEM', 12, 'not enough memory'],
  50: ['ENOPROTOOPT', 92, 'protocol not available'],
  51: ['ENOSPC', 28, 'no space left on device'],
  52: ['ENOSYS', 38, 'function not implemented'],
  53: ['ENOTCONN', 107, 'socket is not connected'],
  54: ['ENOTDIR', 20, 'not a directory'],
  55: ['ENOTEMPTY', 39, 'directory not empty'],
  57: ['ENOTSOCK', 88, 'socket operation on non-socket'],
  58: ['ENOTSUP', 95, 'operation not supported on socket'],
  59: ['ENOTTY', 25, 'inappropriate ioctl for device'],
  60: ['ENXIO', 6, 'no such device or address'],
  61: ['EOVERFLOW', 75, 'value too large for defined data type'],
  63: ['EPERM', 1, 'operation not permitted'],
  64: ['EPIPE', 32, 'broken pipe'],
  65: ['EPROTO', 71, 'protocol error'],
  66: ['EPROTONOSUPPORT', 93, 'protocol not supported'],
  67: ['EPROTOTYPE', 91, 'protocol wrong type for socket'],
  68: ['ERANGE', 34, 'result too large'],
  69: ['EROFS', 30, 'read-only file system'],
  70: ['ESPIPE', 29, 'invalid seek'],
  71: ['ESRCH', 3, 'no such process'],
  73: ['ETIMEDOUT', 110, 'connection timed out'],
  74: ['ETXTBSY', 26, 'text file is busy'],
  75: ['EXDEV', 18, 'cross-device link not permitted'],
  76: ['EACCES', 13, 'permission denied'], // ENOTCAPABLE: outside what the sandbox gives
};
const byCode = {};
for (const k of Object.keys(table)) byCode[table[k][0]] = table[k];

function errnoInfo(e) {
  return table[e] || ['UNKNOWN', 4094, 'unknown error'];
}

// uvException: a system error the way Node's fs makes them:
// "ENOENT: no such file or directory, open '/x'"
function uvException(wasiErrno, syscall, path, dest) {
  const [code, linux, text] = errnoInfo(wasiErrno);
  let message = `${code}: ${text}, ${syscall}`;
  if (path !== undefined) message += ` '${path}'`;
  if (dest !== undefined) message += ` -> '${dest}'`;
  const err = new Error(message);
  err.errno = -linux;
  err.code = code;
  err.syscall = syscall;
  if (path !== undefined) err.path = String(path);
  if (dest !== undefined) err.dest = String(dest);
  return err;
}


const messages = new Map();
const codes = {};

function makeNodeError(Base, code) {
  return class NodeError extends Base {
    constructor(...args) {
      const m = messages.get(code);
      super(typeof m === 'function' ? m(...args) : m);
      Object.defineProperty(this, 'code', { value: code, enumerable: true, writable: true, configurable: true });
      // the stack's header is made when first read: "TypeError [ERR_X]: ..."
      Object.defineProperty(this, 'name', { value: `${Base.name} [${code}]`, configurable: true, writable: true });
      void this.stack;
      delete this.name;
    }
    get name() { return Base.name; }
    set name(v) { Object.defineProperty(this, 'name', { value: v, writable: true, configurable: true, enumerable: true }); }
    toString() { return `${Base.name} [${code}]: ${this.message}`; }
  };
}

function E(code, message, ...bases) {
  messages.set(code, message);
  const C = makeNodeError(bases[0] || Error, code);
  Object.defineProperty(C, 'name', { value: bases[0] ? bases[0].name : 'Error' });
  codes[code] = C;
}

function typeOf(value) {
  if (value == null) return ` Received ${value}`;
  if (typeof value === 'function') return ` Received function ${value.name}`;
  if (typeof value === 'object') {
    if (value.constructor && value.constructor.name) return ` Received an instance of ${value.constructor.name}`;
    return ` Received ${require('internal/inspect').inspect(value, { depth: -1 })}`;
  }
  let shown = require('internal/inspect').inspect(value, { colors: false });
  if (shown.length > 28) shown = `${shown.slice(0, 25)}...`;
  return ` Received type ${typeof value} (${shown})`;
}

const classNames = new Set(['Object', 'Function', 'Array', 'Buffer', 'URL', 'Uint8Array', 'TypedArray', 'DataView', 'ArrayBuffer', 'Date', 'RegExp', 'Promise', 'AbortSignal', 'EventEmitter', 'Error', 'Map', 'Set']);
function describeExpected(name, expected) {
  if (!Array.isArray(expected)) expected = [expected];
  let msg = name.endsWith(' argument') ? `The ${name} ` : `The "${name}" ${name.includes('.') ? 'property' : 'argument'} `;
  msg += 'must be ';
  const types = [], instances = [], other = [];
  for (const v of expected) {
    if (classNames.has(v)) instances.push(v);
    else if (/^[a-z]/.test(v)) types.push(v.toLowerCase() === 'object' ? 'object' : v);
    else other.push(v);
  }
  if (instances.length > 0 && types.includes('object')) {
    types.splice(types.indexOf('object'), 1);
    instances.unshift('Object');
  }
  const parts = [];
  if (types.length) parts.push((types.length > 1 ? 'one of type ' : 'of type ') + listJoin(types, 'or'));
  if (instances.length) parts.push('an instance of ' + listJoin(instances, 'or'));
  if (other.length) parts.push(listJoin(other, 'or'));
  return msg + parts.join(' or ') + '.';
}
function listJoin(a, word) {
  if (a.length === 1) return a[0];
  if (a.length === 2) return `${a[0]} ${word} ${a[1]}`;
  return `${a.slice(0, -1).join(', ')}, ${word} ${a[a.length - 1]}`;
}

E('ERR_INVALID_ARG_TYPE', (name, expected, actual) => describeExpected(name, expected) + typeOf(actual), TypeError);
E('ERR_INVALID_ARG_VALUE', (name, value, reason = 'is invalid') => {
  let shown = require('internal/inspect').inspect(value);
  if (shown.length > 128) shown = `${shown.slice(0, 128)}...`;
  return `The ${name.includes('.') ? 'property' : 'argument'} '${name}' ${reason}. Received ${shown}`;
}, TypeError);
E('ERR_OUT_OF_RANGE', (name, range, received) => `The value of "${name}" is out of range. It must be ${range}. Received ${typeof received === 'number' && Math.abs(received) > 2 ** 32 ? String(received).replace(/\B(?=(\d{3})+(?!\d))/g, '_') : require('internal/inspect').inspect(received)}`, RangeError);
E('ERR_MISSING_ARGS', (...names) => `The ${listJoin(names.map((n) => `"${n}"`), 'and')} argument${names.length > 1 ? 's' : ''} must be specified`, TypeError);
E('ERR_UNKNOWN_ENCODING', (e) => `Unknown encoding: ${e}`, TypeError);
E('ERR_INVALID_RETURN_VALUE', (input, name, value) => `Expected ${input} to be returned from the "${name}" function but got ${value === null ? 'null' : typeof value}.`, TypeError);
E('ERR_MODULE_NOT_FOUND', (spec, base, kind = 'package') => `Cannot find ${kind} '${spec}' imported from ${base}`, Error);
E('ERR_REQUIRE_ESM', (filename, parent) => `require() of ES Module ${filename}${parent ? ` from ${parent}` : ''} not supported.\nInstead change the require of ${filename.replace(/.*\//, '')}${parent ? ` in ${parent}` : ''} to a dynamic import() which is available in all CommonJS modules.`, Error);
E('ERR_PACKAGE_PATH_NOT_EXPORTED', (dir, sub, base) => sub === '.' ? `No "exports" main defined in ${dir}package.json${base ? ` imported from ${base}` : ''}` : `Package subpath '${sub}' is not defined by "exports" in ${dir}package.json${base ? ` imported from ${base}` : ''}`, Error);
E('ERR_PACKAGE_IMPORT_NOT_DEFINED', (spec, dir, base) => `Package import specifier "${spec}" is not defined${dir ? ` in package ${dir}package.json` : ''} imported from ${base}`, TypeError);
E('ERR_UNSUPPORTED_DIR_IMPORT', (path, base) => `Directory import '${path}' is not supported resolving ES modules imported from ${base}`, Error);
E('ERR_UNKNOWN_FILE_EXTENSION', (ext, path) => `Unknown file extension "${ext}" for ${path}`, TypeError);
E('ERR_UNSUPPORTED_ESM_URL_SCHEME', (url) => `Only URLs with a scheme in: file, data, and node are supported by the default ESM loader. Received protocol '${url.protocol || url}'`, Error);
E('ERR_UNKNOWN_BUILTIN_MODULE', (m) => `No such built-in module: ${m}`, Error);
E('ERR_METHOD_NOT_IMPLEMENTED', (m) => `The ${m} method is not implemented`, Error);
E('ERR_FEATURE_UNAVAILABLE_ON_PLATFORM', (f) => `The feature ${f} is unavailable on the current platform, which is being used to run Node.js`, TypeError);
E('ERR_NOT_SUPPORTED_IN_SANDBOX', (f) => `${f} is not supported in the wasmsand sandbox`, Error);
E('ERR_STREAM_UNSHIFT_AFTER_END_EVENT', 'stream.unshift() after end event', Error);
E('ERR_STREAM_PUSH_AFTER_EOF', 'stream.push() after EOF', Error);
E('ERR_STREAM_WRITE_AFTER_END', 'write after end', Error);
E('ERR_STREAM_DESTROYED', (m) => `Cannot call ${m} after a stream was destroyed`, Error);
E('ERR_STREAM_PREMATURE_CLOSE', 'Premature close', Error);
E('ERR_STREAM_NULL_VALUES', 'May not write null values to stream', TypeError);
E('ERR_STREAM_ALREADY_FINISHED', (m) => `Cannot call ${m} after a stream was finished`, Error);
E('ERR_MULTIPLE_CALLBACK', 'Callback called multiple times', Error);
E('ERR_UNHANDLED_ERROR', (err) => err === undefined ? 'Unhandled error.' : `Unhandled error. (${require('internal/inspect').inspect(err)})`, Error);
E('ERR_INVALID_URL', (input) => 'Invalid URL', TypeError);
E('ERR_INVALID_URL_SCHEME', (e) => `The URL must be of scheme ${e}`, TypeError);
E('ERR_INVALID_FILE_URL_PATH', (m) => `File URL path ${m}`, TypeError);
E('ERR_INVALID_FILE_URL_HOST', (p) => `File URL host must be "localhost" or empty on ${p}`, TypeError);
E('ERR_INVALID_THIS', (t) => `Value of "this" must be of type ${t}`, TypeError);
E('ERR_INVALID_CHAR', (name, field) => `Invalid character in ${name}${field ? ` ["${field}"]` : ''}`, TypeError);
E('ERR_INVALID_HTTP_TOKEN', (name, field) => `${name} must be a valid HTTP token ["${field}"]`, TypeError);
E('ERR_HTTP_HEADERS_SENT', (a) => `Cannot ${a} headers after they are sent to the client`, Error);
E('ERR_INVALID_PROTOCOL', (p, e) => `Protocol "${p}" not supported. Expected "${e}"`, TypeError);
E('ERR_CHILD_PROCESS_STDIO_MAXBUFFER', (s) => `${s} maxBuffer length exceeded`, RangeError);
E('ERR_UNKNOWN_SIGNAL', (s) => `Unknown signal: ${s}`, TypeError);
E('ERR_INVALID_CALLBACK', (cb) => `Callback must be a function. Received ${require('internal/inspect').inspect(cb)}`, TypeError);
E('ERR_ASSERTION', (m) => m, Error);
E('ERR_FS_FILE_TOO_LARGE', (size) => `File size (${size}) is greater than 2 GiB`, RangeError);
E('ERR_FS_EISDIR', (p) => `Path is a directory: ${p}`, Error);
E('ERR_FS_CP_EINVAL', (m) => m, Error);
E('ERR_DIR_CLOSED', 'Directory handle was closed', Error);
E('ERR_BUFFER_OUT_OF_BOUNDS', (name) => name ? `"${name}" is outside of buffer bounds` : 'Attempt to access memory outside buffer bounds', RangeError);
E('ERR_INVALID_BUFFER_SIZE', (s) => `Buffer size must be a multiple of ${s}`, RangeError);
E('ERR_CRYPTO_HASH_FINALIZED', 'Digest already called', Error);
E('ERR_CRYPTO_INVALID_DIGEST', (d) => `Invalid digest: ${d}`, TypeError);
E('ERR_UNAVAILABLE_DURING_EXIT', 'Cannot call function in process exit handler', Error);
E('ERR_USE_AFTER_CLOSE', (n) => `${n} was closed`, Error);
E('ERR_IMPORT_ATTRIBUTE_MISSING', (url, k, v) => `Module "${url}" needs an import attribute of "${k}: ${v}"`, TypeError);
E('ERR_INVALID_PACKAGE_CONFIG', (p, base, m) => `Invalid package config ${p}${base ? ` while importing ${base}` : ''}${m ? `. ${m}` : ''}`, Error);
E('ERR_INVALID_MODULE_SPECIFIER', (r, reason, base) => `Invalid module "${r}" ${reason}${base ? ` imported from ${base}` : ''}`, TypeError);
E('ERR_SYNTHETIC', 'JavaScript Callstack', Error);
E('ERR_SOCKET_BAD_PORT', (name, port) => `${name} should be >= 0 and < 65536. Received ${require('internal/inspect').inspect(port)}.`, RangeError);
E('ERR_INVALID_STATE', (m) => `Invalid state: ${m}`, Error);
E('ERR_OPERATION_FAILED', (m) => `Operation failed: ${m}`, Error);
E('ERR_ILLEGAL_CONSTRUCTOR', 'Illegal constructor', TypeError);
E('ERR_UNSUPPORTED_FEATURE', (f) => `${f}`, Error);

class AbortError extends Error {
  constructor(message = 'The operation was aborted', options) {
    super(message, options);
    this.code = 'ABORT_ERR';
    this.name = 'AbortError';
  }
}

// validators shared by the modules
function validateFunction(v, name) {
  if (typeof v !== 'function') throw new codes.ERR_INVALID_ARG_TYPE(name, 'Function', v);
}
function validateString(v, name) {
  if (typeof v !== 'string') throw new codes.ERR_INVALID_ARG_TYPE(name, 'string', v);
}
function validateNumber(v, name, min, max) {
  if (typeof v !== 'number') throw new codes.ERR_INVALID_ARG_TYPE(name, 'number', v);
  if ((min != null && v < min) || (max != null && v > max) || ((min != null || max != null) && Number.isNaN(v))) {
    throw new codes.ERR_OUT_OF_RANGE(name, `${min != null ? `>= ${min}` : ''}${min != null && max != null ? ' && ' : ''}${max != null ? `<= ${max}` : ''}`, v);
  }
}
function validateInteger(v, name, min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER) {
  if (typeof v !== 'number') throw new codes.ERR_INVALID_ARG_TYPE(name, 'number', v);
  if (!Number.isInteger(v)) throw new codes.ERR_OUT_OF_RANGE(name, 'an integer', v);
  if (v < min || v > max) throw new codes.ERR_OUT_OF_RANGE(name, `>= ${min} && <= ${max}`, v);
}
function validateObject(v, name) {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new codes.ERR_INVALID_ARG_TYPE(name, 'Object', v);
}
function validateArray(v, name) {
  if (!Array.isArray(v)) throw new codes.ERR_INVALID_ARG_TYPE(name, 'Array', v);
}
function validateBoolean(v, name) {
  if (typeof v !== 'boolean') throw new codes.ERR_INVALID_ARG_TYPE(name, 'boolean', v);
}

module.exports = {
  codes, AbortError, uvException, errnoInfo, byCode,
  validateFunction, validateString, validateNumber, validateInteger, validateObject, validateArray, validateBoolean,
};
