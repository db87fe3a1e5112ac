// The body of function (native, builtinSources) { ... }: runs `node` (or npm,
// npx) — the builtins' registry, the globals, the entry point, the event loop,
// and Node's way of reporting an uncaught error and exiting.

const builtinCache = new Map();
function require(id) {
  const cached = builtinCache.get(id);
  if (cached !== undefined) return cached.exports;
  const factory = builtinSources[id];
  if (factory === undefined) {
    const e = new Error(`Cannot find module '${id}'`);
    e.code = 'MODULE_NOT_FOUND';
    throw e;
  }
  const module = { exports: {}, id };
  builtinCache.set(id, module);
  try {
    factory.call(module.exports, module.exports, require, module, native);
  } catch (e) {
    builtinCache.delete(id);
    throw e;
  }
  return module.exports;
}
const publicBuiltins = Object.keys(builtinSources).filter((id) => !id.startsWith('internal/') && id !== 'bootstrap');
const aliases = { 'sys': 'util' };
function loadBuiltin(id) {
  if (id.startsWith('node:')) id = id.slice(5);
  if (aliases[id]) id = aliases[id];
  return require(id);
}

const process = require('internal/process');
globalThis.process = process;
const loop = require('internal/loop');
const { writeAll, readAll } = require('internal/fdio');
const inspectMod = require('internal/inspect');

// --- Error: V8's API over QuickJS ----------------------------------------------------
Object.defineProperty(Error, 'stackTraceLimit', {
  get() { return this.__limit === undefined ? 10 : this.__limit; },
  set(v) { this.__limit = v; native.setStackTraceLimit(typeof v === 'number' ? v : 0); },
  configurable: true, enumerable: true,
});
Object.defineProperty(Error, '__limit', { value: 10, writable: true, enumerable: false });
Error.captureStackTrace = function captureStackTrace(obj, fn) {
  const frames = (new Error().stack || '').split('\n').slice(2); // this frame and the header
  let start = 0;
  if (typeof fn === 'function' && fn.name) {
    const i = frames.findIndex((l) => l.startsWith(`    at ${fn.name} `));
    if (i !== -1) start = i + 1;
  }
  const rest = frames.slice(start);
  Object.defineProperty(obj, 'stack', {
    configurable: true, enumerable: false,
    get() {
      const name = this.name === undefined ? 'Error' : String(this.name);
      const msg = this.message === undefined ? '' : String(this.message);
      const head = name && msg ? `${name}: ${msg}` : name || msg;
      const s = rest.length ? `${head}\n${rest.join('\n')}` : head;
      Object.defineProperty(this, 'stack', { value: s, writable: true, configurable: true, enumerable: false });
      return s;
    },
    set(v) { Object.defineProperty(this, 'stack', { value: v, writable: true, configurable: true, enumerable: false }); },
  });
};

// --- stdio -------------------------------------------------------------------------
const stdio = require('internal/stdio');
Object.defineProperty(process, 'stdout', { configurable: true, enumerable: true, get: () => stdio.stdout() });
Object.defineProperty(process, 'stderr', { configurable: true, enumerable: true, get: () => stdio.stderr() });
Object.defineProperty(process, 'stdin', { configurable: true, enumerable: true, get: () => stdio.stdin() });

