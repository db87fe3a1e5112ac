'use strict';
// node:os — what the sandbox says about its machine

const signals = {
  SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGILL: 4, SIGTRAP: 5, SIGABRT: 6, SIGIOT: 6, SIGBUS: 7, SIGFPE: 8, SIGKILL: 9,
  SIGUSR1: 10, SIGSEGV: 11, SIGUSR2: 12, SIGPIPE: 13, SIGALRM: 14, SIGTERM: 15, SIGCHLD: 17, SIGSTKFLT: 16,
  SIGCONT: 18, SIGSTOP: 19, SIGTSTP: 20, SIGTTIN: 21, SIGTTOU: 22, SIGURG: 23, SIGXCPU: 24, SIGXFSZ: 25,
  SIGVTALRM: 26, SIGPROF: 27, SIGWINCH: 28, SIGIO: 29, SIGPOLL: 29, SIGPWR: 30, SIGSYS: 31,
};
const errnoConsts = {};
for (const [code, linux] of Object.values(require('internal/errors').byCode)) errnoConsts[code] = linux;

function readProc(file) {
  const s = native.std.loadFile(file);
  return typeof s === 'string' ? s : null;
}
function hostname() {
  const h = readProc('/etc/hostname') || readProc('/proc/sys/kernel/hostname');
  return h ? h.trim() : 'wasmsand';
}
function cpus() {
  const model = 'wasmsand virtual CPU (WebAssembly)';
  return [{ model, speed: 0, times: { user: 0, nice: 0, sys: 0, idle: 0, irq: 0 } }];
}
function userInfo(options) {
  const [uid, gid] = native.ids();
  const env = process.env;
  const username = env.USER || env.LOGNAME || (uid === 0 ? 'root' : 'user');
  const info = { uid, gid, username, homedir: env.HOME || (uid === 0 ? '/root' : `/home/${username}`), shell: env.SHELL || '/bin/bash' };
  if (options && options.encoding === 'buffer') {
    const { Buffer } = require('buffer');
    for (const k of ['username', 'homedir', 'shell']) info[k] = Buffer.from(info[k]);
  }
  return info;
}

module.exports = {
  EOL: '\n',
  arch: () => 'wasm32',
  availableParallelism: () => 1,
  constants: {
    UV_UDP_REUSEADDR: 4, dlopen: { RTLD_LAZY: 1, RTLD_NOW: 2, RTLD_GLOBAL: 256, RTLD_LOCAL: 0, RTLD_DEEPBIND: 8 },
    errno: errnoConsts, signals,
    priority: { PRIORITY_LOW: 19, PRIORITY_BELOW_NORMAL: 10, PRIORITY_NORMAL: 0, PRIORITY_ABOVE_NORMAL: -7, PRIORITY_HIGH: -14, PRIORITY_HIGHEST: -20 },
  },
  cpus,
  devNull: '/dev/null',
  endianness: () => 'LE',
  freemem: () => 128 * 1024 * 1024,
  getPriority: () => 0,
  homedir: () => process.env.HOME || userInfo().homedir,
  hostname,
  loadavg: () => [0, 0, 0],
  machine: () => 'wasm32',
  networkInterfaces: () => ({ lo: [{ address: '127.0.0.1', netmask: '255.0.0.0', family: 'IPv4', mac: '00:00:00:00:00:00', internal: true, cidr: '127.0.0.1/8' }] }),
  platform: () => 'linux',
  release: () => '6.1.0-wasmsand',
  setPriority: () => {},
  tmpdir: () => {
    let p = process.env.TMPDIR || process.env.TMP || process.env.TEMP || '/tmp';
    if (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
    return p;
  },
  totalmem: () => 256 * 1024 * 1024,
  type: () => 'Linux',
  uptime: () => Math.floor(process.uptime()),
  userInfo,
  version: () => '#1 SMP wasmsand',
};
