// createSandboxTools in the packed package: the definitions every framework
// takes, and the calls a model makes, with outputs cut for a model.
import assert from "node:assert";
import { Sandbox, createSandboxTools } from "wasmsand";

const sb = await Sandbox.create({});
const { tools, openai, anthropic, execute } = createSandboxTools(sb, { maxOutput: 200 });
assert.deepStrictEqual(Object.keys(tools).sort(), ["bash", "readFile", "writeFile"]);
assert.deepStrictEqual(tools.bash.inputSchema.jsonSchema.required, ["command"]);
assert.strictEqual(openai[0].type, "function");
assert.deepStrictEqual(openai.map((t) => t.function.name), ["bash", "readFile", "writeFile"]);
assert.deepStrictEqual(anthropic.map((t) => Object.keys(t).sort()), [0, 1, 2].map(() => ["description", "input_schema", "name"]));

assert.deepStrictEqual(await tools.writeFile.execute({ path: "d/a.txt", content: "b\na\n" }), { content: "wrote 4 bytes to d/a.txt", exitCode: 0 });
assert.deepStrictEqual(await tools.bash.execute({ command: "sort d/a.txt; echo e >&2; exit 3" }), { stdout: "a\nb\n", stderr: "e\n", exitCode: 3 });
assert.deepStrictEqual(await tools.readFile.execute({ path: "/home/user/d/a.txt" }), { content: "b\na\n", exitCode: 0 });
const long = await execute("bash", '{"command": "seq 1000"}');
assert.match(long.stdout, /^1\n2\n[\s\S]*\[\.\.\. \d+ bytes left out of 3893 \.\.\.\]\n[\s\S]*999\n1000\n$/);
assert.ok(long.stdout.length < 260, long.stdout.length);
const missing = await execute("readFile", { path: "nope" });
assert.strictEqual(missing.exitCode, 1);
assert.match(missing.error, /^ReadFile nope: no such file or directory$/i);
assert.deepStrictEqual(await execute("bash", "{oops"), { exitCode: 2, error: "the arguments are not JSON: " + (() => { try { JSON.parse("{oops"); } catch (e) { return e.message; } })() });
assert.strictEqual((await execute("rm", {})).error, 'no tool "rm" (bash, readFile, writeFile)');
await sb.destroy();
console.log("tools: ok");