// --- globals ---------------------------------------------------------------------------
function defineGlobal(name, get) {
  let value;
  let done = false;
  Object.defineProperty(globalThis, name, {
    configurable: true, enumerable: false,
    get() { if (!done) { value = get(); done = true; } return value; },
    set(v) { value = v; done = true; },
  });
}
globalThis.global = globalThis;
defineGlobal('console', () => require('console'));
globalThis.setTimeout = loop.setTimeout;
globalThis.setInterval = loop.setInterval;
globalThis.clearTimeout = loop.clearTimeout;
globalThis.clearInterval = loop.clearInterval;
globalThis.setImmediate = loop.setImmediate;
globalThis.clearImmediate = loop.clearImmediate;
globalThis.queueMicrotask = function queueMicrotask(cb) {
  if (typeof cb !== 'function') {
    throw new (require('internal/errors').codes.ERR_INVALID_ARG_TYPE)('callback', 'Function', cb);
  }
  Promise.resolve().then(() => {
    try { cb(); } catch (e) { onUncaught(e, 'uncaughtException'); }
  });
};
for (const [name, mod, key] of [
  ['Buffer', 'buffer', 'Buffer'], ['atob', 'buffer', 'atob'], ['btoa', 'buffer', 'btoa'], ['Blob', 'buffer', 'Blob'],
  ['URL', 'url', 'URL'], ['URLSearchParams', 'url', 'URLSearchParams'],
  ['TextEncoder', 'util', 'TextEncoder'], ['TextDecoder', 'util', 'TextDecoder'],
  ['EventTarget', 'internal/event_target', 'EventTarget'], ['Event', 'internal/event_target', 'Event'],
  ['CustomEvent', 'internal/event_target', 'CustomEvent'],
  ['AbortController', 'internal/event_target', 'AbortController'], ['AbortSignal', 'internal/event_target', 'AbortSignal'],
  ['structuredClone', 'internal/structured_clone', 'structuredClone'],
  ['performance', 'perf_hooks', 'performance'],
  ['fetch', 'internal/fetch', 'fetch'], ['Headers', 'internal/fetch', 'Headers'],
  ['Request', 'internal/fetch', 'Request'], ['Response', 'internal/fetch', 'Response'], ['FormData', 'internal/fetch', 'FormData'],
  ['crypto', 'crypto', 'webcrypto'],
  ['DOMException', 'internal/event_target', 'DOMException'],
  ['MessageChannel', 'worker_threads', 'MessageChannel'], ['MessagePort', 'worker_threads', 'MessagePort'],
  ['BroadcastChannel', 'worker_threads', 'BroadcastChannel'],
  ['ReadableStream', 'stream/web', 'ReadableStream'], ['WritableStream', 'stream/web', 'WritableStream'],
  ['TransformStream', 'stream/web', 'TransformStream'],
]) {
  if (builtinSources[mod] !== undefined) defineGlobal(name, () => require(mod)[key]);
}

// The language as Node 20 (V8 11.3) has it: QuickJS is newer in places, and a
// program that detects a feature must take Node 20's path.
for (const [obj, names] of [
  [Object, ['groupBy']], [Map, ['groupBy']], [Promise, ['withResolvers', 'try']], [Array, ['fromAsync']],
  [RegExp, ['escape']], [Error, ['isError']], [Math, ['sumPrecise', 'f16round']],
  [Set.prototype, ['union', 'intersection', 'difference', 'symmetricDifference', 'isSubsetOf', 'isSupersetOf', 'isDisjointFrom']],
  [globalThis, ['Iterator', 'Float16Array']],
]) {
  for (const n of names) if (Object.prototype.hasOwnProperty.call(obj, n)) delete obj[n];
}
// Date#toString names the zone as ICU does (for UTC; other zones keep the offset alone)
{
  const toString = Date.prototype.toString;
  Object.defineProperty(Date.prototype, 'toString', {
    value: function () {
      const s = toString.call(this);
      return s.endsWith('GMT+0000') ? `${s} (Coordinated Universal Time)` : s;
    },
    writable: true, configurable: true,
  });
}

// JSON.parse's errors in V8's words (internal/json_errors reads the text again)
{
  const origParse = JSON.parse;
  Object.defineProperty(JSON, 'parse', {
    value: function parse(text, reviver) {
      try {
        return reviver === undefined ? origParse.call(JSON, text) : origParse.call(JSON, text, reviver);
      } catch (e) {
        if (e instanceof SyntaxError) {
          const m = require('internal/json_errors').messageFor(String(text));
          if (m) e.message = m;
        }
        throw e;
      }
    },
    writable: true, configurable: true,
  });
}

