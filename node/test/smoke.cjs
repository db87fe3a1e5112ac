// The packed package, installed in an empty directory, from require().
const assert = require("assert");
const { Sandbox, SandboxError } = require("wasmsand");

(async () => {
  const sb = await Sandbox.create();
  const r = await sb.run("seq 3 | sort -r");
  assert.strictEqual(r.stdout, "3\n2\n1\n");
  assert.strictEqual(r.exitCode, 0);
  await assert.rejects(sb.readFile("/nosuch"), (e) => e instanceof SandboxError && e.code === "not_found");
  await sb.destroy();
  console.log("require: ok");
})().catch((e) => { console.error(e); process.exit(1); });
