#!/usr/bin/env node
// npx wasmsand: the Go CLI's `run` and `shell` over the npm package, with its
// flags where they apply in Node (the servers, the tool runtime and run-wasm
// are the Go CLI's). Exit status: the script's; 2 for bad flags, as bash.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { Sandbox, SandboxError } from "./index.mjs";

const USAGE = `usage:
  wasmsand run [options] (-c SCRIPT | FILE | -)
  wasmsand shell [options]
options (as the Go CLI's):
  -c SCRIPT                 run SCRIPT (else FILE, a host file, or - for stdin)
  --allow-net PREFIX        a URL prefix curl, wget and python3 may reach (repeatable)
  --policy FILE             a policy document (YAML or JSON)
  --profile NAME            restrictive, standard or permissive
  --env NAME=VALUE          a variable in the sandbox (repeatable)
  --cwd DIR                 the working directory in the sandbox
  --timeout DURATION        of each run (default 30s; e.g. 500ms, 2m)
  --memory MB               per program (default 256)
  --import HOST:GUEST       copy a host file or directory in (repeatable)
  --mount HOST:GUEST[:ro]   a host directory at GUEST, confined to it (repeatable)
  --load DIR, --save DIR    the files from, and to, DIR/vfs.state (the Go CLI's format)
  --assets DIR              where the guest programs are (default: the package's)
  --secret NAME             a policy secret's value, from the environment variable NAME
  --secret-file NAME=PATH   a policy secret's value, from a file
`;

class UsageError extends Error {}

// parseDuration reads Go's durations ("30s", "1m30s", "250ms", "1.5h").
function parseDuration(s) {
  const units = { ns: 1e-6, us: 1e-3, "µs": 1e-3, ms: 1, s: 1e3, m: 60e3, h: 3600e3 };
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/gy;
  let ms = 0, at = 0, m;
  if (s === "0") return 0;
  while ((m = re.exec(s)) !== null) {
    ms += parseFloat(m[1]) * units[m[2]];
    at = re.lastIndex;
  }
  if (at === 0 || at !== s.length) throw new UsageError(`invalid duration "${s}"`);
  return ms;
}

// parseArgs reads the Go CLI's flags (-flag, --flag, -flag=value, --flag value).
function parseArgs(argv) {
  const o = { allowNet: [], env: {}, imports: [], mounts: [], secrets: {}, rest: [] };
  const takes = new Set(["c", "allow-net", "policy", "profile", "env", "cwd", "timeout", "memory", "import", "mount",
    "load", "save", "secret", "secret-file", "assets"]);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") { o.rest.push(...argv.slice(i + 1)); break; }
    if (a === "-" || !a.startsWith("-")) { o.rest.push(...argv.slice(i)); break; }
    let [name, value] = a.replace(/^--?/, "").split(/=(.*)/s);
    if (name === "h" || name === "help") throw new UsageError("");
    if (!takes.has(name)) throw new UsageError(`flag provided but not defined: -${name}`);
    if (value === undefined) {
      if (i + 1 >= argv.length) throw new UsageError(`flag needs an argument: -${name}`);
      value = argv[++i];
    }
    switch (name) {
      case "c": o.command = value; break;
      case "allow-net": o.allowNet.push(value); break;
      case "env": {
        const eq = value.indexOf("=");
        if (eq <= 0) throw new UsageError(`--env ${value}: NAME=VALUE expected`);
        o.env[value.slice(0, eq)] = value.slice(eq + 1);
        break;
      }
      case "timeout": o.timeoutMs = parseDuration(value); break;
      case "memory":
        o.memoryMb = Number(value);
        if (!Number.isInteger(o.memoryMb) || o.memoryMb <= 0) throw new UsageError("--memory must be a positive number of MB");
        break;
      case "import": o.imports.push(value); break;
      case "mount": o.mounts.push(value); break;
      case "secret": {
        const [n, v] = value.split(/=(.*)/s);
        if (v !== undefined) {
          process.stderr.write(`wasmsand: warning: --secret ${n}=VALUE puts the value where other users of this machine see it (ps, /proc); use --secret ${n} (from the environment) or --secret-file ${n}=PATH\n`);
          o.secrets[n] = v;
        } else if (process.env[n] === undefined) {
          throw new UsageError(`--secret ${n}: no environment variable ${n}`);
        } else {
          o.secrets[n] = process.env[n];
        }
        break;
      }
      case "secret-file": {
        const [n, p] = value.split(/=(.*)/s);
        if (!p) throw new UsageError(`--secret-file ${value}: NAME=PATH expected`);
        o.secrets[n] = fs.readFileSync(p, "utf8").replace(/\r?\n$/, "");
        break;
      }
      default: o[name.replace(/-(.)/g, (_, c) => c.toUpperCase())] = value;
    }
  }
  if (o.timeoutMs !== undefined && o.timeoutMs <= 0) throw new UsageError("--timeout must be positive");
  return o;
}

// hostGuest splits HOST:GUEST[:ro].
function hostGuest(spec, flag) {
  const parts = spec.split(":");
  const ro = parts.length > 2 && parts[parts.length - 1] === "ro";
  if (ro) parts.pop();
  if (parts.length !== 2 || !parts[0] || !parts[1]) throw new UsageError(`--${flag} ${spec}: HOST:GUEST expected`);
  return { host: parts[0], guest: parts[1], ro };
}