// Intl: the engine has none; internal/intl formats as Node's ICU does for English
if (typeof Intl === 'undefined') {
  defineGlobal('Intl', () => require('internal/intl').Intl);
  for (const [proto, name] of [[Number.prototype, 'toLocaleString'], [BigInt.prototype, 'toLocaleString'],
    [Date.prototype, 'toLocaleString'], [Date.prototype, 'toLocaleDateString'], [Date.prototype, 'toLocaleTimeString'],
    [String.prototype, 'localeCompare'], [Array.prototype, 'toLocaleString']]) {
    Object.defineProperty(proto, name, {
      value: function (...args) { require('internal/intl').install(); return proto[name].apply(this, args); },
      writable: true, configurable: true, enumerable: false,
    });
  }
}

// --- uncaught errors and rejections ----------------------------------------------------
const NODE_LINE = `Node.js ${process.version}`;
const sourceCache = new Map();
function sourceLine(file, line) {
  let text = sourceCache.get(file);
  if (text === undefined) {
    if (file === '[eval]' || file === '[eval]-wrapper') text = evalSource;
    else {
      const p = file.startsWith('file://') ? decodeURIComponent(file.slice(7)) : file;
      text = p.startsWith('/') ? native.std.loadFile(p) : null;
    }
    sourceCache.set(file, text);
  }
  if (typeof text !== 'string') return null;
  const lines = text.split('\n');
  return lines[line - 1] === undefined ? null : lines[line - 1];
}
let evalSource = null;
const esmFiles = new Set();

// the "file:line\nsource\n   ^\n" Node prints above an uncaught error
function errorContext(err) {
  if (err && typeof err === 'object' && err[Symbol.for('wasmsand.node.context')]) return err[Symbol.for('wasmsand.node.context')];
  try {
    return sourceContext(err);
  } catch {
    return '';
  }
}
function sourceContext(err) {
  let stack;
  try { stack = err && typeof err === 'object' ? err.stack : undefined; } catch { stack = undefined; }
  if (typeof stack !== 'string') return '';
  const m = /\n\s+at (?:.*? \()?((?:\/|\[eval\])[^():]*):(\d+):(\d+)\)?/.exec(stack);
  if (!m) return '';
  const [, file, line, col] = m;
  const src = sourceLine(file, +line);
  if (src === null) return '';
  const shown = esmFiles.has(file) || modules.esmSources.has(file) ? modules.pathToFileURLString(file) : file;
  return `${shown}:${line}\n${src}\n${' '.repeat(Math.max(0, +col - 1))}^\n\n`;
}

function printUncaught(err, fromPromise) {
  let out;
  if (err instanceof Error || native.isError(err)) {
    out = `${errorContext(err)}${inspectMod.inspect(err)}\n`;
    if (err.code === 'ERR_UNHANDLED_REJECTION') out = `${inspectMod.inspect(err)}\n`;
  } else if (fromPromise) {
    out = `node:internal/process/promises:289\n            triggerUncaughtException(err, true /* fromPromise */);\n            ^\n\n` +
      `[UnhandledPromiseRejection: This error originated either by throwing inside of an async function without a catch block, or by rejecting a promise which was not handled with .catch(). The promise rejected with the reason "${typeof err === 'string' ? err : inspectMod.inspect(err)}".] {\n  code: 'ERR_UNHANDLED_REJECTION'\n}\n`;
  } else {
    out = `${inspectMod.inspect(err)}\n(Use \`node --trace-uncaught ...\` to show where the exception was thrown)\n`;
  }
  writeAll(2, `${out}\n${NODE_LINE}\n`);
}

