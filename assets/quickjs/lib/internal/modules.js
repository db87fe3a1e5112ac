'use strict';
// CommonJS and ES modules with Node's resolution: relative and absolute files,
// node_modules, package.json "main", "exports" and "imports" (conditions
// require/import, node, default), "type", .mjs/.cjs/.json, node: builtins,
// and the two worlds meeting: import of CommonJS (default + named exports of
// what it exported), require of an ES module without top-level await.

const path = require('path');
const { codes, validateString } = require('internal/errors');
const { os, std } = native;

const builtinIds = new Set(); // public builtins, filled by the bootstrap
let loadBuiltin = null; // (id) -> exports
let stripTypes = null; // (source, filename) -> JS, for .ts files

// 0 missing, 1 file, 2 directory
function kind(p) {
  const [st, err] = os.stat(p);
  if (err) return 0;
  return (st.mode & os.S_IFMT) === os.S_IFDIR ? 2 : 1;
}
function realpath(p) {
  const [r, err] = os.realpath(p);
  return err ? p : r;
}
// sources with no file: -e and stdin given as ES modules
const virtualModules = new Map();
function readText(p) {
  if (virtualModules.has(p)) return virtualModules.get(p);
  return std.loadFile(p);
}

const pkgCache = new Map();
function readPackage(dir) {
  const file = `${dir === '/' ? '' : dir}/package.json`;
  if (pkgCache.has(file)) return pkgCache.get(file);
  let pkg = null;
  if (kind(file) === 1) {
    const text = readText(file);
    try {
      pkg = JSON.parse(text);
      if (pkg === null || typeof pkg !== 'object') pkg = {};
    } catch (e) {
      const err = new Error(`Invalid package config ${file}.`);
      err.code = 'ERR_INVALID_PACKAGE_CONFIG';
      err.path = file;
      throw err;
    }
    pkg.__dir = dir;
  }
  pkgCache.set(file, pkg);
  return pkg;
}
// the package scope of a file: the nearest package.json above it
function packageScope(file) {
  let dir = path.dirname(file);
  for (;;) {
    if (path.basename(dir) === 'node_modules') return null;
    const pkg = readPackage(dir);
    if (pkg) return pkg;
    if (dir === '/') return null;
    dir = path.dirname(dir);
  }
}

function formatOf(file) {
  const ext = path.extname(file);
  if (ext === '.mjs' || ext === '.mts') return 'module';
  if (ext === '.cjs' || ext === '.cts') return 'commonjs';
  if (ext === '.json') return 'json';
  if (ext === '.node') return 'addon';
  const scope = packageScope(file);
  if (scope && scope.type === 'module') return 'module';
  if (scope && scope.type === 'commonjs') return 'commonjs';
  return 'auto'; // .js without "type": ES module syntax decides (Node 20.19+)
}

// --- package.json "exports" / "imports" -------------------------------------------
function resolvePackageTarget(pkgDir, target, subpath, pattern, internal, conditions, base) {
  if (typeof target === 'string') {
    if (!target.startsWith('./')) {
      if (internal && !target.startsWith('../') && !target.startsWith('/')) {
        // a bare specifier in "imports": resolved as a package
        const spec = pattern ? target.replace(/\*/g, subpath) : target + subpath;
        return { bare: spec };
      }
      throw invalidTarget(pkgDir, target, base);
    }
    const resolved = path.join(pkgDir, pattern ? target.replace(/\*/g, subpath) : target + subpath);
    return resolved;
  }
  if (Array.isArray(target)) {
    let lastErr;
    for (const t of target) {
      try {
        const r = resolvePackageTarget(pkgDir, t, subpath, pattern, internal, conditions, base);
        if (r !== undefined && r !== null) return r;
      } catch (e) { lastErr = e; }
    }
    if (lastErr) throw lastErr;
    return null;
  }
  if (target && typeof target === 'object') {
    for (const key of Object.keys(target)) {
      if (key === 'default' || conditions.includes(key)) {
        const r = resolvePackageTarget(pkgDir, target[key], subpath, pattern, internal, conditions, base);
        if (r === undefined) continue;
        return r;
      }
    }
    return undefined;
  }
  if (target === null) return null;
  throw invalidTarget(pkgDir, target, base);
}
function invalidTarget(pkgDir, target, base) {
  const e = new Error(`Invalid "exports" target ${JSON.stringify(target)} defined in the package config ${pkgDir}/package.json${base ? ` imported from ${base}` : ''}`);
  e.code = 'ERR_INVALID_PACKAGE_TARGET';
  return e;
}

