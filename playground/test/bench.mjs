// The playground's load (node playground/test/bench.mjs build/playground; make bench runs
// it): time to a usable prompt with empty caches and with warm ones, time to the first
// `ls` output, and what the page fetched before the first command — its bytes as
// served, gzip'd and brotli'd as a static server would send them — beside just-bash's
// browser bundle.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { serve, launch } from "../../web/test/harness.mjs";

const root = path.resolve(process.argv[2] || "build/playground");
const jbDir = process.argv[3] && path.resolve(process.argv[3]); // (scripts/bench/playground.go: just-bash bundled)
const { base, close } = await serve(root, fs.readFileSync(path.join(root, "index.html"), "utf8"));
const browser = await launch();
const ms = (t) => `${Math.round(t)} ms`;
const mb = (n) => `${(n / 1e6).toFixed(2)} MB`;
const sizes = (files) => {
  let raw = 0, gz = 0, br = 0;
  for (const f of files) {
    const b = fs.readFileSync(f);
    raw += b.length;
    gz += zlib.gzipSync(b, { level: 9 }).length;
    br += zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  }
  return { raw, gz, br };
};

// lsOutput types `ls /` and times its output after Enter.
async function lsOutput(page) {
  await page.click("#terminals .term:not([hidden])");
  await page.keyboard.type("ls /");
  const t1 = Date.now();
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => {
    const b = window.wasmsandPlayground.term.buffer.active;
    for (let i = 0; i < b.length; i++) if (b.getLine(i).translateToString(true).includes("tmp")) return true;
    return false;
  }, null, { timeout: 30000 });
  return Date.now() - t1;
}

// newPage is a page in a new profile (empty caches), opened once the browser has
// settled: Chromium starts a new profile's own pages in the background (the
// omnibox popup's WebUI renderer, ~2 s of a renderer's CPU time and ~1 s of its
// thread pool in a trace), which on two cores slowed a page opened at once by
// ~0.6 s; a person's browser has done that long before they open the playground.
// at once: the page opened the moment its profile is made (that line is printed too).
// usable(page, load) times load() to a usable prompt.
async function newPage(atOnce) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 760 } });
  const page = await context.newPage();
  if (!atOnce) await page.waitForTimeout(2000);
  return page;
}
async function usable(page, load) {
  const t = Date.now();
  await load();
  await page.waitForFunction(() => window.wasmsandPlayground && window.wasmsandPlayground.ready, null, { timeout: 60000 });
  return Date.now() - t;
}

const runs = [];
for (let i = 0; i < 3; i++) {
  const page = await newPage();
  const fetched = new Set();
  let ready = false;
  page.on("request", (r) => {
    const u = new URL(r.url());
    if (!ready && u.origin + "/" === base) fetched.add(u.pathname === "/" ? "/index.html" : u.pathname);
  });
  const cold = await usable(page, () => page.goto(base));
  ready = true;
  const firstLs = await lsOutput(page);
  await page.waitForTimeout(500); // (the service worker keeps what it fetched)
  const warm = await usable(page, () => page.reload());
  // a later reload: the core from the Cache API with its compiled code, and
  // its recorded start kept (jsapi/coreinit.js)
  await page.waitForTimeout(1500);
  const later = await usable(page, () => page.reload());
  await page.context().close();
  // the first reload where the host sends the headers of _headers (the test
  // server's ?coi): the first visit is isolated already
  const coiPage = await newPage();
  await usable(coiPage, () => coiPage.goto(base + "?coi"));
  await coiPage.waitForTimeout(1500);
  const coiWarm = await usable(coiPage, () => coiPage.reload());
  await coiPage.context().close();
  // the first `ls /` typed as a person would, 2 s after the prompt: the page has
  // run a program once meanwhile (app.js: warmUp)
  const slowPage = await newPage();
  await usable(slowPage, () => slowPage.goto(base));
  await slowPage.waitForTimeout(2000);
  const slowLs = await lsOutput(slowPage);
  await slowPage.context().close();
  // the cold load as a fresh profile's first page, with the browser's own start
  const rushed = await newPage(true);
  const coldAtOnce = await usable(rushed, () => rushed.goto(base));
  await rushed.context().close();
  runs.push({ cold, coldAtOnce, firstLs, warm, later, coiWarm, slowLs, fetched: [...fetched] });
}

