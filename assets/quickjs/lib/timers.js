'use strict';
// node:timers
const loop = require('internal/loop');
module.exports = {
  setTimeout: loop.setTimeout, clearTimeout: loop.clearTimeout, setInterval: loop.setInterval,
  clearInterval: loop.clearInterval, setImmediate: loop.setImmediate, clearImmediate: loop.clearImmediate,
  get promises() { return require('timers/promises'); },
};
