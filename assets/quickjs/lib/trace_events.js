'use strict';
module.exports = require('internal/unavailable')('trace_events', ['createTracing'], { getEnabledCategories: () => undefined });
