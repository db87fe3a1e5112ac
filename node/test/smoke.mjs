// The packed package, installed in an empty directory, from import, with
// the API a Node service would use.
import assert from "node:assert";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { Sandbox } from "wasmsand";

const sb = await Sandbox.create({ env: { GREETING: "hi" }, files: { "data.csv": "b,2\na,1\n" } });
let r = await sb.run("seq 3 | sort -r");
assert.strictEqual(r.stdout, "3\n2\n1\n");
r = await sb.run('echo "$GREETING $HOME"; sort data.csv | cut -d, -f1 | tr "\\n" " "');
assert.strictEqual(r.stdout, "hi /home/user\na b ");
r = await sb.run("cat", { stdin: "from stdin\n" });
assert.strictEqual(r.stdout, "from stdin\n");
// a streamed stdin, read as it comes: a line typed while the program waits, then the end
{
  let typeLine, endInput;
  const typed = new ReadableStream({ start(c) { typeLine = (l) => c.enqueue(l); endInput = () => c.close(); } });
  const seen = [];
  const run = sb.run(`read -r a; echo "got $a"; tr a-z A-Z; isatty() { [ -t 0 ] && echo tty || echo notty; }; isatty`,
    { stdin: typed, terminal: true, onStdout: (s) => seen.push(s) });
  typeLine("first\n");
  for (let i = 0; i < 200 && !seen.join("").includes("got first"); i++) await new Promise((res) => setTimeout(res, 10));
  assert.strictEqual(seen.join(""), "got first\n", "the first line is answered before the rest is typed");
  typeLine("more ");
  typeLine(new TextEncoder().encode("input\n"));
  // tr (a guest) reads it as it comes and writes to a terminal: line by line
  for (let i = 0; i < 300 && !seen.join("").includes("MORE INPUT"); i++) await new Promise((res) => setTimeout(res, 10));
  assert.strictEqual(seen.join(""), "got first\nMORE INPUT\n", "tr answers a line before the input ends");
  endInput();
  r = await run;
  assert.strictEqual(r.stdout, "got first\nMORE INPUT\ntty\n", r.stderr);
  // read on demand: what the run does not ask for stays in the stream (its lock released),
  // what it took and left comes back
  const two = new ReadableStream({ start(c) { c.enqueue("x\ny\n"); c.enqueue("z\n"); c.close(); } });
  r = await sb.run("read -r a; echo got $a", { stdin: two });
  assert.deepStrictEqual([r.stdout, r.unreadStdin], ["got x\n", "y\n"]);
  const rest = two.getReader();
  assert.deepStrictEqual(await rest.read(), { value: "z\n", done: false }, "the chunk never asked for is the caller's");
  rest.releaseLock();
  r = await sb.run("echo no input read", { stdin: two });
  assert.deepStrictEqual([r.stdout, r.unreadStdin], ["no input read\n", ""]);
  // an async iterable; 200 KB (more than the ring holds) read through; no end: the timeout ends it
  async function* big() { for (let i = 0; i < 2000; i++) yield "x".repeat(99) + "\n"; }
  r = await sb.run("wc -c", { stdin: big() });
  assert.strictEqual(r.stdout.trim(), "200000");
  async function* never() { yield "1\n"; await new Promise(() => {}); }
  r = await sb.run("cat", { stdin: never(), timeoutMs: 300 });
  assert.strictEqual(r.exitCode, 124);
  assert.ok(r.timedOut);
  // an abort ends a wait for input, and the sandbox goes on
  const ac = new AbortController();
  const waiting = sb.run("read x; read y", { stdin: never(), signal: ac.signal });
  setTimeout(() => ac.abort(), 100);
  await assert.rejects(waiting, (e) => e.code === "canceled");
  r = await sb.run("echo still here");
  assert.strictEqual(r.stdout, "still here\n");
}
const chunks = [];
r = await sb.run("echo one; seq 2; echo err >&2", { onStdout: (s) => chunks.push(s), onStderr: (s) => chunks.push("E:" + s) });
assert.strictEqual(r.stdout, "one\n1\n2\n");
assert.deepStrictEqual(chunks.join("|"), "one\n|1\n2\n|E:err\n");
// a program writing to the run's own stdout streams (its flushed writes come one by one)
const live = [];
r = await sb.run(`awk 'BEGIN { print "a"; fflush(); system("true"); print "b" }'`, { onStdout: (s) => live.push(s) });
assert.strictEqual(r.stdout, "a\nb\n");
assert.strictEqual(live.join(""), "a\nb\n");
assert.strictEqual(live.at(-1), "b\n", JSON.stringify(live)); // not one chunk at exit
r = await sb.run("exit 3");
assert.strictEqual(r.exitCode, 3);

