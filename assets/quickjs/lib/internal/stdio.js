'use strict';
// process.stdout, process.stderr and process.stdin. Writes are synchronous
// (as Node's are to files and, on POSIX, to pipes), so output is never lost
// at exit; stdin is read through the event loop. They are streams when the
// stream module is there.

const { writeAll } = require('internal/fdio');
const { os } = native;

function makeWritable(fd) {
  const { Writable } = require('stream');
  const w = new Writable({
    decodeStrings: false,
    write(chunk, encoding, cb) {
      const data = typeof chunk === 'string' ? (encoding && encoding !== 'utf8' && encoding !== 'utf-8' ? Buffer.from(chunk, encoding) : chunk) : chunk;
      const r = writeAll(fd, data);
      if (r < 0) { cb(writeError(r)); return; }
      cb();
    },
  });
  w.fd = fd;
  w.isTTY = os.isatty(fd) || undefined;
  if (w.isTTY) {
    const size = os.ttyGetWinSize(fd);
    w.columns = size ? size[0] : 80;
    w.rows = size ? size[1] : 24;
    w.getWindowSize = () => [w.columns, w.rows];
    w.hasColors = (n = 16) => n <= 256;
    w.getColorDepth = () => 8;
    w.cursorTo = (x, y, cb) => { writeAll(fd, typeof y === 'number' ? `\x1b[${y + 1};${x + 1}H` : `\x1b[${x + 1}G`); if (cb) cb(); return true; };
    w.moveCursor = (dx, dy, cb) => { let s = ''; if (dx) s += dx > 0 ? `\x1b[${dx}C` : `\x1b[${-dx}D`; if (dy) s += dy > 0 ? `\x1b[${dy}B` : `\x1b[${-dy}A`; writeAll(fd, s); if (cb) cb(); return true; };
    w.clearLine = (dir, cb) => { writeAll(fd, dir < 0 ? '\x1b[1K' : dir > 0 ? '\x1b[0K' : '\x1b[2K'); if (cb) cb(); return true; };
    w.clearScreenDown = (cb) => { writeAll(fd, '\x1b[0J'); if (cb) cb(); return true; };
  }
  w._type = w.isTTY ? 'tty' : 'pipe';
  w._isStdio = true;
  w.destroySoon = w.destroy;
  // stdout and stderr are never closed by end()
  w._destroy = (err, cb) => cb(err);
  // unhandled, a write error (EPIPE: the reader is gone) ends the process
  // with status 1, as Node's "Unhandled 'error' event"
  w.on('error', (err) => {
    if (w.listenerCount('error') === 1) throw err;
  });
  return w;
}

// a failed write to stdout or stderr, as Node's stream reports it: "write EPIPE"
function writeError(r) {
  const [code, linux] = require('internal/errors').errnoInfo(-r);
  const e = new Error(`write ${code}`);
  e.errno = -linux;
  e.code = code;
  e.syscall = 'write';
  return e;
}
// console writes to fds 1 and 2 itself: a failure goes to the stream
exports.failed = (fd, r) => {
  const s = fd === 2 ? exports.stderr() : exports.stdout();
  if (!s.destroyed) s.destroy(writeError(r));
};

let stdout, stderr, stdin;
exports.peek = (fd) => (fd === 1 ? stdout : stderr);
exports.stdout = () => stdout || (stdout = makeWritable(1));
exports.stderr = () => stderr || (stderr = makeWritable(2));

exports.stdin = () => {
  if (stdin) return stdin;
  const { Readable } = require('stream');
  const loop = require('internal/loop');
  let watcher = null;
  const buf = new Uint8Array(65536);
  stdin = new Readable({
    highWaterMark: 65536,
    read() {
      if (watcher) return;
      const onReady = () => {
        const n = os.read(0, buf.buffer, 0, buf.length);
        if (n === -6 || n === -27) return; // EAGAIN, EINTR
        if (n <= 0) {
          loop.unwatch(watcher);
          watcher = null;
          stdin.push(null);
          return;
        }
        const more = stdin.push(Buffer.from(buf.slice(0, n)));
        if (!more) {
          loop.unwatch(watcher);
          watcher = null;
        }
      };
      watcher = loop.watch(0, 1, onReady);
    },
    destroy(err, cb) {
      if (watcher) { loop.unwatch(watcher); watcher = null; }
      cb(err);
    },
  });
  stdin.fd = 0;
  stdin.isTTY = os.isatty(0) || undefined;
  stdin.setRawMode = (mode) => { os.ttySetRaw && mode && os.ttySetRaw(0); stdin.isRaw = !!mode; return stdin; };
  stdin.isRaw = false;
  // like Node: an unused stdin does not keep the process alive
  const origPause = stdin.pause.bind(stdin);
  stdin.pause = () => {
    origPause();
    if (watcher) { loop.unwatch(watcher); watcher = null; }
    return stdin;
  };
  stdin.unref = () => { if (watcher) watcher.refed = false; return stdin; };
  stdin.ref = () => { if (watcher) watcher.refed = true; return stdin; };
  return stdin;
};
