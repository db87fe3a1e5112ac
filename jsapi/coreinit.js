// The core's state once Go's runtime and package initialisers have run, kept
// in a file beside the core (wasmsand.init, made by `make npm`) and put back
// into a new instance in place of running them again: most of a Node cold
// start (RATIONALE: "Start time on the JS engines").
//
// That state is the instance's memory and globals, and what the core did on
// the JS side while it started: the JS values it got, set and called through
// Go's syscall/js imports (Go keeps them by number in the Go object's table).
// recordInit writes those calls down as the core starts; restoreInit writes
// the memory and globals back and makes the same calls again, checking that
// each gives what it gave then. Any difference (another environment, another
// core) and it returns false: the caller then starts the core the usual way.
//
// The file: "wasmsand-init 1\n", a JSON header's length (4 bytes, little
// endian), the header {core, size, pages, globals, log}, then the pages'
// bytes (4 KiB each) in the header's order: the pages that differ from a new
// instance's memory.

const MAGIC = new TextEncoder().encode("wasmsand-init 1\n");
const PAGE = 4096;
const GLOBAL_PREFIX = "wasmsand.global."; // (platform/instrument.GlobalExportPrefix)
const NAN_HEAD = 0x7ff80000;

// Go's syscall/js imports, each as the arguments it reads (at sp) and the
// results it writes: "v" a value (8 bytes as two u32), "s" a string, "i" an
// int64, "b" a byte, "V" a slice of values, "B" a slice's bytes (hex). A
// result marked with "@" is written at the stack pointer Go has after the call.
const CALLS = {
  "syscall/js.finalizeRef": { args: [[8, "u"]] },
  "syscall/js.stringVal": { args: [[8, "s"]], res: [[24, "v"]] },
  "syscall/js.valueGet": { args: [[8, "v"], [16, "s"]], res: [[32, "v@"]] },
  "syscall/js.valueSet": { args: [[8, "v"], [16, "s"], [32, "v"]] },
  "syscall/js.valueDelete": { args: [[8, "v"], [16, "s"]] },
  "syscall/js.valueIndex": { args: [[8, "v"], [16, "i"]], res: [[24, "v"]] },
  "syscall/js.valueSetIndex": { args: [[8, "v"], [16, "i"], [24, "v"]] },
  "syscall/js.valueCall": { args: [[8, "v"], [16, "s"], [32, "V"]], res: [[56, "v@"], [64, "b@"]] },
  "syscall/js.valueInvoke": { args: [[8, "v"], [16, "V"]], res: [[40, "v@"], [48, "b@"]] },
  "syscall/js.valueNew": { args: [[8, "v"], [16, "V"]], res: [[40, "v@"], [48, "b@"]] },
  "syscall/js.valueLength": { args: [[8, "v"]], res: [[16, "i"]] },
  "syscall/js.valuePrepareString": { args: [[8, "v"]], res: [[16, "v"], [24, "i"]] },
  "syscall/js.valueLoadString": { args: [[8, "v"]], res: [[16, "B"]] },
  "syscall/js.valueInstanceOf": { args: [[8, "v"], [16, "v"]], res: [[24, "b"]] },
  "syscall/js.copyBytesToGo": { args: [[32, "v"]], res: [[8, "B"], [40, "i"], [48, "b"]] },
  "syscall/js.copyBytesToJS": { args: [[8, "v"], [16, "B"]], res: [[40, "i"], [48, "b"]] },
};
// Go's other imports that may run while the core starts without leaving
// anything on the JS side that matters later
const QUIET = new Set(["runtime.wasmWrite", "runtime.resetMemoryDataView", "runtime.nanotime1",
  "runtime.walltime", "runtime.getRandomData", "runtime.scheduleTimeoutEvent", "runtime.clearTimeoutEvent", "debug"]);

const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

const utf8 = new TextDecoder();

function reader(go) {
  const mem = () => go._inst.exports.mem.buffer;
  const dv = () => new DataView(mem());
  const i64 = (a) => dv().getUint32(a, true) + dv().getInt32(a + 4, true) * 4294967296;
  return (sp, at, kind) => {
    const a = sp + at;
    switch (kind) {
      case "u": return dv().getUint32(a, true);
      case "v": return [dv().getUint32(a, true), dv().getUint32(a + 4, true)];
      case "i": return i64(a);
      case "b": return dv().getUint8(a);
      case "s": return utf8.decode(new Uint8Array(mem(), i64(a), i64(a + 8)));
      case "B": return hex(new Uint8Array(mem(), i64(a), i64(a + 8)));
      case "V": {
        const p = i64(a), n = i64(a + 8), out = [];
        for (let i = 0; i < n; i++) out.push([dv().getUint32(p + 8 * i, true), dv().getUint32(p + 8 * i + 4, true)]);
        return out;
      }
    }
    throw new Error("kind " + kind);
  };
}

