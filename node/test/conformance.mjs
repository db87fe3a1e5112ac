// The conformance suite (testdata/conformance) run in Node through the
// installed npm package: each case in a fork of a fresh sandbox, from an
// empty /home/user/case, as `bash -c` (see suite.mjs).
//
// usage: node conformance.mjs SUITE_DIR [REPORT_FILE]   (env WASMSAND_CONFORMANCE_RUN=REGEXP,
// WASMSAND_PYTHON=pyodide for python3 as Pyodide)
import os from "node:os";
import { Sandbox } from "wasmsand";
import { loadSuite, report, startNetServer } from "./suite.mjs";

const suite = process.argv[2];
const reportFile = process.argv[3];
const filter = process.env.WASMSAND_CONFORMANCE_RUN ? new RegExp(process.env.WASMSAND_CONFORMANCE_RUN) : null;
const { all, known } = loadSuite(suite, filter);
const latin = (b) => Buffer.from(b).toString("latin1"); // byte-exact comparison
const net = await startNetServer(all); // (the network group's server and policy)

// --- run: one worker per core, each case in a fork of that worker's base ---
const start = Date.now();
const nWorkers = Math.max(1, Math.min(os.cpus().length, 4));
const queue = all.slice();
async function worker() {
  const bases = {};
  const baseFor = async (group) => {
    const key = group === "network" ? "network" : "";
    if (!bases[key]) {
      bases[key] = await Sandbox.create({ timeoutMs: 30000, python: process.env.WASMSAND_PYTHON, policy: key ? net.policy : undefined });
      await bases[key].run("mkdir -p /home/user/case", { script: true, stateless: true });
    }
    return bases[key];
  };
  for (let c; (c = queue.shift()); ) {
    const t0 = Date.now();
    const sb = await (await baseFor(c.group)).fork();
    try {
      const r = await sb.run(c.script, {
        script: true, cwd: "/home/user/case", env: { LC_ALL: "C.UTF-8" }, encoding: "buffer",
      });
      c.got = { status: r.exitCode, stdout: latin(r.stdout), stderr: latin(r.stderr) };
    } catch (e) {
      c.err = String(e && e.message || e);
    } finally {
      await sb.destroy();
    }
    c.ms = Date.now() - t0;
    if (process.env.WASMSAND_CONFORMANCE_VERBOSE) console.log(`${c.id} ${c.ms}ms`);
  }
  for (const b of Object.values(bases)) await b.destroy();
}
await Promise.all(Array.from({ length: nWorkers }, worker));
if (net) net.stop();

process.exit(report("node", all, known, start, reportFile));
