'use strict';
// node:assert

const { inspect } = require('internal/inspect');
const { isDeepEqual } = require('internal/comparisons');
const { codes } = require('internal/errors');

const kReadable = {
  deepStrictEqual: 'Expected values to be strictly deep-equal:',
  strictEqual: 'Expected values to be strictly equal:',
  strictEqualObject: 'Expected "actual" to be reference-equal to "expected":',
  deepEqual: 'Expected values to be loosely deep-equal:',
  notDeepStrictEqual: 'Expected "actual" not to be strictly deep-equal to:',
  notStrictEqual: 'Expected "actual" to be strictly unequal to:',
  notStrictEqualObject: 'Expected "actual" not to be reference-equal to "expected":',
  notDeepEqual: 'Expected "actual" not to be loosely deep-equal to:',
  notIdentical: 'Values identical but not reference-equal:',
  notDeepEqualUnequal: 'Expected values not to be loosely deep-equal:',
};

function inspectValue(v) {
  return inspect(v, { compact: false, customInspect: false, depth: 1000, maxArrayLength: Infinity, showHidden: false, showProxy: false, sorted: true, getters: true });
}

function diff(actual, expected, operator) {
  const a = inspectValue(actual).split('\n');
  const e = inspectValue(expected).split('\n');
  if (a.length === 1 && e.length === 1 && a[0] !== e[0] && (typeof actual !== 'object' || actual === null) && (typeof expected !== 'object' || expected === null)) {
    return `${kReadable[operator]}\n\n${a[0]} !== ${e[0]}\n`;
  }
  // line diff (LCS)
  const n = a.length, m = e.length;
  const dp = Array.from({ length: n + 1 }, () => new Int32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) dp[i][j] = a[i] === e[j] ? dp[i + 1][j + 1] + 1 : Math.max(dp[i + 1][j], dp[i][j + 1]);
  const out = [];
  let i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === e[j]) { out.push(`  ${a[i]}`); i++; j++; }
    else if (j < m && (i >= n || dp[i][j + 1] >= dp[i + 1][j])) { out.push(`- ${e[j]}`); j++; }
    else { out.push(`+ ${a[i]}`); i++; }
  }
  // Node: removals after additions within a run
  for (let k = 0; k < out.length; k++) {
    let s = k;
    while (s < out.length && out[s][0] !== ' ') s++;
    if (s > k) {
      const run = out.slice(k, s);
      const plus = run.filter((l) => l[0] === '+'), minus = run.filter((l) => l[0] === '-');
      out.splice(k, s - k, ...plus, ...minus);
      k = s;
    }
  }
  let header = kReadable[operator];
  if (a.join('\n') === e.join('\n')) header = kReadable.notIdentical;
  return `${header}\n+ actual - expected\n\n${out.join("\n")}`;
}

class AssertionError extends Error {
  constructor(options) {
    if (typeof options !== 'object' || options === null) throw new codes.ERR_INVALID_ARG_TYPE('options', 'Object', options);
    const { message, operator, stackStartFn } = options;
    let { actual, expected } = options;
    if (message != null) {
      super(String(message));
    } else if (operator === 'deepStrictEqual' || operator === 'strictEqual') {
      if (operator === 'strictEqual' && typeof actual === 'object' && actual !== null && typeof expected === 'object' && expected !== null && inspectValue(actual) === inspectValue(expected)) {
        super(`${kReadable.strictEqualObject}\n\n${inspectValue(actual)}\n`);
      } else {
        super(diff(actual, expected, operator));
      }
    } else if (operator === 'notDeepStrictEqual' || operator === 'notStrictEqual') {
      let base = kReadable[operator];
      const res = inspectValue(actual).split('\n');
      if (operator === 'notStrictEqual' && typeof actual === 'object' && actual !== null) base = kReadable.notStrictEqualObject;
      if (res.length > 50) { res.length = 46; res.push('...'); }
      super(res.length === 1 ? `${base}${res[0].length > 5 ? '\n\n' : ' '}${res[0]}` : `${base}\n\n${res.join('\n')}\n`);
    } else {
      let res = inspectValue(actual);
      let other = inspectValue(expected);
      const knownOperator = kReadable[operator];
      if (operator === 'notDeepEqual' && res === other) {
        res = `${knownOperator}\n\n${res}`;
        if (res.length > 1024) res = `${res.slice(0, 1021)}...`;
        super(res);
      } else {
        if (res.length > 512) res = `${res.slice(0, 509)}...`;
        if (other.length > 512) other = `${other.slice(0, 509)}...`;
        if (operator === 'deepEqual') res = `${knownOperator}\n\n${res}\n\nshould loosely deep-equal\n\n`;
        else {
          const newOp = kReadable[`${operator}Unequal`];
          if (newOp) res = `${newOp}\n\n${res}\n\nshould not loosely deep-equal\n\n`;
          else other = ` ${operator} ${other}`;
        }
        super(`${res}${other}`);
      }
    }
    this.generatedMessage = !message;
    Object.defineProperty(this, 'name', { value: 'AssertionError [ERR_ASSERTION]', enumerable: false, writable: true, configurable: true });
    this.code = 'ERR_ASSERTION';
    this.actual = actual;
    this.expected = expected;
    this.operator = operator;
    void this.stack;
    this.name = 'AssertionError';
    void stackStartFn;
  }
  toString() { return `${this.name} [${this.code}]: ${this.message}`; }
  [inspect.custom](recurseTimes, ctx) {
    return inspect(this, { ...ctx, customInspect: false, depth: 0 });
  }
}

