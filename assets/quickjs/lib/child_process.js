'use strict';
// node:child_process over the sandbox's process spawn (wasmsand.spawn): the
// child is another sandboxed program, sharing the pipes and files it is given.

const EventEmitter = require('events');
const { Buffer } = require('buffer');
const { codes, uvException, validateString, validateFunction } = require('internal/errors');
const loop = require('internal/loop');
const { writeAll } = require('internal/fdio');
const { os } = native;

const signals = () => require('os').constants.signals;
function signalName(n) {
  for (const [k, v] of Object.entries(signals())) if (v === n) return k;
  return null;
}
// the sandbox's status: 0-255, 128+N when killed by signal N
// (the sandbox reports a death by signal N as 128+N; a program rarely exits
// with those statuses itself)
const usualDeaths = new Set([129, 130, 131, 134, 137, 141, 143]);
function decodeStatus(st, pid) {
  if (pid !== undefined && killedPids.has(pid) && st > 128) return { status: null, signal: signalName(killedPids.get(pid)) };
  if (usualDeaths.has(st)) return { status: null, signal: signalName(st - 128) };
  return { status: st, signal: null };
}
const killedPids = new Map(); // pid -> the signal we sent

function normalizeSpawnArgs(file, args, options) {
  validateString(file, 'file');
  if (file.length === 0) throw new codes.ERR_INVALID_ARG_VALUE('file', file, 'cannot be empty');
  if (Array.isArray(args)) args = args.slice();
  else if (args == null) args = [];
  else if (typeof args !== 'object') throw new codes.ERR_INVALID_ARG_TYPE('args', 'object', args);
  else { options = args; args = []; }
  options = { ...options };
  if (options.shell) {
    const cmd = [file, ...args].join(' ');
    const sh = typeof options.shell === 'string' ? options.shell : '/bin/sh';
    file = sh;
    args = ['-c', cmd];
  }
  const env = options.env || process.env;
  const envPairs = [];
  for (const k of Object.keys(env)) if (env[k] !== undefined) envPairs.push(`${k}=${env[k]}`);
  let cwd = options.cwd;
  if (cwd instanceof URL || (cwd && typeof cwd === 'object' && cwd.href)) cwd = require('url').fileURLToPath(cwd);
  cwd = cwd ? require('path').resolve(String(cwd)) : process.cwd();
  const argv0 = options.argv0 || file;
  return { file, args: [argv0, ...args], envPairs, cwd, options };
}

function stdioConfig(stdio) {
  if (stdio === undefined || stdio === 'pipe' || stdio === 'overlapped') return ['pipe', 'pipe', 'pipe'];
  if (stdio === 'inherit') return [0, 1, 2];
  if (stdio === 'ignore') return ['ignore', 'ignore', 'ignore'];
  if (!Array.isArray(stdio)) throw new codes.ERR_INVALID_ARG_VALUE('stdio', stdio);
  const out = [];
  for (let i = 0; i < 3; i++) {
    let s = stdio[i];
    if (s === undefined || s === null) s = 'pipe';
    if (s === 'inherit') s = i;
    if (s && typeof s === 'object' && typeof s.fd === 'number') s = s.fd;
    out.push(s);
  }
  return out;
}

// the fds a child gets: [childFds, ourEnds (fd or null), toCloseAfterSpawn]
function makeFds(cfg, forSync) {
  const child = [], ours = [], close = [];
  for (let i = 0; i < 3; i++) {
    const s = cfg[i];
    if (s === 'pipe' || s === 'overlapped') {
      const p = os.pipe();
      if (!p) throw uvException(33, 'pipe');
      const [r, w] = p;
      if (i === 0) { child.push(r); ours.push(w); close.push(r); } else { child.push(w); ours.push(r); close.push(w); }
    } else if (s === 'ignore') {
      child.push(-1); ours.push(null);
    } else if (typeof s === 'number') {
      child.push(s); ours.push(null);
    } else if (s && typeof s === 'object' && s.fd !== undefined) {
      child.push(s.fd); ours.push(null);
    } else {
      child.push(-1); ours.push(null);
    }
  }
  return { child, ours, close };
}

function doSpawn(p, fds) {
  const pid = native.spawn([p.file, ...p.args.slice(1)].map(String), p.envPairs, p.cwd, fds.child[0], fds.child[1], fds.child[2]);
  for (const fd of fds.close) os.close(fd);
  return pid;
}

