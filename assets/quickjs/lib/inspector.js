'use strict';
module.exports = require('internal/unavailable')('inspector', ['open', 'waitForDebugger'], { url: () => undefined, close() {}, Session: class Session { connect() {} post() {} disconnect() {} }, console: globalThis.console });
