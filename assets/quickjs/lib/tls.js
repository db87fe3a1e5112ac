'use strict';
module.exports = require('internal/unavailable')('tls', ['connect', 'createServer', 'createSecureContext'], { DEFAULT_MIN_VERSION: 'TLSv1.2', DEFAULT_MAX_VERSION: 'TLSv1.3', rootCertificates: [], checkServerIdentity: () => undefined });
