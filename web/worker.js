// The Web Worker that holds a wasmsand core (GOOS=js) in the browser, the
// counterpart of node/worker.cjs (jsapi/worker.js does the work).
//
// Guest programs come from the assets URL and are kept in the Cache API
// (keyed by their sha256, so a new build never meets a stale copy). Before
// a run, the programs its command line names are fetched ahead,
// asynchronously, with progress by the byte, and hashed with the browser's
// native SHA-256; the core checks every program against the manifest. A
// program needed only in the middle of a run (named by a script file, say)
// is fetched synchronously (allowed in workers) and cached afterwards.
import "./classic.js"; // (first: webpack may start this as a classic worker)
import "wasm_exec"; // Go's lib/wasm/wasm_exec.js (scripts/npm aliases it): globalThis.Go
import { startCore, serve } from "../jsapi/worker.js";
import * as protocol from "../jsapi/protocol.js"; // the messages to and from the page
import { installPython, readSnapshot, readBytes } from "../jsapi/python.js";
import { remotePython, serveHelper } from "../jsapi/pyremote.js";
import { openCache, cacheKey, hashHex, store, readAll, bodyLength } from "./cache.js";
// the package's own Pyodide's loader, bundled (scripts/npm leaves out its
// Node-only imports); a pyodideUrl of the embedder's brings its own
import { loadPyodide as ownLoader } from "pyodide";

let base = "";
let fileUrls = null; // program file → URL, where an app's bundler emitted each (web/files.js), else null: base + file
const urlOf = (file) => (fileUrls && fileUrls[file]) || base + file;
let byCommand = new Map(); // command → [{file, sha256, size}] (its module, then its data files)
const ready = new Map(); // file → {data, sha256}: fetched ahead, not yet taken by the core
const taken = new Set(); // files the core has (it keeps them for the page's life)
const toCache = []; // [file, bytes, sha256] fetched for a run, cached after it

const progress = (p) => postMessage(protocol.progress(p));
const netFetch = globalThis.fetch.bind(globalThis); // (installPyodide wraps the global one)
const clean = (name) => name.split("/").filter((p) => p && p !== "." && p !== "..").join("/");


// download fetches a file with progress events by the byte (total: the
// manifest's size, else the response's length when it is the body's: a
// compressed response's counts the compressed bytes).
async function download(file, size, url = urlOf(file)) {
  const res = await netFetch(url);
  if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
  const total = size || bodyLength(res);
  return readAll(res, (loaded) => progress({ asset: file, loaded, total }));
}

// ensure has file (of the manifest's sha256) ready for the core: from the
// cache, else downloaded and cached. Failures are left to the synchronous
// path, whose error the run reports.
async function ensure(cache, { file, sha256, size }) {
  if (ready.has(file) || taken.has(file)) return;
  let data = null;
  let cached = false;
  if (cache) {
    const hit = await cache.match(cacheKey(urlOf(file), sha256)).catch(() => null);
    if (hit) {
      data = new Uint8Array(await hit.arrayBuffer());
      cached = true;
    }
  }
  if (!data) data = await download(file, size);
  const sum = await hashHex(data);
  if (sum !== sha256) {
    if (cached) await cache.delete(cacheKey(urlOf(file), sha256));
    return;
  }
  if (cached) progress({ asset: file, loaded: data.length, total: size || data.length, cached: true });
  else toCache.push([file, data, sha256]); // (kept after the run: a write took ~0.08 s of a first run)
  ready.set(file, { data, sha256: sum });
}

