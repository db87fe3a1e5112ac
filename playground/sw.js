// The playground's service worker: every file of the site is answered from the cache
// when it is there (and refreshed from the network behind), else fetched and kept, so a
// second visit starts without the network and works with it off; and with the headers
// of cross-origin isolation (see isolated).
const CACHE = "wasmsand-playground-v1";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (e) => e.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (e) => {
  const req = e.request;
  if (req.method !== "GET" || new URL(req.url).origin !== location.origin) return;
  e.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(req, { ignoreSearch: true });
    const fresh = fetch(req).then(async (res) => {
      if (res.ok && res.status === 200) await cache.put(req, res.clone());
      return res;
    });
    if (hit) {
      e.waitUntil(fresh.catch(() => {}));
      return isolated(hit);
    }
    return isolated(await fresh);
  })());
});

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
