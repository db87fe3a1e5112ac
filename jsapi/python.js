// python3 on the JS platforms: Pyodide as a peer WebAssembly instance in the
// core's worker, loaded on first use and reused for every later run. The Go
// core (commands/pyodide) drives it: load() before a run that needs it,
// then run(...) synchronously, with `host` (Go functions) serving files,
// stdin and output. Python sees the sandbox's VFS through HOSTFS, an
// Emscripten file system type mounted at each top-level directory of the
// VFS (Pyodide keeps its own /lib, /dev and /proc), and nothing of the host.

// The Python half: ERRNO (jsapi/python/errno_linux.py) gives Python Linux's
// errno numbers, RUNNER (jsapi/python/runner.py) serves each run,
// SUBPROCESS (jsapi/python/subprocess_shim.py) runs child processes in the
// sandbox's shell; their text comes through a generated module
// (scripts/pysources.mjs), which every bundler and Node take as it is.
import { ERRNO, RUNNER, SUBPROCESS } from "./python/sources.gen.js";

export { ERRNO, RUNNER, SUBPROCESS };

// installPython sets globalThis.__wasmsandPython for the core.
// loadPyodide(options) → Promise<pyodide>, indexURL: where its files are;
// snapshot() → Promise<readSnapshot's result|null>, optional: a memory
// snapshot of a started Pyodide (scripts/npm/pyodide-snapshot.mjs) to start
// from, with loadAsm() → Promise<pyodide.asm.mjs's default export>.
// listIndex(index) → file names in a package index that is a directory
// (Node), or null; progress({asset, loaded, total}), optional: what loads;
// remote, optional: jsapi/pyremote.js's remotePython, which runs what this
// Pyodide cannot take (not loaded yet, or busy) in a helper thread.
export function installPython({ loadPyodide, loadAsm, indexURL, snapshot, listIndex, progress, remote }) {
  const note = (asset, loaded, total) => { if (progress) progress({ asset, loaded, total }); };
  let py = null;       // the loaded runtime
  let loading = null;  // its promise
  let failed = "";     // why the last load failed
  let runMain = null;  // the Python half's _wasmsand_run (RUNNER)
  let HOSTFS = null;
  const mounts = new Map(); // top-level name → mount root node
  let deadline = Infinity;  // for the interrupt check
  let abortFlag = null, abortRun = 0;
  let fired = -Infinity;    // when SIGINT was last answered
  let umask = 0o022;
  let heapLimit = Infinity; // bytes the heap may reach in this run
  let overMemory = false;

  // Pyodide reads [0] of its interrupt buffer every few bytecodes and
  // stores 0 back: answering SIGINT (2) there stops a busy loop when the
  // run's time is up or its run was cancelled, without another thread.
  // SIGINT is answered once, then again only every 200 ms, so a
  // program that catches KeyboardInterrupt can still wind down.
  // (the heap cannot shrink: past its limit the program is stopped and the
  // runtime dropped, so the memory goes back)
  const stopped = () => {
    if (current === null) return false; // (loading, between runs)
    if (!overMemory && py && py._module.HEAPU8.length > heapLimit) overMemory = true;
    return overMemory || performance.now() > deadline || (abortFlag !== null && abortRun !== 0 && Atomics.load(abortFlag, 0) === abortRun);
  };
  // Pyodide reads it every microsecond or so of a busy program: a Ctrl-C
  // is looked for at each read (one load from shared memory), the time and
  // the abort flag at one read in 32 (they cost ~0.4 µs in Chromium, a
  // third of a busy loop's time), which still stops it within ~50 µs.
  let reads = 0;
  const interrupt = {
    get 0() {
      // a Ctrl-C sent to the run (Sandbox.interrupt, a streamed stdin): KeyboardInterrupt
      const stdin = current !== null && g().__wasmsandStdin;
      if (stdin && stdin.pending()) {
        stdin.take();
        return 2;
      }
      if ((++reads & 31) !== 0 || !stopped()) return 0;
      const now = performance.now();
      if (now - fired < 200) return 0;
      fired = now;
      return 2;
    },
    set 0(_) {},
  };

  async function load() {
    if (runMain) return;
    if (!loading) {
      loading = start().catch((e) => {
        loading = null;
        failed = String(e && e.message || e);
        throw e;
      });
    }
    await loading;
  }

  async function start() {
    note("pyodide", 0, 1);
    // no host environment, globals or stdin reach the interpreter
    const opts = {
      indexURL, jsglobals: {}, env: { HOME: "/home/user" }, args: [],
      stdin: () => null, stdout: () => {}, stderr: () => {},
    };
    // The snapshot is read, and Pyodide's module script loaded, while Pyodide
    // fetches its wasm and stdlib: in a browser each takes a few hundred ms,
    // one after another they were most of a first python run.
    const snap = snapshot ? snapshot().catch(() => null) : null;
    if (snap) {
      const asm = loadAsm();
      asm.catch(() => {}); // (looked at through snapshotModule)
      try {
        py = await loadPyodide({ ...opts, createPyodideModule: snapshotModule(snap, () => asm),
          _loadSnapshot: snap.then((s) => (s ? s.image : Promise.reject(new Error("no snapshot")))) });
      } catch (e) {
        const s = await snap;
        if (s) s.close();
        py = await loadPyodide(opts); // no snapshot, or one of another build: start afresh
      }
    } else {
      py = await loadPyodide(opts);
    }
    lockDown(py);
    HOSTFS = hostFS(py, () => umask);
    py.setInterruptBuffer(interrupt);
    py.setStdout({ write: (b) => currentHost().write(1, u8(b)) });
    py.setStderr({ write: (b) => currentHost().write(2, u8(b)) });
    py.setStdin({ read: (b) => {
      // a Ctrl-C while Python waits for input ends the wait (EINTR): CPython
      // then checks its signals, which takes it (the interrupt buffer above)
      const stdin = g().__wasmsandStdin;
      if (stdin) stdin.eintr = true;
      try {
        const n = currentHost().read(u8(b));
        if (n === "EINTR") throw Object.assign(new Error("interrupted"), { code: "EINTR" });
        return n;
      } finally {
        if (stdin) stdin.eintr = false;
      }
    } });
    py.registerJsModule("_wasmsand", {
      sleep, stopped,
      open_files: () => currentHost().openFiles(),
      // spawn(argv, shell, input|None, cwd, env, capture_out, capture_err, merge_err)
      //   → [status, stdout, stderr] (bytes), or [-2] when argv[0] is not found
      spawn: (argv, shell, input, cwd, env, co, ce, merge) => {
        const r = currentHost().spawn(argv.toJs(), shell, input ? input.toJs() : null, cwd, env.toJs({ dict_converter: Object.fromEntries }), co, ce, merge);
        argv.destroy(); env.destroy(); if (input) input.destroy();
        return r;
      },
    });
    // (a snapshot made by scripts/npm/pyodide-snapshot.mjs holds them)
    if (py.globals.get("_wasmsand_setup") !== setupKey()) {
      py.runPython(ERRNO);
      py.runPython(RUNNER);
      py.runPython(SUBPROCESS);
    }
    py.runPython("import sys; [sys.modules.pop(k, None) for k in ('js', 'pyodide_js')]");
    runMain = py.globals.get("_wasmsand_run");
    failed = "";
    note("pyodide", 1, 1);
    if (remote) remote.trim(); // (the helpers that took its misses)
  }

  // ensureModules makes each module of ours once per runtime (as a module
  // of the stdlib, which runs keep: its __file__ is under /lib), unless the
  // snapshot holds it already, and runs its `then` code once after it.
  function ensureModules(list) {
    const made = py._wasmsandModules || (py._wasmsandModules = new Map());
    for (const [name, source, then] of list) {
      if (made.get(name) === source + "\0" + then) continue;
      const make = py.globals.get("_wasmsand_module");
      try {
        make(name, source, then);
      } finally {
        make.destroy();
      }
      made.set(name, source + "\0" + then);
    }
  }

  // sleep waits without burning the CPU (Pyodide's own time.sleep spins)
  // and wakes for a timeout or a cancel.
  const cell = typeof SharedArrayBuffer !== "undefined" ? new Int32Array(new SharedArrayBuffer(4)) : null;
  function sleep(s) {
    const end = performance.now() + s * 1000;
    for (;;) {
      if (interrupt[0]) break;
      const left = Math.min(end, deadline) - performance.now();
      if (left <= 0) break;
      const step = Math.min(left, 50);
      if (cell) Atomics.wait(cell, 0, 0, step);
      else { const t = performance.now() + step; while (performance.now() < t); }
    }
    py.checkInterrupt();
  }

  // mount puts HOSTFS at every top-level directory of the VFS, and drops
  // what Pyodide cached of them: the shell may have changed anything since
  // the last run.
  function mount(names) {
    const FS = py.FS;
    for (const [name, root] of mounts) {
      if (names.includes(name)) HOSTFS.invalidate(root);
      else { FS.unmount("/" + name); mounts.delete(name); }
    }
    for (const name of names) {
      if (mounts.has(name) || RESERVED.has(name)) continue;
      const at = "/" + name;
      try { FS.mkdir(at); } catch (_) { /* exists */ }
      try {
        mounts.set(name, FS.mount(HOSTFS, { root: at }, at));
      } catch (_) { /* a Pyodide file of that name: left as it is */ }
    }
  }

  let importMap = null;  // import name → package of Pyodide's lock file
  let stdlib = null;     // the interpreter's own modules
  let sitePackages = ""; // where packages go
  const failures = [];   // what the next run says on stderr
  const pipStatus = new Map(); // pip install's packages: {version} or {error}

  // loadImports loads the packages that provide modules the next run may
  // import and the interpreter cannot import yet: from Pyodide's lock file
  // (with their dependencies), or a wheel of that name in the index.
  // packages (pip install's names) are loaded too, by package name.
  async function loadImports(names, index, packages) {
    await load();
    names = names || [];
    packages = packages || [];
    if (index === "none") {
      for (const p of packages) pipStatus.set(p, { error: "package loading is turned off (pythonIndex: none)" });
      return;
    }
    if (names.length === 0 && packages.length === 0) return;
    // (what the interpreter has: the stdlib and the packages loaded; a
    // user's own module is not looked for, the VFS is not at hand now)
    if (!stdlib) {
      stdlib = new Set(py.runPython("import sys; list(sys.stdlib_module_names) + list(sys.builtin_module_names)").toJs());
      sitePackages = py.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
    }
    const installed = (mod) => ["", ".py"].some((x) => py.FS.analyzePath(`${sitePackages}/${mod}${x}`).exists);
    const importable = (mod) => stdlib.has(mod) || installed(mod);
    const missing = names.filter((n) => !importable(n));
    if (missing.length === 0 && packages.length === 0) return;
    const base = index || `https://cdn.jsdelivr.net/pyodide/v${py.version}/full/`;
    const join = (f) => (base.endsWith("/") ? base + f : base + "/" + f);
    const lock = py.lockfile.packages;
    if (!importMap) {
      importMap = new Map();
      for (const [name, p] of Object.entries(lock)) for (const i of p.imports || []) importMap.set(i, name);
    }
    const files = listIndex ? listIndex(base) : null;
    const urls = new Map(); // url → the module it is for
    const add = (pkg, mod) => {
      const p = lock[pkg];
      if (!p || py.loadedPackages[pkg]) return;
      const url = join(p.file_name);
      if (urls.has(url)) return;
      urls.set(url, mod);
      for (const d of p.depends || []) add(d, mod);
    };
    const wheelFor = (name) => files && files.find((f) => f.endsWith(".whl") && f.split("-")[0].replace(/[.-]/g, "_").toLowerCase() === name.replace(/[.-]/g, "_").toLowerCase());
    for (const mod of missing) {
      const wheel = wheelFor(mod);
      if (wheel) urls.set(join(wheel), mod);
      else if (importMap.has(mod)) add(importMap.get(mod), mod);
    }
    const wanted = new Map(); // pip's package → {lock name | wheel file}
    for (const p of packages) {
      const wheel = wheelFor(p);
      if (wheel) {
        wanted.set(p, { wheel });
        if (!py.loadedPackages[wheel.split("-")[0]]) urls.set(join(wheel), "");
      } else if (lock[p]) {
        wanted.set(p, { lock: p });
        add(p, "");
      } else {
        pipStatus.set(p, { error: `no package ${p} in ${base}` });
      }
    }
    if (urls.size === 0) {
      for (const [p, w] of wanted) pipStatus.set(p, { version: w.lock ? lock[w.lock].version : w.wheel.split("-")[1] });
      return;
    }
    const errors = [];
    // (unpacking uses temporary files, and between runs /tmp is not at
    // hand: Pyodide's own directory serves instead)
    py.FS.mkdirTree("/lib/.wasmsand-tmp");
    py.runPython("import tempfile; tempfile.tempdir = '/lib/.wasmsand-tmp'");
    const wheels = [...urls.keys()].map((u) => u.slice(u.lastIndexOf("/") + 1));
    for (const w of wheels) note(w, 0, 1);
    try {
      await py.loadPackage([...urls.keys()], { messageCallback: () => {}, errorCallback: (m) => errors.push(String(m)) });
      for (const w of wheels) note(w, 1, 1);
    } catch (e) {
      errors.push(String(e && e.message || e));
    } finally {
      py.runPython("import tempfile; tempfile.tempdir = None");
    }
    for (const [p, w] of wanted) {
      const ok = w.lock ? py.loadedPackages[w.lock] : py.loadedPackages[w.wheel.split("-")[0]] || errors.length === 0;
      pipStatus.set(p, ok ? { version: w.lock ? lock[w.lock].version : w.wheel.split("-")[1] }
        : { error: `could not be loaded from ${base}: ${errors.map((m) => m.replace(/[:;\s]+$/, "")).join(": ") || "not found"}` });
    }
    for (const mod of new Set(urls.values())) {
      if (mod && !importable(mod)) {
        const pkg = importMap.get(mod) || mod;
        failures.push(`python3: package ${pkg} (for import ${mod}) could not be loaded from ${base}: ${errors.map((m) => m.replace(/[:;\s]+$/, "")).join(": ") || "not found"}\n`);
      }
    }
  }

  // runElsewhere runs r in a helper thread's Pyodide (remote), and has this
  // one loaded after the run, for the next. → exit status, or why it could
  // not run (a string).
  function runElsewhere(r, goHost) {
    if (!remote) return "Pyodide is not loaded";
    const end = r.timeoutMs > 0 ? performance.now() + r.timeoutMs : Infinity;
    const flag = r.abort ? r.abort.flag : null;
    const stopped = () => performance.now() > end || (flag !== null && r.abort.run !== 0 && Atomics.load(flag, 0) === r.abort.run);
    const rc = remote.run(r, goHost, { imports: r.imports || [], index: r.index || "", packages: [] }, stopped);
    if (runMain === null && !loading) setTimeout(() => load().catch(() => { /* loadError() has it */ }), 0);
    if (rc === -1) return performance.now() > end ? 124 : 130;
    return rc;
  }

  g().__wasmsandPython = {
    load,
    loadImports,
    version: () => py.version,
    // packageStatus(name) → {version} when loaded, else {error}
    packageStatus: (name) => pipStatus.get(name) || (py.loadedPackages[name]
      ? { version: (py.lockfile.packages[name] || {}).version || "?" }
      : { error: "it was not loaded before the run (pip install loads the packages a run's command line names)" }),
    packages: () => Object.keys(py.loadedPackages).map((n) => [n, (py.lockfile.packages[n] || {}).version || "?"]),
    loaded: () => runMain !== null,
    // settle() → a promise to await before a run, or null (pyremote.js)
    settle: () => (remote ? remote.settle() : null),
    loadError: () => failed,
    // unavailable() → why a python run cannot start now, or "" (it runs
    // here, or in a helper thread)
    unavailable() {
      if (runMain !== null && current === null) return "";
      if (remote) return remote.unavailable();
      if (runMain !== null) return "python in python needs a helper thread, which needs SharedArrayBuffer";
      return failed ? "Pyodide could not be loaded: " + failed
        : "Pyodide is not loaded: it loads before a run whose command line names python (or a script that does)";
    },
    // run({mode, arg, argv, env, cwd, executable, names, timeoutMs, umask,
    // abort, modules, imports, index}, goHost) → exit status, or why it
    // could not run (a string). mode "c" (arg: code), "file" (arg:
    // path), "module" (arg: name), "stdin", "interactive" (the REPL, stdin a
    // terminal read as it is typed); names: the VFS's top-level
    // directories; abort: {flag, run}; modules: [[name, source, then]...],
    // modules of ours whose source the core holds (see ensureModules).
    run(r, goHost) {
      if (runMain === null || current !== null) return runElsewhere(r, goHost);
      current = goHost;
      umask = r.umask;
      deadline = r.timeoutMs > 0 ? performance.now() + r.timeoutMs : Infinity;
      abortFlag = r.abort ? r.abort.flag : null;
      abortRun = r.abort ? r.abort.run : 0;
      fired = -Infinity;
      overMemory = false;
      // a heap already past the limit (an earlier sandbox's packages, say)
      // leaves the program room to start
      heapLimit = Math.max(r.memoryMB * 1048576, py._module.HEAPU8.length + 64 * 1048576);
      try {
        for (const f of failures.splice(0)) goHost.write(2, new TextEncoder().encode(f));
        mount(r.names);
        ensureModules(r.modules || []);
        const rc = runMain(r.mode, r.arg, py.toPy(r.argv), py.toPy(r.env), r.cwd, r.executable || "/usr/bin/python3");
        if (overMemory) {
          runMain = null; py = null; loading = null; mounts.clear(); stdlib = null; importMap = null;
          return -2; // Go reports it
        }
        return rc;
      } catch (e) {
        // the runtime itself failed (not the program, whose errors are
        // Python exceptions): load a new one next time
        runMain = null; py = null; loading = null; mounts.clear(); stdlib = null; importMap = null;
        goHost.write(2, new TextEncoder().encode("python3: the Python runtime failed: " + String(e && e.message || e) + "\n"));
        return 134;
      } finally {
        current = null;
        deadline = Infinity;
        abortRun = 0;
        heapLimit = Infinity;
      }
    },
  };
}

