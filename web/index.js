// wasmsand in the browser: the Sandbox on the page is a thin proxy to a Web
// Worker (web/worker.js) that holds the core and runs every guest. The API
// is jsapi/sandbox.js, the Node package's (node/index.d.ts); no
// SharedArrayBuffer or special headers are needed (with them, an aborted
// run stops without ending its worker). persist: a name; the files are
// kept in IndexedDB (by the core, platform/js/idbstate).
import { CoreClient, CorePool, SandboxError, defineSandbox } from "../jsapi/sandbox.js";
import * as protocol from "../jsapi/protocol.js"; // the messages to and from the worker
import { openCache, cacheKey, hashHex, store, readAll, bodyLength, STATE_SUFFIX } from "./cache.js";
import { createSandboxTools } from "../jsapi/tools.js";
import { FILES } from "./files.js";

const here = new URL(".", import.meta.url);
// one worker for a page's sandboxes by default (Sandbox.configure)
const pool = new CorePool({ workers: 1, idle: 1 });

// CORE_SHA256: the core's hash, written in by scripts/npm when it bundles
// this file ("" unbundled: the core is then fetched each time).
const CORE_SHA256 = typeof __WASMSAND_CORE_SHA256__ === "string" ? __WASMSAND_CORE_SHA256__ : "";
// CORE_SIZE: its size, for the download's progress when the server compresses it
// (Content-Length then counts the compressed bytes)
const CORE_SIZE = typeof __WASMSAND_CORE_SIZE__ === "number" ? __WASMSAND_CORE_SIZE__ : 0;
const WASM = { "content-type": "application/wasm" };
const OWN_CORE = FILES ? String(FILES["wasmsand.wasm"]) : String(new URL("../wasmsand.wasm", here)); // the package's own core (CORE_SHA256's, CORE_SIZE's)

// compiledCore: the core, compiled once per page (here, while the first
// worker starts) and sent to each worker. It is read from the Cache API
// when a visit kept it there (web/cache.js says why); else fetched,
// compiled as it arrives, and kept once it hashes to CORE_SHA256.
const compiled = new Map();
function compiledCore(url, onProgress) {
  if (!compiled.has(url)) {
    const p = loadCore(url, onProgress);
    p.catch(() => compiled.delete(url));
    compiled.set(url, p);
  }
  return compiled.get(url);
}

// verified: url → a promise of whether the core compiled for url is
// CORE_SHA256's: at once when it came from the Cache API, once the page is
// idle when it was downloaded (its bytes are hashed then).
const verified = new Map();

// keptStart reads the core's recorded start, while the core compiles: the
// one kept beside the core, where the core was kept (opening the Cache API
// for nothing took ~0.3 s of a first visit); else the one the package ships
// (stateUrl, recorded in headless Chromium by scripts/npm), which a first
// visit puts back instead of running Go's start and the core's init (~0.4 s
// here). → {bytes, shipped} or null. A start that does not fit this browser
// is refused by the worker (jsapi/coreinit.js), which then records its own.
async function keptStart(url, stateUrl) {
  if (!CORE_SHA256) return null;
  try {
    if ([CORE_SHA256, undefined].includes(kept(url))) {
      const c = await openCache();
      const r = c && await c.match(cacheKey(url + STATE_SUFFIX, CORE_SHA256));
      if (r) return { bytes: await r.arrayBuffer(), shipped: false };
    }
    if (!stateUrl) return null;
    const res = await fetch(stateUrl);
    return res.ok ? { bytes: await res.arrayBuffer(), shipped: true } : null;
  } catch {
    return null;
  }
}

// keepState keeps the core's recorded start, which the worker sent
// (jsapi/coreinit.js), beside the core in the Cache API, once the core it
// was recorded on is known to be this build's: the next visit's worker puts
// it back instead of starting the core.
function keepState(url, bytes) {
  const ok = verified.get(url);
  if (!CORE_SHA256 || !ok) return;
  ok.then((yes) => yes && whenIdle(async () => {
    const c = await openCache();
    await store(c, url + STATE_SUFFIX, CORE_SHA256, bytes);
  })).catch(() => {});
}

// SHIPPED_STATE: the package's recorded start in a browser's worker, beside
// wasmsand.wasm (its URL is coreStateUrl; scripts/npm/browser-init.mjs).
const SHIPPED_STATE = "wasmsand.browser.init";

// KEPT_KEY + url, in localStorage, is the hash of the core the Cache API
// keeps for url: known at once, where opening the Cache API took ~0.3 s on
// a first visit, before the download could start. A page may start that
// download earlier still, with <link rel="preload" as="fetch"
// crossorigin href=...> when the key is absent (the playground does).
export const KEPT_KEY = "wasmsand-core ";
function kept(url) {
  try {
    return localStorage.getItem(KEPT_KEY + url); // (null: not kept)
  } catch {
    return undefined; // no localStorage (a worker, storage disabled): look in the cache
  }
}

