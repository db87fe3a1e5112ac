// The packed package, installed in an empty directory, from import, with
// the API a Node service would use.
import assert from "node:assert";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Sandbox } from "wasmsand";

const sb = await Sandbox.create({ env: { GREETING: "hi" }, files: { "data.csv": "b,2\na,1\n" } });
let r = await sb.run("seq 3 | sort -r");
assert.strictEqual(r.stdout, "3\n2\n1\n");
r = await sb.run('echo "$GREETING $HOME"; sort data.csv | cut -d, -f1 | tr "\\n" " "');
assert.strictEqual(r.stdout, "hi /home/user\na b ");
r = await sb.run("cat", { stdin: "from stdin\n" });
assert.strictEqual(r.stdout, "from stdin\n");
const chunks = [];
r = await sb.run("echo one; seq 2; echo err >&2", { onStdout: (s) => chunks.push(s), onStderr: (s) => chunks.push("E:" + s) });
assert.strictEqual(r.stdout, "one\n1\n2\n");
assert.deepStrictEqual(chunks.join("|"), "one\n|1\n2\n|E:err\n");
r = await sb.run("exit 3");
assert.strictEqual(r.exitCode, 3);

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

// persistence across processes (here: across sandboxes) in a host directory
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wasmsand-persist-"));
const p1 = await Sandbox.create({ persist: dir });
await p1.run("echo kept > /home/user/state.txt");
await p1.destroy();
const p2 = await Sandbox.create({ persist: dir });
assert.strictEqual((await p2.run("cat state.txt")).stdout, "kept\n");
await p2.destroy();
fs.rmSync(dir, { recursive: true });

await child.destroy();
await sb.destroy();
console.log("import: ok");
