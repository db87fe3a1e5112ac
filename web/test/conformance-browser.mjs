// The conformance suite in headless Chromium through the package's browser
// entry (web/index.js), with the Node runner's cases, comparison and known
// failures (node/test/suite.mjs): the page runs each case in a fork of a
// fresh sandbox; this script compares and reports.
//
// usage: node conformance-browser.mjs PKG_DIR SUITE_DIR [REPORT_FILE]   (env WASMSAND_CONFORMANCE_RUN)
import { serve, launch } from "./harness.mjs";
import { loadSuite, report, startNetServer } from "../../node/test/suite.mjs";

const root = process.argv[2] || "build/npm";
const suite = process.argv[3];
const reportFile = process.argv[4];
const filter = process.env.WASMSAND_CONFORMANCE_RUN ? new RegExp(process.env.WASMSAND_CONFORMANCE_RUN) : null;
const { all, known } = loadSuite(suite, filter, "browser");

const page = `<!doctype html><meta charset="utf-8"><script type="module">
import { Sandbox } from "/web/index.js";
const latin = (b) => { let s = ""; for (let i = 0; i < b.length; i += 8192) s += String.fromCharCode(...b.subarray(i, i + 8192)); return s; };
// runCases runs cases [{id, script}] with nWorkers sandboxes (one Web Worker each)
window.runCases = async (cases, nWorkers, netPolicy) => {
  const queue = cases.slice();
  const out = {};
  async function worker() {
    const bases = {};
    const baseFor = async (group) => {
      const key = group === "network" ? "network" : "";
      if (!bases[key]) {
        bases[key] = await Sandbox.create({ timeoutMs: 30000, policy: key ? netPolicy : undefined });
        await bases[key].run("mkdir -p /home/user/case", { script: true, stateless: true });
      }
      return bases[key];
    };
    for (let c; (c = queue.shift()); ) {
      const t0 = performance.now();
      const sb = await (await baseFor(c.group)).fork();
      try {
        const r = await sb.run(c.script, { script: true, cwd: "/home/user/case", env: { LC_ALL: "C.UTF-8" }, encoding: "buffer" });
        out[c.id] = { got: { status: r.exitCode, stdout: latin(r.stdout), stderr: latin(r.stderr) } };
      } catch (e) {
        out[c.id] = { err: String(e && e.message || e) };
      } finally {
        await sb.destroy();
      }
      out[c.id].ms = Math.round(performance.now() - t0);
    }
    for (const b of Object.values(bases)) await b.destroy();
  }
  await Promise.all(Array.from({ length: nWorkers }, worker));
  return out;
};
window.ready = true;
</script>`;

const net = await startNetServer(all); // (the network group's server and policy)
const server = await serve(root, page);
const browser = await launch();
let status = 1;
try {
  const p = await browser.newPage();
  p.on("pageerror", (e) => console.error("page:", e.message));
  // (cross-origin isolated, as a page that wants python3 run by make or by python needs: its
  // helper thread needs SharedArrayBuffer)
  await p.goto(server.base + "?coi");
  await p.waitForFunction(() => window.ready === true);
  const start = Date.now();
  const out = await p.evaluate(([cases, policy]) => window.runCases(cases, 2, policy),
    [all.map((c) => ({ id: c.id, group: c.group, script: c.script })), net && net.policy]);
  for (const c of all) Object.assign(c, out[c.id]);
  status = report("chromium", all, known, start, reportFile);
} finally {
  await browser.close();
  server.close();
  if (net) net.stop();
}
process.exit(status);
