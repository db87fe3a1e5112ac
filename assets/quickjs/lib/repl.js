'use strict';
module.exports = require('internal/unavailable')('repl', ['start'], { REPL_MODE_SLOPPY: Symbol('repl-sloppy'), REPL_MODE_STRICT: Symbol('repl-strict') });