// setupKey names the Python half (ERRNO, RUNNER and SUBPROCESS), so that a
// snapshot that ran another one is not taken for it.
export function setupKey() {
  let h = 5381;
  for (const c of ERRNO + RUNNER + SUBPROCESS) h = (h * 33 + c.charCodeAt(0)) >>> 0;
  return "wasmsand-" + h.toString(16) + "-" + (ERRNO.length + RUNNER.length + SUBPROCESS.length);
}

// readSnapshot opens scripts/npm/pyodide-snapshot.mjs's file: the pages of
// Pyodide's memory snapshot (its header, then the heap's image) that are
// not all zero. It reads the header pages now and the heap's later,
// straight into the new instance's memory (restore, which takes the place
// of Pyodide's restoreSnapshot). Zero pages are touched in neither: the
// image is 31 MB of which 18 are not zero, and the first touch of a page
// costs ~12 µs on a small VM (copying the image whole took ~200 ms).
// readAt(dst, offset, length, position) reads the file's bytes
// [position, position+length) into dst[offset...] (Node reads them straight
// from the file; a page passes readBytes(file)); done() is called once the
// file is no longer needed (after restore, or close()).
// → {image, restore(module), close()}: image is what loadPyodide's
// _loadSnapshot takes (as long as the snapshot, which sizes the memory;
// only its header read).
export function readSnapshot(readAt, done = () => {}) {
  const head = new Uint8Array(18);
  readAt(head, 0, 18, 0);
  const v = new DataView(head.buffer);
  if (String.fromCharCode(...head.subarray(0, 6)) !== "wsnap1") throw new Error("not a wasmsand Pyodide snapshot");
  const total = v.getUint32(6, true), page = v.getUint32(10, true), n = v.getUint32(14, true);
  const index = new Uint8Array(4 * n);
  readAt(index, 0, 4 * n, 18);
  const iv = new DataView(index.buffer);
  // runs of consecutive pages: [at, at+len) of the snapshot, at pos in the file
  const runs = [];
  let pos = 18 + 4 * n;
  for (let i = 0; i < n;) {
    let j = i + 1;
    while (j < n && iv.getUint32(4 * j, true) === iv.getUint32(4 * (j - 1), true) + 1) j++;
    const at = iv.getUint32(4 * i, true) * page;
    const len = Math.min((j - i) * page, total - at);
    runs.push({ at, len, pos });
    pos += len;
    i = j;
  }
  const image = new Uint8Array(total);
  // Pyodide's header: its magic number, then where the heap's image starts
  if (runs.length === 0 || runs[0].at !== 0) throw new Error("snapshot: no header");
  let heapAt = Infinity;
  for (const r of runs) {
    if (r.at >= heapAt) break;
    readAt(image, r.at, r.len, r.pos);
    heapAt = new DataView(image.buffer).getUint32(4, true);
  }
  const restore = (m) => {
    const heap = m.HEAPU8;
    const size = Math.min(total - heapAt, heap.length);
    // What the snapshot has as zero is zeroed where the instance's start
    // may have written: below the heap's break (static data, the stack, a
    // few allocations), except the stack below its pointer, which holds
    // nothing live (a C program never reads memory it has not written).
    const brk = Math.min(m._sbrk(0) >>> 0, size);
    const [deadLo, deadHi] = m._emscripten_stack_get_end && m._emscripten_stack_get_current
      ? [m._emscripten_stack_get_end() >>> 0, m._emscripten_stack_get_current() >>> 0] : [0, 0];
    const zero = (lo, hi) => {
      for (const [a, b] of [[lo, Math.min(hi, deadLo)], [Math.max(lo, deadHi), hi]]) if (a < b) heap.fill(0, a, b);
    };
    let next = 0; // heap offset the runs have covered up to
    for (const r of runs) {
      const end = r.at + r.len - heapAt;
      if (end <= 0) continue;
      const lo = Math.max(r.at - heapAt, 0);
      if (lo >= size) break;
      zero(next, Math.min(lo, brk));
      if (r.at < heapAt) heap.set(image.subarray(heapAt, r.at + r.len), 0);
      else readAt(heap, lo, Math.min(end, size) - lo, r.pos);
      next = end;
    }
    zero(next, brk);
    close();
  };
  let open = true;
  const close = () => { if (open) done(); open = false; };
  return { image, restore, close };
}

