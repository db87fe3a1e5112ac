// What the Chromium scripts share (browser.mjs, conformance-browser.mjs,
// scripts/bench/chromium.mjs): a static server on 127.0.0.1 for the package
// directory and one page, and headless Chromium (Debian's, driven by
// playwright-core).
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";

const types = { ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".html": "text/html", ".json": "application/json",
  ".css": "text/css", ".svg": "image/svg+xml", ".png": "image/png" };

// serve serves root's files, with content-length and validators (ETag,
// no-cache: revalidated on each use) as a static server sends them, and
// page at "/". extra(url) may answer other paths with a file path;
// with ?coi (or from such a page) the responses carry COOP/COEP headers, so
// the page is cross-origin isolated (SharedArrayBuffer). With paced, a
// .wasm body goes out 256 KB at a time, 2 ms apart, as over a network: on
// loopback Chromium may hand a whole module to the page at once, and then
// download progress shows only its end. Resolves to {base, close}.
export async function serve(root, page, extra, { paced = false } = {}) {
  root = path.resolve(root);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    const headers = url.searchParams.has("coi") || (req.headers.referer || "").includes("coi") || /\.js$/.test(req.headers.referer || "")
      ? { "cross-origin-opener-policy": "same-origin", "cross-origin-embedder-policy": "require-corp" } : {};
    if (url.pathname === "/") {
      res.writeHead(200, { "content-type": "text/html", ...headers });
      return res.end(page);
    }
    let file = extra && extra(url);
    if (!file) {
      file = path.join(root, path.normalize(url.pathname));
      if (!file.startsWith(root)) file = null;
    }
    if (!file || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(url.pathname === "/favicon.ico" ? 204 : 404);
      return res.end();
    }
    // validators as a static server sends them, so the browser's HTTP cache
    // (and the compiled-code cache Chromium keeps beside it) is used
    const st = fs.statSync(file);
    const etag = `"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`;
    if (req.headers["if-none-match"] === etag) {
      res.writeHead(304, { etag, ...headers });
      return res.end();
    }
    res.writeHead(200, { "content-type": types[path.extname(file)] || "application/octet-stream",
      "content-length": st.size, "cache-control": "no-cache", etag,
      "last-modified": st.mtime.toUTCString(), ...headers });
    if (!paced || path.extname(file) !== ".wasm") {
      fs.createReadStream(file).pipe(res);
      return;
    }
    const stream = fs.createReadStream(file, { highWaterMark: 256 << 10 });
    stream.on("data", (chunk) => {
      stream.pause();
      res.write(chunk, () => setTimeout(() => stream.resume(), 2));
    });
    stream.on("end", () => res.end());
    stream.on("error", () => res.destroy());
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { base: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() };
}

export function launch() {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
}
