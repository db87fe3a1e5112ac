'use strict';
module.exports = require('internal/unavailable')('http2', ['connect', 'createServer', 'createSecureServer'], { constants: {} });
