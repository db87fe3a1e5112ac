// Runs benchmark cases in wasmsand's npm package in headless Chromium
// (web/index.js, a Web Worker per sandbox), as node.mjs does in Node. Input
// (stdin, JSON): {"pkg", "files": {"/home/user/x": "<host path>"}, "cases":
// [{"name", "script", "runs"}]}. Output (stdout, JSON): {"<name>": {"ms",
// "stdout", "exitCode"}, "first command": {"ms"}, "first pipeline": {"ms"}}:
// the first two are from navigation start to the first output of a sandbox
// the page creates, on a second visit (HTTP and Cache API caches warm).
import { readFileSync } from "node:fs";
import { serve, launch } from "../../web/test/harness.mjs";

const input = JSON.parse(readFileSync(0, "utf8"));
const byName = new Map(Object.entries(input.files).map(([vpath, host]) => [vpath.split("/").pop(), host]));
const page = `<!doctype html><meta charset="utf-8"><script type="module">
import { Sandbox } from "/web/index.js";
const first = {};
window.firstRun = (async () => {
  const sb = await Sandbox.create();
  const r = await sb.run("echo hi");
  first.echo = performance.now();
  await sb.run("seq 3 | sort -r");
  first.pipeline = performance.now();
  first.ok = r.stdout === "hi\\n";
  await sb.destroy();
  return first;
})();
// timeCases: once, warm until V8 has tiered the guests up (as node.mjs), then timed
const timeCases = async (sb, cases, prefix) => {
  const out = {};
  for (const c of cases) {
    const r = await sb.run(c.script);
    for (let i = 0, until = performance.now() + 1000; i < 30 && performance.now() < until; i++) await sb.run(c.script);
    const t0 = performance.now();
    for (let i = 0; i < c.runs; i++) await sb.run(c.script);
    out[prefix + c.name] = { ms: (performance.now() - t0) / c.runs, stdout: r.stdout, exitCode: r.exitCode };
  }
  return out;
};
window.pyFirst = async () => {
  const sb = await Sandbox.create({ python: "pyodide" });
  const t0 = performance.now();
  const r = await sb.run("python3 -c 'print(1)'");
  const ms = performance.now() - t0;
  await sb.destroy();
  return r.stdout === "1\\n" ? ms : -1;
};
window.pyBench = async (cases) => {
  const sb = await Sandbox.create({ python: "pyodide", timeoutMs: 120000 });
  const out = await timeCases(sb, cases, "pyodide: ");
  await sb.destroy();
  return out;
};
window.bench = async (files, cases) => {
  const f = {};
  for (const [vpath, name] of Object.entries(files)) f[vpath] = new Uint8Array(await (await fetch("/files/" + name)).arrayBuffer());
  const sb = await Sandbox.create({ files: f, fsLimitMb: 1024, outputLimit: 64 << 20, timeoutMs: 120000 });
  const out = await timeCases(sb, cases, "");
  await sb.destroy();
  return out;
};
window.ready = true;
</script>`;

const server = await serve(input.pkg, page, (url) => url.pathname.startsWith("/files/") && byName.get(url.pathname.slice(7)));
const browser = await launch();
try {
  const p = await (await browser.newContext()).newPage();
  p.on("pageerror", (e) => console.error("page:", e.message));
  await p.goto(server.base);
  await p.waitForFunction(() => window.ready === true);
  await p.evaluate(() => window.firstRun); // first visit: fills the caches
  const files = Object.fromEntries(Object.keys(input.files).map((v) => [v, v.split("/").pop()]));
  const out = await p.evaluate(([f, c]) => window.bench(f, c), [files, input.cases]);
  // first command on later visits: median of 3
  const echo = [];
  const pipe = [];
  for (let i = 0; i < 3; i++) {
    await p.goto(server.base + "?visit=" + i);
    await p.waitForFunction(() => window.ready === true);
    const f = await p.evaluate(() => window.firstRun);
    if (!f.ok) throw new Error("first run: wrong output");
    echo.push(f.echo);
    pipe.push(f.pipeline);
  }
  const median = (a) => a.sort((x, y) => x - y)[1];
  out["first command"] = { ms: median(echo) };
  out["first pipeline"] = { ms: median(pipe) };
  if (input.pyCases && input.pyCases.length) {
    Object.assign(out, await p.evaluate((c) => window.pyBench(c), input.pyCases));
    // its first run on a later visit (HTTP cache warm): median of 3
    const firsts = [];
    for (let i = 0; i < 3; i++) {
      await p.goto(server.base + "?py=" + i);
      await p.waitForFunction(() => window.ready === true);
      const ms = await p.evaluate(() => window.pyFirst());
      if (ms < 0) throw new Error("pyodide first run: wrong output");
      firsts.push(ms);
    }
    out["pyodide first run"] = { ms: median(firsts) };
  }
  process.stdout.write(JSON.stringify(out));
} finally {
  await browser.close();
  server.close();
}