function matchMap(map, key, pkgDir, internal, conditions, base) {
  if (Object.prototype.hasOwnProperty.call(map, key) && !key.includes('*')) {
    return resolvePackageTarget(pkgDir, map[key], '', false, internal, conditions, base);
  }
  let bestMatch = '', bestSub;
  for (const k of Object.keys(map)) {
    const star = k.indexOf('*');
    if (star === -1 || k.indexOf('*', star + 1) !== -1) continue;
    const prefix = k.slice(0, star), suffix = k.slice(star + 1);
    if (key.startsWith(prefix) && key !== prefix && (suffix === '' || (key.endsWith(suffix) && key.length >= k.length))) {
      if (patternKeyCompare(bestMatch, k) === 1) {
        bestMatch = k;
        bestSub = key.slice(prefix.length, key.length - suffix.length);
      }
    }
  }
  if (bestMatch) return resolvePackageTarget(pkgDir, map[bestMatch], bestSub, true, internal, conditions, base);
  // legacy folder mappings ("./dir/": "./lib/")
  for (const k of Object.keys(map)) {
    if (k.endsWith('/') && key.startsWith(k)) {
      return resolvePackageTarget(pkgDir, map[k], key.slice(k.length), false, internal, conditions, base);
    }
  }
  return undefined;
}
function patternKeyCompare(a, b) {
  const aStar = a.indexOf('*'), bStar = b.indexOf('*');
  const baseA = aStar === -1 ? a.length : aStar + 1;
  const baseB = bStar === -1 ? b.length : bStar + 1;
  if (baseA > baseB) return -1;
  if (baseB > baseA) return 1;
  if (aStar === -1) return 1;
  if (bStar === -1) return -1;
  if (a.length > b.length) return -1;
  if (b.length > a.length) return 1;
  return 0;
}

function exportsResolve(pkgDir, subpath, exportsField, conditions, base) {
  let map = exportsField;
  if (typeof map === 'string' || Array.isArray(map) ||
      (map && typeof map === 'object' && !Object.keys(map).some((k) => k.startsWith('.')))) {
    map = { '.': map };
  }
  const r = matchMap(map, subpath, pkgDir, false, conditions, base);
  if (r === undefined || r === null) {
    throw new codes.ERR_PACKAGE_PATH_NOT_EXPORTED(`${pkgDir}/`, subpath, base);
  }
  return r;
}

// --- CommonJS resolution ----------------------------------------------------------
const EXTS = ['.js', '.json', '.node', '.cjs', '.mjs', '.ts', '.cts', '.mts'];
function tryFile(p) {
  return kind(p) === 1 ? realpath(p) : null;
}
function tryExtensions(p, exts) {
  for (const e of exts) {
    const f = tryFile(p + e);
    if (f) return f;
  }
  return null;
}
function cjsExts() { return Object.keys(Module._extensions); }
function tryPackage(dir, exts, request, parentPath) {
  const pkg = readPackage(dir);
  const main = pkg && typeof pkg.main === 'string' ? pkg.main : null;
  if (!main) return tryExtensions(path.join(dir, 'index'), exts);
  const file = path.resolve(dir, main);
  const f = tryFile(file) || tryExtensions(file, exts) || tryExtensions(path.join(file, 'index'), exts);
  if (f) return f;
  const idx = tryExtensions(path.join(dir, 'index'), exts);
  if (idx) return idx;
  const err = new Error(`Cannot find module '${file}'. Please verify that the package.json has a valid "main" entry`);
  err.code = 'MODULE_NOT_FOUND';
  err.path = path.join(dir, 'package.json');
  err.requestPath = request;
  throw err;
}
function loadAsFileOrDir(p, exts, request) {
  const trailing = p.endsWith('/');
  if (!trailing) {
    const f = tryFile(p);
    if (f) return f;
    const e = tryExtensions(p, exts);
    if (e) return e;
  }
  if (kind(p) === 2) return tryPackage(p, exts, request);
  return null;
}