function innerFail(obj) {
  if (obj.message instanceof Error) throw obj.message;
  throw new AssertionError(obj);
}

// assert.ok(false): the expression, read from the caller's source
function okMessage(fnName, depth) {
  const stack = new Error().stack.split('\n');
  const frame = stack[depth + 1] || '';
  const m = /\(?((?:\/|\[eval\])[^():]*):(\d+):(\d+)\)?$/.exec(frame);
  if (!m) return 'No value argument passed to `assert.ok()`';
  const [, file, line, col] = m;
  let src;
  if (file.startsWith('/')) src = native.std.loadFile(file);
  if (typeof src !== 'string') return 'The expression evaluated to a falsy value';
  const lines = src.split('\n');
  let text = lines.slice(+line - 1).join('\n');
  const lineText = lines[+line - 1] || '';
  // from the start of the call (QuickJS's column is at the call's parenthesis)
  let start = +col - 1;
  while (start > 0 && /[\w$.]/.test(lineText[start - 1])) start--;
  text = text.slice(start);
  let depthP = 0, end = -1, inStr = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inStr) { if (c === '\\') i++; else if (c === inStr) inStr = null; continue; }
    if (c === '"' || c === "'" || c === '`') { inStr = c; continue; }
    if (c === '(') depthP++;
    else if (c === ')') { depthP--; if (depthP === 0) { end = i + 1; break; } }
  }
  if (end === -1) return 'The expression evaluated to a falsy value';
  const expr = text.slice(0, end);
  return `The expression evaluated to a falsy value:\n\n  ${expr.split('\n').join('\n  ')}\n`;
}

function innerOk(fn, argLen, value, message) {
  if (!value) {
    let generatedMessage = false;
    if (argLen === 0) {
      generatedMessage = true;
      message = 'No value argument passed to `assert.ok()`';
    } else if (message == null) {
      generatedMessage = true;
      message = okMessage(fn.name, 3);
    } else if (message instanceof Error) {
      throw message;
    }
    const err = new AssertionError({ actual: value, expected: true, message, operator: '==', stackStartFn: fn });
    err.generatedMessage = generatedMessage;
    throw err;
  }
}