// just-bash's browser build, bundled (jbDir): a page that makes a Bash and runs `ls /`,
// timed from navigation to its output, with empty caches and on a reload
const jbRuns = [];
if (jbDir) {
  const page0 = `<!doctype html><meta charset="utf-8">
<script type="importmap">{"imports": {"node:zlib": "./zlib-stub.js"}}</script>
<script type="module">
import { Bash } from "./just-bash.js";
const r = await new Bash().exec("ls /");
window.jb = { out: r.stdout, code: r.exitCode };
</script>`;
  const jb = await serve(jbDir, page0);
  for (let i = 0; i < 3; i++) {
    const page = await newPage();
    const done = () => page.waitForFunction(() => window.jb, null, { timeout: 30000 });
    let t = Date.now();
    await page.goto(jb.base);
    await done();
    const cold = Date.now() - t;
    if (!(await page.evaluate(() => window.jb.out)).includes("tmp")) throw new Error("just-bash: no ls output");
    await page.waitForTimeout(1000);
    t = Date.now();
    await page.reload();
    await done();
    jbRuns.push({ cold, warm: Date.now() - t });
    await page.context().close();
  }
  jb.close();
}
await browser.close();
close();

const median = (list) => list.slice().sort((a, b) => a - b)[1]; // (of 3)
const med = (k) => median(runs.map((r) => r[k]));
const files = runs[0].fetched.map((p) => path.join(root, p)).filter((f) => fs.existsSync(f) && fs.statSync(f).isFile());
const ours = sizes(files);
const jb = path.resolve("node_modules/just-bash/dist/bundle/browser.js");
console.log(`${"playground (median of 3, headless Chromium)".padEnd(52)} ${"time".padStart(10)}  target`);
console.log(`${"usable prompt, empty caches".padEnd(52)} ${ms(med("cold")).padStart(10)}  ≤ 1500 ms`);
console.log(`${"the same, opened with its new profile (see newPage)".padEnd(52)} ${ms(med("coldAtOnce")).padStart(10)}`);
console.log(`${"usable prompt, warm caches (a reload)".padEnd(52)} ${ms(med("warm")).padStart(10)}  ≤ 300 ms`);
console.log(`${"usable prompt, a later reload".padEnd(52)} ${ms(med("later")).padStart(10)}`);
console.log(`${"usable prompt, first reload, host sends _headers".padEnd(52)} ${ms(med("coiWarm")).padStart(10)}`);
console.log(`${"first `ls /` output after Enter".padEnd(52)} ${ms(med("firstLs")).padStart(10)}`);
console.log(`${"the same, typed 2 s after the prompt".padEnd(52)} ${ms(med("slowLs")).padStart(10)}`);
console.log(`${"navigation to the first `ls /` output, empty caches".padEnd(52)} ${ms(median(runs.map((r) => r.cold + r.firstLs))).padStart(10)}`);
if (jbRuns.length) {
  console.log(`${"just-bash (bundled, a bare page): new Bash(), `ls /`".padEnd(52)} ${ms(median(jbRuns.map((r) => r.cold))).padStart(10)}  (empty caches)`);
  console.log(`${"  the same, a reload".padEnd(52)} ${ms(median(jbRuns.map((r) => r.warm))).padStart(10)}`);
}
console.log(`fetched before the first command: ${files.length} files, ${mb(ours.raw)} as served, ${mb(ours.gz)} gzip, ${mb(ours.br)} brotli (target ≤ 2.5 MB compressed)`);
for (const f of files.sort((a, b) => fs.statSync(b).size - fs.statSync(a).size).slice(0, 4)) {
  console.log(`  ${path.relative(root, f)}: ${mb(fs.statSync(f).size)} (${mb(sizes([f]).br)} brotli)`);
}
if (fs.existsSync(jb)) {
  const j = sizes([jb]);
  console.log(`just-bash's browser bundle: ${mb(j.raw)}, ${mb(j.gz)} gzip, ${mb(j.br)} brotli (a simulated shell: no coreutils, python or WebAssembly guests)`);
}
