// The playground's service worker: every file of the site is answered from the cache
// when it is there (and refreshed from the network a little later), else fetched and kept, so a
// second visit starts without the network and works with it off; and with the headers
// of cross-origin isolation (see isolated). The core, the programs and Pyodide's large files are not its to
// keep: the page's loader keeps them by their sha256 (web/cache.js), and fetches the
// manifest before its cached copy so a new build is seen at once.
const CACHE = "wasmsand-playground-v1";

// SHELL is the page itself, kept when the worker installs: it is registered after the
// page's first start, whose own requests it did not see.
const SHELL = ["./", "index.html", "app.js", "boot.js", "app.css", "web/index.js", "web/worker.js",
  "vendor/xterm.mjs", "vendor/xterm.css", "vendor/addon-fit.mjs"];

const REFRESH_AFTER_MS = 3000;

const loaderKept = (path) => path.endsWith("/wasmsand.wasm") || path.endsWith("/wasmsand.browser.init") || path.includes("/assets/") ||
  /\/pyodide\/(pyodide\.asm\.(wasm|mjs\.bin)|python_stdlib\.zip|snapshot\.bin)$/.test(path); // (web/worker.js: PYODIDE_FILES)

self.addEventListener("install", (e) => {
  self.skipWaiting();
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL)).catch(() => { /* (kept as they are fetched) */ }));
});
self.addEventListener("activate", (e) => e.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (e) => {
  const req = e.request;
  const url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== location.origin || loaderKept(url.pathname)) return;
  e.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(req, { ignoreSearch: true });
    // the kept copy is refreshed behind the answer (never before it: the page would
    // wait for a whole download), a few seconds later (fetched while the page starts,
    // the copies slowed a reload by ~0.1 s), and rewritten only when the file changed
    const later = hit ? new Promise((r) => setTimeout(r, REFRESH_AFTER_MS)) : Promise.resolve();
    const fresh = later.then(() => fetch(req)).then((res) => {
      const changed = res.status === 200 && !sameFile(hit, res);
      return { res, kept: changed ? cache.put(req, hit ? res : res.clone()) : null };
    });
    if (hit) {
      e.waitUntil(fresh.then(({ kept }) => kept).catch(() => {}));
      return isolated(hit);
    }
    const { res, kept } = await fresh;
    if (kept) e.waitUntil(kept.catch(() => {}));
    return isolated(res);
  })());
});

// sameFile: the server's validators say the kept copy is what it serves.
function sameFile(hit, res) {
  if (!hit) return false;
  const v = (r) => [r.headers.get("etag"), r.headers.get("last-modified"), r.headers.get("content-length")].join("|");
  return (hit.headers.get("etag") || hit.headers.get("last-modified")) !== null && v(hit) === v(res);
}

// isolated adds the headers that make the page cross-origin isolated, which a plain
// static server does not send: with them the page has SharedArrayBuffer, and Ctrl-C
// stops a command without restarting the sandbox's worker.
function isolated(res) {
  if (res.status === 0 || res.type === "opaque") return res;
  const h = new Headers(res.headers);
  h.set("Cross-Origin-Opener-Policy", "same-origin");
  h.set("Cross-Origin-Embedder-Policy", "require-corp");
  h.set("Cross-Origin-Resource-Policy", "same-origin");
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers: h });
}