function nodeModulePaths(from) {
  from = path.resolve(from);
  if (from === '/') return ['/node_modules'];
  const parts = from.split('/');
  const out = [];
  for (let i = parts.length; i > 0; i--) {
    if (parts[i - 1] === 'node_modules') continue;
    const dir = parts.slice(0, i).join('/') || '';
    out.push(`${dir}/node_modules`);
  }
  out.push('/node_modules');
  return [...new Set(out)];
}

function splitPackage(request) {
  let name, rest;
  if (request.startsWith('@')) {
    const i = request.indexOf('/');
    const j = request.indexOf('/', i + 1);
    name = j === -1 ? request : request.slice(0, j);
    rest = j === -1 ? '' : request.slice(j);
  } else {
    const i = request.indexOf('/');
    name = i === -1 ? request : request.slice(0, i);
    rest = i === -1 ? '' : request.slice(i);
  }
  return { name, subpath: `.${rest}` };
}

function resolveImports(request, parentFile, conditions, base) {
  const scope = parentFile ? packageScope(parentFile) : null;
  if (!scope || !scope.imports || request === '#' || request.startsWith('#/')) {
    throw new codes.ERR_PACKAGE_IMPORT_NOT_DEFINED(request, scope ? `${scope.__dir}/` : '', base || parentFile);
  }
  const r = matchMap(scope.imports, request, scope.__dir, true, conditions, base);
  if (r === undefined || r === null) throw new codes.ERR_PACKAGE_IMPORT_NOT_DEFINED(request, `${scope.__dir}/`, base || parentFile);
  return r;
}

function cjsResolve(request, parent) {
  const parentFile = parent && parent.filename;
  const parentDir = parentFile ? path.dirname(parentFile) : process.cwd();
  const exts = cjsExts();
  const conditions = ['require', 'node', 'node-addons', 'module-sync', 'default'];
  if (request.startsWith('#')) {
    const r = resolveImports(request, parentFile, conditions);
    if (typeof r === 'object') return cjsResolve(r.bare, parent);
    const f = tryFile(r);
    if (f) return f;
  } else if (request === '.' || request === '..' || request.startsWith('./') || request.startsWith('../') || request.startsWith('/')) {
    const p = path.resolve(parentDir, request);
    const f = loadAsFileOrDir(request.endsWith('/') ? `${p}/` : p, exts, request);
    if (f) return f;
  } else {
    const { name, subpath } = splitPackage(request);
    // self-reference
    const scope = parentFile ? packageScope(parentFile) : null;
    if (scope && scope.name === name && scope.exports !== undefined) {
      const r = exportsResolve(scope.__dir, subpath, scope.exports, conditions);
      const f = tryFile(r);
      if (f) return f;
    }
    const dirs = (parent && parent.paths && parent.paths.length ? parent.paths : nodeModulePaths(parentDir)).concat(globalPaths());
    for (const nm of dirs) {
      const pkgDir = `${nm}/${name}`;
      if (kind(nm) !== 2) continue;
      const pkg = kind(pkgDir) === 2 ? readPackage(pkgDir) : null;
      if (pkg && pkg.exports !== undefined && pkg.exports !== null) {
        const r = exportsResolve(pkgDir, subpath, pkg.exports, conditions);
        const f = tryFile(r);
        if (f) return f;
        continue;
      }
      const f = loadAsFileOrDir(`${nm}/${request}`, exts, request);
      if (f) return f;
    }
  }
  let msg = `Cannot find module '${request}'`;
  const stack = [];
  for (let m = parent; m && m.filename; m = m.parent) stack.push(m.filename);
  if (stack.length) msg += `\nRequire stack:\n- ${stack.join('\n- ')}`;
  const err = new Error(msg);
  err.code = 'MODULE_NOT_FOUND';
  err.requireStack = stack;
  throw err;
}
function globalPaths() {
  const out = [];
  const np = process.env.NODE_PATH;
  if (np) for (const p of np.split(':')) if (p) out.push(path.resolve(p));
  const home = process.env.HOME;
  if (home) out.push(`${home}/.node_modules`, `${home}/.node_libraries`);
  out.push('/usr/lib/node');
  return out;
}