let inUncaught = false;
function onUncaught(err, origin) {
  if (process._captureFn) { process._captureFn(err); return; }
  if (!inUncaught && process.listenerCount('uncaughtException') > 0) {
    inUncaught = true;
    try {
      process.emit('uncaughtExceptionMonitor', err, origin);
      process.emit('uncaughtException', err, origin);
    } catch (e2) {
      inUncaught = false;
      fatal(e2, false);
    }
    inUncaught = false;
    return;
  }
  process.emit('uncaughtExceptionMonitor', err, origin);
  fatal(err, origin === 'unhandledRejection');
}
function fatal(err, fromPromise) {
  printUncaught(err, fromPromise);
  process.exitCode = 1;
  if (!process._exiting) {
    process._exiting = true;
    try { process.emit('exit', 1); } catch { /* ignore */ }
  }
  // 1, unless an 'exit' listener set another code
  native.std.exit(process._exitStatus() || 1);
}

// rejections: pending until the microtasks after which no handler came
const pendingRejections = new Map();
function onRejection(promise, reason, handled) {
  if (handled) {
    if (pendingRejections.has(promise)) pendingRejections.delete(promise);
    else process.emit('rejectionHandled', promise);
  } else {
    pendingRejections.set(promise, reason);
  }
}
function processRejections() {
  if (pendingRejections.size === 0) return;
  const list = [...pendingRejections];
  pendingRejections.clear();
  for (const [promise, reason] of list) {
    if (process.listenerCount('unhandledRejection') > 0) {
      try { process.emit('unhandledRejection', reason, promise); } catch (e) { onUncaught(e, 'uncaughtException'); }
      continue;
    }
    const mode = unhandledMode;
    if (mode === 'none') continue;
    if (mode === 'warn') {
      process.emitWarning(`Unhandled promise rejection: ${inspectMod.inspect(reason)}`, 'UnhandledPromiseRejectionWarning');
      continue;
    }
    onUncaught(reason, 'unhandledRejection');
  }
}
let unhandledMode = 'throw';
loop.setHandlers(onUncaught, processRejections);

// --- the builtins and modules ---------------------------------------------------------------
const modules = require('internal/modules');
modules.install({
  builtins: publicBuiltins.concat(Object.keys(aliases)),
  loadBuiltin,
  stripTypes: (src, file) => require('internal/strip_types').stripTypes(src, file),
  onRejection,
});
const { Module } = modules;