// recordInit wraps go's imports (before the core is instantiated with them);
// finish(instance, fresh, core) — once the core waits for its first call,
// fresh being a copy of the instance's memory from before go.run — returns
// encode(), which makes the file.
export function recordInit(go) {
  const log = [];
  let recording = true, bad = null;
  const read = reader(go);
  for (const [mod, fns] of Object.entries(go.importObject)) {
    for (const [name, f] of Object.entries(fns)) {
      if (typeof f !== "function") continue;
      const spec = mod === "gojs" ? CALLS[name] : undefined;
      if (mod === "gojs" && !spec && QUIET.has(name)) continue;
      if (!spec) {
        // (host.js's, used by every guest: a fixed arity, no array a call)
        const note = () => { if (recording) bad ??= `${mod}.${name} called while the core starts`; };
        fns[name] = f.length <= 6 ? (a, b, c, d, e, g) => (note(), f(a, b, c, d, e, g)) : (...a) => (note(), f(...a));
        continue;
      }
      // (Go's imports take the stack pointer alone; these stay for the
      // instance's life, so they cost one test once recording has ended)
      fns[name] = (sp) => {
        if (!recording) return f(sp);
        sp >>>= 0;
        const op = [name, ...spec.args.map(([at, k]) => read(sp, at, k))];
        const r = f(sp);
        const after = go._inst.exports.getsp() >>> 0;
        for (const [at, k] of spec.res || []) op.push(read(k.endsWith("@") ? after : sp, at, k.replace("@", "")));
        log.push(op);
        return r;
      };
    }
  }
  const resume = go._resume;
  let calling = false;
  go._resume = function () {
    if (recording && !calling) bad ??= "JS called into Go while the core started";
    if (recording && calling && go._pendingEvent) {
      // a call made through call(): the replay hands Go the same event
      // with the arguments of its own call
      const e = go._pendingEvent;
      log.push(["event", e.id, go._ids.get(e.this) ?? -1, e.args.length]);
    }
    return resume.call(this);
  };
  return {
    // call(f) records f, a call into the core (e.g. its init), as part of the
    // start: restoreInit then takes that call's arguments and gives its result
    call(f) {
      calling = true;
      try {
        return f();
      } finally {
        calling = false;
      }
    },
    // finish(instance, fresh, core) ends the recording and takes what the
    // state is made of; the returned encode() makes the file from it later,
    // off the start's path. It throws what made the start impossible to record.
    finish(instance, fresh, core) {
      recording = false;
      if (bad) throw new Error(bad);
      if (go.exited || go._pendingEvent || go._scheduledTimeouts.size) throw new Error("the core is not idle");
      const mem = new Uint8Array(instance.exports.mem.buffer).slice();
      const globals = {};
      for (const [name, g] of Object.entries(instance.exports)) {
        if (name.startsWith(GLOBAL_PREFIX)) globals[name] = String(g.value);
      }
      const probe = fingerprint(fresh);
      return () => encode(mem, fresh, { core, size: mem.length, probe, globals, log });
    },
  };
}

// fingerprint sums 256 pages spread over a new instance's memory (its data
// segments): the recorded core's, checked before its state is put back.
function fingerprint(mem) {
  const words = new Int32Array(mem.buffer, mem.byteOffset, mem.length >> 2);
  const pages = mem.length / PAGE;
  let h = 0x811c9dc5;
  for (let k = 0; k < 256; k++) {
    const start = Math.floor((k * pages) / 256) * (PAGE >> 2);
    for (let i = start; i < start + (PAGE >> 2) && i < words.length; i++) h = Math.imul(h ^ words[i], 0x01000193);
  }
  return `${mem.length}:${(h >>> 0).toString(16)}`;
}

