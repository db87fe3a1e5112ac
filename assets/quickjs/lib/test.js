'use strict';
// node:test — test(), describe()/it(), hooks, skip/todo/only, subtests via
// t.test(), reported as TAP version 13 the way Node 20's runner writes it
// (numbering continued across the files of `node --test`). Files run in this
// process one after another, not each in its own as Node does.

const { inspect } = require('internal/inspect');
const { writeAll } = require('internal/fdio');

const out = (s) => writeAll(1, s);
const now = () => native.os.now();

class TestNode {
  constructor(name, fn, opts, parent, isSuite) {
    this.name = name;
    this.fn = fn;
    this.opts = opts || {};
    this.parent = parent;
    this.isSuite = isSuite;
    this.children = [];
    this.hooks = { before: [], after: [], beforeEach: [], afterEach: [] };
    this.skip = !!this.opts.skip;
    this.todo = !!this.opts.todo;
    this.error = null;
    this.location = callerLocation();
  }
}

// where test() was called, as V8 gives it: the start of the callee's name
// (QuickJS's column is at the call's parenthesis)
function callerLocation() {
  const lines = (new Error().stack || '').split('\n').slice(1);
  for (const l of lines) {
    const m = /\(?((?:\/|file:)[^():]*):(\d+):(\d+)\)?$/.exec(l);
    if (!m || m[1].startsWith('node:')) continue;
    let col = +m[3];
    const src = native.std.loadFile(m[1]);
    const text = typeof src === 'string' ? src.split('\n')[+m[2] - 1] : undefined;
    if (text !== undefined) {
      let c = col - 1;
      while (c > 0 && /[\w$.]/.test(text[c - 1])) c--;
      col = c + 1;
    }
    return `${m[1]}:${m[2]}:${col}`;
  }
  return undefined;
}

const root = new TestNode('<root>', null, {}, null, true);
let current = root;
let scheduled = false;
let counts = { tests: 0, suites: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 };
let started = 0;
let topIndex = 0;
let headerDone = false;

function schedule() {
  if (scheduled || manual) return;
  scheduled = true;
  process.nextTick(() => { runRoot().catch((e) => process.nextTick(() => { throw e; })); });
}
let manual = false; // node --test: the runner starts the run after loading the files

function register(name, opts, fn, isSuite) {
  if (typeof name === 'function') { fn = name; opts = {}; name = fn.name || '<anonymous>'; }
  else if (typeof opts === 'function') { fn = opts; opts = {}; }
  if (name === undefined) name = fn && fn.name ? fn.name : '<anonymous>';
  const node = new TestNode(String(name), fn, opts, current, isSuite);
  current.children.push(node);
  if (isSuite) {
    // a suite's body runs now, to collect its tests
    const prev = current;
    current = node;
    try { if (fn) fn.call(node, node); } catch (e) { node.error = e; }
    current = prev;
  }
  if (current === root) schedule();
  return node;
}

function test(name, opts, fn) { register(name, opts, fn, false); return Promise.resolve(); }
test.skip = (name, opts, fn) => test(name, { ...(typeof opts === 'object' ? opts : {}), skip: true }, typeof opts === 'function' ? opts : fn);
test.todo = (name, opts, fn) => test(name, { ...(typeof opts === 'object' ? opts : {}), todo: true }, typeof opts === 'function' ? opts : fn);
test.only = test;
function describe(name, opts, fn) { register(name, opts, fn, true); }
describe.skip = (name, opts, fn) => describe(name, { ...(typeof opts === 'object' ? opts : {}), skip: true }, typeof opts === 'function' ? opts : fn);
describe.todo = (name, opts, fn) => describe(name, { ...(typeof opts === 'object' ? opts : {}), todo: true }, typeof opts === 'function' ? opts : fn);
describe.only = describe;
const it = test;
const hook = (kind) => (fn) => { current.hooks[kind].push(fn); };

