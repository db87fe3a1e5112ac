'use strict';
// node:net — no raw sockets in the sandbox
const EventEmitter = require('events');
const u = require('internal/unavailable');
function isIPv4(s) { return /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/.test(s); }
function isIPv6(s) { return /^[0-9a-fA-F:]+(:\d+\.\d+\.\d+\.\d+)?$/.test(s) && s.includes(':') && (s.match(/::/g) || []).length <= 1; }
class Socket extends EventEmitter { constructor() { super(); } }
module.exports = u('net', ['connect', 'createConnection', 'createServer'], {
  isIP: (s) => (isIPv4(s) ? 4 : isIPv6(s) ? 6 : 0), isIPv4, isIPv6, Socket, Stream: Socket, Server: class Server extends EventEmitter {},
  BlockList: class BlockList { addAddress() {} check() { return false; } }, SocketAddress: class SocketAddress {},
  getDefaultAutoSelectFamily: () => true, setDefaultAutoSelectFamily() {},
});