// encode writes the file: the header, then the pages of mem that differ from
// fresh (a new instance's memory).
function encode(mem, fresh, head) {
  const now = new Int32Array(mem.buffer, mem.byteOffset, mem.length >> 2);
  const was = new Int32Array(fresh.buffer, fresh.byteOffset, fresh.length >> 2);
  const words = PAGE >> 2;
  const pages = [];
  for (let p = 0; p * PAGE < mem.length; p++) {
    for (let i = p * words, end = i + words; i < end; i++) {
      if (now[i] !== (i < was.length ? was[i] : 0)) {
        pages.push(p);
        break;
      }
    }
  }
  const json = new TextEncoder().encode(JSON.stringify({ ...head, pages }));
  const base = MAGIC.length + 4 + json.length;
  const out = new Uint8Array(base + pages.length * PAGE);
  out.set(MAGIC);
  new DataView(out.buffer).setUint32(MAGIC.length, json.length, true);
  out.set(json, MAGIC.length + 4);
  pages.forEach((p, i) => out.set(mem.subarray(p * PAGE, (p + 1) * PAGE), base + i * PAGE));
  return out;
}

// restoreInit puts the recorded state into instance (new, of the same core,
// instantiated with go.importObject and not run) and makes go its Go object
// as go.run would have. calls are the arguments of the calls recorded with
// call(), in their order. It returns their results (an array), or false when
// the file does not fit (the instance must then be dropped).
export function restoreInit(go, instance, file, core, calls = []) {
  try {
    return restore(go, instance, file, core, calls);
  } catch (_) {
    return false; // (a damaged file)
  }
}

function restore(go, instance, file, core, calls) {
  if (!file || file.length < MAGIC.length + 4 || MAGIC.some((b, i) => file[i] !== b)) return false;
  const n = new DataView(file.buffer, file.byteOffset).getUint32(MAGIC.length, true);
  const h = JSON.parse(utf8.decode(file.subarray(MAGIC.length + 4, MAGIC.length + 4 + n)));
  const base = MAGIC.length + 4 + n;
  if (h.core !== core || !Array.isArray(h.pages) || !Array.isArray(h.log) || file.length !== base + h.pages.length * PAGE) return false;
  const memory = instance.exports.mem;
  // (a core other than the recorded one, under the same name, has other data)
  if (memory.buffer.byteLength > h.size || fingerprint(new Uint8Array(memory.buffer)) !== h.probe) return false;
  if (memory.buffer.byteLength < h.size) memory.grow((h.size - memory.buffer.byteLength) / 65536);
  const mem = new Uint8Array(memory.buffer);
  h.pages.forEach((p, i) => mem.set(file.subarray(base + i * PAGE, base + (i + 1) * PAGE), p * PAGE));
  for (const [name, v] of Object.entries(h.globals)) {
    const g = instance.exports[name];
    if (!(g instanceof WebAssembly.Global)) return false;
    g.value = typeof g.value === "bigint" ? BigInt(v) : Number(v);
  }
  // as go.run sets them up
  go._inst = instance;
  go.mem = new DataView(memory.buffer);
  go._values = [NaN, 0, null, true, false, globalThis, go];
  go._goRefCounts = new Array(go._values.length).fill(Infinity);
  go._ids = new Map([[0, 1], [null, 2], [true, 3], [false, 4], [globalThis, 5], [go, 6]]);
  go._idPool = [];
  go.exited = false;
  const resume = go._resume;
  go._resume = () => { throw new Error("wasmsand: the core's start is being restored"); };
  try {
    return replay(go, h.log, calls);
  } finally {
    go._resume = resume;
  }
}

