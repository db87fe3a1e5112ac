// The npm package in headless Chromium (Debian's chromium, driven by
// playwright-core): a static server on 127.0.0.1 serves build/npm and a
// page that uses web/index.js as a site would. usage: node browser.mjs PKG_DIR
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import assert from "node:assert";
import { chromium } from "playwright-core";

const root = path.resolve(process.argv[2] || "build/npm");
const types = { ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".html": "text/html", ".json": "application/json" };
const page = `<!doctype html><meta charset="utf-8"><title>wasmsand test</title><script type="module">
import { Sandbox } from "/web/index.js";
window.runTest = async () => {
  const out = {};
  const progress = [];
  const sb = await Sandbox.create({ onProgress: (p) => progress.push(p.asset) });
  out.seq = (await sb.run("seq 3 | sort -r")).stdout;
  out.pipeline = (await sb.run("printf 'b\\\\na\\\\n' > f; sort f | tr a-z A-Z; wc -l < f")).stdout;
  await sb.writeFile("/home/user/x.txt", "hello");
  out.read = await sb.readFile("/home/user/x.txt", "utf8");
  out.timeout = (await sb.run("while :; do :; done", { timeoutMs: 200 })).exitCode;
  out.xargs = (await sb.run("echo a b | xargs -n1 echo")).stdout;
  out.env = (await sb.run("env | sort | head -3")).stdout;
  out.progress = progress;
  await sb.destroy();
  return out;
};
window.ready = true;
</script>`;

const server = http.createServer((req, res) => {
  const url = new URL(req.url, "http://x");
  if (url.pathname === "/favicon.ico") {
    res.writeHead(204);
    return res.end();
  }
  if (url.pathname === "/") {
    res.writeHead(200, { "content-type": "text/html" });
    return res.end(page);
  }
  const file = path.join(root, path.normalize(url.pathname).replace(/^(\.\.[/\\])+/, ""));
  if (!file.startsWith(root) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
    res.writeHead(404);
    return res.end();
  }
  res.writeHead(200, { "content-type": types[path.extname(file)] || "application/octet-stream" });
  fs.createReadStream(file).pipe(res);
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const base = `http://127.0.0.1:${server.address().port}/`;

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run"],
});
try {
  const p = await browser.newPage();
  p.on("console", (m) => { if (m.type() === "error") console.error("page:", m.text()); });
  await p.goto(base);
  await p.waitForFunction(() => window.ready === true);
  const t0 = Date.now();
  const out = await p.evaluate(() => window.runTest());
  assert.strictEqual(out.seq, "3\n2\n1\n");
  assert.strictEqual(out.pipeline, "A\nB\n2\n");
  assert.strictEqual(out.read, "hello");
  assert.strictEqual(out.timeout, 124);
  assert.strictEqual(out.xargs, "a\nb\n");
  assert.ok(out.env.startsWith("HOME=/home/user\n"), out.env);
  assert.ok(out.progress.includes("manifest.json"), JSON.stringify(out.progress));
  console.log(`browser: ok (${Date.now() - t0} ms; assets fetched: ${out.progress.join(", ")})`);
} finally {
  await browser.close();
  server.close();
}
