// Many sandboxes per worker: the pool spreads creates over its workers,
// sandboxes on one worker keep their own files, limits and aborts, and a
// long run holds up only its own worker's sandboxes.
import assert from "node:assert";
import { Sandbox } from "wasmsand";

Sandbox.configure({ workers: 2 });
assert.throws(() => Sandbox.configure({ workers: 0 }), /workers/);

const many = [];
for (let i = 0; i < 40; i++) many.push(await Sandbox.create({ files: { "n.txt": String(i) }, timeoutMs: 5000 }));
let st = Sandbox.stats();
assert.strictEqual(st.workers.length, 2, JSON.stringify(st));
assert.deepStrictEqual(st.workers.map((w) => w.sandboxes).sort(), [20, 20], "creates are spread over the workers");

// each sandbox its own files and shell state, on a shared worker
const outs = await Promise.all(many.map((sb, i) => sb.run(`x=${i}; cat n.txt; echo " $x"`)));
outs.forEach((r, i) => assert.strictEqual(r.stdout, `${i} ${i}\n`));

// a runaway loop is stopped by its own timeout; its worker and neighbours go on
const [a, b] = many;
const loop = await a.run("while :; do :; done", { timeoutMs: 300 });
assert.strictEqual(loop.exitCode, 124);
assert.strictEqual((await b.run("echo alive")).stdout, "alive\n");
assert.strictEqual((await a.run("echo after")).stdout, "after\n");

// an abort stops one run only
const ac = new AbortController();
const aborted = a.run("sleep 5", { signal: ac.signal });
setTimeout(() => ac.abort(), 100);
await assert.rejects(aborted, (e) => e.code === "canceled");
assert.strictEqual((await a.run("echo still")).stdout, "still\n");

// a long run holds up its own worker only: a sandbox of the other worker answers first
const busy = many.find((s) => s._core === a._core && s !== a);
const free = many.find((s) => s._core !== a._core);
const order = [];
const long = a.run("sleep 2").then(() => order.push("long"));
const queued = busy.run("echo same-worker").then(() => order.push("same-worker"));
await free.run("echo other-worker").then(() => order.push("other-worker"));
await Promise.all([long, queued]);
assert.deepStrictEqual(order, ["other-worker", "long", "same-worker"]);

for (const sb of many) await sb.destroy();
st = Sandbox.stats();
assert.strictEqual(st.workers.length, 0, "destroyed sandboxes' workers leave the live set");

// a Node service's load: 200 sandboxes alive, each ran one command
Sandbox.configure({ workers: 2 });
const rss0 = process.memoryUsage().rss;
const t0 = performance.now();
const svc = [];
for (let i = 0; i < 200; i++) {
  const sb = await Sandbox.create();
  await sb.run("echo hi > f");
  svc.push(sb);
}
const ms = performance.now() - t0;
const mb = (process.memoryUsage().rss - rss0) / 2 ** 20;
for (const sb of svc) await sb.destroy();

// progress goes to the sandbox whose call made the worker load something,
// not to the one that started the worker
Sandbox.configure({ workers: 1 });
const seenA = [], seenB = [];
const first = await Sandbox.create({ onProgress: (p) => seenA.push(p.asset) });
const second = await Sandbox.create({ python: "pyodide", onProgress: (p) => seenB.push(p.asset) });
assert.strictEqual(Sandbox.stats().workers.filter((w) => w.sandboxes > 0).length, 1, "one worker");
assert.strictEqual((await second.run("python3 -c 'print(1)'")).stdout, "1\n");
assert.deepStrictEqual([seenA, seenB], [[], ["pyodide", "pyodide"]], "progress");
await first.destroy();
await second.destroy();
console.log(`pool: ok (40 sandboxes on 2 workers: own files, timeouts and aborts; a long run holds up only its worker; progress to the sandbox that caused it; 200 live sandboxes: ${(ms / 200).toFixed(1)} ms each to create and run, RSS +${mb.toFixed(0)} MB in all)`);