// --- spawnSync ------------------------------------------------------------------------
function spawnSync(file, args, options) {
  const p = normalizeSpawnArgs(file, args, options);
  options = p.options;
  const cfg = stdioConfig(options.stdio);
  const maxBuffer = options.maxBuffer === undefined ? 1024 * 1024 : options.maxBuffer;
  const result = { pid: 0, output: [null, null, null], stdout: null, stderr: null, status: null, signal: null };
  let fds;
  try {
    fds = makeFds(cfg, true);
  } catch (e) {
    result.error = e;
    return result;
  }
  const pid = doSpawn(p, fds);
  if (pid < 0) {
    for (const fd of fds.ours) if (fd !== null) os.close(fd);
    const err = uvException(-pid, `spawnSync ${p.file}`, p.file);
    err.spawnargs = p.args.slice(1);
    result.error = err;
    result.pid = 0;
    return result;
  }
  result.pid = pid;
  // input, then read stdout and stderr together (poll) until both end
  if (fds.ours[0] !== null) {
    if (options.input !== undefined && options.input !== null) {
      const input = typeof options.input === 'string' ? Buffer.from(options.input, options.encoding && options.encoding !== 'buffer' ? options.encoding : 'utf8') : options.input;
      writeAll(fds.ours[0], input);
    }
    os.close(fds.ours[0]);
  }
  const chunks = [null, [], []];
  const sizes = [0, 0, 0];
  const open = [];
  for (let i = 1; i < 3; i++) if (fds.ours[i] !== null) open.push(i);
  const buf = new Uint8Array(65536);
  let exceeded = null;
  const started = os.now();
  const timeout = options.timeout > 0 ? options.timeout : 0;
  let killedByTimeout = false;
  while (open.length) {
    const pb = new Int32Array(open.length * 3);
    open.forEach((i, k) => { pb[3 * k] = fds.ours[i]; pb[3 * k + 1] = 1; });
    const wait = timeout ? Math.max(0, timeout - (os.now() - started)) : -1;
    const n = native.poll(pb, timeout ? Math.min(wait, 1000) : -1);
    if (timeout && os.now() - started >= timeout && !killedByTimeout) {
      killedByTimeout = true;
      const sig = signals()[options.killSignal || 'SIGTERM'] || 15;
      killedPids.set(pid, sig);
      native.kill(pid, sig);
    }
    if (n <= 0) continue;
    for (let k = open.length - 1; k >= 0; k--) {
      if (pb[3 * k + 2] === 0) continue;
      const i = open[k];
      const r = os.read(fds.ours[i], buf.buffer, 0, buf.length);
      if (r <= 0) {
        os.close(fds.ours[i]);
        open.splice(k, 1);
        continue;
      }
      chunks[i].push(Buffer.from(buf.slice(0, r)));
      sizes[i] += r;
      if (sizes[i] > maxBuffer && !exceeded) {
        exceeded = i;
        native.kill(pid, 15);
        killedPids.set(pid, 15);
      }
    }
  }
  const st = native.wait(pid, true);
  const { status, signal } = decodeStatus(st < 0 ? 1 : st, pid);
  result.status = status;
  result.signal = signal;
  for (let i = 1; i < 3; i++) {
    if (fds.ours[i] === null) continue;
    let b = Buffer.concat(chunks[i]);
    if (exceeded === i) b = b.subarray(0, maxBuffer);
    const v = options.encoding && options.encoding !== 'buffer' ? b.toString(options.encoding) : b;
    result.output[i] = v;
    if (i === 1) result.stdout = v; else result.stderr = v;
  }
  if (killedByTimeout) {
    result.error = uvException(73, `spawnSync ${p.file}`);
    result.error.path = p.file;
    result.error.spawnargs = p.args.slice(1);
  } else if (exceeded) {
    result.error = uvException(42, `spawnSync ${p.file}`);
  }
  return result;
}

function checkExecSyncError(ret, args, cmd) {
  let err;
  if (ret.error) {
    err = ret.error;
    Object.assign(err, ret);
  } else if (ret.status !== 0) {
    let msg = 'Command failed: ';
    msg += cmd || args.join(' ');
    if (ret.stderr && ret.stderr.length > 0) msg += `\n${ret.stderr.toString()}`;
    err = new Error(msg);
    Object.assign(err, ret);
  }
  return err;
}

function execSync(command, options) {
  options = { ...options, shell: (options && options.shell) || true };
  const inheritStderr = !options.stdio;
  if (inheritStderr) options.stdio = ['pipe', 'pipe', 'pipe'];
  const ret = spawnSync(command, [], options);
  if (inheritStderr && ret.stderr) writeAll(2, ret.stderr);
  const err = checkExecSyncError(ret, [], command);
  if (err) throw err;
  return ret.stdout;
}
function execFileSync(file, args, options) {
  if (!Array.isArray(args) && args && typeof args === 'object') { options = args; args = []; }
  options = { ...options };
  const inheritStderr = !options.stdio;
  if (inheritStderr) options.stdio = ['pipe', 'pipe', 'pipe'];
  const ret = spawnSync(file, args || [], options);
  if (inheritStderr && ret.stderr) writeAll(2, ret.stderr);
  const err = checkExecSyncError(ret, [file, ...(args || [])]);
  if (err) throw err;
  return ret.stdout;
}

