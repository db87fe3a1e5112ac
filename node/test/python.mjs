// python3 as Pyodide (Sandbox.create({python: "pyodide"})) in the packed
// package: one runtime per worker, loaded before the first run that names
// python, sharing the sandbox's files with every other command.
import assert from "node:assert";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { Sandbox } from "wasmsand";

const events = [];
const sb = await Sandbox.create({ python: "pyodide", env: { GREETING: "hi" }, onProgress: (p) => events.push(`${p.asset} ${p.loaded}/${p.total}`) });
const run = async (cmd, opts) => {
  const r = await sb.run(cmd, opts);
  return { code: r.exitCode, out: r.stdout, err: r.stderr };
};
const eq = (got, want, what) => assert.deepStrictEqual(got, want, what + ": " + JSON.stringify(got));

let r = await run("python3 -c 'import sys; print(sys.version_info[:2] >= (3, 14))'");
eq(r, { code: 0, out: "True\n", err: "" }, "first run (loads Pyodide)");
eq(events, ["pyodide 0/1", "pyodide 1/1"], "progress");

// files both ways, at once
r = await run(`printf 'name,n\\nb,2\\na,1\\n' > t.csv
python3 -c '
import csv, json
rows = sorted(csv.DictReader(open("t.csv")), key=lambda r: r["name"])
json.dump(rows, open("out.json", "w"))
'
cat out.json; echo; ls -l out.json | cut -c1-10`);
eq(r, { code: 0, out: '[{"name": "a", "n": "1"}, {"name": "b", "n": "2"}]\n-rw-r--r--\n', err: "" }, "csv → json");
r = await run(`python3 -c '
import os
os.mkdir("d"); open("d/f", "w").write("x")
os.rename("d/f", "d/g"); os.symlink("g", "d/l")
print(sorted(os.listdir("d")), os.readlink("d/l"), open("d/l").read())
os.chmod("d/g", 0o600); os.utime("d/g", (1000000000, 1000000000))
'; stat -c '%a %Y' d/g; rm -r d`);
eq(r, { code: 0, out: "['g', 'l'] g x\n600 1000000000\n", err: "" }, "file operations");

