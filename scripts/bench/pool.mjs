// The npm package as a Node service uses it (go run ./scripts/bench node):
// many sandboxes alive in one process on the pool's workers. Prints one
// JSON object: RSS per idle sandbox, create p50/p99 once the pool is warm,
// echo p50 (warm, and a sandbox's first run), and the throughput of 8 concurrent clients against one.
// Usage: node pool.mjs PKG_DIR (stdin: {"log": HOST_PATH})
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const pkg = process.argv[2];
const { Sandbox } = await import(pathToFileURL(path.join(pkg, "index.mjs")).href);
const input = JSON.parse(fs.readFileSync(0, "utf8"));
const log = fs.readFileSync(input.log);

const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
const gc = () => { if (globalThis.gc) globalThis.gc(); };

// warm the pool: every worker started and its core compiled
const warm = [];
for (let i = 0; i < 4; i++) warm.push(await Sandbox.create());
await Promise.all(warm.map((s) => s.run("true")));

// 1,000 idle sandboxes
gc();
const rss0 = process.memoryUsage().rss;
const creates = [];
const idle = [];
for (let i = 0; i < 1000; i++) {
  const t = performance.now();
  idle.push(await Sandbox.create());
  creates.push(performance.now() - t);
}
gc();
const rss1 = process.memoryUsage().rss;
// echo: the first run of an idle sandbox, then warm (that sandbox's runs after it)
const first = [];
const echo = [];
for (let i = 0; i < 200; i++) {
  const sb = idle[i];
  let t = performance.now();
  await sb.run("echo hi");
  first.push(performance.now() - t);
  if (i % 10 !== 0) continue;
  for (let j = 0; j < 50; j++) {
    t = performance.now();
    await sb.run("echo hi");
    echo.push(performance.now() - t);
  }
}
for (const sb of idle) await sb.destroy();

// throughput: clients each running grep|sort|uniq over a 5 MB log, one then 8 at once
const script = "grep -c ERROR log.txt; cut -d' ' -f3 log.txt | sort | uniq -c | sort -rn | head -3";
async function clients(n, rounds) {
  const sbs = [];
  for (let i = 0; i < n; i++) sbs.push(await Sandbox.create({ files: { "log.txt": log } }));
  await Promise.all(sbs.map((s) => s.run(script))); // (programs compiled, files in place)
  const t = performance.now();
  await Promise.all(sbs.map(async (s) => { for (let r = 0; r < rounds; r++) await s.run(script); }));
  const secs = (performance.now() - t) / 1000;
  for (const s of sbs) await s.destroy();
  return (n * rounds) / secs;
}
const one = await clients(1, 6);
const eight = await clients(8, 3);
for (const s of warm) await s.destroy();

console.log(JSON.stringify({
  workers: Sandbox.stats().maxWorkers,
  rssPerIdleSandboxKB: ((rss1 - rss0) / 1000) / 1024,
  rssFor1000MB: (rss1 - rss0) / 2 ** 20,
  createP50: pct(creates, 0.5), createP99: pct(creates, 0.99),
  echoP50: pct(echo, 0.5), firstEchoP50: pct(first, 0.5),
  oneClientPerSec: one, eightClientsPerSec: eight,
}));