// --- command line ----------------------------------------------------------------------------
const argv = native.argv.slice();
const invokedAs = (argv[0] || 'node').replace(/.*\//, '');

function usageError(msg, status = 9) {
  writeAll(2, `${argv[0] && invokedAs === 'node' ? 'node' : invokedAs}: ${msg}\n`);
  native.std.exit(status);
}

function helpText() {
  return `Usage: node [options] [ script.js ] [arguments]
       node inspect [options] [ script.js | host:port ] [arguments]

Options:
  -                           script read from stdin (default if no file name is provided, interactive mode if a tty)
  --                          indicate the end of node options
  -c, --check                 syntax check script without executing
  -e, --eval=...              evaluate script
  -h, --help                  print node command line options (currently set)
  --input-type=...            set module type for string input
  -p, --print [...]           evaluate script and print result
  -r, --require=...           CommonJS module to preload (option can be repeated)
  --import=...                ES module to preload (option can be repeated)
  --unhandled-rejections=...  define unhandled rejections mode (throw, strict, warn, none, warn-with-error-code)
  --stack-trace-limit=...     the number of stack frames in an error's stack
  --no-warnings               silence all process warnings
  --no-deprecation            silence deprecation warnings
  --experimental-strip-types  run .ts files with their types removed (always on here)
  -v, --version               print Node.js version

Environment variables:
  NODE_PATH                   ':'-separated list of directories prefixed to the module search path
  NODE_OPTIONS                set CLI options in the environment

This node is QuickJS with a Node.js layer, running inside the wasmsand sandbox.
Documentation can be found at https://nodejs.org/
`;
}

function parseArgs(args) {
  const o = { test: false, evalSrc: null, print: false, check: false, requires: [], imports: [], inputType: null, script: null, rest: [], stdin: false, interactive: false };
  let i = 0;
  const optionValue = (name, a) => {
    const eq = a.indexOf('=');
    if (eq !== -1) return a.slice(eq + 1);
    if (i + 1 >= args.length) usageError(`${a} requires an argument`);
    return args[++i];
  };
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === '--') { i++; break; }
    if (a === '-') { o.stdin = true; i++; break; }
    if (!a.startsWith('-')) break;
    if (a === '-e' || a === '--eval' || a.startsWith('--eval=')) { o.evalSrc = optionValue('eval', a); continue; }
    if (a === '-p' || a === '--print' || a.startsWith('--print=') || a === '-pe') {
      o.print = true;
      if (a.includes('=')) o.evalSrc = a.slice(a.indexOf('=') + 1);
      else if (i + 1 < args.length && (a === '-pe' || !args[i + 1].startsWith('-'))) o.evalSrc = args[++i];
      continue;
    }
    if (a === '-c' || a === '--check') { o.check = true; continue; }
    if (a === '--test') { o.test = true; continue; }
    if (a.startsWith('--test-reporter') || a.startsWith('--test-name-pattern') || a.startsWith('--test-concurrency') || a.startsWith('--test-timeout') || a === '--test-only' || a.startsWith('--test-reporter-destination')) { if (!a.includes('=')) i++; continue; }
    if (a === '-i' || a === '--interactive') { o.interactive = true; continue; }
    if (a === '-r' || a === '--require' || a.startsWith('--require=')) { o.requires.push(optionValue('require', a)); continue; }
    if (a === '--import' || a.startsWith('--import=')) { o.imports.push(optionValue('import', a)); continue; }
    if (a === '--input-type' || a.startsWith('--input-type=')) { o.inputType = optionValue('input-type', a); continue; }
    if (a === '-v' || a === '--version') { writeAll(1, `${process.version}\n`); native.std.exit(0); }
    if (a === '-h' || a === '--help') { writeAll(1, helpText()); native.std.exit(0); }
    if (a.startsWith('--unhandled-rejections')) { unhandledMode = optionValue('x', a); continue; }
    if (a.startsWith('--stack-trace-limit')) { Error.stackTraceLimit = +optionValue('x', a); continue; }
    if (a === '--no-warnings') { process.noProcessWarnings = true; continue; }
    if (a === '--no-deprecation') { process.noDeprecation = true; continue; }
    if (a === '--throw-deprecation') { process.throwDeprecation = true; continue; }
    if (a === '--trace-uncaught' || a === '--trace-warnings' || a === '--enable-source-maps' || a === '--preserve-symlinks' ||
        a === '--experimental-vm-modules' || a === '--expose-gc' || a === '--no-experimental-fetch' || a === '--abort-on-uncaught-exception') continue;
    if (/^--(experimental|no-experimental|max-old-space-size|max-semi-space-size|stack-size|title|conditions|loader|env-file|harmony|disable-warning|trace|inspect|openssl|tls|dns-result-order|report|heapsnapshot|snapshot|watch|test|frozen-intrinsics|pending-deprecation|redirect-warnings|icu)/.test(a)) {
      if (a.startsWith('--title=')) process.title = a.slice(8);
      if (a.startsWith('--env-file=')) loadEnvFile(a.slice(11));
      if (/^--(stack-size|max-old-space-size|title|conditions|loader|env-file|disable-warning|redirect-warnings)$/.test(a)) i++;
      continue;
    }
    if (a === '-C' || a === '--conditions') { i++; continue; }
    usageError(`bad option: ${a}`);
  }
  o.rest = args.slice(i);
  return o;
}