// --- spawn -------------------------------------------------------------------------------
class ChildProcess extends EventEmitter {
  constructor() {
    super();
    this.pid = undefined;
    this.exitCode = null;
    this.signalCode = null;
    this.killed = false;
    this.connected = false;
    this.stdin = null;
    this.stdout = null;
    this.stderr = null;
    this.stdio = [null, null, null];
    this.spawnfile = undefined;
    this.spawnargs = [];
    this._closesNeeded = 1;
    this._closesGot = 0;
  }
  spawn(options) {
    const p = normalizeSpawnArgs(options.file, options.args, options);
    this.spawnfile = p.file;
    this.spawnargs = p.args;
    const cfg = stdioConfig(options.stdio);
    const fds = makeFds(cfg, false);
    const pid = doSpawn(p, fds);
    if (pid < 0) {
      for (const fd of fds.ours) if (fd !== null) os.close(fd);
      const err = uvException(-pid, `spawn ${p.file}`, p.file);
      err.spawnargs = p.args.slice(1);
      process.nextTick(() => {
        this.emit('error', err);
        this._onExit(-2, null, true);
      });
      return err;
    }
    this.pid = pid;
    if (fds.ours[0] !== null) this.stdin = pipeWritable(fds.ours[0]);
    if (fds.ours[1] !== null) this.stdout = pipeReadable(fds.ours[1], this);
    if (fds.ours[2] !== null) this.stderr = pipeReadable(fds.ours[2], this);
    this.stdio = [this.stdin, this.stdout, this.stderr];
    for (const s of [this.stdout, this.stderr]) {
      if (!s) continue;
      this._closesNeeded++;
      s.on('close', () => this._maybeClose());
    }
    loop.watchChild(pid, (st) => {
      const { status, signal } = decodeStatus(st < 0 ? 1 : st, pid);
      this._onExit(status, signal);
    });
    process.nextTick(() => this.emit('spawn'));
    return undefined;
  }
  _onExit(code, signal, failed) {
    if (!failed) {
      this.exitCode = code;
      this.signalCode = signal;
      if (this.stdin) this.stdin.destroy();
      this.emit('exit', code, signal);
    } else {
      this.exitCode = code;
    }
    this._exitArgs = [code, signal];
    this._maybeClose();
  }
  _maybeClose() {
    if (++this._closesGot === this._closesNeeded) {
      this.emit('close', ...(this._exitArgs || [this.exitCode, this.signalCode]));
    }
  }
  kill(sig) {
    const s = sig === undefined ? 15 : typeof sig === 'number' ? sig : signals()[sig];
    if (s === undefined) throw new codes.ERR_UNKNOWN_SIGNAL(sig);
    if (this.pid === undefined || this.exitCode !== null || this.signalCode !== null) return false;
    const r = native.kill(this.pid, s);
    if (r < 0) return false;
    if (s !== 0) { killedPids.set(this.pid, s); this.killed = true; }
    return true;
  }
  ref() {}
  unref() {}
  disconnect() { throw new Error('IPC channels are not supported in the wasmsand sandbox'); }
  send() { throw new Error('IPC channels are not supported in the wasmsand sandbox'); }
  [Symbol.dispose || Symbol.for('nodejs.dispose')]() { this.kill(); }
}

function pipeReadable(fd, cp) {
  const { Readable } = require('stream');
  let watcher = null;
  const buf = new Uint8Array(65536);
  const r = new Readable({
    read() {
      if (watcher) return;
      watcher = loop.watch(fd, 1, () => {
        const n = os.read(fd, buf.buffer, 0, buf.length);
        if (n === -6 || n === -27) return;
        if (n <= 0) {
          loop.unwatch(watcher);
          watcher = null;
          r.push(null);
          return;
        }
        if (!r.push(Buffer.from(buf.slice(0, n)))) {
          loop.unwatch(watcher);
          watcher = null;
        }
      });
    },
    destroy(err, cb) {
      if (watcher) { loop.unwatch(watcher); watcher = null; }
      os.close(fd);
      cb(err);
    },
  });
  r.fd = fd;
  // read even when nobody listens, so the child never blocks on a full pipe
  process.nextTick(() => { if (r.listenerCount('data') === 0 && r.listenerCount('readable') === 0 && !r._readableState.pipes.length) r.resume(); });
  return r;
}
function pipeWritable(fd) {
  const { Writable } = require('stream');
  const w = new Writable({
    write(chunk, enc, cb) {
      const res = writeAll(fd, chunk);
      if (res < 0) cb(uvException(-res, 'write'));
      else cb();
    },
    final(cb) { os.close(fd); closed = true; cb(); },
    destroy(err, cb) { if (!closed) { closed = true; os.close(fd); } cb(err); },
  });
  let closed = false;
  w.fd = fd;
  return w;
}

