// The npm package in headless Chromium (Debian's chromium, driven by
// playwright-core): a static server on 127.0.0.1 serves build/npm and a
// page that uses web/index.js as a site would. It checks the API, limits
// and isolation, IndexedDB persistence across a page reload, and abort both
// without shared memory (plain headers: the worker ends) and with it
// (COOP/COEP: the sandbox goes on). usage: node browser.mjs PKG_DIR
import assert from "node:assert";
import { serve, launch } from "./harness.mjs";

const root = process.argv[2] || "build/npm";
const page = `<!doctype html><meta charset="utf-8"><title>wasmsand test</title><script type="module">
import { Sandbox, SandboxError } from "/web/index.js";
const abortAfter = (ms) => { const ac = new AbortController(); setTimeout(() => ac.abort(), ms); return ac.signal; };
const code = (p) => p.then(() => "resolved", (e) => (e instanceof SandboxError ? e.code : "not a SandboxError: " + e));
window.tests = {
  async basics() {
    const out = {};
    const progress = [];
    const sb = await Sandbox.create({ onProgress: (p) => progress.push(p) });
    out.seq = (await sb.run("seq 3 | sort -r")).stdout;
    out.pipeline = (await sb.run("printf 'b\\\\na\\\\n' > f; sort f | tr a-z A-Z; wc -l < f")).stdout;
    await sb.writeFile("/home/user/x.txt", "hello");
    out.read = await sb.readFile("/home/user/x.txt", "utf8");
    out.xargs = (await sb.run("echo a b | xargs -n1 echo")).stdout;
    out.env = (await sb.run("env | sort | head -3")).stdout;
    out.host = (await sb.run("ls / | tr '\\\\n' ' '; env | grep -ci mozilla")).stdout;
    out.progress = progress;
    await sb.destroy();
    out.badWorker = await Sandbox.create({ workerUrl: "/nope/worker.js" }).then(() => "resolved", (e) => e.message);
    return out;
  },
  // a recorded start that does not fit (the Node package's, given as this
  // core's) is refused: the core starts as usual, in a worker of its own
  async misfit() {
    const sb = await Sandbox.create({ coreUrl: "/wasmsand.wasm", coreStateUrl: "/wasmsand.init" });
    const out = (await sb.run("echo ok")).stdout;
    await sb.destroy();
    return out;
  },
  // what a restored start must not share with every other first visit
  async random() {
    const sb = await Sandbox.create();
    const out = (await sb.run("echo $RANDOM-$RANDOM-$RANDOM $SRANDOM; head -c 16 /dev/urandom | od -An -tx1")).stdout;
    await sb.destroy();
    return out;
  },
  async limits() {
    const out = {};
    const sb = await Sandbox.create({ fsLimitMb: 8, maxProcesses: 16, memoryLimitMb: 32 });
    let t0 = performance.now();
    out.loop = (await sb.run("while :; do :; done", { timeoutMs: 300 })).exitCode;
    out.guestLoop = (await sb.run("yes > /dev/null", { timeoutMs: 300 })).exitCode;
    out.loopMs = performance.now() - t0;
    const flood = await sb.run("yes");
    out.flood = [flood.exitCode, flood.truncated];
    const fill = await sb.run("head -c 20000000 /dev/zero > big; echo st=$?");
    out.fill = [fill.stdout, /No space left/.test(fill.stderr)];
    const mem = await sb.run("awk 'BEGIN { s = \\"x\\"; while (1) s = s s }'");
    out.mem = [mem.exitCode !== 0, /memory/i.test(mem.stderr)];
    out.bomb = (await sb.run(":(){ :|:& };:; sleep 1; echo survived", { timeoutMs: 5000 })).stdout;
    out.alive = (await sb.run("echo alive")).stdout;
    await sb.destroy();
    return out;
  },
  async cached() {
    const progress = [];
    const sb = await Sandbox.create({ onProgress: (p) => progress.push(p) });
    const out = (await sb.run("sort -r /dev/null; echo x | grep -c x")).stdout;
    await sb.destroy();
    return { out, progress };
  },
  async persistWrite() {
    const sb = await Sandbox.create({ persist: "browser-test" });
    const before = (await sb.run("cat kept.txt 2>/dev/null || echo none")).stdout;
    await sb.run("echo kept > kept.txt; mkdir -p d; echo x > d/y");
    await sb.destroy();
    return before;
  },
  async persistRead() {
    const sb = await Sandbox.create({ persist: "browser-test" });
    const r = (await sb.run("cat kept.txt d/y")).stdout;
    await sb.run("rm kept.txt");
    await sb.destroy();
    return r;
  },
  // python3 that nothing on the command line names (make runs it), and
  // python run by python: in a worker whose Pyodide is not loaded (a new
  // one: another coreStateUrl is another pool key), a helper thread runs it
  async indirect() {
    const files = { Makefile: 'all:\\n\\tpython3 -c "print(6*7)"\\n',
      "nested.py": "import subprocess, sys\\nprint(subprocess.run([sys.executable, '-c', 'print(7)'], capture_output=True, text=True).stdout.strip())\\n" };
    const sb = await Sandbox.create({ files, coreStateUrl: "" });
    const make = await sb.run("make -s", { timeoutMs: 60000 });
    const nested = await sb.run("python3 nested.py", { timeoutMs: 60000 });
    await sb.destroy();
    return { make: [make.exitCode, make.stdout, make.stderr], nested: [nested.exitCode, nested.stdout, nested.stderr] };
  },
  async abort() {
    const out = { shared: typeof SharedArrayBuffer === "function" };
    const sb = await Sandbox.create();
    const child = await sb.fork();
    const t0 = performance.now();
    out.loop = await code(sb.run("while :; do :; done", { signal: abortAfter(200), timeoutMs: 20000 }));
    out.ms = performance.now() - t0;
    out.guest = await code(sb.run("yes > /dev/null", { signal: abortAfter(200), timeoutMs: 20000 }));
    out.after = await code(sb.run("echo alive"));
    out.child = await code(child.run("echo alive"));
    out.fresh = (await (await Sandbox.create()).run("echo fresh")).stdout;
    return out;
  },
  async stdin() {
    const sb = await Sandbox.create();
    let type, end;
    const typed = new ReadableStream({ start(c) { type = (t) => c.enqueue(t); end = () => c.close(); } });
    const seen = [];
    try {
      const run = sb.run("read -r a; echo got $a; tr a-z A-Z", { stdin: typed, terminal: true, onStdout: (t) => seen.push(t) });
      type("one\\n");
      for (let i = 0; i < 500 && !seen.join("").includes("got one"); i++) await new Promise((r) => setTimeout(r, 10));
      type("two\\n");
      for (let i = 0; i < 500 && !seen.join("").includes("TWO"); i++) await new Promise((r) => setTimeout(r, 10));
      const live = seen.join("");
      end();
      return { live, stdout: (await run).stdout };
    } catch (e) {
      return { error: e.code };
    } finally {
      await sb.destroy();
    }
  },
  async python() {
    const sb = await Sandbox.create({ python: "pyodide" });
    const r = async (c, o) => { const x = await sb.run(c, o); return [x.exitCode, x.stdout, x.stderr]; };
    const out = { shared: typeof SharedArrayBuffer === "function" };
    out.files = await r("printf 'b\\na\\n' > in.txt; python3 -c 'open(\\"out.txt\\", \\"w\\").write(\\"\\".join(sorted(open(\\"in.txt\\"))))'; cat out.txt");
    out.exit = await r("python3 -c 'import sys; sys.exit(3)'");
    out.sub = await r("python3 -c 'import subprocess; print(subprocess.check_output([\\"seq\\", \\"2\\"], text=True), end=\\"\\")'");
    out.isolated = await r("python3 -c 'import js'");
    let t0 = performance.now();
    out.timeout = (await sb.run("python3 -c 'while True: pass'", { timeoutMs: 1000 })).exitCode;
    out.timeoutMs = performance.now() - t0;
    if (out.shared) {
      t0 = performance.now();
      out.abort = await code(sb.run("python3 -c 'while True: pass'", { signal: abortAfter(300), timeoutMs: 20000 }));
      out.abortMs = performance.now() - t0;
    }
    out.after = await r("python3 -c 'print(1)'");
    await sb.destroy();
    return out;
  },
  async network() {
    // the page's own server (same origin, so CORS allows it); the rules
    // refuse everything else before the browser is asked
    const origin = location.origin;
    const events = [];
    const sb = await Sandbox.create({ allowNet: [origin + "/README.md"], onEvent: (e) => { if (e.kind === "network") events.push(e); } });
    const r = async (cmd) => { const x = await sb.run(cmd); return [x.exitCode, x.stdout, x.stderr]; };
    const out = {};
    out.curl = await r(\`curl -s \${origin}/README.md | head -c 6; echo; curl -s -o /dev/null -w '%{http_code}' \${origin}/README.md/nope\`);
    out.denied = await r(\`curl -sS \${origin}/package.json; echo $?; curl -sS http://169.254.169.254/; echo $?\`);
    out.python = await r(\`python3 -c 'import urllib.request as u; print(u.urlopen("\${origin}/README.md").read()[:6])'\`);
    out.events = events.map((e) => [e.allowed, e.http_status || 0]);
    await sb.destroy();
    return out;
  },
};
window.ready = true;
</script>`;