function loadEnvFile(file) {
  const text = native.std.loadFile(file);
  if (text === null) usageError(`${file}: not found`);
  for (const line of text.split('\n')) {
    const m = /^\s*(?:export\s+)?([\w.-]+)\s*=\s*(.*)?\s*$/.exec(line);
    if (!m || line.trim().startsWith('#')) continue;
    let v = (m[2] || '').trim();
    if (/^(['"`]).*\1$/.test(v)) v = v.slice(1, -1);
    if (process.env[m[1]] === undefined) process.env[m[1]] = v;
  }
}

function runEval(src, o) {
  evalSource = src;
  const forceModule = o.inputType === 'module';
  if (forceModule || (o.inputType !== 'commonjs' && !o.print && modules.looksLikeEsm(src))) {
    const file = `${process.cwd()}/[eval1]`;
    return runModuleSource(src, file);
  }
  const m = new Module('[eval]', null);
  m.filename = `${process.cwd()}/[eval]`;
  m.paths = Module._nodeModulePaths(process.cwd());
  globalThis.module = m;
  globalThis.exports = m.exports;
  globalThis.require = modules.makeRequire(m);
  globalThis.__filename = '[eval]';
  globalThis.__dirname = '.';
  const result = native.evalScript(src, '[eval]');
  if (o.print) {
    const r = result;
    const show = () => console.log(r);
    show();
  }
  return undefined;
}

// an ES module from a string (-e with --input-type=module, stdin)
function runModuleSource(src, file) {
  const hooksFile = file;
  esmFiles.add(hooksFile);
  virtualModules.set(hooksFile, src);
  return importMain(hooksFile);
}
const { virtualModules } = modules;

function importMain(file) {
  const p = native.loadModule('<main>', file);
  p.then(undefined, (e) => onUncaught(modules.improveImportError(e), 'uncaughtException'));
  return p;
}

function runMain(file) {
  const resolved = (() => {
    try {
      return Module._resolveFilename(require('path').resolve(file), null, true);
    } catch (e) {
      if (e.code === 'MODULE_NOT_FOUND') {
        const abs = require('path').resolve(file);
        const err = new Error(`Cannot find module '${abs}'`);
        err.code = 'MODULE_NOT_FOUND';
        err.requireStack = [];
        writeAll(2, `node:internal/modules/cjs/loader:1228\n  throw err;\n  ^\n\n${inspectMod.inspect(err)}\n\n${NODE_LINE}\n`);
        native.std.exit(1);
      }
      throw e;
    }
  })();
  process.argv[1] = resolved;
  const fmt = modules.formatOf(resolved);
  const ext = require('path').extname(resolved);
  let esm = fmt === 'module';
  if (!esm && fmt === 'auto' && (ext === '.js' || ext === '.ts' || ext === '')) {
    let src = modules.loadSource(resolved);
    if (ext === '.ts') src = require('internal/strip_types').stripTypes(src, resolved);
    esm = modules.looksLikeEsm(src);
  }
  if (esm) {
    esmFiles.add(resolved);
    return importMain(resolved);
  }
  Module._load(resolved, null, true);
  return undefined;
}

// node --test [files]: the files named, or those Node 20 finds by name
function runTests(files) {
  const path = require('path');
  const fs = require('fs');
  if (files.length === 0) {
    const found = [];
    const isTest = (rel) => /(^|\/)(test|[^/]*[.\-_]test|test-[^/]*)\.[cm]?js$/.test(rel) || /(^|\/)test\/.*\.[cm]?js$/.test(rel);
    (function walk(dir, rel) {
      let ents;
      try { ents = fs.readdirSync(dir, { withFileTypes: true }); } catch { return; }
      for (const e of ents) {
        if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
        const r = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) walk(path.join(dir, e.name), r);
        else if (isTest(r)) found.push(path.resolve(r));
      }
    })(process.cwd(), '');
    files = found.sort();
  } else {
    files = files.map((f) => path.resolve(f));
  }
  process.argv = ['/usr/bin/node', ...files];
  const t = require('test');
  t._runFiles(async () => {
    for (const f of files) {
      const fmt = modules.formatOf(f);
      if (fmt === 'module' || (fmt === 'auto' && modules.looksLikeEsm(modules.loadSource(f)))) {
        esmFiles.add(f);
        await native.loadModule('<main>', f);
      } else {
        Module._load(f, null, false);
      }
    }
  }).catch((e) => onUncaught(e, 'uncaughtException'));
}

function main() {
  let args = argv.slice(1);
  const nodeOptions = process.env.NODE_OPTIONS;
  let pre = [];
  if (nodeOptions) pre = nodeOptions.match(/(?:[^\s"']+|"[^"]*"|'[^']*')+/g).map((s) => s.replace(/^["']|["']$/g, ''));
  if (invokedAs === 'npm' || invokedAs === 'npx') {
    process.argv = ['/usr/bin/node', `/usr/lib/wasmsand/node/${invokedAs}`, ...args];
    process.title = invokedAs;
    try {
      require(invokedAs === 'npm' ? 'internal/npm/npm_cli' : 'internal/npm/npx').main(args);
    } catch (e) {
      onUncaught(e, 'uncaughtException');
    }
    return;
  }
  const o = parseArgs(pre.concat(args));
  process.execArgv = args.slice(0, args.length - o.rest.length - (o.stdin ? 1 : 0)).filter((a) => a !== '--');
  for (const r of o.requires) Module._load(r, new Module(`${process.cwd()}/[preload]`, null), false);
  if (o.test) return runTests(o.rest);
  if (o.evalSrc !== null) {
    process.argv = ['/usr/bin/node', ...o.rest];
    return runEval(o.evalSrc, o);
  }
  if (o.rest.length === 0 || o.stdin) {
    process.argv = ['/usr/bin/node', ...(o.stdin ? ['-'] : []), ...o.rest];
    if (o.interactive || (!o.stdin && native.os.isatty(0))) {
      writeAll(2, `Welcome to Node.js ${process.version} (wasmsand: QuickJS).\nThe interactive REPL is not available in the sandbox: run a script, or node -e.\n`);
      native.std.exit(1);
    }
    const data = readAll(0);
    const src = typeof data === 'number' ? '' : native.utf8Decode(data);
    if (o.inputType === 'module' || (o.inputType !== 'commonjs' && modules.looksLikeEsm(src))) {
      evalSource = src;
      return runModuleSource(src, `${process.cwd()}/[stdin]`);
    }
    evalSource = src;
    const m = new Module('[stdin]', null);
    m.filename = `${process.cwd()}/[stdin]`;
    m.paths = Module._nodeModulePaths(process.cwd());
    m._compile(src, '[stdin]');
    return undefined;
  }
  const script = o.rest[0];
  process.argv = ['/usr/bin/node', script, ...o.rest.slice(1)];
  if (o.check) {
    const src = modules.loadSource(require('path').resolve(script));
    try {
      native.evalScript(`(function(){${src.replace(/^#![^\n]*/, '')}\n})`, require('path').resolve(script));
    } catch (e) {
      if (!(e instanceof SyntaxError) || !modules.looksLikeEsm(src)) {
        writeAll(2, `${require('path').resolve(script)}\n${inspectMod.inspect(e)}\n\n${NODE_LINE}\n`);
        native.std.exit(1);
      }
    }
    native.std.exit(0);
  }
  return runMain(script);
}

try {
  main();
} catch (e) {
  onUncaught(e, 'uncaughtException');
}

function beforeExit() {
  if (process.listenerCount('beforeExit') === 0) return false;
  try { process.emit('beforeExit', process._exitStatus()); } catch (e) { onUncaught(e, 'uncaughtException'); }
  loop.runTicks();
  return loop.alive(); // listeners that schedule nothing end the process
}
loop.run(beforeExit);
if (!process._exiting) {
  process._exiting = true;
  try {
    process.emit('exit', process._exitStatus());
  } catch (e) {
    onUncaught(e, 'uncaughtException');
  }
}
native.std.exit(process._exitStatus());
