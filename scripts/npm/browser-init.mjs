// Records the core's state once it has started in a browser's Web Worker
// (jsapi/coreinit.js) into PKG/wasmsand.browser.init, through the package's own
// web loader in headless Chromium: a page whose worker found no recorded start
// records one, and web/index.js keeps it in the Cache API once the core proves
// to be this build's; it is read from there. A first visit of a page using the
// package fetches it (web/index.js: keptStart) and puts it back instead of
// running Go's start and the core's init. Run by scripts/npm: node browser-init.mjs PKG.
import fs from "node:fs";
import path from "node:path";
import { serve, launch } from "../../web/test/harness.mjs";

const dir = path.resolve(process.argv[2]);
const out = path.join(dir, "wasmsand.browser.init");
fs.rmSync(out, { force: true });
const page = `<!DOCTYPE html><script type="module">
import { Sandbox } from "/web/index.js";
window.started = Sandbox.create().then((sb) => sb.run("true")).then((r) => r.exitCode, (e) => String(e));
</script>`;
const { base, close } = await serve(dir, page);
const browser = await launch();
try {
  const p = await browser.newPage();
  await p.goto(base);
  const exit = await p.evaluate(() => window.started);
  if (exit !== 0) throw new Error("the core did not start: " + exit);
  // (kept once the page is idle after the core's start: a few seconds)
  let b64 = false;
  for (const end = Date.now() + 60000; !b64 && Date.now() < end; await p.waitForTimeout(200)) {
    b64 = await p.evaluate(async () => {
      const c = await caches.open("wasmsand-assets-v1");
      for (const k of await c.keys()) {
        if (!/\/wasmsand\.wasm\.init\?sha256=[0-9a-f]{64}$/.test(k.url)) continue;
        const b = new Uint8Array(await (await c.match(k)).arrayBuffer());
        let s = "";
        for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode(...b.subarray(i, i + 0x8000));
        return btoa(s);
      }
      return false;
    });
  }
  if (!b64) throw new Error("no recorded start was kept within 60 s");
  const bytes = Buffer.from(b64, "base64");
  fs.writeFileSync(out, bytes);
  console.log(`npm: core state after start-up in Chromium: ${(bytes.length / 1048576).toFixed(2)} MB (${path.relative(process.cwd(), out)})`);
} catch (e) {
  console.error("npm: browser-init: " + (e && e.message || e));
  process.exitCode = 1;
} finally {
  await browser.close();
  close();
}
