'use strict';
// npm, for the sandbox: init, install/ci/uninstall from a registry the
// network policy allows (package-lock.json v3, node_modules laid out as npm
// hoists it, bin links in node_modules/.bin, lifecycle scripts), run/test/
// start, ls, exec (npx). The registry is npm's (or --registry, .npmrc,
// npm_config_registry); packages are pure JavaScript: a native addon's
// install script fails as node-gyp would without a compiler.

const fs = require('fs');
const path = require('path');
const semver = require('internal/npm/semver');
const tar = require('internal/npm/tar');
const { spawnSync } = require('child_process');
const crypto = require('crypto');

// the npm whose behaviour this follows (the reference the conformance cases are recorded from)
const NPM_VERSION = '11.19.1';

function out(s) { process.stdout.write(s); }
function err(s) { process.stderr.write(s); }

class NpmError extends Error {
  constructor(code, lines, status = 1) {
    super(lines[0]);
    this.npmCode = code;
    this.lines = lines;
    this.status = status;
  }
}

function readJSON(file) {
  try { return JSON.parse(fs.readFileSync(file, 'utf8')); } catch (e) {
    if (e.code === 'ENOENT') return null;
    throw new NpmError('EJSONPARSE', [`JSON.parse Invalid package.json: ${e.message}`, `File: ${file}`]);
  }
}
function writeJSON(file, obj) {
  fs.writeFileSync(file, `${JSON.stringify(obj, null, 2)}\n`);
}

