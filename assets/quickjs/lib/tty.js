'use strict';
// node:tty
const { os } = native;
module.exports = {
  isatty: (fd) => Number.isInteger(fd) && fd >= 0 && !!os.isatty(fd),
  ReadStream: class ReadStream { constructor(fd) { return require('internal/stdio').stdin(); } },
  WriteStream: class WriteStream { constructor(fd) { return fd === 2 ? process.stderr : process.stdout; } },
};