// events, as they happen
const events = [];
const watched = await Sandbox.create({ onEvent: (e) => events.push(e.kind + (e.argv ? " " + e.argv.join(" ") : "") + (e.status !== undefined ? " " + e.status : "")) });
await watched.run("seq 2 | wc -l; exit 5");
assert.strictEqual(events[0], "run_start", JSON.stringify(events));
assert.strictEqual(events.at(-1), "run_end 5", JSON.stringify(events));
for (const e of ["process_start seq 2", "process_start wc -l", "process_exit 0"]) assert.ok(events.includes(e), JSON.stringify(events));
await watched.destroy();

// the host stays out: its environment, files and processes
process.env.WASMSAND_SECRET = "leak";
r = await sb.run("env; ls /; cat /etc/hostname 2>&1; ls " + JSON.stringify(process.cwd()) + " 2>&1");
assert.ok(!r.stdout.includes("leak") && !r.stdout.includes("WASMSAND_SECRET"), r.stdout);
assert.ok(!r.stdout.includes("node_modules"), r.stdout);

// files, snapshots, forks
await sb.writeFile("/home/user/n", "1\n");
const snap = await sb.snapshot();
await sb.run("echo 2 > n");
const child = await sb.fork();
await sb.restore(snap);
assert.strictEqual(await sb.readFile("n", "utf8"), "1\n");
assert.strictEqual(await child.readFile("/home/user/n", "utf8"), "2\n");
assert.deepStrictEqual((await sb.listDir("/home/user")).map((e) => e.name).sort(), ["data.csv", "n"]);

// limits: an infinite loop ends at its timeout, and the sandbox goes on
r = await sb.run("while :; do :; done", { timeoutMs: 200 });
assert.strictEqual(r.exitCode, 124);
assert.ok(r.timedOut);
r = await sb.run("yes > /dev/null", { timeoutMs: 200 });
assert.strictEqual(r.exitCode, 124);
assert.strictEqual((await sb.run("echo alive")).stdout, "alive\n");

// an AbortSignal stops a shell loop and a guest program; the sandbox goes on
for (const cmd of ["while :; do :; done", "yes > /dev/null", "sleep 30"]) {
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 150);
  const t0 = Date.now();
  await assert.rejects(sb.run(cmd, { signal: ac.signal, timeoutMs: 20000 }), (e) => e.code === "canceled", cmd);
  assert.ok(Date.now() - t0 < 5000, `${cmd}: abort took ${Date.now() - t0} ms`);
}
await assert.rejects(sb.run("echo never", { signal: AbortSignal.abort() }), (e) => e.code === "canceled");
r = await sb.run("echo alive", { signal: new AbortController().signal });
assert.strictEqual(r.stdout, "alive\n");

// options of the wrong type are refused, naming the option (the core reads them field by field)
const refused = (what) => (e) => e.code === "invalid_argument" && e.message.includes(what);
await assert.rejects(Sandbox.create({ timeoutMs: "soon" }), refused("timeoutMs"));
await assert.rejects(Sandbox.create({ env: { A: 1 } }), refused("env: A"));
await assert.rejects(Sandbox.create({ allowNet: "http://x/" }), refused("allowNet"));
await assert.rejects(sb.run("true", { timeoutMs: 1.5 }), refused("timeoutMs"));
await assert.rejects(sb.run("true", { cwd: 7 }), refused("cwd"));
r = await sb.run('echo "$X $(pwd)"', { env: { X: "x" }, cwd: "/tmp", timeoutMs: 5000 });
assert.strictEqual(r.stdout, "x /tmp\n");

// a pipeline stage hands on at most pipeBufferMb: a reader that wanted more is told
const piped = await Sandbox.create({ pipeBufferMb: 1 });
r = await piped.run("head -c 2000000 /dev/zero | wc -c");
assert.strictEqual(r.stdout, "1048576\n");
assert.match(r.stderr, /input was cut at 1 MiB/);
r = await piped.run("yes | head -1");
assert.deepStrictEqual([r.stdout, r.stderr], ["y\n", ""]); // head stopped reading: nothing lost
await piped.destroy();

// a memory bomb ends with the guest's own out-of-memory error
const tight = await Sandbox.create({ memoryLimitMb: 32 });
r = await tight.run(`awk 'BEGIN { s = "x"; while (1) s = s s }'`);
assert.notStrictEqual(r.exitCode, 0);
assert.match(r.stderr, /memory/i);
assert.strictEqual((await tight.run("echo alive")).stdout, "alive\n");
await tight.destroy();

