'use strict';
module.exports = require('internal/unavailable')('dgram', ['createSocket']);
