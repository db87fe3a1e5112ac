'use strict';
// modules whose subject the sandbox does not have (raw sockets, DNS, TLS,
// clusters, the inspector): requiring them works, using them fails with
// Node's error code, never a crash
const { codes } = require('internal/errors');
module.exports = function unavailable(mod, names, extra = {}) {
  const out = { ...extra };
  for (const n of names) {
    out[n] = function () { throw new codes.ERR_FEATURE_UNAVAILABLE_ON_PLATFORM(`${mod}.${n} (the sandbox reaches the network only through HTTP: fetch, http, https)`); };
  }
  return out;
};
