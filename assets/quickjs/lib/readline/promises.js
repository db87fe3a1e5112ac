'use strict';
module.exports = require('readline').promises;