class TestContext {
  constructor(node) { this._node = node; this.name = node.name; this.signal = new AbortController().signal; }
  test(name, opts, fn) {
    if (typeof name === 'function') { fn = name; opts = {}; name = fn.name || '<anonymous>'; }
    else if (typeof opts === 'function') { fn = opts; opts = {}; }
    const child = new TestNode(String(name), fn, opts, this._node, false);
    this._node.children.push(child);
    return this._node._pending = (this._node._pending || Promise.resolve()).then(() => runNode(child));
  }
  skip(msg) { this._node.skip = true; this._node.skipMsg = msg; }
  todo(msg) { this._node.todo = true; this._node.todoMsg = msg; }
  diagnostic(msg) { (this._node.diag || (this._node.diag = [])).push(String(msg)); }
  plan() {}
  runOnly() {}
  before(fn) { this._node.hooks.before.push(fn); }
  after(fn) { this._node.hooks.after.push(fn); }
  beforeEach(fn) { this._node.hooks.beforeEach.push(fn); }
  afterEach(fn) { this._node.hooks.afterEach.push(fn); }
  get fullName() { const names = []; for (let n = this._node; n && n !== root; n = n.parent) names.unshift(n.name); return names.join(' > '); }
  get assert() { return require('assert'); }
  get mock() { return mock; }
}

async function callFn(fn, thisArg, args) {
  if (fn.length >= (args.length + 1) && args.length === 1) {
    // a done callback
    await new Promise((resolve, reject) => {
      const done = (err) => (err ? reject(err) : resolve());
      const r = fn.call(thisArg, args[0], done);
      if (r && typeof r.then === 'function') r.then(undefined, reject);
    });
    return;
  }
  await fn.apply(thisArg, args);
}

function ancestorsHooks(node, kind) {
  const list = [];
  for (let n = node.parent; n; n = n.parent) list.unshift(...n.hooks[kind]);
  return list;
}

// a test (not a suite): hooks, its function, the subtests it made
async function runNode(node) {
  const t0 = now();
  if (node.skip || node.todo) {
    node.duration = now() - t0;
    return;
  }
  const ctx = new TestContext(node);
  try {
    for (const h of ancestorsHooks(node, 'beforeEach')) await h(ctx);
    if (node.fn) await callFn(node.fn, ctx, [ctx]);
    if (node._pending) await node._pending;
    for (const h of ancestorsHooks(node, 'afterEach')) await h(ctx);
    subtestsFailed(node);
  } catch (e) {
    node.error = e;
  }
  node.failed = !!node.error;
  node.duration = now() - t0;
}

// a test or suite whose subtests failed fails, saying how many
function subtestsFailed(node) {
  const failed = node.children.filter((c) => c.failed).length;
  if (failed) { node.error = new Error(`${failed} subtest${failed > 1 ? 's' : ''} failed`); node.subtestsFailed = true; }
}

function yamlValue(v) {
  if (typeof v === 'string') return `'${v.replace(/'/g, "''")}'`;
  return inspect(v, { breakLength: Infinity });
}

function report(node, index, indent) {
  const pad = ' '.repeat(indent);
  let line = `${node.failed ? 'not ok' : 'ok'} ${index} - ${node.name}`;
  if (node.skip) line += node.skipMsg ? ` # SKIP ${node.skipMsg}` : ' # SKIP';
  if (node.todo) line += node.todoMsg ? ` # TODO ${node.todoMsg}` : ' # TODO';
  out(`${pad}${line}\n${pad}  ---\n${pad}  duration_ms: ${Number(node.duration.toFixed(6))}\n`);
  if (node.isSuite) out(`${pad}  type: 'suite'\n`);
  if (node.failed) {
    const e = node.error;
    if (node.location) out(`${pad}  location: '${node.location}'\n`);
    out(`${pad}  failureType: '${node.subtestsFailed ? 'subtestsFailed' : 'testCodeFailure'}'\n`);
    const msg = e && e.message !== undefined ? String(e.message) : String(e);
    if (node.subtestsFailed) {
      out(`${pad}  error: '${msg}'\n${pad}  code: 'ERR_TEST_FAILURE'\n`);
    } else if (msg.includes('\n')) {
      out(`${pad}  error: |-\n${msg.split('\n').map((l) => `${pad}    ${l}`).join('\n')}\n`);
    } else {
      out(`${pad}  error: ${yamlValue(msg)}\n`);
    }
    if (!node.subtestsFailed && e && typeof e === 'object') {
      out(`${pad}  code: ${yamlValue(e.code !== undefined ? e.code : 'ERR_TEST_FAILURE')}\n`);
      if (e.name !== undefined && e.name !== 'Error') out(`${pad}  name: ${yamlValue(e.name)}\n`);
      for (const k of ['expected', 'actual', 'operator']) if (k in e) out(`${pad}  ${k}: ${yamlValue(e[k])}\n`);
      const frames = String(e.stack || '').split('\n').filter((l) => /^\s+at /.test(l)).map((l) => l.trim().replace(/^at /, ''));
      if (frames.length) out(`${pad}  stack: |-\n${frames.map((f) => `${pad}    ${f}`).join('\n')}\n`);
    }
  }
  out(`${pad}  ...\n`);
}