// importHost copies a host file or directory tree into the sandbox.
async function importHost(sb, host, guest) {
  const st = fs.statSync(host);
  if (st.isDirectory()) {
    await sb.mkdir(guest);
    for (const e of fs.readdirSync(host, { withFileTypes: true })) {
      if (e.isDirectory() || e.isFile()) await importHost(sb, path.join(host, e.name), path.posix.join(guest, e.name));
    }
  } else if (st.isFile()) {
    await sb.writeFile(guest, fs.readFileSync(host), { mode: st.mode & 0o777 });
  }
}

// persistDir is where the sandbox persists: --load's directory when --save
// names it too, else a copy of its state (--load alone leaves it as it
// was), else none.
function persistDir(o) {
  if (!o.load) return undefined;
  if (o.save && path.resolve(o.load) === path.resolve(o.save)) return o.load;
  o.scratch = fs.mkdtempSync(path.join(os.tmpdir(), "wasmsand-load-"));
  const state = path.join(o.load, "vfs.state");
  if (fs.existsSync(state)) fs.copyFileSync(state, path.join(o.scratch, "vfs.state"));
  return o.scratch;
}

async function open(o) {
  const create = {
    allowNet: o.allowNet.length ? o.allowNet : undefined,
    env: o.env, timeoutMs: o.timeoutMs, memoryLimitMb: o.memoryMb, profile: o.profile,
    secrets: Object.keys(o.secrets).length ? o.secrets : undefined,
    persist: persistDir(o),
  };
  if (o.policy) create.policy = fs.readFileSync(o.policy, "utf8");
  if (o.assets) create.assetsDir = o.assets;
  const sb = await Sandbox.create(create);
  for (const spec of o.imports) {
    const { host, guest } = hostGuest(spec, "import");
    await importHost(sb, host, guest);
  }
  for (const spec of o.mounts) {
    const { host, guest, ro } = hostGuest(spec, "mount");
    await sb.mount(host, guest, { readOnly: ro });
  }
  if (o.cwd) {
    const r = await sb.run("cd -- '" + o.cwd.replace(/'/g, "'\\''") + "'");
    if (r.exitCode !== 0) throw new Error("--cwd " + o.cwd + ": " + r.stderr.trim());
  }
  return sb;
}

// save writes the files where --save says (when it is not --load's
// directory, which persist keeps already).
async function save(sb, o) {
  if (!o.save || (o.load && !o.scratch)) return;
  const state = await sb.save();
  fs.mkdirSync(o.save, { recursive: true });
  const tmp = path.join(o.save, `.vfs.state.tmp-${process.pid}`);
  fs.writeFileSync(tmp, state);
  fs.renameSync(tmp, path.join(o.save, "vfs.state"));
}

const stream = (w) => (chunk) => { w.write(chunk); };

async function run(o) {
  let script;
  let stdin;
  if (o.command !== undefined) {
    script = o.command;
  } else if (o.rest[0] === "-" || (o.rest.length === 0 && !process.stdin.isTTY)) {
    script = fs.readFileSync(0, "utf8");
    stdin = "";
  } else if (o.rest.length > 0) {
    script = fs.readFileSync(o.rest[0], "utf8");
  } else {
    throw new UsageError("nothing to run: -c SCRIPT, FILE or -");
  }
  if (stdin === undefined) stdin = process.stdin.isTTY ? "" : process.stdin;
  const sb = await open(o);
  const r = await sb.run(script, { stdin, script: true, onStdout: stream(process.stdout), onStderr: stream(process.stderr) });
  await save(sb, o);
  await sb.destroy();
  return r.exitCode;
}

function prettyDir(d) {
  if (d === "/home/user") return "~";
  return d.startsWith("/home/user/") ? "~" + d.slice("/home/user".length) : d;
}

async function shell(o) {
  const sb = await open(o);
  const tty = !!process.stdin.isTTY;
  const rl = readline.createInterface({ input: process.stdin, terminal: false });
  const lines = rl[Symbol.asyncIterator]();
  let status = 0;
  let pending = "";
  for (;;) {
    if (tty) {
      const cwd = pending ? "" : (await sb.run('printf %s "$PWD"', { stateless: true })).stdout;
      process.stderr.write(pending ? "> " : `user@sandbox:${prettyDir(cwd)}$ `);
    }
    const next = await lines.next();
    if (next.done && !pending) break;
    if (!next.done) {
      pending += next.value + "\n";
      if (await sb.incomplete(pending)) continue;
    }
    const script = pending;
    pending = "";
    if (script.trim()) {
      const r = await sb.run(script, { stdin: "", terminal: tty, onStdout: stream(process.stdout), onStderr: stream(process.stderr) });
      status = r.exitCode;
      if (r.exited) break;
    }
    if (next.done) break;
  }
  rl.close();
  await save(sb, o);
  await sb.destroy();
  return status;
}

async function main(argv) {
  const [sub, ...args] = argv;
  let o;
  try {
    if (sub === "-h" || sub === "--help" || sub === "help") {
      process.stdout.write(USAGE);
      return 0;
    }
    if (sub !== "run" && sub !== "shell") throw new UsageError(sub === undefined ? "" : `unknown command "${sub}"`);
    o = parseArgs(args);
    return sub === "run" ? await run(o) : await shell(o);
  } catch (e) {
    if (e instanceof UsageError) {
      if (e.message) process.stderr.write(`wasmsand ${sub || ""}: ${e.message}\n`.replace("wasmsand : ", "wasmsand: "));
      process.stderr.write(USAGE);
      return 2;
    }
    const code = e instanceof SandboxError ? ` (${e.code})` : "";
    process.stderr.write(`wasmsand: ${e && e.message || e}${code}\n`);
    return 1;
  } finally {
    if (o && o.scratch) fs.rmSync(o.scratch, { recursive: true, force: true }); // (--load's copy)
  }
}

process.exit(await main(process.argv.slice(2)));
