// The same package through require() (index.d.cts: no default export).
import wasmsand = require("wasmsand");

async function main(): Promise<number> {
  const sb = await wasmsand.Sandbox.create();
  const r = await sb.run("true");
  return r.exitCode;
}
void main;