function count(node) {
  if (node.isSuite) counts.suites++;
  else counts.tests++;
  if (node.skip) counts.skipped++;
  else if (node.todo) counts.todo++;
  else if (!node.isSuite) { if (node.failed) counts.fail++; else counts.pass++; }
}

async function runRoot() {
  if (!started) started = now();
  if (!headerDone) { out('TAP version 13\n'); headerDone = true; }
  while (root.children.length > root._done || (root._done === undefined && root.children.length)) {
    root._done = root._done || 0;
    const node = root.children[root._done++];
    await runTop(node);
  }
  finish();
}
async function runTop(node) {
  await runChild(node, 0, ++topIndex);
}
// a suite or a test at an indentation: its "# Subtest" line, its run (a
// suite's children reported as each ends), its own ok line
async function runChild(node, indent, index) {
  const pad = ' '.repeat(indent);
  out(`${pad}# Subtest: ${node.name}\n`);
  if (!node.isSuite) {
    await runNode(node);
    reportTestWithSubtests(node, index, indent);
    return;
  }
  const t0 = now();
  const ctx = new TestContext(node);
  try {
    if (node.error) throw node.error;
    if (!node.skip && !node.todo) {
      for (const h of node.hooks.before) await h(ctx);
      let i = 0;
      for (const c of node.children) await runChild(c, indent + 4, ++i);
      for (const h of node.hooks.after) await h(ctx);
    }
    subtestsFailed(node);
  } catch (e) {
    node.error = e;
  }
  node.failed = !!node.error;
  node.duration = now() - t0;
  out(`${pad}    1..${node.children.length}\n`);
  report(node, index, indent);
  count(node);
}
function reportTestWithSubtests(node, index, indent) {
  // subtests made with t.test() ran inside runNode; print them before the test
  const pad = ' '.repeat(indent);
  if (node.children.length) {
    node.children.forEach((c, i) => {
      out(`${pad}    # Subtest: ${c.name}\n`);
      reportTestWithSubtests(c, i + 1, indent + 4);
    });
    out(`${pad}    1..${node.children.length}\n`);
  }
  const saved = node.children;
  node.children = [];
  report(node, index, indent);
  node.children = saved;
  count(node);
}

let finished = false;
function finish() {
  if (finished) return;
  finished = true;
  out(`1..${topIndex}\n# tests ${counts.tests}\n# suites ${counts.suites}\n# pass ${counts.pass}\n# fail ${counts.fail}\n# cancelled ${counts.cancelled}\n# skipped ${counts.skipped}\n# todo ${counts.todo}\n# duration_ms ${Number((now() - started).toFixed(6))}\n`);
  if (counts.fail > 0) process.exitCode = 1;
}

// the runner of `node --test`: the files' tests, one file after another
async function runFiles(load) {
  manual = true;
  started = now();
  await load();
  await runRoot();
}

// mock: functions that record their calls
function fnMock(impl = () => {}) {
  const calls = [];
  const f = function (...args) {
    let result, error;
    try { result = impl.apply(this, args); } catch (e) { error = e; calls.push({ arguments: args, result, error, this: this }); throw e; }
    calls.push({ arguments: args, result, error, this: this });
    return result;
  };
  f.mock = { calls, callCount: () => calls.length, mockImplementation: (g) => { impl = g; }, resetCalls: () => { calls.length = 0; } };
  return f;
}
const mock = {
  fn: fnMock,
  method(obj, name, impl) {
    const orig = obj[name];
    const m = fnMock(impl || orig);
    obj[name] = m;
    m.mock.restore = () => { obj[name] = orig; };
    return m;
  },
  reset() {},
  restoreAll() {},
  timers: { enable() {}, reset() {}, tick() {} },
};

module.exports = test;
Object.assign(test, {
  test, describe, suite: describe, it, before: hook('before'), after: hook('after'), beforeEach: hook('beforeEach'),
  afterEach: hook('afterEach'), mock, run: () => { throw new (require('internal/errors').codes.ERR_METHOD_NOT_IMPLEMENTED)('run'); },
  _runFiles: runFiles,
});
