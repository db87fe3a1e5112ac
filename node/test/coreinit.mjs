// The core's state after start-up (jsapi/coreinit.js): recorded from the
// package's core, put back into a new instance, which then runs a command;
// refused when the file or the environment does not fit. And a package's
// workers, which all start from its wasmsand.init, still get their own
// $RANDOM and $SRANDOM. Run by make test-npm: node node/test/coreinit.mjs build/npm.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import { recordInit, restoreInit } from "../../jsapi/coreinit.js";
import { runtimeManifest } from "../../jsapi/manifest.js";

const dir = path.resolve(process.argv[2] || "build/npm");
const require = createRequire(import.meta.url);
// as node/worker.cjs has it (the core reads fs.constants as it starts)
globalThis.fs = { constants: fs.constants };
require(path.join(dir, "wasm_exec.js")); // globalThis.Go
require("../../platform/js/host.js"); // globalThis.wasmsandInstallHost
const bytes = fs.readFileSync(path.join(dir, "wasmsand.wasm"));
const module = await WebAssembly.compile(bytes);
const core = crypto.createHash("sha256").update(bytes).digest("hex");
let failed = 0;
const check = (ok, what) => {
  console.log((ok ? "ok   " : "FAIL ") + what);
  if (!ok) failed++;
};

const newGo = () => {
  const go = new globalThis.Go();
  go.argv = ["wasmsand"];
  go.env = { GODEBUG: "gcshrinkstackoff=1" };
  globalThis.wasmsandInstallHost(go);
  const ready = new Promise((resolve) => { globalThis.__wasmsandCoreReady = resolve; });
  return { go, ready };
};

// record the start and the core's init, as node/worker.cjs makes them
const manifestBytes = () => fs.readFileSync(path.join(dir, "assets", "manifest.json"));
const manifest = () => runtimeManifest(manifestBytes());
const fetchAsset = (name) => new Uint8Array(fs.readFileSync(path.join(dir, "assets", name)));
const sha256 = (b) => crypto.createHash("sha256").update(b).digest("hex");
const initArgs = () => [manifest(), fetchAsset, sha256, new Int32Array(new SharedArrayBuffer(4))];
const a = newGo();
const recorder = recordInit(a.go);
const first = await WebAssembly.instantiate(module, a.go.importObject);
const fresh = new Uint8Array(first.exports.mem.buffer).slice();
a.go.run(first);
await a.ready;
const r0 = recorder.call(() => globalThis.__wasmsandCore.init(...initArgs()));
check(!r0.error, "recorded init: " + JSON.stringify(r0.error || "ok"));
const file = recorder.finish(first, fresh, core)();
check(file.length > 0 && file.length < bytes.length, `recorded ${file.length} bytes`);

// restore, then use the core
const b = newGo();
const second = await WebAssembly.instantiate(module, b.go.importObject);
const results = restoreInit(b.go, second, file, core, [initArgs()]);
check(Array.isArray(results) && results.length === 1 && !results[0].error, "restored, with init's result");
await b.ready;
const api = globalThis.__wasmsandCore;
const id = api.create("{}").value;
const res = api.run(id, "echo hi; seq 3 | sort -r | tr '\\n' ' '", "{}").value;
const out = new TextDecoder().decode(res && res.stdout);
check(out === "hi\n3 2 1 ", `a command on the restored core: ${JSON.stringify(out)}`);

// what does not fit is refused
const refused = (f, c, what) => {
  const g = newGo();
  return WebAssembly.instantiate(module, g.go.importObject).then((inst) => check(!restoreInit(g.go, inst, f, c, [initArgs()]), what));
};
await refused(file, "0".repeat(64), "refused: another core's");
await refused(file.subarray(0, file.length - 1), core, "refused: a cut file");
await refused(new Uint8Array(10), core, "refused: not a state file");
{
  // a header that parses but is not a state's
  const magic = new TextEncoder().encode("wasmsand-init 1\n");
  const head = new TextEncoder().encode(JSON.stringify({ core, size: 65536, pages: 3, log: {} }));
  const f = new Uint8Array(magic.length + 4 + head.length);
  f.set(magic);
  new DataView(f.buffer).setUint32(magic.length, head.length, true);
  f.set(head, magic.length + 4);
  await refused(f, core, "refused: a damaged header");
}
{
  // another core under the recorded one's hash: its memory is not the recorded core's
  const g = newGo();
  const inst = await WebAssembly.instantiate(module, g.go.importObject);
  const mem = new Uint8Array(inst.exports.mem.buffer);
  mem[Math.floor(mem.length / 4096 / 256) * 4096 + 100] ^= 1; // (in a page the check sums)
  check(!restoreInit(g.go, inst, file, core, [initArgs()]), "refused: a new instance whose data is not the recorded core's");
}
{
  // the file lists go to the core as tables, one string per asset; a list
  // a line cannot carry stays a list (the core reads both)
  const m = manifest();
  check(m.assets.every((a) => a.files === undefined) && m.assets.some((a) => typeof a.filesTable === "string" && a.filesTable.includes("\t")),
    "file lists go as tables");
  const odd = JSON.parse(manifestBytes());
  const withFiles = odd.assets.find((a) => a.files && a.files.length);
  withFiles.files[0].path += "\tx";
  const back = runtimeManifest(new TextEncoder().encode(JSON.stringify(odd)));
  check(back.assets.find((a) => a.name === withFiles.name).files.length === withFiles.files.length, "a file list with a tab in a path stays a list");
}
{
  // init given another manifest than the one it read then
  const g = newGo();
  const inst = await WebAssembly.instantiate(module, g.go.importObject);
  const args = initArgs();
  args[0].assets.pop();
  check(!restoreInit(g.go, inst, file, core, [args]), "refused: init given another manifest");
}
// the environment changed: a global the core reads as it starts is not what
// it was (in Node there is no IndexedDB; a browser has one)
check(new TextDecoder("latin1").decode(file).includes('"IDBTransaction"'), "the recording reads globalThis.IDBTransaction");
globalThis.IDBTransaction = function IDBTransaction() {};
await refused(file, core, "refused: globalThis.IDBTransaction is not what it was");
delete globalThis.IDBTransaction;

// the package's own file is this core's, and the package's workers restore it
// (two processes' $RANDOM and $SRANDOM differ: they come from the system's source)
const pkgFile = new Uint8Array(fs.readFileSync(path.join(dir, "wasmsand.init")));
{
  const g = newGo();
  const inst = await WebAssembly.instantiate(module, g.go.importObject);
  check(restoreInit(g.go, inst, pkgFile, core, [initArgs()]), "the package's wasmsand.init fits its core in a worker's environment");
}
const script = `const { Sandbox } = await import(${JSON.stringify(path.join(dir, "index.mjs"))});
const sb = await Sandbox.create(); const r = await sb.run("echo $RANDOM $SRANDOM"); process.stdout.write(r.stdout); await sb.destroy();`;
const r1 = execFileSync(process.execPath, ["--input-type=module", "-e", script]).toString();
const r2 = execFileSync(process.execPath, ["--input-type=module", "-e", script]).toString();
check(/^\d+ \d+\n$/.test(r1) && r1 !== r2, `$RANDOM $SRANDOM of two processes: ${r1.trim()} / ${r2.trim()}`);

if (failed) {
  console.log(`coreinit: ${failed} failed`);
  process.exit(1);
}
console.log("coreinit: all passed");
process.exit(0);