function ok(...args) { innerOk(ok, args.length, ...args); }
const assert = function assert(...args) { innerOk(assert, args.length, ...args); };
assert.ok = ok;
assert.AssertionError = AssertionError;
assert.fail = function fail(actual, expected, message, operator, stackStartFn) {
  const argsLen = arguments.length;
  let internalMessage = false;
  if (actual == null && argsLen <= 1) { internalMessage = true; message = 'Failed'; }
  else if (argsLen === 1) { message = actual; actual = undefined; }
  else {
    if (argsLen === 2) operator = '!=';
  }
  if (message instanceof Error) throw message;
  const err = new AssertionError({ actual, expected, operator: operator === undefined ? 'fail' : operator, stackStartFn: stackStartFn || fail, message });
  if (internalMessage) err.generatedMessage = true;
  throw err;
};
function checkArgs(n, name) {
  if (n < 2) throw new codes.ERR_MISSING_ARGS('actual', 'expected');
}
assert.equal = function equal(actual, expected, message) {
  checkArgs(arguments.length);
  // eslint-disable-next-line eqeqeq
  if (actual != expected && (!Number.isNaN(actual) || !Number.isNaN(expected))) innerFail({ actual, expected, message, operator: '==', stackStartFn: equal });
};
assert.notEqual = function notEqual(actual, expected, message) {
  checkArgs(arguments.length);
  // eslint-disable-next-line eqeqeq
  if (actual == expected || (Number.isNaN(actual) && Number.isNaN(expected))) innerFail({ actual, expected, message, operator: '!=', stackStartFn: notEqual });
};
assert.deepEqual = function deepEqual(actual, expected, message) {
  checkArgs(arguments.length);
  if (!isDeepEqual(actual, expected, false)) innerFail({ actual, expected, message, operator: 'deepEqual', stackStartFn: deepEqual });
};
assert.notDeepEqual = function notDeepEqual(actual, expected, message) {
  checkArgs(arguments.length);
  if (isDeepEqual(actual, expected, false)) innerFail({ actual, expected, message, operator: 'notDeepEqual', stackStartFn: notDeepEqual });
};
assert.deepStrictEqual = function deepStrictEqual(actual, expected, message) {
  checkArgs(arguments.length);
  if (!isDeepEqual(actual, expected, true)) innerFail({ actual, expected, message, operator: 'deepStrictEqual', stackStartFn: deepStrictEqual });
};
assert.notDeepStrictEqual = function notDeepStrictEqual(actual, expected, message) {
  checkArgs(arguments.length);
  if (isDeepEqual(actual, expected, true)) innerFail({ actual, expected, message, operator: 'notDeepStrictEqual', stackStartFn: notDeepStrictEqual });
};
assert.strictEqual = function strictEqual(actual, expected, message) {
  checkArgs(arguments.length);
  if (!Object.is(actual, expected)) innerFail({ actual, expected, message, operator: 'strictEqual', stackStartFn: strictEqual });
};
assert.notStrictEqual = function notStrictEqual(actual, expected, message) {
  checkArgs(arguments.length);
  if (Object.is(actual, expected)) innerFail({ actual, expected, message, operator: 'notStrictEqual', stackStartFn: notStrictEqual });
};
assert.partialDeepStrictEqual = assert.deepStrictEqual;

