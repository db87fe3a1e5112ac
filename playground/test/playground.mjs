// The playground in headless Chromium (node playground/test/playground.mjs build/playground):
// commands typed in the terminal, the file tree, the editor, snapshots, Ctrl-C of a
// running command, the files still there after a reload, and a reload with the network
// off. Screenshots of the main states go to build/playground-screens/.
import fs from "node:fs";
import path from "node:path";
import { serve, launch } from "../../web/test/harness.mjs";

const root = process.argv[2] || "build/playground";
const shots = path.join(path.dirname(path.resolve(root)), "playground-screens");
fs.mkdirSync(shots, { recursive: true });
const page0 = fs.readFileSync(path.join(root, "index.html"), "utf8");
const { base, close } = await serve(root, page0);
const browser = await launch();
const context = await browser.newContext({ viewport: { width: 1200, height: 760 } });
const page = await context.newPage();
const errors = [];
page.on("pageerror", (e) => errors.push(String(e)));
page.on("console", (m) => { if (process.env.DEBUG) console.log("console:", m.text()); });
let failed = 0;
const check = (ok, what) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failed++;
};

const ready = () => page.waitForFunction(() => window.wasmsandPlayground && window.wasmsandPlayground.ready, null, { timeout: 60000 });
const screen = () => page.evaluate(() => {
  const b = window.wasmsandPlayground.term.buffer.active;
  const out = [];
  for (let i = 0; i < b.length; i++) out.push(b.getLine(i).translateToString(true));
  return out.join("\n");
});
// typeLine types a line (Enter included): a command at the prompt, or input for
// the running command; typeCommand focuses the terminal first.
async function typeLine(text) {
  await page.keyboard.type(text);
  await page.keyboard.press("Enter");
}
async function typeCommand(cmd) {
  await page.click("#terminals .term:not([hidden])");
  await typeLine(cmd);
}
async function waitFor(text, timeout = 30000) {
  const t0 = Date.now();
  for (;;) {
    const s = await screen();
    if (s.includes(text)) return true;
    if (Date.now() - t0 > timeout) return false;
    await page.waitForTimeout(50);
  }
}
const idle = () => page.waitForFunction(() => document.getElementById("status").textContent !== "running…", null, { timeout: 30000 });