function spawn(file, args, options) {
  if (!Array.isArray(args) && args && typeof args === 'object') { options = args; args = []; }
  const child = new ChildProcess();
  options = { ...options, file, args: args || [] };
  const err = child.spawn(options);
  if (options.timeout > 0 && !err) {
    const t = setTimeout(() => child.kill(options.killSignal || 'SIGTERM'), options.timeout);
    child.once('exit', () => clearTimeout(t));
  }
  if (options.signal) {
    const onAbort = () => {
      if (child.kill(options.killSignal || 'SIGTERM')) {
        const { AbortError } = require('internal/errors');
        child.emit('error', new AbortError(undefined, { cause: options.signal.reason }));
      }
    };
    if (options.signal.aborted) process.nextTick(onAbort);
    else options.signal.addEventListener('abort', onAbort, { once: true });
  }
  return child;
}

function execFile(file, args, options, callback) {
  if (typeof args === 'function') { callback = args; args = []; options = {}; }
  else if (!Array.isArray(args)) { callback = options; options = args; args = []; }
  if (typeof options === 'function') { callback = options; options = {}; }
  options = { encoding: 'utf8', maxBuffer: 1024 * 1024, ...options };
  const child = spawn(file, args, { ...options, stdio: 'pipe' });
  const out = [], err = [];
  let outLen = 0, errLen = 0;
  let ex = null;
  if (child.stdout) child.stdout.on('data', (c) => { outLen += c.length; if (outLen > options.maxBuffer) { ex = new codes.ERR_CHILD_PROCESS_STDIO_MAXBUFFER('stdout'); child.kill(); } else out.push(c); });
  if (child.stderr) child.stderr.on('data', (c) => { errLen += c.length; if (errLen > options.maxBuffer) { ex = new codes.ERR_CHILD_PROCESS_STDIO_MAXBUFFER('stderr'); child.kill(); } else err.push(c); });
  const decode = (list) => {
    const b = Buffer.concat(list);
    return options.encoding && options.encoding !== 'buffer' ? b.toString(options.encoding) : b;
  };
  let spawnErr = null;
  child.on('error', (e) => { spawnErr = e; });
  child.on('close', (code, signal) => {
    if (!callback) return;
    const stdout = decode(out), stderr = decode(err);
    if (spawnErr) {
      spawnErr.cmd = [file, ...args].join(' ');
      callback(spawnErr, stdout, stderr);
      return;
    }
    if (ex) { callback(ex, stdout, stderr); return; }
    if (code === 0 && signal === null) { callback(null, stdout, stderr); return; }
    const cmd = options.shell ? file : [file, ...args].join(' ');
    const e = new Error(`Command failed: ${cmd}\n${stderr}`);
    e.code = code < 0 ? 'ENOENT' : code;
    e.killed = child.killed;
    e.signal = signal;
    e.cmd = cmd;
    e.stdout = stdout;
    e.stderr = stderr;
    callback(e, stdout, stderr);
  });
  return child;
}
function exec(command, options, callback) {
  if (typeof options === 'function') { callback = options; options = {}; }
  return execFile(command, [], { ...options, shell: true }, callback);
}
const customPromisify = Symbol.for('nodejs.util.promisify.custom');
function promisifiedExec(fn) {
  return (...args) => {
    let child;
    const p = new Promise((resolve, reject) => {
      child = fn(...args, (err, stdout, stderr) => {
        if (err) { err.stdout = stdout; err.stderr = stderr; reject(err); } else resolve({ stdout, stderr });
      });
    });
    p.child = child;
    return p;
  };
}
Object.defineProperty(exec, customPromisify, { value: promisifiedExec(exec), enumerable: false });
Object.defineProperty(execFile, customPromisify, { value: promisifiedExec(execFile), enumerable: false });

function fork(modulePath, args, options) {
  if (!Array.isArray(args) && args && typeof args === 'object') { options = args; args = []; }
  options = { ...options };
  const execArgv = options.execArgv || process.execArgv;
  const stdio = options.silent ? ['pipe', 'pipe', 'pipe'] : [0, 1, 2];
  return spawn(options.execPath || 'node', [...execArgv, String(modulePath), ...(args || [])], { ...options, stdio: options.stdio ? options.stdio.filter((s) => s !== 'ipc') : stdio });
}

module.exports = { spawn, spawnSync, exec, execSync, execFile, execFileSync, fork, ChildProcess, _forkChild() {} };
