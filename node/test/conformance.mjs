// The conformance suite (testdata/conformance) run in Node through the
// installed npm package, with the same cases, recordings, normalization and
// known-failures.txt as the Go runner (conformance/): each case in a fork of
// a fresh sandbox, from an empty /home/user/case, as `bash -c`.
//
// usage: node conformance.mjs SUITE_DIR [REPORT_FILE]   (env WASMSAND_CONFORMANCE_RUN=REGEXP)
import fs from "node:fs";
import path from "node:path";
import os from "node:os";
import { Sandbox } from "wasmsand";

const suite = process.argv[2];
const reportFile = process.argv[3];
const filter = process.env.WASMSAND_CONFORMANCE_RUN ? new RegExp(process.env.WASMSAND_CONFORMANCE_RUN) : null;

// --- the suite's files (conformance/suite.go) ---
function parseCases(group, text) {
  const cases = [];
  let cur = null;
  let body = [];
  const flush = () => {
    if (!cur) return;
    while (body.length && body[body.length - 1].trim() === "") body.pop();
    cur.script = body.join("\n") + "\n";
    cases.push(cur);
    cur = null;
    body = [];
  };
  const lines = text.split("\n");
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  lines.forEach((line, i) => {
    if (line.startsWith("===")) {
      const m = /^=== (\S+)\s*$/.exec(line);
      if (!m) throw new Error(`${group}.txt:${i + 1}: bad header`);
      flush();
      cur = { group, name: m[1], line: i + 1 };
      return;
    }
    if (cur) body.push(line);
  });
  flush();
  return cases;
}

function knownFailures(file) {
  const out = new Map();
  if (!fs.existsSync(file)) return out;
  for (let line of fs.readFileSync(file, "utf8").split("\n")) {
    line = line.trim();
    if (!line || line.startsWith("#")) continue;
    const m = /^(\S+)[ \t]+(.*)$/.exec(line);
    if (m) out.set(m[1], m[2].trim());
  }
  return out;
}

const normalize = (s) => s.replace(/^bash: (-c: )?line [0-9]+: /gm, "bash: ");
const latin = (b) => Buffer.from(b).toString("latin1"); // byte-exact comparison

const casesDir = path.join(suite, "cases");
const groups = fs.readdirSync(casesDir).filter((f) => f.endsWith(".txt")).map((f) => f.slice(0, -4)).sort();
const all = [];
for (const g of groups) {
  const exp = JSON.parse(fs.readFileSync(path.join(casesDir, g + ".expected.json"), "utf8"));
  const rec = new Map(exp.cases.map((r) => [r.name, r]));
  for (const c of parseCases(g, fs.readFileSync(path.join(casesDir, g + ".txt"), "utf8"))) {
    const id = `${g}/${c.name}`;
    if (filter && !filter.test(id)) continue;
    const r = rec.get(c.name);
    if (!r) throw new Error(`${id}: no recording`);
    const want = {
      status: r.status,
      stdout: r.stdout_base64 ? Buffer.from(r.stdout_base64, "base64").toString("latin1") : Buffer.from(r.stdout, "utf8").toString("latin1"),
      stderr: r.stderr_base64 ? Buffer.from(r.stderr_base64, "base64").toString("latin1") : Buffer.from(r.stderr, "utf8").toString("latin1"),
    };
    all.push({ ...c, id, want });
  }
}
// the one list of accepted failures, and the differences of the JS engine
// alone, each explained (known-failures-js.txt)
const known = knownFailures(path.join(suite, "known-failures.txt"));
const knownJS = knownFailures(path.join(suite, "known-failures-js.txt"));
for (const [id, why] of knownJS) known.set(id, "js: " + why);

// --- run: one worker per core, each case in a fork of that worker's base ---
const start = Date.now();
const nWorkers = Math.max(1, Math.min(os.cpus().length, 4));
const queue = all.slice();
async function worker() {
  const base = await Sandbox.create({ timeoutMs: 30000 });
  await base.run("mkdir -p /home/user/case", { script: true, stateless: true });
  for (let c; (c = queue.shift()); ) {
    const t0 = Date.now();
    const sb = await base.fork();
    try {
      const r = await sb.run(c.script, {
        script: true, cwd: "/home/user/case", env: { LC_ALL: "C.UTF-8" }, stdin: "", encoding: "buffer",
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
  await base.destroy();
}
await Promise.all(Array.from({ length: nWorkers }, worker));

// --- report, as the Go runner does ---
const per = new Map();
let passed = 0, knownN = 0;
const unexpected = [], stale = [];
let report = "";
const clip = (s) => JSON.stringify(Buffer.from(s, "latin1").toString("utf8").slice(0, 1500));
const describe = (c) => {
  if (c.err) return `  error: ${c.err}\n`;
  let s = "";
  if (c.got.status !== c.want.status) s += `  status: got ${c.got.status}, want ${c.want.status}\n`;
  if (c.got.stdout !== c.want.stdout) s += `  stdout: got  ${clip(c.got.stdout)}\n          want ${clip(c.want.stdout)}\n`;
  const g = normalize(c.got.stderr), w = normalize(c.want.stderr);
  if (g !== w) s += `  stderr: got  ${clip(g)}\n          want ${clip(w)}\n`;
  return s + `  script (${c.group}.txt:${c.line}):\n    ${c.script.trimEnd().split("\n").join("\n    ")}\n`;
};
for (const c of all) {
  const t = per.get(c.group) || { total: 0, passed: 0, known: 0 };
  per.set(c.group, t);
  t.total++;
  const ok = !c.err && c.got.status === c.want.status && c.got.stdout === c.want.stdout &&
    normalize(c.got.stderr) === normalize(c.want.stderr);
  const reason = known.get(c.id);
  if (ok) {
    t.passed++;
    passed++;
    if (reason !== undefined) stale.push(c);
    continue;
  }
  if (reason !== undefined) {
    t.known++;
    knownN++;
    report += `--- ${c.id} (known: ${reason})\n${describe(c)}\n`;
  } else {
    unexpected.push(c);
    report += `--- ${c.id} (UNEXPECTED)\n${describe(c)}\n`;
  }
}
for (const [g, t] of per) console.log(`conformance (node): ${g.padEnd(10)} ${String(t.passed).padStart(3)}/${String(t.total).padEnd(3)} passed (${t.known} known failures)`);
console.log(`conformance (node): ${passed}/${all.length} passed (${(100 * passed / Math.max(all.length, 1)).toFixed(1)}%; ${knownN} known failures, ${unexpected.length} unexpected failures, ${stale.length} listed cases now passing) in ${Math.round((Date.now() - start) / 1000)}s`);
const slow = all.slice().sort((a, b) => b.ms - a.ms).slice(0, 3).map((c) => `${c.id} ${c.ms}ms`);
console.log(`conformance (node): slowest: ${slow.join(", ")}`);
if (reportFile) {
  fs.writeFileSync(reportFile, report);
  console.log(`conformance (node): failures written to ${reportFile}`);
}
for (const c of unexpected) console.error(`${c.id} (${c.group}.txt:${c.line}) fails and is not in known-failures.txt:\n${describe(c)}`);
for (const c of stale) console.error(`${c.id} passes now: remove it from known-failures.txt`);
process.exit(unexpected.length || stale.length ? 1 : 0);