// snapshotModule is loadPyodide's createPyodideModule for a snapshot from
// readSnapshot (or a promise of one): Pyodide's module, its restoreSnapshot
// replaced by the snapshot's own (the stock one is given the header only).
// loadAsm() → Promise<pyodide.asm.mjs's default export>; after(module),
// optional, is called once the memory is restored.
export function snapshotModule(snapshot, loadAsm, after = () => {}) {
  return async (settings) => {
    const [snap, make] = await Promise.all([snapshot, loadAsm()]);
    const m = await make(settings);
    const stock = m.API.restoreSnapshot;
    m.API.restoreSnapshot = (t) => {
      const meta = stock(t.subarray(0, new DataView(t.buffer, t.byteOffset).getUint32(4, true)));
      snap.restore(m);
      after(m);
      return meta;
    };
    return m;
  };
}

// readBytes is readSnapshot's readAt over a file's bytes in memory.
export function readBytes(file) {
  return (dst, offset, length, position) => dst.set(file.subarray(position, position + length), offset);
}

function g() { return globalThis; }
function u8(b) { return b instanceof Uint8Array ? b : new Uint8Array(b.buffer, b.byteOffset, b.byteLength); }

// Pyodide's own directories, never covered by the VFS.
const RESERVED = new Set(["lib", "dev", "proc"]);

