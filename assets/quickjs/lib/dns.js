'use strict';
// node:dns — names are resolved by the sandbox's network bridge, under its policy
const u = require('internal/unavailable');
const names = ['lookup', 'resolve', 'resolve4', 'resolve6', 'resolveAny', 'resolveCname', 'resolveMx', 'resolveNs', 'resolveTxt', 'resolveSrv', 'resolvePtr', 'reverse', 'lookupService'];
const dns = u('dns', names, { getServers: () => [], setServers() {}, setDefaultResultOrder() {}, getDefaultResultOrder: () => 'verbatim', ADDRCONFIG: 1024, V4MAPPED: 2048, ALL: 256 });
dns.promises = u('dns.promises', names, { getServers: () => [], setServers() {} });
module.exports = dns;
