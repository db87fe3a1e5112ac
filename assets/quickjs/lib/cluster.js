'use strict';
const EventEmitter = require('events');
const c = new EventEmitter();
Object.assign(c, { isPrimary: true, isMaster: true, isWorker: false, workers: {}, settings: {}, setupPrimary() {}, setupMaster() {}, fork() { throw new (require('internal/errors').codes.ERR_FEATURE_UNAVAILABLE_ON_PLATFORM)('cluster.fork'); } });
module.exports = c;
