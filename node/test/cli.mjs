// The package's CLI (npx wasmsand run / shell), through the bin link npm
// made when it installed the packed package, as someone trying it from npm
// would.
import assert from "node:assert";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";

const bin = path.resolve("node_modules/.bin/wasmsand");
const cli = (args, input = "") => {
  const r = spawnSync(bin, args, { input, encoding: "utf8", timeout: 60000 });
  assert.strictEqual(r.error, undefined, String(r.error));
  return { out: r.stdout, err: r.stderr, status: r.status };
};

let r = cli(["run", "-c", "echo hi; seq 3 | sort -r | head -1; exit 3"]);
assert.deepStrictEqual([r.out, r.status], ["hi\n3\n", 3], r.err);

r = cli(["run", "--env", "X=1", "-c", 'tr a-z A-Z; echo "x=$X"'], "piped\n");
assert.strictEqual(r.out, "PIPED\nx=1\n", "commands read the CLI's stdin");

r = cli(["run", "-"], "echo from stdin; pwd\n");
assert.strictEqual(r.out, "from stdin\n/home/user\n");

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wasmsand-cli-"));
try {
  fs.writeFileSync(path.join(dir, "script.sh"), "echo \"$0 ran\"; cat /data/in.txt\n");
  fs.mkdirSync(path.join(dir, "src"));
  fs.writeFileSync(path.join(dir, "src", "in.txt"), "imported\n");
  r = cli(["run", "--import", path.join(dir, "src") + ":/data", path.join(dir, "script.sh")]);
  assert.strictEqual(r.out, "bash ran\nimported\n", r.err);

  r = cli(["run", "--mount", path.join(dir, "src") + ":/mnt/src:ro", "--cwd", "/mnt/src", "-c", "cat in.txt; echo x > new.txt"]);
  assert.strictEqual(r.out, "imported\n");
  assert.notStrictEqual(r.status, 0, "a read-only mount refuses writes");
  assert.ok(!fs.existsSync(path.join(dir, "src", "new.txt")));

  const state = path.join(dir, "state");
  r = cli(["run", "--save", state, "-c", "echo kept > f"]);
  assert.strictEqual(r.status, 0, r.err);
  r = cli(["run", "--load", state, "-c", "cat f; echo changed > f"]);
  assert.strictEqual(r.out, "kept\n", "--save then --load: the Go CLI's state format");
  r = cli(["run", "--load", state, "-c", "cat f"]);
  assert.strictEqual(r.out, "kept\n", "--load alone leaves the state as it was");
  const other = path.join(dir, "other");
  r = cli(["run", "--load", state, "--save", other, "-c", "echo more >> f"]);
  r = cli(["run", "--load", other, "--save", other, "-c", "cat f"]);
  assert.strictEqual(r.out, "kept\nmore\n", "--load one directory, --save another");
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}

r = cli(["run", "--timeout", "300ms", "-c", "sleep 5; echo no"]);
assert.strictEqual(r.status, 124, "a run past --timeout ends with 124");

r = cli(["shell"], "x=1\nfor i in a b; do\n  echo $i$x\ndone\ncd /tmp\npwd\nexit 4\necho never\n");
assert.deepStrictEqual([r.out, r.status], ["a1\nb1\n/tmp\n", 4], r.err);

r = cli(["run", "--bogus", "-c", "true"]);
assert.strictEqual(r.status, 2);
assert.match(r.err, /flag provided but not defined: -bogus/);
assert.match(r.err, /usage:/);
r = cli(["run", "--timeout", "soon", "-c", "true"]);
assert.strictEqual(r.status, 2);
assert.match(r.err, /invalid duration "soon"/);

console.log("cli: ok (run -c, FILE, -, stdin, --env, --import, --mount :ro, --cwd, --save/--load, --timeout, shell with a block and exit, bad flags)");