// replay makes the recorded calls again on go's value table, as Go's
// wasm_exec.js would, and says whether each gave what it gave then.
function replay(go, log, calls) {
  const results = [];
  let event = null;
  const f64 = new DataView(new ArrayBuffer(8));
  const load = ([lo, hi]) => {
    f64.setUint32(0, lo, true);
    f64.setUint32(4, hi, true);
    const f = f64.getFloat64(0, true);
    if (f === 0) return undefined;
    if (!isNaN(f)) return f;
    return go._values[lo];
  };
  const store = (v) => {
    if (typeof v === "number" && v !== 0) {
      if (isNaN(v)) return [0, NAN_HEAD];
      f64.setFloat64(0, v, true);
      return [f64.getUint32(0, true), f64.getUint32(4, true)];
    }
    if (v === undefined) return [0, 0];
    let id = go._ids.get(v);
    if (id === undefined) {
      id = go._idPool.pop();
      if (id === undefined) id = go._values.length;
      go._values[id] = v;
      go._goRefCounts[id] = 0;
      go._ids.set(v, id);
    }
    go._goRefCounts[id]++;
    const t = typeof v;
    const flag = t === "object" && v !== null ? 1 : t === "string" ? 2 : t === "symbol" ? 3 : t === "function" ? 4 : 0;
    return [id, (NAN_HEAD | flag) >>> 0];
  };
  const same = (a, b) => a[0] === b[0] && a[1] === b[1];
  const attempt = (f) => {
    try {
      return [store(f()), 1];
    } catch (e) {
      return [store(e), 0];
    }
  };
  const isBytes = (v) => v instanceof Uint8Array || v instanceof Uint8ClampedArray;
  const unhex = (s) => Uint8Array.from(s.match(/../g) || [], (x) => parseInt(x, 16));
  for (const [name, ...a] of log) {
    switch (name) {
      case "event": {
        // (Go has set the previous call's result by now)
        if (event) results.push(event.result);
        const args = calls[results.length];
        if (!args || args.length !== a[2] || a[1] >= go._values.length) return false;
        event = { id: a[0], this: a[1] < 0 ? undefined : go._values[a[1]], args };
        go._pendingEvent = event;
        break;
      }
      case "syscall/js.finalizeRef": {
        const id = a[0];
        go._goRefCounts[id]--;
        if (go._goRefCounts[id] === 0) {
          const v = go._values[id];
          go._values[id] = null;
          go._ids.delete(v);
          go._idPool.push(id);
        }
        break;
      }
      case "syscall/js.stringVal":
        if (!same(store(a[0]), a[1])) return false;
        break;
      case "syscall/js.valueGet": // (a name or an index)
      case "syscall/js.valueIndex":
        if (!same(store(Reflect.get(load(a[0]), a[1])), a[2])) return false;
        break;
      case "syscall/js.valueSet":
      case "syscall/js.valueSetIndex":
        Reflect.set(load(a[0]), a[1], load(a[2]));
        break;
      case "syscall/js.valueDelete":
        Reflect.deleteProperty(load(a[0]), a[1]);
        break;
      case "syscall/js.valueCall": {
        const [r, ok] = attempt(() => {
          const v = load(a[0]);
          return Reflect.apply(Reflect.get(v, a[1]), v, a[2].map(load));
        });
        if (!same(r, a[3]) || ok !== a[4]) return false;
        break;
      }
      case "syscall/js.valueInvoke":
      case "syscall/js.valueNew": {
        const [r, ok] = attempt(() => name === "syscall/js.valueNew" ?
          Reflect.construct(load(a[0]), a[1].map(load)) : Reflect.apply(load(a[0]), undefined, a[1].map(load)));
        if (!same(r, a[2]) || ok !== a[3]) return false;
        break;
      }
      case "syscall/js.valueLength":
        if (parseInt(load(a[0]).length) !== a[1]) return false;
        break;
      case "syscall/js.valuePrepareString": {
        const s = new TextEncoder().encode(String(load(a[0])));
        if (!same(store(s), a[1]) || s.length !== a[2]) return false;
        break;
      }
      case "syscall/js.valueLoadString": {
        // the bytes Go copied then are in the memory: the string must be them
        const s = load(a[0]);
        if (!isBytes(s) || hex(s) !== a[1].slice(0, 2 * s.length)) return false;
        break;
      }
      case "syscall/js.valueInstanceOf":
        if ((load(a[0]) instanceof load(a[1]) ? 1 : 0) !== a[2]) return false;
        break;
      case "syscall/js.copyBytesToGo": {
        const src = load(a[0]);
        if (!isBytes(src)) {
          if (a[3] !== 0) return false;
          break;
        }
        if (a[3] !== 1 || hex(src.subarray(0, a[2])) !== a[1].slice(0, 2 * a[2])) return false;
        break;
      }
      case "syscall/js.copyBytesToJS": {
        const dst = load(a[0]);
        if (!isBytes(dst)) {
          if (a[3] !== 0) return false;
          break;
        }
        const src = unhex(a[1]);
        const n = Math.min(dst.length, src.length);
        dst.set(src.subarray(0, n));
        if (a[3] !== 1 || a[2] !== n) return false;
        break;
      }
      default:
        return false;
    }
  }
  if (event) results.push(event.result);
  return results.length === calls.length && !go._pendingEvent ? results : false;
}