// prefetch fetches what a command line names: every word that runs some
// asset's program in sandbox id (an over-approximation: `echo sort` fetches
// sort).
async function prefetch(core, id, cmd) {
  const names = new Set();
  for (const w of String(cmd).split(/[\s;&|()<>{}`$"'\\=!]+/)) {
    const name = w.slice(w.lastIndexOf("/") + 1);
    if (byCommand.has(name)) names.add(name);
  }
  if (names.size === 0) return;
  // (a builtin of the same name, as echo, printf or test, runs no program)
  const r = core.programs(id, [...names]);
  const want = new Map();
  for (const name of r && Array.isArray(r.value) ? r.value : names) {
    for (const f of byCommand.get(name) || []) if (!taken.has(f.file)) want.set(f.file, f);
  }
  if (want.size === 0) return;
  const cache = await openCache();
  await Promise.all([...want.values()].map((f) => ensure(cache, f).catch(() => {})));
}

const IDB_PREFIX = "wasmsand:"; // (platform/js/idbstate: a store's database name)

// nothingKept answers persistLoad(name) before the core has started when
// IndexedDB has no database for name: nothing was saved (a first visit),
// and creating the database there (~0.1 s, platform/js/idbstate) can wait
// for the first save, off the first prompt's path.
async function nothingKept(name) {
  if (typeof name !== "string" || name === "" || name.includes("\0")) return undefined; // (the core reports it)
  try {
    if (typeof indexedDB !== "object" || typeof indexedDB.databases !== "function") return undefined;
    const dbs = await indexedDB.databases();
    return dbs.some((d) => d.name === IDB_PREFIX + name) ? undefined : { value: null };
  } catch {
    return undefined;
  }
}
async function flushCache() {
  if (toCache.length === 0) return;
  const cache = await openCache();
  for (const [file, data, sha256] of toCache.splice(0)) {
    await store(cache, urlOf(file), sha256, data);
  }
}

function fetchSync(url) {
  const xhr = new XMLHttpRequest();
  xhr.open("GET", url, false);
  xhr.responseType = "arraybuffer"; // (allowed for synchronous requests in workers)
  xhr.send();
  if (xhr.status !== 200) return { error: `GET ${url}: ${xhr.status}` };
  return new Uint8Array(xhr.response);
}

const shaOf = new Map(); // file → sha256 in the manifest

// fetchAsset is the core's synchronous fetch.
function fetchAsset(name) {
  const file = clean(name);
  const r = ready.get(file);
  if (r) {
    ready.delete(file);
    taken.add(file);
    return r;
  }
  try {
    const b = fetchSync(urlOf(file));
    if (b.error) return b;
    progress({ asset: file, loaded: b.length, total: b.length });
    taken.add(file);
    if (shaOf.has(file)) toCache.push([file, b, shaOf.get(file)]);
    return b;
  } catch (e) {
    return { error: `GET ${urlOf(file)}: ${e && e.message || e}` };
  }
}

// loadManifest: from the network when it answers (a new build), else the
// cached copy (offline after a first visit).
async function loadManifest() {
  const key = urlOf("manifest.json");
  let data;
  try {
    const res = await fetch(key, { cache: "no-cache" });
    if (!res.ok) throw new Error(`GET ${key}: ${res.status}`);
    data = new Uint8Array(await res.arrayBuffer());
    // (kept for offline use, off the start's path)
    const copy = data.slice();
    openCache().then((c) => c && c.put(key, new Response(copy))).catch(() => {});
  } catch (e) {
    const cache = await openCache();
    const hit = cache && await cache.match(key);
    if (!hit) throw e;
    data = new Uint8Array(await hit.arrayBuffer());
  }
  const m = JSON.parse(new TextDecoder().decode(data));
  byCommand = new Map();
  for (const a of m.assets || []) {
    const files = [{ file: a.file, sha256: a.sha256, size: a.size }];
    for (const f of a.files || []) files.push({ file: f.file, sha256: f.sha256, size: f.size });
    for (const f of files) shaOf.set(f.file, f.sha256);
    for (const c of a.commands || []) byCommand.set(c, files);
  }
  ready.set("manifest.json", data);
}

// The network bridge's transport (bridge/transport_js.go): a synchronous
// XMLHttpRequest, which a worker may make. The browser resolves names
// itself (lookup: null, so only addresses written as such are judged by
// the policy), follows redirects itself (the bridge then judges the URL it
// ended at), keeps the headers it forbids scripts to set, and applies
// CORS: a server that does not allow this page's origin cannot be read.
globalThis.__wasmsandHTTP = (op, a) => {
  if (op === "lookup") return null;
  const xhr = new XMLHttpRequest();
  try {
    xhr.open(a.method, a.url, false);
    xhr.responseType = "arraybuffer";
    xhr.timeout = a.timeoutMs;
    for (const [k, v] of a.headers) {
      try { xhr.setRequestHeader(k, v); } catch (_) { /* a header the browser keeps */ }
    }
    xhr.send(a.body);
  } catch (e) {
    const timeout = e && e.name === "TimeoutError";
    return { error: { kind: timeout ? "timeout" : "connect", message: timeout ? "timed out" : "the browser refused the request (a network error, or CORS, which needs the server to allow this origin)" } };
  }
  if (xhr.status === 0) return { error: { kind: "connect", message: "the browser refused the request (a network error, or CORS)" } };
  const headers = [];
  for (const line of xhr.getAllResponseHeaders().trim().split(/[\r\n]+/)) {
    const i = line.indexOf(":");
    if (i > 0) headers.push([line.slice(0, i).trim(), line.slice(i + 1).trim()]);
  }
  const body = new Uint8Array(xhr.response || new ArrayBuffer(0));
  return { status: xhr.status, statusText: xhr.statusText, headers, body: body.subarray(0, a.maxBytes), url: xhr.responseURL || a.url };
};

// PYODIDE_FILES: the sha256 and size of the package's own Pyodide files that are
// worth keeping (scripts/npm writes them in). Those the worker keeps in the
// Cache API as it keeps programs, and reads from there: through a service
// worker, reading the 18 MB snapshot took 0.4-1.1 s here, ~0.15 s from the
// Cache API, and the wasm compiles from a Cache API response as the core
// does (Chromium can keep its compiled code beside it).
const PYODIDE_FILES = typeof __WASMSAND_PYODIDE_FILES__ === "object" ? __WASMSAND_PYODIDE_FILES__ : {};

// pyodideFile(url, file) → a Response of the Pyodide file at url (one of
// PYODIDE_FILES): kept in the Cache API, else downloaded with progress,
// checked against its sha256 and kept a little later (not on the way to the
// first python run: the snapshot alone is 18 MB); null when it cannot be had
// (the caller fetches it as usual and reports that error).
async function pyodideFile(url, file) {
  const { sha256, size } = PYODIDE_FILES[file];
  const headers = { "content-type": file.endsWith(".wasm") ? "application/wasm" : file.endsWith(".mjs") ? "text/javascript" : "application/octet-stream" };
  try {
    const cache = await openCache();
    const hit = cache && await cache.match(cacheKey(url, sha256)).catch(() => null);
    if (hit) return hit;
    const data = await download("pyodide/" + file, size, url);
    if (await hashHex(data) !== sha256) return null;
    setTimeout(() => openCache().then((c) => store(c, url, sha256, data, headers)).catch(() => {}), 2000);
    return new Response(data, { headers });
  } catch {
    return null;
  }
}

// installPyodide offers python3 as Pyodide (Sandbox.create({python:
// "pyodide"})), its files fetched from url when a sandbox first needs it;
// own: url is the package's own pyodide/, whose files PYODIDE_FILES names;
// files: file → URL, where an app's bundler emitted each of them (else null);
// remote: what runs python when this Pyodide cannot (jsapi/pyremote.js).
function installPyodide(url, own, files, remote) {
  const fileUrl = (file) => (files && files[file]) || url + file;
  const kept = (file) => (own && PYODIDE_FILES[file] ? pyodideFile(fileUrl(file), file) : Promise.resolve(null));
  if (own || files) {
    // Pyodide fetches its wasm, stdlib and lock file itself, by their names
    // under url: those are answered from what the worker keeps, or from
    // where the bundler put them
    globalThis.fetch = async (input, init) => {
      const u = typeof input === "string" ? input : input instanceof URL ? input.href : input && input.url;
      const file = typeof u === "string" && u.startsWith(url) ? u.slice(url.length) : "";
      const res = (file === "pyodide.asm.wasm" || file === "python_stdlib.zip") && await kept(file);
      if (res) return res;
      return file && files && files[file] ? netFetch(files[file], init) : netFetch(input, init);
    };
  }
  const asm = async () => {
    // (from a blob of the kept script: ~0.2 s against ~0.4 s through the playground's service worker)
    const res = await kept("pyodide.asm.mjs");
    if (!res) return (await import(/* webpackIgnore: true */ /* @vite-ignore */ fileUrl("pyodide.asm.mjs"))).default;
    const blob = URL.createObjectURL(new Blob([await res.arrayBuffer()], { type: "text/javascript" }));
    try {
      return (await import(/* webpackIgnore: true */ /* @vite-ignore */ blob)).default;
    } catch {
      // (a Content-Security-Policy without blob: in script-src)
      return (await import(/* webpackIgnore: true */ /* @vite-ignore */ fileUrl("pyodide.asm.mjs"))).default;
    } finally {
      URL.revokeObjectURL(blob);
    }
  };
  installPython({
    indexURL: url,
    loadPyodide: async (opts) => {
      const { loadPyodide } = own ? { loadPyodide: ownLoader } : await import(/* webpackIgnore: true */ /* @vite-ignore */ fileUrl("pyodide.mjs"));
      // (Pyodide finds its module script by its name under indexURL)
      if (files && !opts.createPyodideModule) opts = { ...opts, createPyodideModule: await asm() };
      return loadPyodide(opts);
    },
    loadAsm: asm,
    snapshot: async () => {
      const res = await kept("snapshot.bin");
      return readSnapshot(readBytes(res ? new Uint8Array(await res.arrayBuffer()) : await download("pyodide/snapshot.bin", 0, fileUrl("snapshot.bin"))));
    },
    progress,
    remote,
  });
}

// helpers runs python in a Web Worker of its own, started from this very
// script (its URL, wherever a bundler put it) in its helper mode, while
// this one sleeps on shared memory: a page without it (not cross-origin
// isolated) cannot have one.
function helpers(init) {
  if (typeof SharedArrayBuffer !== "function" || globalThis.crossOriginIsolated !== true) {
    return remotePython({ spawn: null, unavailable: "Pyodide cannot take this run: it is not loaded yet (it loads before a run whose command line names python), or it is running the python that runs this one; a helper thread would, but it needs SharedArrayBuffer, which a page has when it is cross-origin isolated (served with Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp)" });
  }
  return remotePython({
    spare: true,
    spawn: ({ toCore, toHelper }) => {
      const w = new Worker(self.location.href, { type: globalThis.__wasmsandClassicWorker ? "classic" : "module" });
      w.postMessage(protocol.pyHelper({ ...init, toCore, toHelper }));
      return { terminate: () => w.terminate() };
    },
  });
}

let handler = null;
const early = [];
let gotModule = null; // resolves with the {module} message: the core the page compiled, or null
let gotKept = null; // resolves with the {kept} message: the core's recorded start the page read, or null

// The page sends init as it makes this worker, then module once it has the
// core compiled (the manifest is fetched meanwhile) and kept; calls follow.
onmessage = ({ data }) => {
  const kind = protocol.kindOf(data);
  if (kind === protocol.Kind.init) {
    const { coreUrl, assetsUrl, pyodideUrl, abortFlag, coreSha256 } = data.init;
    base = assetsUrl.endsWith("/") ? assetsUrl : assetsUrl + "/";
    const files = data.init.files || {};
    fileUrls = files.assets || null;
    if (pyodideUrl) {
      const py = { pyodideUrl: pyodideUrl.endsWith("/") ? pyodideUrl : pyodideUrl + "/", pyodideOwn: data.init.pyodideOwn === true,
        files: files.pyodide || null, abortFlag };
      installPyodide(py.pyodideUrl, py.pyodideOwn, py.files, helpers(py));
    }
    const module = new Promise((resolve) => { gotModule = resolve; })
      .then((m) => m || WebAssembly.compileStreaming(fetch(coreUrl))); // (the page could not: the worker compiles it)
    if (data.init.module) gotModule(data.init.module);
    // the core's recorded start, kept by an earlier visit, which the page
    // reads while the core compiles (web/index.js: keptStart); a start that
    // could not be put back is recorded and sent to the page to keep
    const state = coreSha256 ? new Promise((resolve) => { gotKept = resolve; })
      .then((b) => (b ? new Uint8Array(b) : null)) : null;
    const corePromise = Promise.all([loadManifest(), module, state]).then(([, mod, file]) => startCore({
      instantiate: async (imports) => ({ instance: await WebAssembly.instantiate(mod, imports) }),
      fetchAsset,
      // (always a flag, so that the recorded start fits a page with shared
      // memory and one without: an unshared one is never set)
      abortFlag: abortFlag || new Int32Array(1),
      onFatal: (msg) => postMessage(protocol.fatal(msg)),
      init: coreSha256 ? {
        file, core: coreSha256,
        onRecord: (f) => { if (f) postMessage(protocol.recordedState(f), [f.buffer]); },
        recordDelayMs: 1000, // (off a first visit's start: its page's first calls come first)
        onStarted: (how) => postMessage(protocol.started(how)),
      } : undefined,
    }));
    corePromise.catch(() => {});
    handler = serve(corePromise, (msg, transfer) => postMessage(msg, transfer), {
      before: (method, args, core) => (method === "run" ? prefetch(core, args[protocol.RUN.id], args[protocol.RUN.command]) : null),
      answer: (method, args) => (method === "persistLoad" ? nothingKept(args[0]) : undefined),
      after: flushCache,
    });
    for (const m of early.splice(0)) handler(m);
    return;
  }
  if (kind === protocol.Kind.pyHelper) {
    // a python helper (jsapi/pyremote.js): Pyodide alone, no core
    const h = data.pyHelper;
    installPyodide(h.pyodideUrl, h.pyodideOwn, h.files, undefined);
    serveHelper({ python: globalThis.__wasmsandPython, toCore: h.toCore, toHelper: h.toHelper, abortFlag: h.abortFlag });
    return;
  }
  if (kind === protocol.Kind.module && gotModule) {
    gotModule(data.module);
    return;
  }
  if (kind === protocol.Kind.kept && gotKept) {
    gotKept(data.kept);
    return;
  }
  if (handler) handler(data);
  else early.push(data);
};
