'use strict';
// node:vm — scripts run in this one context (QuickJS has one realm here):
// runInNewContext gives the sandbox object's keys as the script's scope.

const { codes } = require('internal/errors');

function evalIn(code, contextObject, filename) {
  const keys = contextObject ? Object.keys(contextObject).filter((k) => /^[A-Za-z_$][\w$]*$/.test(k)) : [];
  if (!contextObject) return native.evalScript(String(code), filename || 'evalmachine.<anonymous>');
  const fn = native.evalScript(`(function (__vmctx) { with (__vmctx) { return eval(${JSON.stringify(String(code))}); } })`, filename || 'evalmachine.<anonymous>');
  void keys;
  return fn(contextObject);
}

class Script {
  constructor(code, options = {}) {
    if (typeof options === 'string') options = { filename: options };
    this._code = String(code);
    this._filename = options.filename || 'evalmachine.<anonymous>';
    native.evalScript(`(function(){${this._code}\n})`, this._filename); // a syntax check, as V8 compiles at once
  }
  runInThisContext() { return native.evalScript(this._code, this._filename); }
  runInContext(ctx) { return evalIn(this._code, ctx, this._filename); }
  runInNewContext(ctx = {}) { return evalIn(this._code, createContext(ctx), this._filename); }
  createCachedData() { return Buffer.alloc(0); }
}
const contexts = new WeakSet();
function createContext(obj = {}) { contexts.add(obj); return obj; }
module.exports = {
  Script,
  createContext,
  isContext: (o) => contexts.has(o),
  runInThisContext: (code, options) => new Script(code, options).runInThisContext(),
  runInContext: (code, ctx, options) => new Script(code, options).runInContext(ctx),
  runInNewContext: (code, ctx, options) => new Script(code, options).runInNewContext(ctx),
  compileFunction: (code, params = [], options = {}) => native.evalScript(`(function (${params.join(', ')}) {\n${code}\n})`, options.filename || 'evalmachine.<anonymous>'),
  measureMemory: () => Promise.reject(new codes.ERR_METHOD_NOT_IMPLEMENTED('measureMemory')),
  constants: { USE_MAIN_CONTEXT_DEFAULT_LOADER: Symbol('vm_dynamic_import_main_context_default'), DONT_CONTEXTIFY: Symbol('vm_context_no_contextify') },
};