// --- the CommonJS Module ----------------------------------------------------------
function Module(id = '', parent) {
  this.id = id;
  this.path = path.dirname(id);
  this.exports = {};
  this.filename = null;
  this.loaded = false;
  this.children = [];
  this.paths = [];
  Object.defineProperty(this, 'parent', { value: parent, writable: true, configurable: true, enumerable: false });
  if (parent && parent.children) parent.children.push(this);
}
Module._cache = Object.create(null);
Module._pathCache = Object.create(null);
Module.globalPaths = [];
Module._nodeModulePaths = nodeModulePaths;
Module.wrapper = ['(function (exports, require, module, __filename, __dirname) { ', '\n});'];
Module.wrap = (script) => Module.wrapper[0] + script + Module.wrapper[1];
Module.builtinModules = [];
Module.isBuiltin = (name) => {
  const n = String(name).startsWith('node:') ? String(name).slice(5) : String(name);
  return builtinIds.has(n);
};
Module._resolveFilename = function (request, parent, isMain, options) {
  if (Module.isBuiltin(request) && !(request === 'test' && !request.startsWith('node:'))) return request;
  if (request.startsWith('node:')) {
    const e = new Error(`No such built-in module: ${request}`);
    e.code = 'ERR_UNKNOWN_BUILTIN_MODULE';
    throw e;
  }
  if (options && options.paths) {
    const fake = new Module('', null);
    for (const p of options.paths) {
      fake.filename = path.join(path.resolve(p), '__fake');
      fake.paths = nodeModulePaths(path.resolve(p));
      try { return cjsResolve(request, fake); } catch (e) { /* next */ }
    }
  }
  return cjsResolve(request, parent);
};
Module._findPath = (request, paths) => {
  for (const p of paths || []) {
    const f = loadAsFileOrDir(path.resolve(p, request), cjsExts(), request);
    if (f) return f;
  }
  return false;
};
Module._load = function (request, parent, isMain) {
  const filename = Module._resolveFilename(request, parent, isMain);
  if (Module.isBuiltin(filename)) {
    return loadBuiltin(filename.startsWith('node:') ? filename.slice(5) : filename);
  }
  const cached = Module._cache[filename];
  if (cached !== undefined) {
    if (parent && parent.children && !parent.children.includes(cached)) parent.children.push(cached);
    if (cached.__esm && !cached.loaded) requireEsm(cached, filename, parent);
    return cached.exports;
  }
  const module = new Module(filename, parent);
  if (isMain) {
    process.mainModule = module;
    module.id = '.';
    requireFn.main = module;
  }
  Module._cache[filename] = module;
  let threw = true;
  try {
    module.load(filename);
    threw = false;
  } finally {
    if (threw) delete Module._cache[filename];
  }
  return module.exports;
};
Module.prototype.load = function (filename) {
  this.filename = filename;
  this.paths = nodeModulePaths(path.dirname(filename));
  let ext = path.extname(filename);
  if (!Module._extensions[ext]) ext = '.js';
  Module._extensions[ext](this, filename);
  this.loaded = true;
};
Module.prototype.require = function (id) {
  validateString(id, 'id');
  if (id === '') throw new codes.ERR_INVALID_ARG_VALUE('id', id, 'must be a non-empty string');
  return Module._load(id, this, false);
};

function makeRequire(mod) {
  const require = function require(id) { return mod.require(id); };
  require.resolve = function resolve(request, options) {
    validateString(request, 'request');
    return Module._resolveFilename(request, mod, false, options);
  };
  require.resolve.paths = (request) => (Module.isBuiltin(request) ? null : nodeModulePaths(mod.filename ? path.dirname(mod.filename) : process.cwd()));
  require.main = requireFn.main;
  require.extensions = Module._extensions;
  require.cache = Module._cache;
  return require;
}
const requireFn = { main: undefined };

const SHEBANG = /^#![^\n]*/;
Module.prototype._compile = function (content, filename) {
  content = content.replace(SHEBANG, '');
  const wrapper = Module.wrap(content);
  const fn = native.evalScript(wrapper, filename);
  const require = makeRequire(this);
  const dirname = path.dirname(filename);
  return fn.call(this.exports, this.exports, require, this, filename, dirname);
};

function looksLikeEsm(source) {
  // module syntax a CommonJS wrapper cannot parse: import/export statements, top-level await
  if (!/\b(?:import|export|await)\b/.test(source)) return false;
  try {
    native.evalScript(`(function(){${source.replace(SHEBANG, '')}\n})`, '<detect>');
    return false;
  } catch (e) {
    if (!(e instanceof SyntaxError)) return false;
    return /\b(?:import|export)\b/.test(source) || /\bawait\b/.test(source);
  }
}

