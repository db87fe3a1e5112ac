// Runs benchmark cases in wasmsand's npm package in Node (build/npm, from
// make npm), the same way justbash.mjs runs them in just-bash. Input (stdin,
// JSON): {"pkg": "<path of build/npm>", "files": {"/home/user/x": "<host path>"},
// "cases": [{"name", "script", "runs"}]}. Output (stdout, JSON):
// {"<name>": {"ms", "stdout", "exitCode"}, "cold start": {"ms"}}: cold start is, in a
// new Node process, from the package's import to the first output of a sandbox it
// creates (Node's own start, ~100 ms here, is not counted).
import { readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import path from "node:path";

const input = JSON.parse(readFileSync(0, "utf8"));
const { Sandbox } = await import(path.join(input.pkg, "index.mjs"));
const files = {};
for (const [vpath, host] of Object.entries(input.files)) files[vpath] = readFileSync(host);
const sb = await Sandbox.create({ files, fsLimitMb: 1024, outputLimit: 64 << 20, timeoutMs: 120000 });
const out = {};
// timeCases runs each case once, warms it, then times it: out[prefix + name].
// Warm: V8 tiers hot guest code up to TurboFan over the first runs of a
// module; a long-lived service sees the tiered code (native wazero compiles
// ahead of time), so it is timed once warm (≤ 1 s or 30 runs).
async function timeCases(sb, cases, prefix) {
  for (const c of cases) {
    const first = await sb.run(c.script);
    for (let i = 0, until = performance.now() + 1000; i < 30 && performance.now() < until; i++) await sb.run(c.script);
    const start = performance.now();
    for (let i = 0; i < c.runs; i++) await sb.run(c.script);
    out[prefix + c.name] = { ms: (performance.now() - start) / c.runs, stdout: first.stdout, exitCode: first.exitCode };
  }
}
await timeCases(sb, input.cases, "");
await sb.destroy();

// python3 as Pyodide: the same timing, in a sandbox of its own
if (input.pyCases && input.pyCases.length) {
  const py = await Sandbox.create({ python: "pyodide", timeoutMs: 120000 });
  await timeCases(py, input.pyCases, "pyodide: ");
  await py.destroy();
  // its first run in a new process (Pyodide loaded from the package's snapshot): median of 3
  const firstRuns = [];
  for (let i = 0; i < 3; i++) {
    const script = `const { Sandbox } = await import(${JSON.stringify(path.join(input.pkg, "index.mjs"))});
const sb = await Sandbox.create({ python: "pyodide" }); const t0 = performance.now();
const r = await sb.run("python3 -c 'print(1)'"); if (r.stdout !== "1\\n") process.exit(1);
process.stdout.write(String(performance.now() - t0)); await sb.destroy();`;
    firstRuns.push(Number(execFileSync(process.execPath, ["--input-type=module", "-e", script]).toString()));
  }
  firstRuns.sort((a, b) => a - b);
  out["pyodide first run"] = { ms: firstRuns[1] };
}

// cold start: median of 3 new processes (node with flags), import → create → first output
// (with its parts: the package's import, create (the worker thread, the core
// compiled and started, the sandbox made), the first run)
const coldStart = (flags) => {
  const script = `const t0 = performance.now(); const { Sandbox } = await import(${JSON.stringify(path.join(input.pkg, "index.mjs"))});
const t1 = performance.now(); const sb = await Sandbox.create(); const t2 = performance.now();
const r = await sb.run("echo hi"); if (r.stdout !== "hi\\n") process.exit(1); const t3 = performance.now();
process.stdout.write(JSON.stringify({ ms: t3 - t0, parts: { import: t1 - t0, create: t2 - t1, "first run": t3 - t2 } })); await sb.destroy();`;
  const runs = [];
  // (median of 5: one start varies by ±20% here)
  for (let i = 0; i < 5; i++) runs.push(JSON.parse(execFileSync(process.execPath, [...flags, "--input-type=module", "-e", script]).toString()));
  return runs.sort((a, b) => a.ms - b.ms)[2];
};
out["cold start"] = coldStart([]);
// the same with V8's background threads cut to one: how much of the start
// goes to V8 optimising the core on the other threads (RATIONALE: start time)
out["cold start, one V8 thread"] = coldStart(["--v8-pool-size=1"]);
process.stdout.write(JSON.stringify(out));
