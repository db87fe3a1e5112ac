'use strict';
// node:https — as http; the TLS is the network bridge's
const http = require('http');
function request(input, options, cb) { return http._requestFor(input, options, cb, 'https:'); }
function get(input, options, cb) { const r = request(input, options, cb); r.end(); return r; }
class Agent extends http.Agent { constructor(o) { super(o); this.defaultPort = 443; this.protocol = 'https:'; } }
module.exports = { request, get, Agent, globalAgent: new Agent(), createServer: http.createServer, Server: http.Server };
