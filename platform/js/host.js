// The JS half of platform/js: compiles and runs guests on this engine's
// WebAssembly for the Go core (GOOS=js). Load it before the core and call
// wasmsandInstallHost(go) on the Go object of wasm_exec.js before
// instantiating the core: it adds the imports the core's //go:wasmimport
// functions need and sets globalThis.__wasmsandHost, which platform/js's
// New binds to. Every guest import becomes a call of Go's hostcall(run,
// fn) with the arguments in a Go buffer: first through the core's export
// wasmsand_quickcall, which answers 4 when that call must take the slower
// FuncOf callback instead (host.go says when); nothing here blocks except
// sleep (Atomics.wait).
"use strict";
(function (g) {
  let go = null;        // wasm_exec.js's Go object (its _inst is the core)
  let table = null;     // [{module, name, params, results}], index = fn
  let byName = null;    // "module.name" → index
  let argView = null;   // BigUint64Array over the core's argument buffer
  let hostcall = null;  // Go (FuncOf): (run, fn) → status, arguments in the buffer
  let quickcall = null; // Go (export): the same, or 4: use hostcall
  let argAddr = 0;      // where the buffer is in the core's memory
  const modules = new Map(); // id → {mod, imports, restartable, idle}
  let nextModule = 1;
  const runs = new Map();    // run id → {memory}

  class Stop { constructor(kind, code) { this.kind = kind; this.code = code; } }

  function exportsOf() { return go._inst.exports; }
  function coreBuffer() { return exportsOf().mem.buffer; }
  function args() {
    const buf = coreBuffer();
    if (argView === null || argView.buffer !== buf) {
      argView = new BigUint64Array(buf, argAddr, 16);
    }
    return argView;
  }
  function ptr(p) { return typeof p === "bigint" ? Number(p) : p >>> 0; }
  function guestBytes(run, off, n) {
    const r = runs.get(run);
    if (!r || !r.memory) return null;
    const buf = r.memory.buffer;
    off >>>= 0; n >>>= 0;
    if (off + n > buf.byteLength) return null;
    return new Uint8Array(buf, off, n);
  }

  const sleepCell = typeof SharedArrayBuffer !== "undefined" ? new Int32Array(new SharedArrayBuffer(4)) : null;

  const coreImports = {
    mem_size(run) {
      const r = runs.get(run);
      return r && r.memory ? r.memory.buffer.byteLength >>> 0 : 0;
    },
    mem_read(run, off, dst, n) {
      const src = guestBytes(run, off, n);
      if (src === null) return 0;
      new Uint8Array(coreBuffer(), ptr(dst), n >>> 0).set(src);
      return 1;
    },
    mem_write(run, off, src, n) {
      const dst = guestBytes(run, off, n);
      if (dst === null) return 0;
      dst.set(new Uint8Array(coreBuffer(), ptr(src), n >>> 0));
      return 1;
    },
    sleep(ms) {
      if (sleepCell !== null) {
        Atomics.wait(sleepCell, 0, 0, ms);
        return;
      }
      const end = Date.now() + ms; // no SharedArrayBuffer: spin (bounded by the caller)
      while (Date.now() < end) { /* wait */ }
    },
  };

  function importFor(slot, fn) {
    const f = table[fn];
    const np = f.params.length;
    const is64 = f.params.map((t) => t === "i64");
    const result = f.results.length ? f.results[0] : null;
    return function () {
      const a = args();
      for (let i = 0; i < np; i++) {
        const v = arguments[i];
        a[i] = is64[i] ? BigInt.asUintN(64, v) : BigInt(v >>> 0);
      }
      let st = quickcall(slot.run, fn);
      if (st === 4) st = hostcall(slot.run, fn);
      if (st !== 0) {
        const b = args();
        throw new Stop(st === 1 ? "exit" : st === 2 ? "stopped" : "hostpanic", Number(b[0] & 0xffn));
      }
      if (result === null) return undefined;
      const b = args();
      return result === "i64" ? BigInt.asIntN(64, b[0]) : Number(b[0] & 0xffffffffn) | 0;
    };
  }

  const host = {
    // bind(table, ...): table has a line per function, "module name
    // params results", the types comma-separated (host.go's bindHost)
    bind(lines, call, addr) {
      const types = (s) => (s ? s.split(",") : []);
      const t = lines.split("\n").map((l) => {
        const [module, name, params, results] = l.split(" ");
        return { module, name, params: types(params), results: types(results) };
      });
      table = t;
      hostcall = call;
      quickcall = exportsOf().wasmsand_quickcall || (() => 4);
      argAddr = addr >>> 0;
      byName = new Map(t.map((f, i) => [f.module + "." + f.name, i]));
      return true;
    },
    // compile(bytes, restartable): restartable modules (instrument's
    // Stats.Restartable) get their instances reused (see run).
    compile(bytes, restartable) {
      let mod;
      try {
        mod = new WebAssembly.Module(bytes);
      } catch (e) {
        return { error: String(e && e.message || e) };
      }
      const id = nextModule++;
      const imports = WebAssembly.Module.imports(mod);
      modules.set(id, { mod, imports, restartable: !!restartable, idle: [] });
      const exps = WebAssembly.Module.exports(mod);
      return {
        id,
        imports,
        hasStart: exps.some((e) => e.name === "_start" && e.kind === "function"),
        minPages: 0,
      };
    },
    release(id) { modules.delete(id); },
    run(id, run, maxPages, memMin, memMax) {
      const m = modules.get(id);
      if (!m) return { kind: "trap", message: "module released" };
      const r = { memory: null, refused: false };
      let inst = takeIdle(m, memMax);
      runs.set(run, r);
      try {
        if (inst) {
          inst.slot.run = run;
          inst.slot.r = r;
          r.memory = inst.memory;
        } else {
          inst = instantiate(m, run, r, memMin, memMax);
        }
        inst.instance.exports._start();
        return { kind: "exit", code: 0 };
      } catch (e) {
        const atLimit = r.refused; // it failed after a memory.grow was refused
        if (e instanceof Stop) return { kind: e.kind, code: e.code, atLimit };
        return { kind: "trap", message: String(e && e.message || e), atLimit };
      } finally {
        runs.delete(run);
        if (inst) putIdle(m, inst);
      }
    },
  };

  // Instance reuse. A new WebAssembly.Instance of a large module costs
  // ~1-2 ms in V8 (coreutils), resetting one ~10 µs: a restartable module's
  // instance is kept after its run, put back to its state right after
  // instantiation (memory image, exported mutable globals) and handed to the
  // next run of that module with the same memory maximum. A run never
  // shares an instance (a nested run of the same module takes another), and
  // an idle one holds nothing of the run before it.
  const MAX_IDLE = 2;
  const MAX_GROWTH = 8 << 20; // bytes past the image worth zeroing rather than dropping

  function instantiate(m, run, r, memMin, memMax) {
    const slot = { run, r };
    const imports = {};
    for (const imp of m.imports) {
      if (imp.kind !== "function") continue;
      let f;
      if (imp.module === "wasmsand" && imp.name === "memory_grow") {
        // memory.grow, rewritten into this call so that a refusal is seen
        f = (pages) => {
          try {
            return slot.r.memory.grow(pages >>> 0);
          } catch (e) {
            slot.r.refused = true;
            return -1;
          }
        };
      } else {
        f = importFor(slot, byName.get(imp.module + "." + imp.name));
      }
      (imports[imp.module] ??= {})[imp.name] = f;
    }
    if (memMin >= 0) {
      r.memory = new WebAssembly.Memory({ initial: memMin, maximum: memMax });
      (imports.wasmsand ??= {}).memory = r.memory;
    }
    const instance = new WebAssembly.Instance(m.mod, imports);
    r.memory ??= instance.exports.memory || null;
    const inst = { instance, slot, memory: r.memory, memMax, image: null, base: 0, globals: null };
    if (m.restartable && r.memory) {
      // the image starts at the first non-zero block: below it is the stack
      // (guests link with 8 MB of it, first in memory), zero here, and
      // reset by zeroStack rather than copied. Every instance of a module
      // starts the same, so the scan is once per module.
      m.imageBase ??= firstNonZeroBlock(r.memory.buffer);
      inst.base = m.imageBase;
      inst.image = new Uint8Array(r.memory.buffer, inst.base).slice();
      inst.globals = [];
      for (const [name, v] of Object.entries(instance.exports)) {
        if (name.startsWith("wasmsand.global.") && v instanceof WebAssembly.Global) inst.globals.push([v, v.value]);
      }
    }
    return inst;
  }

  function takeIdle(m, memMax) {
    const i = m.idle.findIndex((x) => x.memMax === memMax);
    return i >= 0 ? m.idle.splice(i, 1)[0] : null;
  }

  function putIdle(m, inst) {
    inst.slot.run = 0;
    inst.slot.r = null;
    if (!inst.image || m.idle.length >= MAX_IDLE) return;
    const mem = new Uint8Array(inst.memory.buffer);
    const end = inst.base + inst.image.length;
    if (mem.length - end > MAX_GROWTH) return;
    zeroStack(inst.memory.buffer, inst.base);
    mem.set(inst.image, inst.base);
    mem.fill(0, end);
    for (const [g, v] of inst.globals) g.value = v;
    m.idle.push(inst);
  }

  const BLOCK = 1 << 16; // bytes

  // firstNonZeroBlock: the offset of the first 64 KiB block of memory that
  // is not all zero (the memory's length when none is).
  function firstNonZeroBlock(buf) {
    const u = new Uint32Array(buf, 0, buf.byteLength >>> 2);
    for (let i = 0; i < u.length; i++) {
      if (u[i] !== 0) return Math.floor((i * 4) / BLOCK) * BLOCK;
    }
    return buf.byteLength;
  }

  // zeroStack zeroes what a run left in the stack below top (the stack grows
  // down from it): 64 KiB blocks from the top down, until four in a row are
  // already zero. A run uses a few KiB of its 8 MB; the stack frames it used
  // are contiguous from the top, and a quarter MiB of zeros inside them (a
  // zeroed local buffer with deeper calls below it) would be unusual.
  function zeroStack(buf, top) {
    const u = new Uint32Array(buf, 0, top >>> 2);
    const words = BLOCK >>> 2;
    let clean = 0;
    for (let end = u.length; end > 0 && clean < 4; end -= words) {
      const start = Math.max(0, end - words);
      let dirty = false;
      for (let i = end - 1; i >= start; i--) {
        if (u[i] !== 0) { dirty = true; break; }
      }
      if (dirty) {
        u.fill(0, start, end);
        clean = 0;
      } else {
        clean++;
      }
    }
  }

  g.__wasmsandHost = host;
  g.wasmsandInstallHost = function (goObject) {
    go = goObject;
    goObject.importObject.wasmsand_host = coreImports;
  };
  if (typeof module !== "undefined") module.exports = { install: g.wasmsandInstallHost, host };
})(globalThis);