let refuseCore = false; // the server answers 404 for the core (as if offline)
const server = await serve(root, page, (url) => refuseCore && url.pathname === "/wasmsand.wasm" && "/nonexistent", { paced: true });
const base = server.base;
const browser = await launch();
try {
  const ctx = await browser.newContext(); // one profile: IndexedDB survives reloads
  const p = await ctx.newPage();
  p.on("console", (m) => { if (m.type() === "error") console.error("page:", m.text()); });
  const open = async (url) => {
    await p.goto(url);
    await p.waitForFunction(() => window.ready === true);
  };
  const run = (name) => p.evaluate((n) => window.tests[n](), name);
  await open(base);
  const t0 = Date.now();

  const out = await run("basics");
  assert.strictEqual(out.seq, "3\n2\n1\n");
  assert.strictEqual(out.pipeline, "A\nB\n2\n");
  assert.strictEqual(out.read, "hello");
  assert.strictEqual(out.xargs, "a\nb\n");
  assert.match(out.badWorker, /the worker [^ ]*\/nope\/worker\.js could not be loaded: HTTP 404/, "a load failure names the URL and the status");
  assert.ok(out.env.startsWith("HOME=/home/user\n"), out.env);
  assert.strictEqual(out.host, "bin dev etc home mnt proc tmp usr 0\n");
  // programs fetched ahead, with progress by the byte (and the core's own download,
  // on a first visit)
  const assets = [...new Set(out.progress.map((p) => p.asset))];
  assert.deepStrictEqual(assets.filter((a) => a !== "wasmsand.wasm").sort(), ["coreutils.wasm", "findutils.wasm", "grep.wasm"], JSON.stringify(out.progress));
  const core = out.progress.filter((p) => p.asset === "wasmsand.wasm");
  assert.ok(core.length === 0 || core.at(-1).loaded === core.at(-1).total, JSON.stringify(core));
  const cu = out.progress.filter((p) => p.asset === "coreutils.wasm");
  assert.ok(cu.length > 1 && cu.at(-1).loaded === cu.at(-1).total && cu[0].loaded < cu[0].total, JSON.stringify(cu));

  // a first visit put back the package's recorded start (wasmsand.browser.init)
  const marks = () => p.evaluate(() => performance.getEntriesByType("mark").map((m) => m.name).filter((n) => n.startsWith("wasmsand:core-")));
  assert.deepStrictEqual(await marks(), ["wasmsand:core-restored"]);
  assert.strictEqual(await run("misfit"), "ok\n");
  assert.deepStrictEqual(await marks(), ["wasmsand:core-restored", "wasmsand:core-started"]);

  const lim = await run("limits");
  assert.deepStrictEqual([lim.loop, lim.guestLoop], [124, 124]);
  assert.deepStrictEqual(lim.flood, [141, true]);
  assert.deepStrictEqual(lim.fill, ["st=1\n", true]);
  assert.deepStrictEqual(lim.mem, [true, true]);
  assert.strictEqual(lim.bomb, "survived\n");
  assert.strictEqual(lim.alive, "alive\n");

  // IndexedDB persistence across a page reload
  assert.strictEqual(await run("persistWrite"), "none\n");
  await p.reload();
  await p.waitForFunction(() => window.ready === true);
  assert.strictEqual(await run("persistRead"), "kept\nx\n");
  // after the reload the programs come from the Cache API
  const c = await run("cached");
  assert.strictEqual(c.out, "1\n");
  assert.ok(c.progress.length > 0 && c.progress.every((p) => p.cached), JSON.stringify(c.progress));
  // and so does the core, kept under its hash: a page whose server no
  // longer serves it still starts
  const keys = await p.evaluate(async () => (await (await caches.open("wasmsand-assets-v1")).keys()).map((r) => r.url));
  assert.strictEqual(keys.filter((k) => /\/wasmsand\.wasm\?sha256=[0-9a-f]{64}$/.test(k)).length, 1, keys.join(" "));
  refuseCore = true;
  await p.reload();
  await p.waitForFunction(() => window.ready === true);
  assert.strictEqual((await run("cached")).out, "1\n");
  refuseCore = false;
  // the core's start, recorded on an earlier visit and kept beside it, was
  // put back instead of run (jsapi/coreinit.js)
  assert.ok(keys.some((k) => /\/wasmsand\.wasm\.init\?sha256=[0-9a-f]{64}$/.test(k)), keys.join(" "));
  assert.deepStrictEqual(await marks(), ["wasmsand:core-restored"]);

  // two first visits, both from the shipped start, get their own $RANDOM,
  // $SRANDOM and /dev/urandom
  const visits = [];
  for (let i = 0; i < 2; i++) {
    const other = await browser.newContext();
    const q = await other.newPage();
    await q.goto(base);
    await q.waitForFunction(() => window.ready === true);
    visits.push(await q.evaluate(() => window.tests.random()));
    assert.deepStrictEqual(await q.evaluate(() => performance.getEntriesByType("mark").map((m) => m.name)), ["wasmsand:core-restored"]);
    await other.close();
  }
  const [a, b] = visits.map((v) => v.split(/\s+/).filter(Boolean));
  assert.strictEqual(a.length, 18, visits[0]);
  assert.ok(a[0] !== b[0] && a[1] !== b[1] && a.slice(2).join() !== b.slice(2).join(), JSON.stringify(visits));

  // python3 as Pyodide in the worker, over the same files
  const checkPython = (py) => {
    assert.deepStrictEqual(py.files, [0, "a\nb\n", ""]);
    assert.strictEqual(py.exit[0], 3);
    assert.deepStrictEqual(py.sub, [0, "1\n2\n", ""]);
    assert.strictEqual(py.isolated[0], 1);
    assert.match(py.isolated[2], /ModuleNotFoundError: No module named 'js'/);
    assert.strictEqual(py.timeout, 124);
    assert.ok(py.timeoutMs < 5000, `python timeout took ${py.timeoutMs} ms`);
    assert.deepStrictEqual(py.after, [0, "1\n", ""]);
  };
  checkPython(await run("python"));
  // Pyodide's large files are kept in the Cache API by their sha256 (web/worker.js:
  // PYODIDE_FILES; its module script is the browser's copy, .bin), a moment after the run that fetched them
  const pyKept = () => p.evaluate(async () => (await (await caches.open("wasmsand-assets-v1")).keys()).map((r) => r.url)
    .filter((k) => /\/pyodide\/[a-z_.]+\?sha256=[0-9a-f]{64}$/.test(k)).map((k) => k.replace(/^.*\/pyodide\/|\?.*$/g, "")).sort());
  for (let i = 0; i < 100 && (await pyKept()).length < 4; i++) await p.waitForTimeout(100);
  assert.deepStrictEqual(await pyKept(), ["pyodide.asm.mjs.bin", "pyodide.asm.wasm", "python_stdlib.zip", "snapshot.bin"]);

  // the network bridge: a synchronous XMLHttpRequest from the worker
  const net = await run("network");
  assert.deepStrictEqual(net.curl, [0, "# wasm\n404", ""]);
  assert.strictEqual(net.denied[1], "7\n7\n");
  assert.match(net.denied[2], /blocked by the sandbox's network policy/);
  assert.deepStrictEqual(net.python, [0, "b'# wasm'\n", ""]);
  assert.ok(net.events.some(([ok, st]) => ok && st === 200) && net.events.some(([ok]) => !ok), JSON.stringify(net.events));

  // python3 reached indirectly, without shared memory: a clear error
  const noHelper = await run("indirect");
  assert.strictEqual(noHelper.make[0], 2, JSON.stringify(noHelper));
  assert.match(noHelper.make[2], /python3: Pyodide cannot take this run: it is not loaded yet .*cross-origin isolated/);

  // abort without shared memory: the worker (and its sandboxes) end
  assert.deepStrictEqual(await run("stdin"), { error: "invalid_argument" }, "a streamed stdin needs shared memory");
  let ab = await run("abort");
  assert.deepStrictEqual(ab, { ...ab, shared: false, loop: "closed", guest: "closed", after: "closed", child: "closed", fresh: "fresh\n" });
  assert.ok(ab.ms < 5000, `abort took ${ab.ms} ms`);
  // with shared memory (a cross-origin isolated page): the run stops, the sandbox goes on
  await open(base + "?coi");
  // python3 reached indirectly: a helper thread loads Pyodide and runs it
  assert.deepStrictEqual(await run("indirect"), { make: [0, "42\n", ""], nested: [0, "7\n", ""] });
  ab = await run("abort");
  assert.deepStrictEqual(ab, { ...ab, shared: true, loop: "canceled", guest: "canceled", after: "resolved", child: "resolved", fresh: "fresh\n" });
  assert.ok(ab.ms < 5000, `abort took ${ab.ms} ms`);
  // a streamed stdin: what is typed reaches read and tr (a guest) as it comes
  assert.deepStrictEqual(await run("stdin"), { live: "got one\nTWO\n", stdout: "got one\nTWO\n" });
  const py = await run("python"); // an abort reaches Pyodide through shared memory too
  checkPython(py);
  assert.strictEqual(py.abort, "canceled");
  assert.ok(py.abortMs < 5000, `python abort took ${py.abortMs} ms`);
  console.log(`browser: ok (${Date.now() - t0} ms: API, limits, isolation, IndexedDB across a reload, core and programs from the Cache API, abort with and without SharedArrayBuffer, a streamed stdin, python3 as Pyodide (and in a helper thread for make's and python's own python3), the network bridge; assets fetched: ${assets.join(", ")})`);
} finally {
  await browser.close();
  server.close();
}