// A page may start the core's compile before this module has loaded (the
// playground's index.html does): globalThis.wasmsandEarlyCore = {url,
// sha256, module: a promise of the WebAssembly.Module, or null}, compiled
// from the Cache API entry KEPT_KEY names. It is taken once, when it is
// this url's and this build's.
function early(url) {
  const e = globalThis.wasmsandEarlyCore;
  if (!e || e.url !== url || e.sha256 !== CORE_SHA256 || !e.module) return null;
  globalThis.wasmsandEarlyCore = null;
  return e.module;
}

async function loadCore(url, onProgress) {
  const pre = CORE_SHA256 ? early(url) : null;
  const m = pre && await pre.catch(() => null);
  if (m instanceof WebAssembly.Module) {
    verified.set(url, Promise.resolve(true));
    return m;
  }
  const known = CORE_SHA256 ? kept(url) : null;
  const cache = known === CORE_SHA256 || known === undefined ? await openCache() : null;
  const hit = cache && await cache.match(cacheKey(url, CORE_SHA256)).catch(() => null);
  if (hit) {
    try {
      const mod = await WebAssembly.compileStreaming(hit);
      verified.set(url, Promise.resolve(true));
      return mod;
    } catch {
      await cache.delete(cacheKey(url, CORE_SHA256)); // (a damaged entry)
    }
  }
  // The first visit downloads the core with progress, compiles the bytes, and
  // keeps them in the cache once the page has settled (writing 10 MB while the
  // core compiles and starts slowed the first prompt by ~0.5 s here).
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
  const bytes = collect(res, url, onProgress);
  if (CORE_SHA256) {
    const same = bytes.then((b) => whenIdle(async () => {
      const ok = await hashHex(b) === CORE_SHA256;
      const c = cache || await openCache();
      if (ok && c && await store(c, url, CORE_SHA256, b, WASM)) {
        try { localStorage.setItem(KEPT_KEY + url, CORE_SHA256); } catch { /* (looked up in the cache next time) */ }
      }
      return ok;
    }));
    same.catch(() => {});
    verified.set(url, same);
  }
  // Compiled once whole: Chromium's streaming compile of the 10 MB core
  // finished 150–550 ms after its last byte here, a compile of the bytes in
  // ~70 ms (and a first visit has no compiled-code cache to gain from the
  // stream; a later one compiles from the Cache API, which keeps one).
  return WebAssembly.compile(await bytes);
}

// collect reads res whole, reporting the download to onProgress as the worker
// reports the guests' ({asset, loaded, total}).
async function collect(res, url, onProgress) {
  const total = bodyLength(res) || (url === OWN_CORE ? CORE_SIZE : 0);
  const asset = url.slice(url.lastIndexOf("/") + 1);
  const b = await readAll(res, (loaded) => {
    if (!onProgress) return;
    try { onProgress({ asset, loaded, total }); } catch { /* (the page's own business) */ }
  });
  return b.buffer;
}

// whenIdle runs f once the page has had a quiet moment (or after 5 s).
// (an idle moment of the page while a worker starts is not one: the page's
// work then delays the worker, so f waits for a core to have started too)
let coreStarted;
const started = new Promise((resolve) => { coreStarted = resolve; });
setTimeout(() => coreStarted(), 10000);
function whenIdle(f) {
  return started.then(() => new Promise((resolve) => {
    const run = () => resolve(f());
    if (typeof requestIdleCallback === "function") requestIdleCallback(run, { timeout: 5000 });
    else setTimeout(run, 1000);
  }));
}

// packageUrls: where a new core's files are. Each URL option wins; else a
// baseUrl (a served copy of the package's directory); else the URLs an
// app's bundler gave the files (FILES); else the package's layout beside
// this module. worker: "" for the one beside this module (the literal
// new Worker form); files: package path → URL for the worker's programs
// and Pyodide files, when they have no common base (FILES).
function packageUrls(opts) {
  const base = opts.baseUrl ? new URL(String(opts.baseUrl).replace(/\/?$/, "/"), globalThis.location && location.href) : null;
  const files = !base && FILES ? Object.fromEntries(Object.entries(FILES).map(([k, v]) => [k, String(v)])) : null;
  const at = (path) => String(base ? new URL(path, base) : new URL("../" + path, here));
  const core = opts.coreUrl ? String(opts.coreUrl) : base ? at("wasmsand.wasm") : OWN_CORE;
  return {
    worker: opts.workerUrl ? String(opts.workerUrl) : base ? at("web/worker.js") : "",
    coreUrl: core,
    // (the package's recorded start fits its own core only: none for another)
    coreStateUrl: opts.coreStateUrl !== undefined ? String(opts.coreStateUrl || "")
      : opts.coreUrl ? "" : files ? files[SHIPPED_STATE] : at(SHIPPED_STATE),
    assetsUrl: opts.assetsUrl ? String(opts.assetsUrl) : at("assets/"),
    pyodideUrl: opts.pyodideUrl ? String(opts.pyodideUrl) : at("pyodide/"),
    pyodideOwn: !opts.pyodideUrl,
    files: files && {
      assets: opts.assetsUrl ? null : prefixed(files, "assets/"),
      pyodide: opts.pyodideUrl ? null : prefixed(files, "pyodide/"),
    },
  };
}