try {
  let t0 = Date.now();
  await page.goto(base);
  await ready();
  console.log(`usable prompt after ${Date.now() - t0} ms (cold)`);
  const how = await page.evaluate(() => performance.getEntriesByType("mark").map((m) => m.name).filter((n) => n.startsWith("wasmsand:core-")));
  check(how.join() === "wasmsand:core-restored", "a first visit puts back the core's recorded start (wasmsand.browser.init): " + how.join());
  await page.screenshot({ path: path.join(shots, "1-start.png") });

  await typeCommand("echo hello $((6*7))");
  check(await waitFor("hello 42"), "a command's output in the terminal");
  await typeCommand("ls --color=always /usr | head -3; printf 'one\\n' > a.txt; mkdir -p src && echo 'print(1)' > src/m.py");
  await idle();
  await page.waitForSelector('#tree li[data-path="/home/user/a.txt"]');
  check(true, "the file tree follows what commands make");
  check(await page.$('#tree li[data-path="/home/user/src/m.py"]') !== null, "nested files in the tree");
  await page.click('#tree li[data-path="/home/user/src"]');
  await page.waitForFunction(() => !document.querySelector('#tree li[data-path="/home/user/src/m.py"]'));
  check(await page.getAttribute('#tree li[data-path="/home/user/src"]', "aria-expanded") === "false", "a directory of the tree closes");
  await page.focus('#tree li[data-path="/home/user/src"]');
  await page.keyboard.press("ArrowRight");
  await page.waitForSelector('#tree li[data-path="/home/user/src/m.py"]');
  check(true, "ArrowRight opens it again");
  check((await screen()).includes("hello 42"), "a line typed past the terminal's width wraps without erasing the rows above");

  await page.click('#tree li[data-path="/home/user/a.txt"]');
  await page.waitForFunction(() => document.getElementById("editor").value === "one\n");
  await page.fill("#editor", "two\n");
  await page.click("#editor-save");
  await page.waitForFunction(() => document.getElementById("status").textContent.startsWith("saved"));
  await typeCommand("cat a.txt");
  check(await waitFor("\ntwo"), "a file edited and saved in the editor, then cat");
  await page.screenshot({ path: path.join(shots, "2-editor.png") });

  await page.click("#snapshot");
  await typeCommand("rm a.txt; ls");
  await idle();
  await page.waitForFunction(() => !document.querySelector('#tree li[data-path="/home/user/a.txt"]'));
  await page.click("#snapshots li button:text('restore')");
  await page.waitForSelector('#tree li[data-path="/home/user/a.txt"]');
  check(true, "a snapshot restored brings the file back");

  await typeCommand("sleep 100");
  await page.waitForTimeout(700);
  t0 = Date.now();
  await page.keyboard.press("Control+C");
  await idle();
  check(await waitFor("^C") && Date.now() - t0 < 10000, `Ctrl-C stops sleep 100 (${Date.now() - t0} ms)`);
  await typeCommand("echo after-ctrl-c");
  check(await waitFor("after-ctrl-c"), "the terminal works after Ctrl-C");

  // several lines pasted run one after the other
  await page.click("#terminals .term:not([hidden])");
  await page.evaluate(() => window.wasmsandPlayground.term.paste("echo p1\necho p2\n"));
  check(await waitFor("p2\n") || await waitFor("p2"), "a paste of several lines runs each");
  await idle();

  // uploads go to the current directory; downloads of a file and of the home directory
  await page.setInputFiles("#upload-input", { name: "up.txt", mimeType: "text/plain", buffer: Buffer.from("uploaded\n") });
  await page.waitForSelector('#tree li[data-path="/home/user/up.txt"]');
  await typeCommand("cat up.txt");
  check(await waitFor("\nuploaded"), "an uploaded file");
  await page.click('#tree li[data-path="/home/user/up.txt"]');
  await page.waitForFunction(() => document.getElementById("editor").value === "uploaded\n");
  let dl = page.waitForEvent("download");
  await page.click("#editor-download");
  let got = fs.readFileSync(await (await dl).path(), "utf8");
  check(got === "uploaded\n", "a file downloaded from the editor");
  dl = page.waitForEvent("download");
  await page.click("#download-home");
  const tgz = fs.readFileSync(await (await dl).path());
  check(tgz[0] === 0x1f && tgz[1] === 0x8b && (await dl).suggestedFilename().endsWith(".tar.gz"), "the home directory downloaded as a .tar.gz");

  // a fork: a second terminal on a copy; what it writes stays there
  await page.click("#fork");
  await page.waitForFunction(() => window.wasmsandPlayground.sessions.length === 2);
  await typeCommand("echo forked > f.txt; cat a.txt");
  check(await waitFor("\ntwo"), "the fork has the workspace's files");
  await page.waitForSelector('#tree li[data-path="/home/user/f.txt"]');
  await page.screenshot({ path: path.join(shots, "5-fork.png") });
  await page.click("#tabs .tab >> nth=0");
  await page.waitForFunction(() => !document.querySelector('#tree li[data-path="/home/user/f.txt"]'));
  await typeCommand("test -e f.txt || echo not-in-main");
  check(await waitFor("not-in-main"), "what the fork wrote is not in the workspace");

  t0 = Date.now();
  await page.reload();
  await ready();
  console.log(`usable prompt after ${Date.now() - t0} ms (warm)`);
  await typeCommand("cat a.txt; history | tail -1 >/dev/null");
  check(await waitFor("\ntwo"), "the files survive a reload (IndexedDB)");

  // what is typed reaches a running command, a line at a time (SharedArrayBuffer: the
  // service worker's headers make the page cross-origin isolated once it controls it)
  check(await page.evaluate(() => self.crossOriginIsolated), "the page is cross-origin isolated after a reload");
  await typeCommand("read -p 'name? ' n; echo \"hi $n\"; tr a-z A-Z; echo tr\"-\"done");
  check(await waitFor("\nname? "), "read -p prompts (stdin is a terminal)");
  await typeLine("ada");
  check(await waitFor("hi ada"), "a line typed while a command runs reaches read");
  await page.keyboard.type("shoutx");
  await page.keyboard.press("Backspace");
  await page.keyboard.press("Enter");
  check(await waitFor("\nSHOUT\n"), "tr gets the typed line as it comes (after a Backspace)");
  await page.keyboard.press("Control+D");
  check(await waitFor("\ntr-done"), "Ctrl-D ends the input");
  await idle();
  await typeCommand("cat");
  await page.waitForTimeout(300);
  await page.keyboard.press("Control+C");
  await idle();
  await typeCommand("echo after-cat");
  check(await waitFor("after-cat"), "Ctrl-C stops a command waiting for input");
  // python3 alone is the interactive interpreter
  await typeCommand("python3");
  check(await waitFor(">>> ", 60000), "python3 starts its interactive prompt");
  await typeLine("sum(range(10)) * 7");
  check(await waitFor("\n315\n>>> "), "the REPL answers a line as it is typed");
  await typeLine("while True: pass");
  await page.keyboard.press("Enter");
  await page.waitForTimeout(500);
  await page.keyboard.press("Control+C");
  check(await waitFor("KeyboardInterrupt\n>>> "), "Ctrl-C in python3 is KeyboardInterrupt, back at its prompt");
  await typeLine("print('kept', sum(range(10)))");
  check(await waitFor("\nkept 45\n>>> "), "the interpreter goes on after Ctrl-C");
  await page.keyboard.press("Control+D");
  await idle();
  await typeCommand("echo after-python");
  check(await waitFor("\nafter-python"), "Ctrl-D leaves python3 for the shell");
  await page.screenshot({ path: path.join(shots, "7-stdin.png") });

  // Pyodide's files are kept a moment after the run that fetched them, once
  // the worker is free (web/worker.js: PYODIDE_FILES): a person's next visit
  // comes later than this test's
  const pyKept = () => page.evaluate(async () => (await (await caches.open("wasmsand-assets-v1")).keys())
    .filter((r) => /\/pyodide\/[a-z_.]+\?sha256=[0-9a-f]{64}$/.test(r.url)).length);
  for (let i = 0; i < 300 && (await pyKept()) < 4; i++) await page.waitForTimeout(100);
  await context.setOffline(true);
  await page.reload();
  await ready();
  await typeCommand("echo offline-$((1+1)); wc -l < a.txt");
  check(await waitFor("offline-2"), "with the network off, the page, the core and the guests come from the cache");
  // python was run here before: the page loads Pyodide again once it is quiet (boot.js)
  let preloaded = false;
  for (let i = 0; i < 100 && !preloaded; i++) {
    await page.waitForTimeout(200);
    for (const w of page.workers()) preloaded ||= await w.evaluate(() => !!globalThis.__wasmsandPython && globalThis.__wasmsandPython.loaded()).catch(() => false);
  }
  check(preloaded, "Pyodide is loaded again after a reload, before any python command, where python was used before");
  await typeCommand("python3 -c 'print(6 * 7, \"offline\")'");
  check(await waitFor("\n42 offline"), "and Pyodide, used before, from the loader's cache (web/worker.js: PYODIDE_FILES)");
  await context.setOffline(false);
  await page.screenshot({ path: path.join(shots, "3-after-reload.png") });

  // a link that brings files and a command
  fs.writeFileSync(path.join(root, "test-manifest.json"), JSON.stringify({ files: { "lesson/hello.sh": "echo from-the-manifest $1\n" }, run: "bash lesson/hello.sh ok" }));
  await page.goto(base + "#manifest=test-manifest.json");
  await page.reload();
  await ready();
  check(await waitFor("from-the-manifest ok"), "#manifest=URL writes its files and runs its command");
  await page.goto(base + "#run=" + encodeURIComponent("echo ran-from-$((40+2))"));
  await page.reload();
  await ready();
  check(await waitFor("ran-from-42"), "#run=COMMAND");

  // keyboard only: the tree by arrows and Enter, Escape back to the terminal
  await idle();
  await page.waitForSelector("#tree li.file");
  await page.focus("#tree");
  for (let i = 0; i < 20; i++) { // down to the first file (folders come first)
    await page.keyboard.press("ArrowDown");
    if (await page.evaluate(() => document.activeElement.classList.contains("file"))) break;
  }
  const focused = await page.evaluate(() => document.activeElement && document.activeElement.dataset.path);
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => !document.getElementById("editor-pane").hidden);
  check(!!focused && (await page.textContent("#editor-path")) === focused, "the file tree works from the keyboard");
  await page.keyboard.press("Escape");
  check(await page.evaluate(() => document.getElementById("editor-pane").hidden), "Escape closes the editor");

  // at 200% zoom (half the CSS pixels) nothing needs a horizontal scroll
  await page.setViewportSize({ width: 600, height: 380 });
  await page.waitForTimeout(300);
  const sw = await page.evaluate(() => document.documentElement.scrollWidth);
  check(sw <= 600, `readable at 200% zoom: no horizontal scroll (${sw} px wide)`);
  await page.screenshot({ path: path.join(shots, "6-zoom200.png") });
  await page.setViewportSize({ width: 1200, height: 760 });

  await page.click("#theme");
  await page.screenshot({ path: path.join(shots, "4-dark.png") });
  check(errors.length === 0, "no page errors" + (errors.length ? ": " + errors.join("; ") : ""));
} catch (e) {
  console.log("FAIL", e);
  failed++;
  await page.screenshot({ path: path.join(shots, "failure.png") }).catch(() => {});
} finally {
  await browser.close();
  close();
}
console.log(failed ? `playground: ${failed} failed` : "playground: ok");
process.exit(failed ? 1 : 0);
