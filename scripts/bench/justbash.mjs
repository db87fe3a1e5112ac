// Runs the pipeline benchmarks in just-bash (npm), the simulated-bash
// sandbox wasmsand is compared with. Input (stdin, JSON):
//   {"files": {"/home/user/log.txt": "<path on the host>"}, "cases": [{"name", "script", "runs"}]}
// Output (stdout, JSON): {"<name>": {"ms": mean milliseconds per run, "stdout": first run's output}}
import { readFileSync } from "node:fs";
import { Bash } from "just-bash";

const input = JSON.parse(readFileSync(0, "utf8"));
const files = {};
for (const [vpath, host] of Object.entries(input.files)) files[vpath] = readFileSync(host, "utf8");
const bash = new Bash({ files, cwd: "/home/user" });
const out = {};
for (const c of input.cases) {
  const first = await bash.exec(c.script);
  const start = performance.now();
  for (let i = 0; i < c.runs; i++) await bash.exec(c.script);
  out[c.name] = { ms: (performance.now() - start) / c.runs, stdout: first.stdout, exitCode: first.exitCode };
}
process.stdout.write(JSON.stringify(out));
