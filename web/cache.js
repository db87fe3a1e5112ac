// The Cache API store the page and its workers share: the core and the
// guest programs, each keyed by its URL and sha256, so a new build never
// meets a stale copy. Reading an 8 MB module from here is several times
// faster than from the browser's HTTP cache (measured in Chromium: ~75 ms
// against ~330 ms for the core), which is most of a warm page's first
// command. No Cache API (an insecure origin, storage disabled) → null, and
// everything is fetched as usual.
export const CACHE = "wasmsand-assets-v1";

export async function openCache() {
  try {
    return typeof caches === "object" ? await caches.open(CACHE) : null;
  } catch {
    return null; // (an opaque origin, storage disabled)
  }
}

export const cacheKey = (url, sha256) => url + "?sha256=" + sha256;

// The core's recorded start (jsapi/coreinit.js) is kept as the core's URL
// with this suffix, under the core's sha256.
export const STATE_SUFFIX = ".init";

const hex = (buf) => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, "0")).join("");

// hashHex is the hex SHA-256 of bytes (the browser's native digest).
export const hashHex = async (bytes) => hex(await crypto.subtle.digest("SHA-256", bytes));

// store keeps bytes (already checked against sha256) under (url, sha256)
// and drops the copies of other builds kept for the same url; → whether
// they are kept.
export async function store(cache, url, sha256, bytes, headers) {
  if (!cache) return false;
  const key = cacheKey(url, sha256);
  try {
    for (const old of await cache.keys()) {
      if (old.url !== key && old.url.split("?")[0] === url) await cache.delete(old);
    }
    await cache.put(key, new Response(bytes, { headers }));
    return true;
  } catch {
    return false; // (quota): the next visit fetches it again
  }
}

// bodyLength is a response's Content-Length when it counts the body's bytes
// as read (not a compressed response's), else 0 (unknown).
export function bodyLength(res) {
  const enc = (res.headers.get("content-encoding") || "identity").toLowerCase();
  return enc === "identity" ? Number(res.headers.get("content-length")) || 0 : 0;
}

// readAll reads a response's body whole, calling report(loaded) as each part
// arrives (a download's progress).
export async function readAll(res, report) {
  if (!res.body) return new Uint8Array(await res.arrayBuffer());
  const parts = [];
  let loaded = 0;
  for (const reader = res.body.getReader(); ;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    loaded += value.length;
    report(loaded);
  }
  const out = new Uint8Array(loaded);
  let off = 0;
  for (const p of parts) { out.set(p, off); off += p.length; }
  return out;
}
