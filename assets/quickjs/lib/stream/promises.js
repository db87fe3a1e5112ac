'use strict';
module.exports = require('stream').promises;