// lockDown keeps Python away from the worker's globals: the js and
// pyodide_js modules go (see start), and no JS function hands out the
// Function constructor, through which any JS value reaches globalThis.
function lockDown(py) {
  py.unregisterJsModule("js");
  py.unregisterJsModule("pyodide_js");
  const kinds = [function () {}, async function () {}, function* () {}, async function* () {}];
  for (const f of kinds) {
    Object.defineProperty(Object.getPrototypeOf(f), "constructor", { value: undefined, writable: false, configurable: false });
  }
}

// hostFS is an Emscripten file system type that asks the Go VFS for
// everything (host.* are Go functions: a number < 0 is -errno, WASI's
// numbering, which is Emscripten's). Nodes are found by path, as in
// Emscripten's NODEFS.
function hostFS(py, umask) {
  const FS = py.FS, PATH = py.PATH;
  const fail = (n) => { throw new FS.ErrnoError(-n); };
  const check = (r) => (typeof r === "number" && r < 0 ? fail(r) : r);
  // (outside a run there is no VFS to ask: EIO, never an exception that
  // would be fatal to Pyodide)
  const call = (name, ...args) => check(current ? current[name](...args) : -29);
  const realPath = (node) => {
    const parts = [];
    while (node.parent !== node) { parts.push(node.name); node = node.parent; }
    parts.push(node.mount.opts.root);
    return PATH.normalize(parts.reverse().join("/"));
  };
  const child = (parent, name) => PATH.join2(realPath(parent), name);
  const stat = (node, s) => ({
    dev: 7, ino: s[2], mode: s[0], nlink: s[3], uid: s[7], gid: s[8], rdev: 0, size: s[1],
    atime: new Date(s[4]), mtime: new Date(s[5]), ctime: new Date(s[6]),
    blksize: 4096, blocks: Math.ceil(s[1] / 512),
  });
  const T = {
    mount(m) { return T.createNode(null, "/", call("lstat", m.opts.root)[0]); },
    createNode(parent, name, mode) {
      const node = FS.createNode(parent, name, mode);
      node.node_ops = T.node_ops;
      node.stream_ops = T.stream_ops;
      return node;
    },
    node_ops: {
      getattr(node) { return stat(node, call("lstat", realPath(node))); },
      setattr(node, attr) {
        const p = realPath(node);
        if (attr.mode != null) {
          // FS.open sets a new file's mode right after creating it:
          // the process's umask applies, as open(2)'s would
          let mode = attr.mode;
          if (node.created) { delete node.created; mode &= ~umask(); }
          call("chmod", p, mode);
          node.mode = (node.mode & ~0o7777) | (mode & 0o7777);
        }
        const a = attr.atime ?? null, m = attr.mtime ?? null;
        if (typeof a === "number" || typeof m === "number") call("utimes", p, typeof a === "number" ? a : -1, typeof m === "number" ? m : -1);
        if (attr.size !== undefined) call("truncate", p, attr.size);
      },
      lookup(parent, name) { return T.createNode(parent, name, call("lstat", child(parent, name))[0]); },
      mknod(parent, name, mode) {
        const p = child(parent, name);
        if (FS.isDir(mode)) call("mkdir", p, mode & 0o7777);
        else if (FS.isFile(mode)) call("create", p, mode & 0o7777);
        else fail(-63); // EPERM: no devices or fifos from python
        const node = T.createNode(parent, name, mode);
        if (FS.isFile(mode)) node.created = true;
        return node;
      },
      rename(oldNode, newDir, newName) {
        call("rename", realPath(oldNode), child(newDir, newName));
        try { FS.hashRemoveNode(FS.lookupNode(newDir, newName)); } catch (_) { /* none cached */ }
        oldNode.name = newName;
      },
      unlink(parent, name) { call("unlink", child(parent, name)); },
      rmdir(parent, name) { call("rmdir", child(parent, name)); },
      readdir(node) { return [".", "..", ...call("readdir", realPath(node))]; },
      symlink(parent, name, target) {
        call("symlink", target, child(parent, name));
        return T.createNode(parent, name, 0o120777);
      },
      readlink(node) { return call("readlink", realPath(node)); },
    },
    stream_ops: {
      open(stream) {
        if (FS.isDir(stream.node.mode)) return;
        stream.shared.refcount = 1;
        stream.handle = call("open", realPath(stream.node), stream.flags);
      },
      dup(stream) { stream.shared.refcount++; },
      close(stream) {
        if (stream.handle !== undefined && --stream.shared.refcount === 0) call("close", stream.handle);
      },
      read(stream, buffer, offset, length, position) {
        return call("pread", stream.handle, new Uint8Array(buffer.buffer, buffer.byteOffset + offset, length), position);
      },
      write(stream, buffer, offset, length, position) {
        return call("pwrite", stream.handle, new Uint8Array(buffer.buffer, buffer.byteOffset + offset, length), position);
      },
      llseek(stream, offset, whence) {
        let pos = offset;
        if (whence === 1) pos += stream.position;
        else if (whence === 2 && FS.isFile(stream.node.mode)) pos += call("lstat", realPath(stream.node))[1];
        if (pos < 0) fail(-28); // EINVAL
        return pos;
      },
    },
    // invalidate forgets the mount's cached nodes (not its root).
    invalidate(root) {
      const m = root.mount;
      for (let i = 0; i < FS.nameTable.length; i++) {
        for (let n = FS.nameTable[i]; n;) {
          const next = n.name_next;
          if (n.mount === m && n !== m.root) FS.hashRemoveNode(n);
          n = next;
        }
      }
    },
  };
  return T;
}

// current holds Go's functions for the run in progress.
let current = null;

function currentHost() {
  if (!current) throw new Error("python: no run in progress");
  return current;
}