// an output flood, a full VFS and a fork bomb end with clear errors, and the host goes on
const small = await Sandbox.create({ fsLimitMb: 8, timeoutMs: 10000, maxProcesses: 16 });
r = await small.run("yes");
assert.strictEqual(r.exitCode, 141);
assert.ok(r.truncated);
r = await small.run("head -c 20000000 /dev/zero > big; echo st=$?");
assert.strictEqual(r.stdout, "st=1\n");
assert.match(r.stderr, /No space left on device/);
r = await small.run(":(){ :|:& };:; sleep 1; echo survived", { timeoutMs: 5000 });
assert.strictEqual(r.stdout, "survived\n");
assert.strictEqual((await small.run("echo alive")).stdout, "alive\n");
await small.destroy();

// persistence across processes in a host directory: one Node process
// writes, another reads
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wasmsand-persist-"));
const script = (cmd) => `import { Sandbox } from "wasmsand";
const sb = await Sandbox.create({ persist: ${JSON.stringify(dir)} });
process.stdout.write((await sb.run(${JSON.stringify(cmd)})).stdout);
await sb.destroy();`;
execFileSync(process.execPath, ["--input-type=module", "-e", script("echo kept > /home/user/state.txt")], { cwd: process.cwd() });
const again = execFileSync(process.execPath, ["--input-type=module", "-e", script("cat state.txt")], { cwd: process.cwd() });
assert.strictEqual(again.toString(), "kept\n");
fs.rmSync(dir, { recursive: true });

// a destroyed sandbox's worker may serve the next create: nothing of it remains
const a = await Sandbox.create();
await a.run("x=leak; echo data > /home/user/old.txt; cd /tmp");
await a.destroy();
const b = await Sandbox.create();
r = await b.run('echo "[$x]"; pwd; ls /home/user');
assert.strictEqual(r.stdout, "[]\n/home/user\n");
await b.destroy();

// host directories through mount: confined, read-only or read-write
const host = fs.mkdtempSync(path.join(os.tmpdir(), "wasmsand-mount-"));
fs.mkdirSync(path.join(host, "root"));
fs.writeFileSync(path.join(host, "secret"), "TOP SECRET\n");
fs.writeFileSync(path.join(host, "root", "in.txt"), "inside\n");
fs.symlinkSync("../secret", path.join(host, "root", "escape"));
fs.symlinkSync("/etc/passwd", path.join(host, "root", "abs"));
const m = await Sandbox.create();
await m.mount(path.join(host, "root"), "/mnt/ro", { readOnly: true });
await m.mount(path.join(host, "root"), "/mnt/rw");
r = await m.run("cat /mnt/ro/in.txt; ls /mnt/ro | tr '\\n' ' '; echo x > /mnt/ro/new; echo st=$?");
assert.strictEqual(r.stdout, "inside\nabs escape in.txt st=1\n");
assert.match(r.stderr, /Read-only file system/);
r = await m.run("cat /mnt/rw/escape /mnt/rw/abs /mnt/rw/../secret 2>&1; echo made > /mnt/rw/new.txt; seq 3 | sort -r > /mnt/rw/sorted");
assert.ok(!r.stdout.includes("SECRET") && !r.stdout.includes("root:"), r.stdout);
assert.strictEqual(fs.readFileSync(path.join(host, "root", "new.txt"), "utf8"), "made\n");
assert.strictEqual(fs.readFileSync(path.join(host, "root", "sorted"), "utf8"), "3\n2\n1\n");
fs.writeFileSync(path.join(host, "root", "from-host"), "hello\n");
assert.strictEqual(await m.readFile("/mnt/rw/from-host", "utf8"), "hello\n");
await assert.rejects(m.mount(path.join(host, "nosuch"), "/mnt/x"), (e) => e.code === "host_path");
// what a guest writes there never raises anyone's rights on the host (SECURITY.md, "Host mounts")
r = await m.run("cp /bin/cat /mnt/rw/prog; chmod 6755 /mnt/rw/prog; chmod +t /mnt/rw/prog; ln -s /etc/shadow /mnt/rw/shadow; ln -s ../../x /mnt/rw/up; chown 0:0 /mnt/rw/prog; echo done");
assert.strictEqual(r.stdout, "done\n");
assert.match(r.stderr, /shadow.*Operation not permitted/);
assert.match(r.stderr, /up.*Operation not permitted/);
assert.match(r.stderr, /chown.*Operation not permitted/);
assert.strictEqual(fs.statSync(path.join(host, "root", "prog")).mode & 0o7000, 0, "no setuid, setgid or sticky on the host");
const lexists = (p) => { try { fs.lstatSync(p); return true; } catch { return false; } };
assert.ok(!lexists(path.join(host, "root", "shadow")) && !lexists(path.join(host, "root", "up")), "no symlink leaves the mount");
await m.destroy();
fs.rmSync(host, { recursive: true });

await child.destroy();
await sb.destroy();
console.log("import: ok");
