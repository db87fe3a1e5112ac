'use strict';
module.exports = { main: (args) => require('internal/npm/npm').main(args) };
