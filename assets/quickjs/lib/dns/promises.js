'use strict';
module.exports = require('dns').promises;
