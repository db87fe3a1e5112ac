'use strict';
// the `process` object

const EventEmitter = require('events');
const loop = require('internal/loop');
const { writeAll } = require('internal/fdio');
const { std, os } = native;

const process = new EventEmitter();
Object.defineProperty(process, Symbol.toStringTag, { value: 'process', configurable: true });

const NODE_VERSION = '20.20.2';
process.version = `v${NODE_VERSION}`;
process.versions = {
  node: NODE_VERSION, quickjs: '2025-04-26', wasmsand: '1', modules: '115', uv: '1.46.0',
  v8: '11.3.244.8-node.33', unicode: '15.1', napi: '9',
};
process.release = { name: 'node', lts: 'Iron' };
process.arch = 'wasm32';
process.platform = 'linux';
process.execPath = '/usr/bin/node';
process.execArgv = [];
process.argv = [];
process.argv0 = 'node';
process.title = 'node';
process.features = { inspector: false, debug: false, uv: true, ipv6: true, tls_alpn: false, tls_sni: false, tls_ocsp: false, tls: false, cached_builtins: true, typescript: 'strip' };
process.config = { variables: {} };
process.exitCode = undefined;
process._exiting = false;
process.moduleLoadList = [];
process.allowedNodeEnvironmentFlags = new Set();

// env: a live view of the environment (set/delete reach children)
const envTarget = {};
for (const [k, v] of Object.entries(std.getenviron())) envTarget[k] = v;
process.env = new Proxy(envTarget, {
  set(t, k, v) {
    if (typeof k === 'symbol') return false;
    const s = String(v);
    t[k] = s;
    std.setenv(k, s);
    return true;
  },
  deleteProperty(t, k) {
    if (typeof k !== 'symbol') { delete t[k]; std.unsetenv(k); }
    return true;
  },
  defineProperty(t, k, d) {
    if ('value' in d) { t[k] = String(d.value); std.setenv(k, t[k]); return true; }
    return false;
  },
});

const [uid, gid, euid, egid, pid, ppid] = native.ids();
process.pid = pid;
process.ppid = ppid;
process.getuid = () => uid;
process.getgid = () => gid;
process.geteuid = () => euid;
process.getegid = () => egid;
process.getgroups = () => [gid];
process.umask = (mask) => {
  const old = 0o22;
  return old;
};

process.cwd = function cwd() {
  const [dir, err] = os.getcwd();
  if (err) throw require('internal/errors').uvException(err, 'uv_cwd');
  return dir;
};
process.chdir = function chdir(dir) {
  require('internal/errors').validateString(dir, 'directory');
  const r = os.chdir(dir);
  if (r < 0) {
    const e = require('internal/errors').uvException(-r, 'chdir', process.cwd(), dir);
    e.message = `${e.code}: ${require('internal/errors').errnoInfo(-r)[2]}, chdir ${process.cwd()} -> '${dir}'`;
    throw e;
  }
  envTarget.PWD = process.cwd();
};

const startNs = os.now();
process.hrtime = function hrtime(prev) {
  const t = os.now(); // ms, float
  const sec = Math.floor(t / 1000);
  const nsec = Math.floor((t - sec * 1000) * 1e6);
  if (prev) {
    let s = sec - prev[0], n = nsec - prev[1];
    if (n < 0) { s -= 1; n += 1e9; }
    return [s, n];
  }
  return [sec, nsec];
};
process.hrtime.bigint = () => BigInt(Math.floor(os.now() * 1e6));
process.uptime = () => (os.now() - startNs) / 1000;
process.memoryUsage = () => ({ rss: 50e6, heapTotal: 20e6, heapUsed: 10e6, external: 1e6, arrayBuffers: 1e5 });
process.memoryUsage.rss = () => 50e6;
process.cpuUsage = (prev) => {
  const us = Math.floor((os.now() - startNs) * 1000);
  return prev ? { user: us - prev.user, system: 0 } : { user: us, system: 0 };
};
process.resourceUsage = () => ({ userCPUTime: 0, systemCPUTime: 0, maxRSS: 0 });
process.nextTick = loop.nextTick;
process.emitWarning = function emitWarning(warning, type, code) {
  if (typeof type === 'object' && type !== null) { code = type.code; type = type.type; }
  if (typeof warning === 'string') {
    const w = new Error(warning);
    w.name = type || 'Warning';
    if (code !== undefined) w.code = code;
    warning = w;
  }
  if (warning.name === 'DeprecationWarning' && process.noDeprecation) return;
  loop.nextTick(() => {
    process.emit('warning', warning);
  });
};
process.on('newListener', () => {});
let warningsShown = false;
process.noDeprecation = false;
process.throwDeprecation = false;
function defaultWarningHandler(warning) {
  if (process.noProcessWarnings) return;
  const line = `(node:${process.pid}) ${warning.code ? `[${warning.code}] ` : ''}${warning.name}: ${warning.message}`;
  writeAll(2, `${line}\n`);
  if (!warningsShown) {
    warningsShown = true;
    writeAll(2, `(Use \`node --trace-${warning.name === 'DeprecationWarning' ? 'deprecation' : 'warnings'} ...\` to show where the warning was created)\n`);
  }
}
process.on('warning', defaultWarningHandler);

class ExitSignal {
  constructor(code) { this.code = code; }
}
process.reallyExit = (code) => {
  std.exit(code);
};
process.exit = function exit(code) {
  if (code !== undefined && code !== null) process.exitCode = code;
  const status = exitStatus();
  if (!process._exiting) {
    process._exiting = true;
    try { process.emit('exit', status); } catch (e) { /* an exception in an exit handler: status 7 in Node */ }
  }
  std.exit(exitStatus());
};
function exitStatus() {
  const c = process.exitCode;
  if (c === undefined || c === null) return 0;
  const n = Number(c);
  return Number.isInteger(n) ? n & 0xff : 1;
}
process._exitStatus = exitStatus;
process.abort = () => { std.exit(134); };
process.kill = function kill(pid, sig = 'SIGTERM') {
  const { signals } = require('os').constants;
  const n = typeof sig === 'number' ? sig : signals[sig];
  if (n === undefined) throw new (require('internal/errors').codes.ERR_UNKNOWN_SIGNAL)(sig);
  if (pid === process.pid && n !== 0) {
    native.kill(pid, n); // the sandbox ends this process by the signal, as the shell then says
    std.exit(128 + n);
  }
  const r = native.kill(pid, n);
  if (r < 0) throw require('internal/errors').uvException(-r, 'kill');
  return true;
};
process.binding = () => { throw new Error('No such module'); };
process.dlopen = () => { throw new Error('process.dlopen is not supported in the wasmsand sandbox'); };
process.report = { getReport: () => ({}) };
process.setSourceMapsEnabled = () => {};
process.setUncaughtExceptionCaptureCallback = (fn) => { process._captureFn = fn; };
process.hasUncaughtExceptionCaptureCallback = () => !!process._captureFn;
process.getActiveResourcesInfo = () => [];
process.constrainedMemory = () => undefined;
process.availableMemory = () => 256 * 1024 * 1024;

module.exports = process;