function loadSource(filename) {
  const s = readText(filename);
  if (s === null) {
    throw require('internal/errors').uvException(44, 'open', filename);
  }
  return s;
}

Module._extensions = Object.create(null);
Module._extensions['.js'] = function (module, filename) {
  let content = loadSource(filename);
  const fmt = formatOf(filename);
  if (fmt === 'module' || (fmt === 'auto' && looksLikeEsm(content))) {
    requireEsm(module, filename, module.parent);
    return;
  }
  module._compile(content, filename);
};
Module._extensions['.cjs'] = function (module, filename) {
  module._compile(loadSource(filename), filename);
};
Module._extensions['.mjs'] = function (module, filename) {
  requireEsm(module, filename, module.parent);
};
Module._extensions['.json'] = function (module, filename) {
  const content = loadSource(filename);
  try {
    module.exports = JSON.parse(content.charCodeAt(0) === 0xfeff ? content.slice(1) : content);
  } catch (err) {
    err.message = `${filename}: ${err.message}`;
    throw err;
  }
};
Module._extensions['.node'] = function (module, filename) {
  const err = new Error(`${filename}: native addons (.node) cannot be loaded in the wasmsand sandbox`);
  err.code = 'ERR_DLOPEN_FAILED';
  throw err;
};
function tsExtension(module, filename) {
  const content = loadSource(filename);
  const js = stripTypes(content, filename);
  const fmt = formatOf(filename);
  if (fmt === 'module' || (fmt === 'auto' && looksLikeEsm(js))) {
    requireEsm(module, filename, module.parent);
    return;
  }
  module._compile(js, filename);
}
Module._extensions['.ts'] = tsExtension;
Module._extensions['.cts'] = tsExtension;
Module._extensions['.mts'] = tsExtension;

// require() of an ES module: evaluated synchronously, as Node 20.19+ does; one
// that awaits at top level cannot be.
function requireEsm(module, filename, parent) {
  module.__esm = true;
  const p = native.loadModule(parent && parent.filename ? parent.filename : '<require>', filename);
  native.runMicrotasks();
  const [state, value] = native.promiseState(p);
  if (state === 2) { p.catch(() => {}); throw value; }
  if (state === 0) {
    const e = new Error(`require() cannot be used on an ESM graph with top-level await. Use import() instead. To see where the top-level await comes from, use --experimental-print-required-tla.\n  From ${parent && parent.filename ? parent.filename : 'the entry point'}\n  Requiring ${filename}`);
    e.code = 'ERR_REQUIRE_ASYNC_MODULE';
    throw e;
  }
  module.exports = value;
  module.loaded = true;
}

Module.createRequire = function createRequire(filename) {
  if (filename instanceof URL || (typeof filename === 'string' && filename.startsWith('file:'))) {
    filename = require('url').fileURLToPath(filename);
  }
  if (typeof filename !== 'string' || !path.isAbsolute(filename)) {
    throw new codes.ERR_INVALID_ARG_VALUE('filename', filename, 'must be a file URL object, file URL string, or absolute path string');
  }
  const m = new Module(filename, null);
  m.filename = filename;
  m.paths = nodeModulePaths(filename.endsWith('/') ? filename : path.dirname(filename));
  return makeRequire(m);
};
Module.Module = Module;
Module.register = () => {};
Module.syncBuiltinESMExports = () => {};
Module.findSourceMap = () => undefined;
Module.SourceMap = class SourceMap {};
Module.enableCompileCache = () => ({ status: 3 });
Module.constants = { compileCacheStatus: { FAILED: 0, ENABLED: 1, ALREADY_ENABLED: 2, DISABLED: 3 } };
Module.runMain = () => {};