// prefixed: the entries of files under dir, by their name in it.
function prefixed(files, dir) {
  const out = {};
  for (const [k, v] of Object.entries(files)) if (k.startsWith(dir)) out[k.slice(dir.length)] = v;
  return out;
}

export const Sandbox = defineSandbox({
  pool,

  newCore(opts) {
    const urls = packageUrls(opts);
    const key = JSON.stringify(urls);
    const pooled = pool.pick(key, opts.onProgress);
    if (pooled) return pooled;
    // (the literal form is the one bundlers follow: they bundle the worker
    // and start it from where they emitted it)
    const worker = urls.worker ? new Worker(urls.worker, { type: "module" })
      : new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
    const core = new CoreClient({
      post: (m) => worker.postMessage(m),
      terminate: () => {
        pool.drop(core);
        worker.terminate();
      },
      idle: (c) => pool.keep(c),
    }, { onProgress: opts.onProgress });
    core.poolKey = key;
    pool.add(core);
    let shipped = null; // the package's recorded start, sent to the worker: kept once it fitted
    worker.onmessage = ({ data }) => {
      const kind = data && protocol.kindOf(data);
      if (kind === protocol.Kind.state) keepState(urls.coreUrl, data.state);
      else if (kind === protocol.Kind.started) {
        performance.mark("wasmsand:core-" + data.started); // (for profiling: how the worker's core started)
        if (shipped && data.started === "restored") keepState(urls.coreUrl, shipped);
        shipped = null;
        setTimeout(coreStarted, 500); // (its first calls, such as create, come next)
      }
      else core.receive(data);
    };
    worker.onerror = (e) => {
      if (e.message) return core.failAll(new SandboxError(protocol.Code.internal, "wasmsand core: " + e.message));
      if (!urls.worker) {
        return core.failAll(new SandboxError(protocol.Code.internal, "wasmsand: the package's worker (web/worker.js, where the app's bundler emitted it) did not start: see the browser's console for its URL and status"));
      }
      // a worker that did not load gives a bare Event: say which URL and why
      fetch(urls.worker).then(
        (res) => res.ok
          ? `the worker ${urls.worker} did not start (HTTP ${res.status}, ${res.headers.get("content-type") || "no content type"}: it must be the package's web/worker.js, served as JavaScript)`
          : `the worker ${urls.worker} could not be loaded: HTTP ${res.status}`,
        (err) => `the worker ${urls.worker} could not be loaded: ${err.message}`,
      ).then((msg) => core.failAll(new SandboxError(protocol.Code.internal, "wasmsand: " + msg)));
    };
    const init = { coreUrl: urls.coreUrl, assetsUrl: urls.assetsUrl, pyodideUrl: urls.pyodideUrl, abortFlag: core.abortFlag,
      files: urls.files, coreSha256: CORE_SHA256, pyodideOwn: urls.pyodideOwn }; // (the package's own Pyodide: the worker knows its files' sha256)
    worker.postMessage(protocol.init(init)); // (it fetches the manifest while the core compiles)
    compiledCore(urls.coreUrl, opts.onProgress).then(
      (module) => worker.postMessage(protocol.coreModule(module)),
      () => worker.postMessage(protocol.coreModule(null))); // the worker fetches and compiles it itself
    keptStart(urls.coreUrl, urls.coreStateUrl).then((k) => {
      if (k && k.shipped) shipped = k.bytes.slice(0);
      worker.postMessage(protocol.keptStart(k && k.bytes), k ? [k.bytes] : []);
    });
    return core;
  },

  persist(core, name) {
    name = String(name);
    return {
      async load() { return (await core.call("persistLoad", name)) || undefined; },
      async sync(id) { await core.call("persistSave", id, name); },
    };
  },
});

export { SandboxError, createSandboxTools };
export default { Sandbox, SandboxError, createSandboxTools };