// process: argv, environment, cwd, stdin, exit codes, tracebacks
r = await run("(cd /tmp && echo 'import sys, os; print(sys.argv, os.getcwd(), os.environ[\"GREETING\"])' > a.py && python3 a.py x 'y z')");
eq(r, { code: 0, out: "['a.py', 'x', 'y z'] /tmp hi\n", err: "" }, "script, argv, cwd, env");
r = await run("echo 'print(input().upper())' > /tmp/s.py; echo hello | python3 /tmp/s.py; python3 - < /tmp/s.py <<< ignored; echo from-stdin | python3 -c 'import sys; print(sys.stdin.read().strip())'");
assert.strictEqual(r.out.split("\n")[0], "HELLO", JSON.stringify(r));
assert.ok(r.out.endsWith("from-stdin\n"), JSON.stringify(r));
r = await run("python3 -c 'import sys; print(\"bye\"); sys.exit(3)'; echo $?; python3 -c 'import os; os._exit(4)'; echo $?; python3 -c 'raise SystemExit(\"msg\")'; echo $?");
eq(r, { code: 0, out: "bye\n3\n4\n1\n", err: "msg\n" }, "exit statuses");
r = await run("python3 -c '1/0'");
eq(r, { code: 1, out: "", err: 'Traceback (most recent call last):\n  File "<string>", line 1, in <module>\nZeroDivisionError: division by zero\n' }, "traceback");
r = await run("python3 nosuch.py");
eq(r.code, 2, "missing script");
assert.match(r.err, /can't open file '\/home\/user\/nosuch.py'/);
r = await run("python3 -c 'print(1)' | tr 1 2; python3 -c 'import sys; sys.stderr.write(\"e\\n\")' 2>&1 >/dev/null");
eq(r, { code: 0, out: "2\ne\n", err: "" }, "pipes and redirections");

// child processes run in the sandbox's shell
r = await run(`python3 -c '
import subprocess, os
print(subprocess.run(["sort", "-r"], input="a\\nb\\n", capture_output=True, text=True).stdout, end="")
print(subprocess.call("exit 5", shell=True), os.system("echo sys") >> 8)
print(os.popen("echo popen | tr a-z A-Z").read().strip())
try:
    subprocess.run(["no-such-x"])
except FileNotFoundError as e:
    print("FNF", e.filename)
'`);
eq(r, { code: 0, out: "b\na\nsys\n5 0\nPOPEN\nFNF no-such-x\n", err: "" }, "subprocess, os.system, os.popen");

// a new interpreter each run: nothing of the last one is left
r = await run("python3 -c 'X = 1; import os; os.environ[\"Z\"] = \"1\"; os.chdir(\"/\")'; python3 -c 'import os; print(\"X\" in globals(), os.environ.get(\"Z\"), os.getcwd())'");
eq(r, { code: 0, out: "False None /home/user\n", err: "" }, "reset between runs");
r = await run("echo 'V = 1' > m.py; python3 -c 'import m; print(m.V)'; echo 'V = 2' > m.py; python3 -c 'import m; print(m.V)'");
eq(r.out, "1\n2\n", "user modules are imported afresh");

// limits: a busy loop and a sleep end at the timeout; the runtime lives on
let t = performance.now();
r = await run("python3 -c 'while True: pass'", { timeoutMs: 1000 });
eq(r.code, 124, "busy loop times out");
assert.ok(performance.now() - t < 5000);
t = performance.now();
r = await run("python3 -c 'import time; time.sleep(30)'", { timeoutMs: 500 });
eq(r.code, 124, "sleep times out");
assert.ok(performance.now() - t < 5000);
r = await run("python3 -c 'print(\"alive\")'");
eq(r.out, "alive\n", "after timeouts");
// a memory bomb stops at the sandbox's memory limit; a new runtime serves the next run
r = await run("python3 -c 'a = []\nwhile True: a.append(bytearray(1 << 20))'; echo $?");
eq(r.out, "137\n", "memory bomb: " + r.err);
assert.match(r.err, /^wasmsand: python3: out of memory \(limit 256 MB\)\n$/);
r = await run("python3 -c 'print(\"alive\")'");
eq(r.out, "alive\n", "after the memory bomb");

// isolation: no host environment, files or JS globals
process.env.WASMSAND_SECRET = "leak";
r = await run(`python3 -c '
import os
print("WASMSAND_SECRET" in os.environ, os.path.exists("/node_modules"), os.path.exists(${JSON.stringify(process.cwd())}))
for m in ("js", "pyodide_js"):
    try:
        __import__(m); print(m, "importable")
    except ImportError:
        pass
try:
    import pyodide.ffi
    g = pyodide.ffi.to_js({}).constructor.constructor("return globalThis")()
    print("globalThis reached", g)
except Exception:
    pass
open("/etc/passwd", "a")
'`);
eq(r.out, "False False False\n", "isolation: " + r.err);
assert.match(r.err, /PermissionError/);

// errno: Linux's numbers, not Emscripten's: every name of the errno module,
// its errorcode table, os.strerror, and the errors the file system raises,
// each as Debian's python3.11 gives them on this machine.
const probe = `import errno, json, os
names = {n: getattr(errno, n) for n in dir(errno) if n.startswith("E")}
raised = []
os.mkdir("d"); os.mkdir("full"); open("full/x", "w").close(); open("f", "w").close()
for f in (lambda: open("missing"), lambda: os.mkdir("d"), lambda: open("d", "w"), lambda: os.listdir("f"),
          lambda: os.rmdir("full"), lambda: os.stat("f/x"), lambda: os.rename("d", "full"), lambda: os.readlink("f")):
    try:
        f()
    except OSError as e:
        raised.append([type(e).__name__, e.errno, e.args[0], str(e), errno.errorcode[e.errno]])
strerror = {n: os.strerror(v) for n, v in names.items() }
strerror.update({str(n): os.strerror(n) for n in (0, 41, 58, 134, 999, -1)})
print(json.dumps({"names": names, "codes": errno.errorcode, "raised": raised, "strerror": strerror}, sort_keys=True))
`;
const reference = (() => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pyerrno-"));
  try {
    return JSON.parse(execFileSync("python3.11", ["-c", probe], { cwd: dir, encoding: "utf8" }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
})();
r = await run(`mkdir -p /tmp/errno && cd /tmp/errno && python3 -c '${probe.replace(/'/g, "'\\''")}'`);
eq(r.err, "", "errno probe");
const got = JSON.parse(r.out);
delete reference.names.EHWPOISON; // (3.11 does not name it; 3.14 does, and ours gives Linux's 133)
eq(got.names.EHWPOISON, 133, "EHWPOISON");
eq(got.strerror.EHWPOISON, "Memory page has hardware error", "EHWPOISON's text");
delete got.names.EHWPOISON;
delete got.strerror.EHWPOISON;
delete got.codes["133"];
const differ = (a, b) => Object.keys({ ...a, ...b }).filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
eq(differ(got.names, reference.names), [], `errno names (${Object.keys(reference.names).length}) that differ from Linux's`);
eq(differ(got.codes, reference.codes), [], "errno.errorcode entries that differ from Linux's");
eq(got.raised, reference.raised, "OSErrors the file system raises");
eq(differ(got.strerror, reference.strerror), [], "os.strerror texts that differ from Linux's");

await sb.destroy();

// the sandbox's quota applies to what python writes
const small = await Sandbox.create({ fsLimitMb: 1 });
r = await small.run("python3 -c \"open('big', 'wb').write(b'x' * 3000000)\"");
assert.strictEqual(r.exitCode, 1);
assert.match(r.stderr, /OSError: \[Errno 28\] No space left on device/);
await small.destroy();

// by default python3 is Pyodide; {python: "wasi"} is CPython 3.11's WASI program
for (const [python, want] of [[undefined, "(3, 14)"], ["wasi", "(3, 11)"]]) {
  const s = await Sandbox.create(python ? { python } : {});
  eq((await s.run("python3 -c 'import sys; print(sys.version_info[:2])'")).stdout, want + "\n", "python: " + python);
  await s.destroy();
}

// packages: a wheel this test builds (with the sandbox's own zip), in a
// local index directory, loaded before the run that imports it
const wheels = fs.mkdtempSync(path.join(os.tmpdir(), "wasmsand-wheels-"));
const maker = await Sandbox.create();
r = await maker.run(`mkdir -p w/mypkg w/mypkg-1.0.dist-info && cd w &&
echo 'def hello(): return "hello from mypkg"' > mypkg/__init__.py &&
printf 'Metadata-Version: 2.1\\nName: mypkg\\nVersion: 1.0\\n' > mypkg-1.0.dist-info/METADATA &&
printf 'Wheel-Version: 1.0\\nGenerator: wasmsand-test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n' > mypkg-1.0.dist-info/WHEEL &&
printf 'mypkg/__init__.py,,\\nmypkg-1.0.dist-info/METADATA,,\\nmypkg-1.0.dist-info/WHEEL,,\\nmypkg-1.0.dist-info/RECORD,,\\n' > mypkg-1.0.dist-info/RECORD &&
zip -qr ../mypkg-1.0-py3-none-any.whl .`);
assert.strictEqual(r.exitCode, 0, r.stderr);
fs.writeFileSync(path.join(wheels, "mypkg-1.0-py3-none-any.whl"), await maker.readFile("/home/user/mypkg-1.0-py3-none-any.whl"));
await maker.destroy();
const pkgEvents = [];
const withPkg = await Sandbox.create({ python: "pyodide", pythonIndex: wheels, onProgress: (p) => pkgEvents.push(`${p.asset} ${p.loaded}/${p.total}`) });
r = await withPkg.run("echo 'from mypkg import hello; print(hello())' > use.py; python3 use.py");
assert.deepStrictEqual([r.exitCode, r.stdout, r.stderr], [0, "hello from mypkg\n", ""], "wheel from a local index");
assert.ok(pkgEvents.includes("mypkg-1.0-py3-none-any.whl 1/1"), JSON.stringify(pkgEvents));
// pip install loads from the same index, before the run
r = await withPkg.run("pip install mypkg && pip list | grep -c mypkg; python3 -m pip install 'nosuchpkg>=1'; echo $?");
assert.strictEqual(r.stdout, "Successfully installed mypkg-1.0\n1\n1\n", JSON.stringify(r));
assert.match(r.stderr, /^ERROR: Could not install nosuchpkg: no package nosuchpkg in \/.*wasmsand-wheels-/, r.stderr);
await withPkg.destroy();
fs.rmSync(wheels, { recursive: true, force: true });

// an index that does not serve the package: a clear error naming it
const server = http.createServer((req, res) => { res.writeHead(404); res.end(); });
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const noIndex = await Sandbox.create({ python: "pyodide", pythonIndex: `http://127.0.0.1:${server.address().port}/` });
r = await noIndex.run("python3 -c 'import six'");
assert.strictEqual(r.exitCode, 1);
assert.match(r.stderr, /^python3: package six \(for import six\) could not be loaded from http:\/\/127\.0\.0\.1:\d+\/: /, r.stderr);
assert.match(r.stderr, /ModuleNotFoundError: No module named 'six'/);
await noIndex.destroy();
server.close();
// python3 alone on a terminal (a streamed stdin, terminal: true): the interactive
// interpreter, answering each line as it is typed, as both pythons do
for (const python of ["pyodide", "wasi"]) {
  const repl = await Sandbox.create({ python });
  let type, end;
  const typed = new ReadableStream({ start(c) { type = (t) => c.enqueue(t); end = () => c.close(); } });
  const seen = [];
  const running = repl.run("python3", { stdin: typed, terminal: true, onStdout: (t) => seen.push(t), onStderr: (t) => seen.push(t) });
  const shown = async (text) => {
    for (let i = 0; i < 3000 && !seen.join("").includes(text); i++) await new Promise((ok) => setTimeout(ok, 10));
    return seen.join("");
  };
  assert.match(await shown(">>> "), /^Python 3\.\d+\.\d+.*\nType "help", "copyright", "credits" or "license" for more information\.\n>>> $/s, python);
  type("x = 6*7\nx\n");
  assert.match(await shown("42\n>>> "), />>> >>> 42\n>>> $/, python + ": a result as it is typed");
  type("for i in range(2):\n    print(i)\n\n");
  assert.match(await shown("1\n>>> "), /\.\.\. \.\.\. 0\n1\n>>> $/, python + ": a block, with the continuation prompt");
  if (python === "pyodide") {
    // Ctrl-C: KeyboardInterrupt at the prompt and in a busy loop; the interpreter goes on
    assert.strictEqual(await repl.interrupt(), true, "Ctrl-C is taken by the waiting interpreter");
    assert.match(await shown("KeyboardInterrupt\n>>> "), /KeyboardInterrupt\n>>> $/);
    type("while True: pass\n\n");
    await new Promise((ok) => setTimeout(ok, 300));
    assert.strictEqual(await repl.interrupt(), true, "Ctrl-C is taken by the busy loop");
    assert.match(await shown("in <module>\nKeyboardInterrupt\n>>> "), /Traceback \(most recent call last\):\n {2}File "<stdin>", line 1, in <module>\nKeyboardInterrupt\n>>> $/);
    type("print('still', x)\n");
    assert.match(await shown("still 42\n>>> "), /still 42\n>>> $/);
  }
  end();
  r = await running;
  assert.strictEqual(r.exitCode, 0, python + ": end of input leaves it");
  assert.strictEqual(r.stdout, python === "pyodide" ? "42\n0\n1\nstill 42\n" : "42\n0\n1\n", python);
  await repl.destroy();
}
// a program that does not handle Ctrl-C leaves it untaken: the caller stops the run
{
  const sb2 = await Sandbox.create({ python: "wasi" });
  const ac = new AbortController();
  const running = sb2.run("cat", { stdin: new ReadableStream({ pull() { return new Promise(() => {}); } }), terminal: true, signal: ac.signal });
  await new Promise((ok) => setTimeout(ok, 300));
  assert.strictEqual(await sb2.interrupt(), false);
  ac.abort();
  await assert.rejects(running, (e) => e.code === "canceled");
  assert.strictEqual(await sb2.interrupt(), false, "no run");
  await sb2.destroy();
}
console.log("python (pyodide): ok");
