// python3 that no command line names, in a worker whose Pyodide is not
// loaded (a make recipe, a script on PATH, sh -c "$CMD", find -exec), and
// python run by python: a helper thread's Pyodide runs it
// (jsapi/pyremote.js), with the sandbox's files, output, exit status and
// children as the worker's own would give them.
import assert from "node:assert";
import { Sandbox } from "wasmsand";

const files = {
  "Makefile": 'all:\n\tpython3 -c "print(6*7)"\n\t@python3 t.py > out.txt\n',
  "t.py": 'import sys, json\nprint(json.dumps({"argv": sys.argv, "exe": sys.executable}))\n',
  "bin/tool": '#!/usr/bin/env python3\nimport sys\nprint("tool", sys.argv[1:])\nsys.exit(4)\n',
  "env.sh": 'CMD="python3 -c \'import os; print(os.getcwd())\'"\n',
  "nest.py": "import subprocess, sys\nprint(subprocess.run([sys.executable, '-c', 'import sys; print(sys.argv[1:])', 'x'], capture_output=True, text=True).stdout.strip())\nprint(open('after.txt', 'w').write('after'))\n",
  "deep.py": "import subprocess, sys\nd = int(sys.argv[1])\nif d < 4:\n    r = subprocess.run([sys.executable, 'deep.py', str(d + 1)], capture_output=True, text=True)\n    sys.stdout.write(r.stdout + r.stderr)\n    print(d, 'child status', r.returncode)\nelse:\n    print(d, 'bottom')\n",
};
const run = async (sb, cmd, opts) => {
  const r = await sb.run(cmd, opts);
  return [r.exitCode, r.stdout, r.stderr];
};
// each route in a worker of its own, where nothing has loaded Pyodide yet
Sandbox.configure({ workers: 8 });
const fresh = () => Sandbox.create({ files, python: "pyodide" });
const held = [];
const check = async (cmd, want, what) => {
  const sb = await fresh();
  held.push(sb); // (alive, so that the next create takes a new worker)
  assert.deepStrictEqual(await run(sb, cmd), want, what);
  return sb;
};

let sb = await check("make -s && cat out.txt", [0, '42\n{"argv": ["t.py"], "exe": "/usr/bin/python3"}\n', ""], "a make recipe");
assert.deepStrictEqual(await run(sb, "make -s >/dev/null; echo $?"), [0, "0\n", ""], "make again (the worker's own Pyodide, or the helper)");
await check("chmod +x bin/tool; PATH=$PWD/bin:$PATH tool a 'b c'; echo status $?", [0, "tool ['a', 'b c']\nstatus 4\n", ""], "a python script on PATH");
await check('. ./env.sh; sh -c "$CMD"', [0, "/home/user\n", ""], 'sh -c "$CMD"');
await check("find . -name t.py -exec python3 {} \\;", [0, '{"argv": ["./t.py"], "exe": "/usr/bin/python3"}\n', ""], "find -exec");
sb = await check("python3 nest.py; cat after.txt", [0, "['x']\n5\nafter", ""], "python running python");
// python in python in python (the worker's, then two helpers), and one more is refused
assert.deepStrictEqual(await run(sb, "python3 deep.py 1"), [0, "python3: too deeply nested (a python program running python running python)\n3 child status 126\n2 child status 0\n1 child status 0\n", ""], "depth");
// a run's time limit holds while a helper loads Pyodide
const slow = await fresh();
held.push(slow);
const t0 = Date.now();
const r = await slow.run("make -s", { timeoutMs: 100 });
assert.ok(r.exitCode !== 0 && Date.now() - t0 < 5000, JSON.stringify(r));
assert.deepStrictEqual(await run(slow, "make -s"), [0, "42\n", ""], "after a run that timed out while the helper loaded");
for (const s of held) await s.destroy();
console.log("python helper (pyodide): ok (make, a script on PATH, sh -c, find -exec, python in python to the depth allowed, a time limit while it loads)");