function checkError(actual, expected, message, fn) {
  if (expected === undefined) return;
  if (typeof expected === 'function') {
    if (expected.prototype !== undefined && actual instanceof expected) return;
    if (Error.isPrototypeOf(expected) || expected === Error) {
      const err = new AssertionError({ actual, expected, message: message || `The error is expected to be an instance of "${expected.name}". Received "${actual && actual.constructor ? actual.constructor.name : typeof actual}"\n\nError message:\n\n${actual && actual.message}`, operator: fn.name, stackStartFn: fn });
      err.generatedMessage = !message;
      throw err;
    }
    const res = expected.call({}, actual);
    if (res !== true) {
      const err = new AssertionError({ actual, expected, message: message || `The ${expected.name ? `"${expected.name}" ` : ''}validation function is expected to return "true". Received ${inspect(res)}\n\nCaught error:\n\n${actual}`, operator: fn.name, stackStartFn: fn });
      err.generatedMessage = !message;
      throw err;
    }
    return;
  }
  if (expected instanceof RegExp) {
    if (expected.test(String(actual))) return;
    const err = new AssertionError({ actual, expected, message: message || `The input did not match the regular expression ${inspect(expected)}. Input:\n\n${inspect(String(actual))}\n`, operator: fn.name, stackStartFn: fn });
    err.generatedMessage = !message;
    throw err;
  }
  if (typeof expected === 'object' && expected !== null) {
    const keys = Object.keys(expected);
    if (expected instanceof Error) keys.push('name', 'message');
    for (const k of keys) {
      const ev = expected[k], av = actual == null ? undefined : actual[k];
      if (ev instanceof RegExp && typeof av === 'string' ? ev.test(av) : isDeepEqual(av, ev, true)) continue;
      const a = {}, e = {};
      for (const kk of keys) { if (actual != null) a[kk] = actual[kk]; e[kk] = expected[kk]; }
      const err = new AssertionError({ actual: a, expected: e, message, operator: 'deepStrictEqual', stackStartFn: fn });
      err.actual = actual;
      err.expected = expected;
      err.operator = fn.name;
      throw err;
    }
    return;
  }
  throw new codes.ERR_INVALID_ARG_TYPE('expected', ['Function', 'RegExp', 'Object', 'Error'], expected);
}
const NO_EXCEPTION = Symbol('no exception');
function getActual(fn) {
  if (typeof fn !== 'function') throw new codes.ERR_INVALID_ARG_TYPE('fn', 'Function', fn);
  try { fn(); } catch (e) { return e; }
  return NO_EXCEPTION;
}
async function waitActual(promiseFn) {
  let p;
  if (typeof promiseFn === 'function') {
    p = promiseFn();
    if (!p || typeof p.then !== 'function') throw new codes.ERR_INVALID_RETURN_VALUE('instance of Promise', 'promiseFn', p);
  } else if (promiseFn && typeof promiseFn.then === 'function') p = promiseFn;
  else throw new codes.ERR_INVALID_ARG_TYPE('promiseFn', ['Function', 'Promise'], promiseFn);
  try { await p; } catch (e) { return e; }
  return NO_EXCEPTION;
}
function expectsError(fn, actual, error, message) {
  if (typeof error === 'string') { message = error; error = undefined; }
  if (actual === NO_EXCEPTION) {
    let details = '';
    if (error && error.name) details += ` (${error.name})`;
    details += message ? `: ${message}` : '.';
    const fnType = fn === assert.rejects ? 'rejection' : 'exception';
    innerFail({ actual: undefined, expected: error, operator: fn.name, message: `Missing expected ${fnType}${details}`, stackStartFn: fn });
  }
  checkError(actual, error, message, fn);
}
function expectsNoError(fn, actual, error, message) {
  if (actual === NO_EXCEPTION) return;
  if (typeof error === 'string') { message = error; error = undefined; }
  if (!error || (typeof error === 'function' && actual instanceof error)) {
    const details = message ? `: ${message}` : '.';
    const fnType = fn === assert.doesNotReject ? 'rejection' : 'exception';
    innerFail({ actual, expected: error, operator: fn.name, message: `Got unwanted ${fnType}${details}\nActual message: "${actual && actual.message}"`, stackStartFn: fn });
  }
  throw actual;
}
assert.throws = function throws(fn, ...args) { expectsError(throws, getActual(fn), ...args); };
assert.rejects = async function rejects(promiseFn, ...args) { expectsError(rejects, await waitActual(promiseFn), ...args); };
assert.doesNotThrow = function doesNotThrow(fn, ...args) { expectsNoError(doesNotThrow, getActual(fn), ...args); };
assert.doesNotReject = async function doesNotReject(fn, ...args) { expectsNoError(doesNotReject, await waitActual(fn), ...args); };
assert.ifError = function ifError(err) {
  if (err !== null && err !== undefined) {
    let message = 'ifError got unwanted exception: ';
    message += typeof err === 'object' && typeof err.message === 'string' ? (err.message.length === 0 && err.constructor ? err.constructor.name : err.message) : inspect(err);
    const newErr = new AssertionError({ actual: err, expected: null, operator: 'ifError', message, stackStartFn: ifError });
    newErr.generatedMessage = true;
    throw newErr;
  }
};
assert.match = function match(string, regexp, message) {
  if (!(regexp instanceof RegExp)) throw new codes.ERR_INVALID_ARG_TYPE('regexp', 'RegExp', regexp);
  if (typeof string !== 'string' || !regexp.test(string)) {
    if (message instanceof Error) throw message;
    const generatedMessage = !message;
    message = message || (typeof string !== 'string' ? `The "string" argument must be of type string. Received type ${typeof string} (${inspect(string)})` : `The input did not match the regular expression ${inspect(regexp)}. Input:\n\n${inspect(string)}\n`);
    const err = new AssertionError({ actual: string, expected: regexp, message, operator: 'match', stackStartFn: match });
    err.generatedMessage = generatedMessage;
    throw err;
  }
};
assert.doesNotMatch = function doesNotMatch(string, regexp, message) {
  if (!(regexp instanceof RegExp)) throw new codes.ERR_INVALID_ARG_TYPE('regexp', 'RegExp', regexp);
  if (typeof string !== 'string' || regexp.test(string)) {
    if (message instanceof Error) throw message;
    const generatedMessage = !message;
    message = message || (typeof string !== 'string' ? `The "string" argument must be of type string. Received type ${typeof string} (${inspect(string)})` : `The input was expected to not match the regular expression ${inspect(regexp)}. Input:\n\n${inspect(string)}\n`);
    const err = new AssertionError({ actual: string, expected: regexp, message, operator: 'doesNotMatch', stackStartFn: doesNotMatch });
    err.generatedMessage = generatedMessage;
    throw err;
  }
};
assert.CallTracker = class CallTracker {
  calls(fn = () => {}, exact = 1) { const w = (...a) => fn(...a); return w; }
  verify() {}
  report() { return []; }
};
assert.strict = Object.assign(function strict(...args) { innerOk(strict, args.length, ...args); }, assert, {
  equal: assert.strictEqual, deepEqual: assert.deepStrictEqual, notEqual: assert.notStrictEqual, notDeepEqual: assert.notDeepStrictEqual,
});
assert.strict.strict = assert.strict;
module.exports = assert;
