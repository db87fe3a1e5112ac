// The conformance suite's files and report, shared by the Node runner
// (conformance.mjs) and the Chromium one (web/test/conformance-browser.mjs):
// the same cases, recordings, normalization and known-failures lists as the
// Go runner (conformance/).
import fs from "node:fs";
import path from "node:path";

export function parseCases(group, text) {
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

export const normalize = (s) => s.replace(/^bash: (-c: )?line [0-9]+: /gm, "bash: ");

// loadSuite returns the cases (with want, as latin1 strings for a byte-exact
// comparison) selected by filter, and the known failures: the common list,
// the JS engine's own differences and, for platform "browser", a browser's.
export function loadSuite(suite, filter, platform) {
  const casesDir = path.join(suite, "cases");
  const groups = fs.readdirSync(casesDir).filter((f) => f.endsWith(".txt")).map((f) => f.slice(0, -4)).sort();
  const all = [];
  const text = (b64, s) => (b64 ? Buffer.from(b64, "base64") : Buffer.from(s, "utf8")).toString("latin1");
  for (const g of groups) {
    const exp = JSON.parse(fs.readFileSync(path.join(casesDir, g + ".expected.json"), "utf8"));
    const rec = new Map(exp.cases.map((r) => [r.name, r]));
    for (const c of parseCases(g, fs.readFileSync(path.join(casesDir, g + ".txt"), "utf8"))) {
      const id = `${g}/${c.name}`;
      if (filter && !filter.test(id)) continue;
      const r = rec.get(c.name);
      if (!r) throw new Error(`${id}: no recording`);
      all.push({ ...c, id, want: { status: r.status, stdout: text(r.stdout_base64, r.stdout), stderr: text(r.stderr_base64, r.stderr) } });
    }
  }
  const known = knownFailures(path.join(suite, "known-failures.txt"));
  for (const [id, why] of knownFailures(path.join(suite, "known-failures-js.txt"))) known.set(id, "js: " + why);
  if (platform === "browser") {
    for (const [id, why] of knownFailures(path.join(suite, "known-failures-browser.txt"))) known.set(id, "browser: " + why);
  }
  return { all, known };
}

// report prints the tallies as the Go runner does and returns the exit status:
// 1 when a case fails unlisted or a listed one passes.
export function report(label, all, known, start, reportFile) {
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
  for (const [g, t] of per) console.log(`conformance (${label}): ${g.padEnd(10)} ${String(t.passed).padStart(3)}/${String(t.total).padEnd(3)} passed (${t.known} known failures)`);
  console.log(`conformance (${label}): ${passed}/${all.length} passed (${(100 * passed / Math.max(all.length, 1)).toFixed(1)}%; ${knownN} known failures, ${unexpected.length} unexpected failures, ${stale.length} listed cases now passing) in ${Math.round((Date.now() - start) / 1000)}s`);
  const slow = all.slice().sort((a, b) => b.ms - a.ms).slice(0, 3).map((c) => `${c.id} ${c.ms}ms`);
  console.log(`conformance (${label}): slowest: ${slow.join(", ")}`);
  if (reportFile) {
    fs.writeFileSync(reportFile, report);
    console.log(`conformance (${label}): failures written to ${reportFile}`);
  }
  for (const c of unexpected) console.error(`${c.id} (${c.group}.txt:${c.line}) fails and is not in known-failures.txt:\n${describe(c)}`);
  for (const c of stale) console.error(`${c.id} passes now: remove it from known-failures.txt`);
  return unexpected.length || stale.length ? 1 : 0;
}

// startNetServer starts the network group's server (conformance/netserver,
// built by the Makefile at $WASMSAND_NETSERVER) when the cases include that
// group; it resolves to {policy, stop} (policy: the group's sandbox's), or
// null when no case needs it.
export async function startNetServer(cases) {
  if (!cases.some((c) => c.group === "network")) return null;
  const bin = process.env.WASMSAND_NETSERVER;
  if (!bin) throw new Error("the network group needs its server: set WASMSAND_NETSERVER (make conformance-node builds it)");
  const { spawn } = await import("node:child_process");
  const child = spawn(bin, [], { stdio: ["pipe", "pipe", "inherit"] });
  const line = await new Promise((resolve, reject) => {
    let buf = "";
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`${bin} exited (${code})`)));
    child.stdout.on("data", (d) => {
      buf += d;
      if (buf.includes("\n")) resolve(buf.split("\n")[0]);
    });
  });
  child.removeAllListeners("exit");
  return { policy: JSON.parse(line), stop: () => child.stdin.end() };
}
