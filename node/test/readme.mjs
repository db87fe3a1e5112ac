// README.md's JavaScript samples, kept running: the lines between the
// README markers are the README's ```js blocks, byte for byte
// (examples/readme/readme_test.go checks it); test-npm runs this file
// against the installed package.
import assert from "node:assert";
// README js 1 begin
import { Sandbox } from "wasmsand";                 // or require("wasmsand")
const sb = await Sandbox.create({ timeoutMs: 10000, files: { "data.csv": "b,2\na,1\n" } });
const r = await sb.run("sort data.csv | cut -d, -f1");  // {exitCode, stdout, stderr, executionTimeMs, truncated}
const child = await sb.fork();                      // copy-on-write, same worker thread
await sb.destroy(); await child.destroy();
// README js 1 end
assert.strictEqual(r.stdout, "a\nb\n");
assert.strictEqual(r.exitCode, 0);

{
  const sb = await Sandbox.create();
  let out = "";
  const process = { stdout: { write: (s) => { out += s; } }, stderr: { write: () => {} } };
  // README js 2 begin
  const { readable, writable } = new TransformStream();
  const w = writable.getWriter();
  const repl = sb.run("python3", { stdin: readable, terminal: true, onStderr: (s) => process.stderr.write(s), onStdout: (s) => process.stdout.write(s) });
  await w.write("6*7\n");   // prints 42 as soon as it is written
  await w.close();          // end of input: python3 exits
  await repl;
  // README js 2 end
  assert.match(out, /42/);
  await sb.destroy();
}
console.log("readme: ok (both JavaScript samples ran)");