// --- configuration --------------------------------------------------------------------
function parseNpmrc(file, into) {
  let text;
  try { text = fs.readFileSync(file, 'utf8'); } catch { return; }
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*([^#;=\s][^=]*?)\s*=\s*(.*?)\s*$/.exec(line);
    if (!m) continue;
    let v = m[2].replace(/^["']|["']$/g, '').replace(/\$\{([^}]+)\}/g, (_, k) => process.env[k] || '');
    into[m[1]] = v;
  }
}
function loadConfig(flags, prefix) {
  const cfg = { registry: 'https://registry.npmjs.org/' };
  const home = process.env.HOME;
  if (home) parseNpmrc(path.join(home, '.npmrc'), cfg);
  parseNpmrc(path.join(prefix, '.npmrc'), cfg);
  for (const [k, v] of Object.entries(process.env)) {
    const m = /^npm_config_(.+)$/i.exec(k);
    if (m) cfg[m[1].toLowerCase().replace(/_/g, '-')] = v;
  }
  Object.assign(cfg, flags);
  if (!cfg.registry.endsWith('/')) cfg.registry += '/';
  return cfg;
}

// the project: the nearest directory with package.json, as npm finds it
function findPrefix(start) {
  let dir = start;
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json')) || fs.existsSync(path.join(dir, 'node_modules'))) return dir;
    const up = path.dirname(dir);
    if (up === dir) return start;
    dir = up;
  }
}

// --- the registry -----------------------------------------------------------------------
const packuments = new Map();
async function registryGet(cfg, url, accept) {
  const headers = { accept: accept || 'application/json', 'user-agent': `npm/${NPM_VERSION} node/${process.version} linux wasm32 workspaces/false` };
  const u = new URL(url);
  const key = `//${u.host}${u.pathname.replace(/[^/]*$/, '')}:_authToken`;
  const hostKey = `//${u.host}/:_authToken`;
  const token = cfg[key] || cfg[hostKey] || cfg._authToken;
  if (token) headers.authorization = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(url, { headers });
  } catch (e) {
    const c = e.cause || e;
    throw new NpmError(c.code || 'ENETWORK', [`request to ${url} failed, reason: ${c.message}`]);
  }
  return res;
}
async function packument(cfg, name) {
  if (packuments.has(name)) return packuments.get(name);
  const url = `${cfg.registry}${name.replace('/', '%2f')}`;
  const res = await registryGet(cfg, url);
  if (res.status === 404) {
    throw new NpmError('E404', [`404 Not Found - GET ${url} - Not found`, '', `'${name}@*' is not in this registry.`, '', 'Note that you can also install from a', 'tarball, folder, http url, or git url.']);
  }
  if (!res.ok) throw new NpmError(`E${res.status}`, [`${res.status} ${res.statusText} - GET ${url}`]);
  const doc = await res.json();
  packuments.set(name, doc);
  return doc;
}
function pickVersion(doc, range, name) {
  const tags = doc['dist-tags'] || {};
  if (tags[range]) return doc.versions[tags[range]];
  const versions = Object.keys(doc.versions || {});
  if (range === '' || range === '*' || range === 'latest') {
    const latest = tags.latest;
    if (latest && doc.versions[latest]) return doc.versions[latest];
  } else if (tags.latest && semver.satisfies(tags.latest, range) && doc.versions[tags.latest]) {
    return doc.versions[tags.latest];
  }
  const v = semver.maxSatisfying(versions, range || '*');
  if (!v) {
    throw new NpmError('ETARGET', [`No matching version found for ${name}@${range}.`, 'In most cases you or one of your dependencies are requesting', "a package version that doesn't exist."]);
  }
  return doc.versions[v];
}
async function tarball(cfg, meta) {
  const url = meta.dist.tarball;
  const res = await registryGet(cfg, url, '*/*');
  if (!res.ok) throw new NpmError(`E${res.status}`, [`${res.status} ${res.statusText} - GET ${url}`]);
  const buf = Buffer.from(await res.arrayBuffer());
  const integrity = meta.dist.integrity;
  if (integrity) {
    const [alg, want] = integrity.split(' ')[0].split(/-(.*)/s);
    const got = crypto.createHash(alg).update(buf).digest('base64');
    if (got !== want) throw new NpmError('EINTEGRITY', [`sha512-${got} integrity checksum failed when using ${alg}: wanted ${integrity} but got ${alg}-${got}. (${buf.length} bytes)`]);
  } else if (meta.dist.shasum) {
    const got = crypto.createHash('sha1').update(buf).digest('hex');
    if (got !== meta.dist.shasum) throw new NpmError('EINTEGRITY', [`shasum check failed for ${url}`]);
  }
  return buf;
}

// --- the tree -------------------------------------------------------------------------------
// nodes by location ("node_modules/a", "node_modules/a/node_modules/b")
function parentLoc(loc) {
  const i = loc.lastIndexOf('/node_modules/');
  return i === -1 ? '' : loc.slice(0, i);
}
function visible(tree, from, name) {
  // the package `name` as require() would find it from location `from`
  let loc = from;
  for (;;) {
    const cand = loc ? `${loc}/node_modules/${name}` : `node_modules/${name}`;
    if (tree.has(cand)) return cand;
    if (loc === '') return null;
    loc = parentLoc(loc);
  }
}

function specOf(arg) {
  // name@range, @scope/name@range
  const at = arg.lastIndexOf('@');
  if (at > 0) return { name: arg.slice(0, at), range: arg.slice(at + 1) };
  return { name: arg, range: '' };
}

async function buildTree(cfg, rootPkg, lock, omitDev) {
  const tree = new Map();
  const locked = (lock && lock.packages) || {};
  const want = [];
  const rootDeps = { ...(rootPkg.dependencies || {}), ...(rootPkg.optionalDependencies || {}) };
  if (!omitDev) Object.assign(rootDeps, rootPkg.devDependencies || {});
  const devNames = new Set(Object.keys(rootPkg.devDependencies || {}));
  for (const [n, r] of Object.entries(rootDeps)) want.push({ from: '', name: n, range: r, dev: devNames.has(n) && !(rootPkg.dependencies || {})[n] });
  while (want.length) {
    const { from, name, range, dev, peer } = want.shift();
    const seen = visible(tree, from, name);
    if (seen && (semver.satisfies(tree.get(seen).version, range) || !semver.validRange(range))) {
      if (!dev) tree.get(seen).dev = false;
      continue;
    }
    // the locked version, when it still satisfies
    let meta = null;
    const lockLoc = seen ? null : `node_modules/${name}`;
    const lockedEntry = lockLoc && locked[lockLoc];
    if (lockedEntry && lockedEntry.version && semver.satisfies(lockedEntry.version, range) && lockedEntry.resolved) {
      meta = { name, version: lockedEntry.version, dist: { tarball: lockedEntry.resolved, integrity: lockedEntry.integrity },
        dependencies: lockedEntry.dependencies, optionalDependencies: lockedEntry.optionalDependencies, bin: lockedEntry.bin, license: lockedEntry.license, engines: lockedEntry.engines };
    } else {
      const doc = await packument(cfg, name);
      meta = pickVersion(doc, range, name);
      if (meta.deprecated) err(`npm warn deprecated ${name}@${meta.version}: ${meta.deprecated}\n`);
    }
    // place it: as high as it goes without a conflict
    let loc = `node_modules/${name}`;
    if (tree.has(loc)) {
      loc = from ? `${from}/node_modules/${name}` : loc;
    } else {
      // would hoisting shadow what the requester's ancestors see? (no: nothing of that name yet)
    }
    const node = { peer: !!peer, name, version: meta.version, resolved: meta.dist.tarball, integrity: meta.dist.integrity, dependencies: meta.dependencies, optionalDependencies: meta.optionalDependencies, bin: meta.bin, license: meta.license, engines: meta.engines, dev, meta, hasInstallScript: !!(meta.scripts && (meta.scripts.install || meta.scripts.postinstall || meta.scripts.preinstall)) || meta.hasInstallScript };
    tree.set(loc, node);
    for (const [n, r] of Object.entries({ ...(meta.dependencies || {}), ...(meta.optionalDependencies || {}) })) {
      want.push({ from: loc, name: n, range: r, dev });
    }
    // peers (npm 7+ installs them): beside the package, where its requirer sees them too
    const peerMeta = meta.peerDependenciesMeta || {};
    for (const [n, r] of Object.entries(meta.peerDependencies || {})) {
      if (peerMeta[n] && peerMeta[n].optional) continue;
      want.push({ from: parentLoc(loc), name: n, range: r, dev, peer: true });
    }
  }
  return tree;
}

function binsOf(node, pkgJson) {
  let bin = (pkgJson && pkgJson.bin) || node.bin;
  const name = node.name;
  if (!bin && pkgJson && pkgJson.directories && pkgJson.directories.bin) {
    bin = {};
    const dir = path.join(node.dir, pkgJson.directories.bin);
    try { for (const f of fs.readdirSync(dir)) bin[f] = path.join(pkgJson.directories.bin, f); } catch { /* none */ }
  }
  if (typeof bin === 'string') bin = { [name.replace(/^@[^/]+\//, '')]: bin };
  return bin || {};
}

function linkBins(prefix, loc, node, pkgJson) {
  const bins = binsOf(node, pkgJson);
  const binDir = path.join(prefix, parentLoc(loc) ? `${parentLoc(loc)}/node_modules/.bin` : 'node_modules/.bin');
  for (const [b, rel] of Object.entries(bins)) {
    if (!/^[\w@.+-][\w@.+/-]*$/.test(b) || b.includes('..')) continue;
    const target = path.join(prefix, loc, rel);
    if (!fs.existsSync(target)) continue;
    fs.mkdirSync(binDir, { recursive: true });
    const link = path.join(binDir, b);
    try { fs.unlinkSync(link); } catch { /* none */ }
    fs.symlinkSync(path.relative(binDir, target), link);
    fs.chmodSync(target, 0o755);
  }
  return Object.keys(bins).length;
}

function runScript(prefix, dir, pkg, event, extraArgs = [], opts = {}) {
  const script = pkg.scripts && pkg.scripts[event];
  if (!script) return 0;
  const cmd = extraArgs.length ? `${script} ${extraArgs.map(shellQuote).join(' ')}` : script;
  if (!opts.silent && !opts.quiet) out(`\n> ${pkg.name ? `${pkg.name}@${pkg.version || ''}` : ''} ${event}\n> ${cmd}\n\n`);
  const env = { ...process.env };
  env.PATH = `${binDirs(dir).join(':')}:${process.env.PATH || '/usr/bin:/bin'}`;
  env.npm_lifecycle_event = event;
  env.npm_lifecycle_script = script;
  env.npm_package_name = pkg.name || '';
  env.npm_package_version = pkg.version || '';
  env.npm_package_json = path.join(dir, 'package.json');
  env.npm_node_execpath = process.execPath;
  env.npm_execpath = '/usr/lib/wasmsand/node/npm';
  env.npm_config_user_agent = `npm/${NPM_VERSION} node/${process.version} linux wasm32 workspaces/false`;
  env.INIT_CWD = process.cwd();
  env.NODE = process.execPath;
  const r = spawnSync('sh', ['-c', cmd], { cwd: dir, env, stdio: 'inherit' });
  const status = r.status === null ? 1 : r.status;
  if (status !== 0 && !opts.noFail) {
    throw new NpmError(status, [`Lifecycle script \`${event}\` failed with error:`, `code ${status}`, `path ${dir}`, `command failed`, `command sh -c ${cmd}`], status);
  }
  return status;
}
// node_modules/.bin of dir and of every directory above it, nearest first
function binDirs(dir) {
  const out = [];
  for (let d = dir; ; d = path.dirname(d)) {
    out.push(path.join(d, 'node_modules/.bin'));
    if (d === '/' || d === path.dirname(d)) return out;
  }
}
function shellQuote(s) {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

function elapsed(start) {
  const ms = Date.now() - start;
  if (ms < 1000) return `${ms}ms`;
  if (ms < 60000) return `${Math.round(ms / 1000)}s`;
  return `${Math.round(ms / 60000)}m`;
}

async function install(argv, flags, opts = {}) {
  const start = Date.now();
  const prefix = opts.prefix || findPrefix(process.cwd());
  const cfg = loadConfig(flags.config, prefix);
  const pkgFile = path.join(prefix, 'package.json');
  let rootPkg = readJSON(pkgFile);
  if (!rootPkg) rootPkg = {};
  const lockFile = path.join(prefix, 'package-lock.json');
  let lock = readJSON(lockFile);
  if (opts.ci) {
    if (!lock) throw new NpmError('EUSAGE', ['The `npm ci` command can only install with an existing package-lock.json or', 'npm-shrinkwrap.json with lockfileVersion >= 1. Run an install with npm@5 or', 'later to generate a package-lock.json file, then try again.']);
    // in sync with package.json?
    const declared = { ...(rootPkg.dependencies || {}), ...(rootPkg.devDependencies || {}), ...(rootPkg.optionalDependencies || {}) };
    for (const [n, r] of Object.entries(declared)) {
      const e = lock.packages && lock.packages[`node_modules/${n}`];
      if (!e || !semver.satisfies(e.version, r)) {
        throw new NpmError('EUSAGE', ['`npm ci` can only install packages when your package.json and package-lock.json or npm-shrinkwrap.json are in sync. Please update your lock file with `npm install` before continuing.', '', `Missing: ${n}@${r} from lock file`]);
      }
    }
    fs.rmSync(path.join(prefix, 'node_modules'), { recursive: true, force: true });
  }
  const saveDev = flags['save-dev'];
  const saveExact = flags['save-exact'];
  const noSave = flags.save === false;
  for (const arg of argv) {
    const { name, range } = specOf(arg);
    const doc = await packument(cfg, name);
    const meta = pickVersion(doc, range, name);
    const field = saveDev ? 'devDependencies' : 'dependencies';
    const saved = saveExact ? meta.version : (range && !semver.valid(range) && semver.validRange(range) && range !== '*' && range !== 'latest' ? range : `^${meta.version}`);
    if (!noSave) {
      rootPkg[field] = { ...(rootPkg[field] || {}), [name]: saved };
      const other = saveDev ? 'dependencies' : 'devDependencies';
      if (rootPkg[other] && rootPkg[other][name]) delete rootPkg[other][name];
      // npm sorts the names
      rootPkg[field] = Object.fromEntries(Object.entries(rootPkg[field]).sort(([a], [b]) => a.localeCompare(b, 'en')));
    } else {
      rootPkg.__extra = { ...(rootPkg.__extra || {}), [name]: saved };
    }
  }
  const forTree = { ...rootPkg, dependencies: { ...(rootPkg.dependencies || {}), ...(rootPkg.__extra || {}) } };
  delete rootPkg.__extra;
  const omitDev = flags.omit === 'dev' || flags.production || process.env.NODE_ENV === 'production';
  const tree = await buildTree(cfg, forTree, opts.ci ? lock : lock, omitDev);
  // what is there already
  let added = 0, changed = 0, removed = 0;
  const nm = path.join(prefix, 'node_modules');
  const present = new Map();
  (function walk(dir, loc) {
    let names;
    try { names = fs.readdirSync(dir); } catch { return; }
    for (const n of names) {
      if (n === '.bin' || n === '.package-lock.json' || n.startsWith('.')) continue;
      if (n.startsWith('@')) {
        for (const s of fs.readdirSync(path.join(dir, n))) {
          const l = `${loc}${n}/${s}`;
          const pj = readJSON(path.join(dir, n, s, 'package.json'));
          present.set(l, pj && pj.version);
          walk(path.join(dir, n, s, 'node_modules'), `${l}/node_modules/`);
        }
        continue;
      }
      const l = `${loc}${n}`;
      const pj = readJSON(path.join(dir, n, 'package.json'));
      present.set(l, pj && pj.version);
      walk(path.join(dir, n, 'node_modules'), `${l}/node_modules/`);
    }
  })(nm, 'node_modules/');
  for (const [loc, v] of present) {
    if (!tree.has(loc)) {
      fs.rmSync(path.join(prefix, loc), { recursive: true, force: true });
      removed++;
    } else if (tree.get(loc).version !== v) {
      changed++;
    }
  }
  const toInstall = [...tree.entries()].filter(([loc, n]) => present.get(loc) !== n.version);
  for (const [loc, node] of toInstall) {
    const dir = path.join(prefix, loc);
    if (present.has(loc)) fs.rmSync(dir, { recursive: true, force: true });
    else added++;
    const buf = await tarball(cfg, node.meta);
    fs.mkdirSync(dir, { recursive: true });
    tar.extract(buf, dir);
  }
  // bins, then install scripts (dependencies first: the deepest first)
  const locs = [...tree.keys()].sort((a, b) => b.split('/node_modules/').length - a.split('/node_modules/').length);
  for (const loc of locs) {
    const node = tree.get(loc);
    node.dir = path.join(prefix, loc);
    const pj = readJSON(path.join(node.dir, 'package.json')) || {};
    linkBins(prefix, loc, node, pj);
    node.pkgJson = pj;
  }
  const withScripts = [];
  if (!flags['ignore-scripts']) {
    for (const loc of locs) {
      if (!toInstall.some(([l]) => l === loc)) continue;
      const node = tree.get(loc);
      const pj = node.pkgJson;
      if (pj.scripts && (pj.scripts.preinstall || pj.scripts.install || pj.scripts.postinstall)) {
        withScripts.push([node, pj]);
        for (const ev of ['preinstall', 'install', 'postinstall']) {
          const optional = rootPkg.optionalDependencies && rootPkg.optionalDependencies[node.name];
          const st = runScript(prefix, node.dir, pj, ev, [], { quiet: true, noFail: !!optional });
          if (st !== 0 && optional) break;
        }
      }
    }
  }
  // package.json, package-lock.json, node_modules/.package-lock.json
  if (!noSave && argv.length) writeJSON(pkgFile, rootPkg);
  const lockOut = {
    name: rootPkg.name, version: rootPkg.version, lockfileVersion: 3, requires: true,
    packages: {
      '': Object.fromEntries(Object.entries({
        name: rootPkg.name, version: rootPkg.version, license: rootPkg.license,
        dependencies: rootPkg.dependencies, devDependencies: rootPkg.devDependencies, optionalDependencies: rootPkg.optionalDependencies,
        bin: rootPkg.bin, engines: rootPkg.engines,
      }).filter(([, v]) => v !== undefined)),
    },
  };
  if (lockOut.name === undefined) delete lockOut.name;
  if (lockOut.version === undefined) delete lockOut.version;
  for (const loc of [...tree.keys()].sort()) {
    const n = tree.get(loc);
    const entry = { version: n.version, resolved: n.resolved, integrity: n.integrity };
    if (n.dev) entry.dev = true;
    if (n.peer) entry.peer = true;
    if (n.pkgJson && n.pkgJson.license) entry.license = n.pkgJson.license;
    else if (n.license) entry.license = n.license;
    if (n.dependencies && Object.keys(n.dependencies).length) entry.dependencies = n.dependencies;
    if (n.optionalDependencies && Object.keys(n.optionalDependencies).length) entry.optionalDependencies = n.optionalDependencies;
    const bins = n.pkgJson ? binsOf(n, n.pkgJson) : {};
    if (Object.keys(bins).length) entry.bin = bins;
    if (n.pkgJson && n.pkgJson.engines) entry.engines = n.pkgJson.engines;
    if (n.hasInstallScript) entry.hasInstallScript = true;
    if (!entry.integrity) delete entry.integrity;
    lockOut.packages[loc] = entry;
  }
  if (!noSave && flags['package-lock'] !== false) writeJSON(lockFile, lockOut);
  if (tree.size) {
    fs.mkdirSync(nm, { recursive: true });
    const hidden = { ...lockOut, packages: { ...lockOut.packages } };
    delete hidden.packages[''];
    writeJSON(path.join(nm, '.package-lock.json'), hidden);
  }
  if (opts.quiet) return;
  if (added === 0 && changed === 0 && removed === 0) out(`\nup to date in ${elapsed(start)}\n`);
  else {
    const parts = [];
    if (added) parts.push(`added ${added} package${added === 1 ? '' : 's'}`);
    if (removed) parts.push(`removed ${removed} package${removed === 1 ? '' : 's'}`);
    if (changed) parts.push(`changed ${changed} package${changed === 1 ? '' : 's'}`);
    out(`\n${parts.join(', ')} in ${elapsed(start)}\n`);
  }
  if (withScripts.length) {
    // npm 11: scripts run, and it says they are not yet covered by allowScripts
    const n = withScripts.length;
    let w = `npm warn install-scripts ${n} package${n === 1 ? ' has' : 's have'} install scripts not yet covered by allowScripts:\n`;
    for (const [node, pj] of withScripts.sort((a, b) => a[0].name.localeCompare(b[0].name, 'en'))) {
      const evs = ['preinstall', 'install', 'postinstall'].filter((e) => pj.scripts[e]).map((e) => `${e}: ${pj.scripts[e]}`).join(', ');
      w += `npm warn install-scripts   ${node.name}@${node.version} (${evs})\n`;
    }
    w += 'npm warn install-scripts\nnpm warn install-scripts Run `npm install-scripts ls` to review, or `npm install-scripts approve <pkg>` to allow.\n';
    err(w);
  }
}

async function uninstall(argv, flags) {
  const prefix = findPrefix(process.cwd());
  const pkgFile = path.join(prefix, 'package.json');
  const pkg = readJSON(pkgFile) || {};
  for (const a of argv) {
    const { name } = specOf(a);
    for (const f of ['dependencies', 'devDependencies', 'optionalDependencies']) if (pkg[f] && pkg[f][name]) delete pkg[f][name];
  }
  writeJSON(pkgFile, pkg);
  const start = Date.now();
  const before = countInstalled(prefix);
  await install([], flags, { prefix, quiet: true });
  const removed = before - countInstalled(prefix);
  out(removed > 0 ? `\nremoved ${removed} package${removed === 1 ? '' : 's'} in ${elapsed(start)}\n` : `\nup to date in ${elapsed(start)}\n`);
}
function countInstalled(prefix) {
  const lock = readJSON(path.join(prefix, 'node_modules', '.package-lock.json'));
  return lock && lock.packages ? Object.keys(lock.packages).length : 0;
}

function init(argv, flags) {
  const dir = process.cwd();
  const file = path.join(dir, 'package.json');
  const existing = readJSON(file);
  const name = path.basename(dir).toLowerCase().replace(/^[._]+/, '').replace(/[^a-z0-9._~-]+/g, '-');
  const defaults = {
    name, version: '1.0.0', description: '', main: 'index.js',
    scripts: { test: 'echo "Error: no test specified" && exit 1' },
    keywords: [], author: '', license: 'ISC', type: 'commonjs',
  };
  const pkg = existing || defaults;
  if (existing) {
    for (const [k, v] of Object.entries(defaults)) if (pkg[k] === undefined) pkg[k] = v;
  }
  if (!flags.yes) {
    err('npm init: interactive mode is not available in the sandbox; use `npm init -y`\n');
  }
  writeJSON(file, pkg);
  out(`Wrote to ${file}:\n\n${JSON.stringify(pkg, null, 2)}\n\n\n`);
}

function run(argv, flags, event) {
  const prefix = findPrefix(process.cwd());
  const pkg = readJSON(path.join(prefix, 'package.json'));
  if (!pkg) throw new NpmError('ENOENT', [`Could not read package.json: Error: ENOENT: no such file or directory, open '${path.join(prefix, 'package.json')}'`], 254);
  const name = event || argv[0];
  const args = event ? argv : argv.slice(1);
  if (!name) {
    const scripts = Object.entries(pkg.scripts || {});
    if (!scripts.length) return 0;
    const life = ['prepublish', 'prepare', 'prepublishOnly', 'prepack', 'postpack', 'dependencies', 'preinstall', 'install', 'postinstall', 'preuninstall', 'uninstall', 'postuninstall', 'preversion', 'version', 'postversion', 'pretest', 'test', 'posttest', 'prestop', 'stop', 'poststop', 'prestart', 'start', 'poststart', 'prerestart', 'restart', 'postrestart'];
    const lifecycle = scripts.filter(([k]) => life.includes(k));
    const other = scripts.filter(([k]) => !life.includes(k));
    if (lifecycle.length) {
      out(`Lifecycle scripts included in ${pkg.name}@${pkg.version}:\n`);
      for (const [k, v] of lifecycle) out(`  ${k}\n    ${v}\n`);
    }
    if (other.length) {
      out(`available via \`npm run\`:\n`);
      for (const [k, v] of other) out(`  ${k}\n    ${v}\n`);
    }
    return 0;
  }
  if (!pkg.scripts || pkg.scripts[name] === undefined) {
    if (name === 'start' && fs.existsSync(path.join(prefix, 'server.js'))) {
      pkg.scripts = { ...(pkg.scripts || {}), start: 'node server.js' };
    } else if (name === 'restart') {
      run([], flags, 'stop');
      return run([], flags, 'start');
    } else {
      throw new NpmError('ELIFECYCLE', [`Missing script: "${name}"`, '', 'To see a list of scripts, run:', '  npm run'], 1);
    }
  }
  const quiet = flags.silent || flags.loglevel === 'silent';
  if (pkg.scripts[`pre${name}`] && !flags['ignore-scripts']) runScript(prefix, prefix, pkg, `pre${name}`, [], { silent: quiet });
  runScript(prefix, prefix, pkg, name, args, { silent: quiet });
  if (pkg.scripts[`post${name}`] && !flags['ignore-scripts']) runScript(prefix, prefix, pkg, `post${name}`, [], { silent: quiet });
  return 0;
}

function ls(argv, flags) {
  const prefix = findPrefix(process.cwd());
  const pkg = readJSON(path.join(prefix, 'package.json')) || {};
  const deps = { ...(pkg.dependencies || {}), ...(pkg.devDependencies || {}), ...(pkg.optionalDependencies || {}) };
  const names = Object.keys(deps).sort((a, b) => a.localeCompare(b, 'en'));
  out(`${pkg.name ? `${pkg.name}@${pkg.version || ''} ` : ''}${prefix}\n`);
  if (!names.length) { out('└── (empty)\n\n'); return names.length ? 0 : 1; }
  let missing = false;
  names.forEach((n, i) => {
    const pj = readJSON(path.join(prefix, 'node_modules', n, 'package.json'));
    const last = i === names.length - 1;
    if (!pj) { missing = true; out(`${last ? '└──' : '├──'} UNMET DEPENDENCY ${n}@${deps[n]}\n`); return; }
    out(`${last ? '└──' : '├──'} ${n}@${pj.version}\n`);
  });
  out('\n');
  return missing ? 1 : 0;
}

async function exec(argv, flags) {
  // npx: a bin of the project (or its ancestors), else the package installed
  // into ~/.npm/_npx and run from there
  const packages = flags.package || [];
  let cmd = argv[0];
  const args = argv.slice(1);
  if (!cmd && packages.length) cmd = specOf(packages[0]).name.replace(/^@[^/]+\//, '');
  if (!cmd) throw new NpmError('EUSAGE', ['npx: missing command']);
  const bins = binDirs(process.cwd());
  let found = packages.length ? null : bins.map((b) => path.join(b, cmd)).find((p) => fs.existsSync(p));
  let extraPath = [];
  if (!found) {
    const spec = packages[0] || cmd;
    const { name } = specOf(spec);
    const cache = path.join(process.env.HOME || '/tmp', '.npm/_npx', crypto.createHash('sha512').update(spec).digest('hex').slice(0, 16));
    const bin = path.join(cache, 'node_modules/.bin');
    if (!fs.existsSync(path.join(cache, 'node_modules', name))) {
      if (!flags.yes && process.stdin.isTTY) {
        err(`Need to install the following packages:\n${spec}\nOk to proceed? (y) `);
      }
      fs.mkdirSync(cache, { recursive: true });
      if (!fs.existsSync(path.join(cache, 'package.json'))) writeJSON(path.join(cache, 'package.json'), {});
      await install([spec], { config: flags.config }, { prefix: cache, quiet: true });
    }
    const pj = readJSON(path.join(cache, 'node_modules', name, 'package.json')) || {};
    const binNames = Object.keys(binsOf({ name, dir: path.join(cache, 'node_modules', name) }, pj));
    const pick = binNames.includes(cmd) ? cmd : binNames.length === 1 ? binNames[0] : name.replace(/^@[^/]+\//, '');
    found = path.join(bin, packages.length && argv[0] ? argv[0] : pick);
    extraPath = [bin];
    if (!fs.existsSync(found)) throw new NpmError('ENOENT', [`could not determine executable to run`]);
  }
  const env = { ...process.env, PATH: `${[...extraPath, ...bins].join(':')}:${process.env.PATH || ''}` };
  const r = spawnSync(found, args, { stdio: 'inherit', env });
  if (r.error) throw new NpmError(r.error.code, [`${cmd}: ${r.error.message}`]);
  return r.status === null ? 1 : r.status;
}

function parseFlags(args) {
  const flags = { config: {} };
  const rest = [];
  let dashdash = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (dashdash) { rest.push(a); continue; }
    if (a === '--') { dashdash = true; rest.push('--'); continue; }
    if (a === '-y' || a === '--yes') { flags.yes = true; continue; }
    if (a === '-D' || a === '--save-dev' || a === '-d') { flags['save-dev'] = true; continue; }
    if (a === '-E' || a === '--save-exact') { flags['save-exact'] = true; continue; }
    if (a === '-S' || a === '--save' || a === '-P' || a === '--save-prod') { continue; }
    if (a === '--no-save') { flags.save = false; continue; }
    if (a === '--no-package-lock') { flags['package-lock'] = false; continue; }
    if (a === '-s' || a === '--silent' || a === '--quiet' || a === '-q') { flags.silent = true; continue; }
    if (a === '--production' || a === '--omit=dev') { flags.omit = 'dev'; continue; }
    if (a === '--ignore-scripts') { flags['ignore-scripts'] = true; continue; }
    if (a === '-g' || a === '--global') { flags.global = true; continue; }
    if (a === '-p' || a === '--package') { (flags.package || (flags.package = [])).push(args[++i]); continue; }
    if (a.startsWith('--package=')) { (flags.package || (flags.package = [])).push(a.slice(10)); continue; }
    if (a === '--registry') { flags.config.registry = args[++i]; continue; }
    if (a.startsWith('--registry=')) { flags.config.registry = a.slice(11); continue; }
    if (/^--(no-)?(audit|fund|update-notifier|progress|color|strict-ssl|prefer-offline|prefer-online|offline|legacy-peer-deps|foreground-scripts)$/.test(a)) continue;
    if (/^--(loglevel|cache|userconfig|prefix)=/.test(a)) { const [k, v] = a.slice(2).split('='); flags[k] = v; continue; }
    if (/^--(loglevel|cache|userconfig|prefix)$/.test(a)) { flags[a.slice(2)] = args[++i]; continue; }
    if (a === '-w' || a === '--workspace' || a === '--workspaces' || a === '-ws') { throw new NpmError('EUSAGE', ['workspaces are not supported in the sandbox yet']); }
    if (a.startsWith('-') && rest.length === 0 && a !== '-v' && a !== '--version' && a !== '-h' && a !== '--help') { continue; }
    rest.push(a);
  }
  return { flags, rest };
}

const usage = `npm <command>

Usage:

npm install        install all the dependencies in your project
npm install <foo>  add the <foo> dependency to your project
npm test           run this project's tests
npm run <foo>      run the script named <foo>
npm <command> -h   quick help on <command>

All commands:

    ci, exec, init, install, ls, run, start, test, uninstall, version

(wasmsand's npm: installs pure-JavaScript packages from a registry the
sandbox's network policy allows)

npm@${NPM_VERSION} /usr/lib/wasmsand/node/npm
`;

async function mainAsync(args) {
  const { flags, rest } = parseFlags(args);
  let [cmd, ...argv] = rest;
  if (argv[0] === '--') argv = argv.slice(1);
  const dd = argv.indexOf('--');
  if (dd !== -1 && cmd !== 'run' && cmd !== 'run-script' && cmd !== 'exec' && cmd !== 'x') argv.splice(dd, 1);
  if (flags.global) throw new NpmError('EUSAGE', ['global installs are not available in the sandbox: install into the project (npm install <pkg>) or run with npx']);
  switch (cmd) {
    case undefined: case 'help': case '-h': case '--help': out(usage); return cmd ? 0 : 1;
    case '-v': case '--version': case 'version': case '-version': out(`${NPM_VERSION}\n`); return 0;
    case 'init': case 'create': case 'innit': init(argv, flags); return 0;
    case 'install': case 'i': case 'add': case 'isntall': case 'in': case 'ins': case 'inst': case 'insta': case 'instal': case 'isnt': case 'isnta': case 'isntal':
      await install(argv, flags); return 0;
    case 'ci': case 'clean-install': case 'ic': case 'install-clean': case 'isntall-clean':
      await install([], flags, { ci: true }); return 0;
    case 'uninstall': case 'un': case 'unlink': case 'remove': case 'rm': case 'r':
      await uninstall(argv, flags); return 0;
    case 'run': case 'run-script': case 'rum': case 'urn':
      if (argv[0] === '--') argv.shift();
      { const d = argv.indexOf('--'); if (d !== -1) argv.splice(d, 1); }
      return run(argv, flags);
    case 'test': case 't': case 'tst': return run(argv, flags, 'test');
    case 'start': return run(argv, flags, 'start');
    case 'stop': return run(argv, flags, 'stop');
    case 'restart': return run(argv, flags, 'restart');
    case 'ls': case 'list': case 'la': case 'll': return ls(argv, flags);
    case 'exec': case 'x': { if (argv[0] === '--') argv.shift(); return exec(argv, flags); }
    case 'prefix': out(`${findPrefix(process.cwd())}\n`); return 0;
    case 'root': out(`${path.join(findPrefix(process.cwd()), 'node_modules')}\n`); return 0;
    case 'config': case 'c': {
      const cfg = loadConfig(flags.config, findPrefix(process.cwd()));
      if (argv[0] === 'get') { out(`${cfg[argv[1]] === undefined ? 'undefined' : cfg[argv[1]]}\n`); return 0; }
      if (argv[0] === 'list' || argv[0] === 'ls') { for (const [k, v] of Object.entries(cfg)) out(`${k} = ${JSON.stringify(v)}\n`); return 0; }
      throw new NpmError('EUSAGE', [`npm config ${argv[0] || ''}: only get and list are available in the sandbox`]);
    }
    default:
      throw new NpmError('EUSAGE', [`Unknown command: "${cmd}"`, '', 'To see a list of supported npm commands, run:', '  npm help']);
  }
}

function report(e) {
  if (e instanceof NpmError) {
    if (e.npmCode === 'ELIFECYCLE' && e.lines[0].startsWith('Missing script')) {
      err(e.lines.map((l) => `npm error ${l}`.trimEnd()).join('\n') + '\n');
      return 1;
    }
    if (typeof e.npmCode === 'number') {
      err(e.lines.map((l) => `npm error ${l}`).join('\n') + '\n');
      return e.status;
    }
    err(`npm error code ${e.npmCode}\n${e.lines.map((l) => `npm error ${l}`.trimEnd()).join('\n')}\n`);
    return e.status || 1;
  }
  err(`npm error ${e && e.stack ? e.stack : e}\n`);
  return 1;
}

function main(args) {
  mainAsync(args).then((status) => {
    process.exitCode = status || 0;
  }, (e) => {
    process.exitCode = report(e);
  });
}

function npxMain(args) {
  const flagsEnd = args.findIndex((a) => !a.startsWith('-') || a === '--');
  const head = flagsEnd === -1 ? args : args.slice(0, flagsEnd);
  let tail = flagsEnd === -1 ? [] : args.slice(flagsEnd);
  if (tail[0] === '--') tail = tail.slice(1);
  const { flags } = parseFlags(head);
  if (head.includes('-v') || head.includes('--version')) { out(`${NPM_VERSION}\n`); return; }
  exec(tail, flags).then((status) => { process.exitCode = status; }, (e) => { process.exitCode = report(e); });
}

module.exports = { main, npxMain, NPM_VERSION };