// --- ES modules ---------------------------------------------------------------------
const esmConditions = ['import', 'node', 'node-addons', 'module-sync', 'default'];
function fileURLToPathLocal(u) {
  return decodeURIComponent(u.replace(/^file:\/\/(localhost)?/, '').replace(/[?#].*$/, ''));
}
function esmResolve(specifier, base) {
  if (specifier.startsWith('node:')) {
    const id = specifier.slice(5);
    if (!builtinIds.has(id)) throw new codes.ERR_UNKNOWN_BUILTIN_MODULE(specifier);
    return specifier;
  }
  if (builtinIds.has(specifier)) return `node:${specifier}`;
  const baseFile = base && base.startsWith('/') ? base : null;
  const baseShown = baseFile || process.cwd() + '/';
  let file;
  if (specifier.startsWith('file:')) {
    file = fileURLToPathLocal(specifier);
  } else if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(specifier)) {
    const e = new codes.ERR_UNSUPPORTED_ESM_URL_SCHEME({ protocol: specifier.slice(0, specifier.indexOf(':') + 1) });
    throw e;
  } else if (specifier.startsWith('/') || specifier.startsWith('./') || specifier.startsWith('../') || specifier === '.' || specifier === '..') {
    file = path.resolve(baseFile ? path.dirname(baseFile) : process.cwd(), specifier);
    if (specifier.endsWith('/')) file += '/';
  } else if (specifier.startsWith('#')) {
    const r = resolveImports(specifier, baseFile, esmConditions, baseShown);
    if (typeof r === 'object') return esmResolve(r.bare, base);
    file = r;
  } else {
    file = esmPackageResolve(specifier, baseFile, baseShown);
  }
  if (virtualModules.has(file)) return file;
  const k = kind(file);
  if (k === 2) {
    throw new codes.ERR_UNSUPPORTED_DIR_IMPORT(file, baseShown);
  }
  if (k === 0) {
    const e = new codes.ERR_MODULE_NOT_FOUND(file, baseShown, 'module');
    e.url = `file://${file}`;
    throw e;
  }
  return realpath(file);
}
function esmPackageResolve(specifier, baseFile, baseShown) {
  const { name, subpath } = splitPackage(specifier);
  const scope = baseFile ? packageScope(baseFile) : null;
  if (scope && scope.name === name && scope.exports !== undefined) {
    return exportsResolve(scope.__dir, subpath, scope.exports, esmConditions, baseShown);
  }
  const dirs = nodeModulePaths(baseFile ? path.dirname(baseFile) : process.cwd());
  for (const nm of dirs) {
    const pkgDir = `${nm}/${name}`;
    if (kind(pkgDir) !== 2) continue;
    const pkg = readPackage(pkgDir);
    if (pkg && pkg.exports !== undefined && pkg.exports !== null) {
      return exportsResolve(pkgDir, subpath, pkg.exports, esmConditions, baseShown);
    }
    if (subpath === '.') {
      // legacy main: extensions and index files are tried
      const f = tryPackage(pkgDir, ['.js', '.json', '.node'], specifier);
      if (f) return f;
    }
    return path.join(pkgDir, subpath);
  }
  throw new codes.ERR_MODULE_NOT_FOUND(name, baseShown);
}

const cjsForEsm = Symbol.for('wasmsand.node.cjs');
const builtinForEsm = Symbol.for('wasmsand.node.builtin');
const identRe = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const reserved = new Set(['default', 'await', 'yield', 'let', 'static', 'enum', 'implements', 'interface', 'package', 'private', 'protected', 'public', 'arguments', 'eval', 'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'delete', 'do', 'else', 'export', 'extends', 'false', 'finally', 'for', 'function', 'if', 'import', 'in', 'instanceof', 'new', 'null', 'return', 'super', 'switch', 'this', 'throw', 'true', 'try', 'typeof', 'var', 'void', 'while', 'with']);
function reexportSource(getter, keys) {
  let src = `const m = ${getter};\nexport default m;\n`;
  const names = keys.filter((k) => identRe.test(k) && !reserved.has(k));
  if (names.length) {
    src += `const { ${names.map((k, i) => `${k}: __e${i}`).join(', ')} } = m;\n`;
    src += `export { ${names.map((k, i) => `__e${i} as ${k}`).join(', ')} };\n`;
  }
  return src;
}

// The names an ES module importing a CommonJS module can take by name: what
// Node's cjs-module-lexer finds by reading the source (exports.x = ...,
// Object.defineProperty(exports, 'x', ...), module.exports = { a, b: c },
// re-exports of require()d modules), not what running it gives.
function lexCjs(source) {
  const names = new Set();
  const reexports = [];
  const src = source.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(^|[^:\\])\/\/[^\n]*/g, '$1');
  let m;
  const dot = /(?:^|[^.\w$])(?:module\s*\.\s*)?exports\s*\.\s*([A-Za-z_$][\w$]*)\s*=(?!=)/g;
  while ((m = dot.exec(src))) names.add(m[1]);
  const bracket = /(?:^|[^.\w$])(?:module\s*\.\s*)?exports\s*\[\s*(['"])([^'"\n]+)\1\s*\]\s*=(?!=)/g;
  while ((m = bracket.exec(src))) names.add(m[2]);
  const define = /Object\.defineProperty\(\s*(?:module\s*\.\s*)?exports\s*,\s*(['"])([^'"\n]+)\1\s*,\s*\{\s*(enumerable\s*:\s*true|value\s*:|get\s*[:(])/g;
  while ((m = define.exec(src))) names.add(m[2]);
  const reqRe = /module\.exports\s*=\s*require\(\s*(['"])([^'"\n]+)\1\s*\)/g;
  while ((m = reqRe.exec(src))) reexports.push(m[2]);
  const star = /__export(?:Star)?\(\s*require\(\s*(['"])([^'"\n]+)\1\s*\)/g;
  while ((m = star.exec(src))) reexports.push(m[2]);
  const lit = /module\.exports\s*=\s*\{/g;
  while ((m = lit.exec(src))) {
    let i = m.index + m[0].length;
    const ws = () => { while (i < src.length && /\s/.test(src[i])) i++; };
    for (;;) {
      ws();
      if (src[i] === '}') break;
      let r;
      const rest = src.slice(i, i + 300);
      if ((r = /^\.\.\.\s*require\(\s*(['"])([^'"\n]+)\1\s*\)/.exec(rest))) { reexports.push(r[2]); i += r[0].length; }
      else if ((r = /^([A-Za-z_$][\w$]*)\s*(?=[,}])/.exec(rest))) { names.add(r[1]); i += r[0].length; }
      else if ((r = /^(?:([A-Za-z_$][\w$]*)|(['"])([^'"\n]*)\2)\s*:\s*[A-Za-z_$][\w$.]*\s*(?=[,}])/.exec(rest))) { names.add(r[1] || r[3]); i += r[0].length; }
      else break;
      ws();
      if (src[i] === ',') { i++; continue; }
      break;
    }
  }
  return { names, reexports };
}
function cjsExportNames(file, seen = new Set()) {
  if (seen.has(file)) return new Set();
  seen.add(file);
  let source;
  try { source = loadSource(file); } catch { return new Set(); }
  const { names, reexports } = lexCjs(source);
  const fake = new Module(file, null);
  fake.filename = file;
  fake.paths = nodeModulePaths(path.dirname(file));
  for (const r of reexports) {
    let f;
    try { f = Module._resolveFilename(r, fake, false); } catch { continue; }
    if (Module.isBuiltin(f)) {
      const exp = loadBuiltin(f.replace(/^node:/, ''));
      for (const k of Object.keys(exp)) names.add(k);
      continue;
    }
    const fmt = formatOf(f);
    if (fmt === 'commonjs' || fmt === 'auto') for (const n of cjsExportNames(f, seen)) names.add(n);
  }
  return names;
}

// import attributes (with { type: 'json' }): QuickJS has no syntax for them;
// they only check a JSON module is imported as one, which the loader knows
const attrRe = /(\bfrom\s*|\bimport\s*)(['"][^'"\n]+['"])\s*(?:with|assert)\s*\{[^}]*\}/g;

function esmLoad(name) {
  if (name.startsWith('node:')) {
    const id = name.slice(5);
    const exp = loadBuiltin(id);
    const keys = exp && (typeof exp === 'object' || typeof exp === 'function') ? Object.keys(exp) : [];
    return reexportSource(`globalThis[Symbol.for('wasmsand.node.builtin')](${JSON.stringify(id)})`, keys);
  }
  const fmt = formatOf(name);
  const ext = path.extname(name);
  if (fmt === 'json') {
    return `export default JSON.parse(${JSON.stringify(loadSource(name))});`;
  }
  if (fmt === 'addon') throw new Error(`${name}: native addons cannot be loaded in the wasmsand sandbox`);
  let source = loadSource(name);
  if (ext === '.ts' || ext === '.mts' || ext === '.cts') source = stripTypes(source, name);
  if (fmt === 'module' || (fmt === 'auto' && looksLikeEsm(source))) {
    esmSources.set(name, source);
    return source.replace(SHEBANG, '').replace(attrRe, '$1$2');
  }
  // CommonJS: evaluated when this wrapper is, in the module graph's order
  cjsWrappers.add(name);
  const names = [...cjsExportNames(name)].filter((k) => k !== 'default');
  return reexportSource(`globalThis[Symbol.for('wasmsand.node.cjs')](${JSON.stringify(name)})`, names);
}
const esmSources = new Map();
const cjsWrappers = new Set();

// QuickJS: "Could not find export 'x' in module './y.cjs'"; Node explains a
// CommonJS module's named exports
function improveImportError(err) {
  if (!(err instanceof SyntaxError)) return err;
  const m = /^Could not find export '([^']+)' in module '([^']+)'/.exec(err.message);
  if (!m) return err;
  const [, missing, spec] = m;
  // QuickJS names the module by its resolved name: find the import statement
  const stmtRe = /import\s+(?:[\w$]+\s*,\s*)?\{([^}]*)\}\s*from\s*(['"])([^'"\n]+)\2/g;
  for (const [file, src] of esmSources) {
    let m2;
    stmtRe.lastIndex = 0;
    while ((m2 = stmtRe.exec(src))) {
      const names = m2[1].split(',').map((x) => x.trim().split(/\s+as\s+/)[0]).filter(Boolean);
      if (!names.includes(missing)) continue;
      let target;
      try { target = esmResolve(m2[3], file); } catch { continue; }
      if (target !== spec && m2[3] !== spec) continue;
      const shownSpec = m2[3];
      if (cjsWrappers.has(target)) {
        err.message = `Named export '${missing}' not found. The requested module '${shownSpec}' is a CommonJS module, which may not support all module.exports as named exports.\nCommonJS modules can always be imported via the default export, for example using:\n\nimport pkg from '${shownSpec}';\nconst { ${m2[1].split(',').map((x) => x.trim()).filter(Boolean).join(', ')} } = pkg;\n`;
      } else {
        err.message = `The requested module '${shownSpec}' does not provide an export named '${missing}'`;
      }
      // the place Node shows above it: the import, the name underlined
      const before = src.slice(0, m2.index);
      const line = before.split('\n').length;
      const lineText = src.split('\n')[line - 1];
      const col = lineText.indexOf(missing, lineText.indexOf('{'));
      Object.defineProperty(err, Symbol.for('wasmsand.node.context'), {
        value: `${pathToFileURLString(file)}:${line}\n${lineText}\n${' '.repeat(Math.max(col, 0))}${'^'.repeat(missing.length)}\n`,
      });
      return err;
    }
  }
  return err;
}

function esmMeta(meta, name) {
  if (name.startsWith('node:')) return;
  meta.url = pathToFileURLString(name);
  meta.filename = name;
  meta.dirname = path.dirname(name);
  meta.resolve = (spec) => {
    const r = esmResolve(String(spec), name);
    return r.startsWith('node:') ? r : pathToFileURLString(r);
  };
}
function pathToFileURLString(p) {
  return `file://${encodeURI(p).replace(/[?#]/g, encodeURIComponent)}`;
}

function install(opts) {
  for (const id of opts.builtins) builtinIds.add(id);
  Module.builtinModules = [...opts.builtins].filter((n) => !n.startsWith('_') || n === '_stream_readable').sort();
  loadBuiltin = opts.loadBuiltin;
  stripTypes = opts.stripTypes;
  Object.defineProperty(globalThis, cjsForEsm, {
    value: (n) => (Module._cache[n] ? Module._cache[n].exports : Module._load(n, null, false)),
    configurable: true,
  });
  Object.defineProperty(globalThis, builtinForEsm, { value: (id) => loadBuiltin(id), configurable: true });
  native.setModuleHooks({
    resolve: (spec, base) => esmResolve(spec, base),
    load: esmLoad,
    meta: esmMeta,
    rejection: opts.onRejection,
  });
}

module.exports = {
  Module, install, esmResolve, virtualModules, improveImportError, esmSources, formatOf, looksLikeEsm, loadSource, makeRequire, pathToFileURLString,
};
