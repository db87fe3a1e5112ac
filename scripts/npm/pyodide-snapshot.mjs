// Writes a memory snapshot of Pyodide after it has started and imported the
// modules scripts use most, for jsapi/python.js to start from (~0.7 s
// instead of ~3 s). Run by scripts/npm: node pyodide-snapshot.mjs PYODIDE_DIR OUT_FILE.
// The snapshot is tied to this Pyodide build; Pyodide checks that. Nearly
// half of it is zero pages, so the file leaves them out (jsapi/python.js's
// readSnapshot): a gzip of 31 MB took ~400 ms to undo, this ~30 ms.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [dir, out] = process.argv.slice(2);
const { ERRNO, RUNNER, SUBPROCESS, setupKey } = await import(pathToFileURL(path.resolve("jsapi/python.js")).href);
const { loadPyodide } = await import(pathToFileURL(path.join(dir, "pyodide.mjs")).href);
const py = await loadPyodide({
  indexURL: path.resolve(dir) + path.sep, _makeSnapshot: true, jsglobals: {},
  env: { HOME: "/home/user" }, args: [], stdin: () => null, stdout: () => {}, stderr: () => {},
});
// Linux's errno numbers first, for the modules imported next to take
py.runPython(ERRNO);
// (the runner's own imports and the stdlib modules scripts use most)
py.runPython(`
import os, sys, io, types, builtins, importlib, atexit, signal, traceback, time, runpy, gc, subprocess
import json, csv, re, collections, functools, itertools, pathlib, datetime, math, random, shutil
import tempfile, typing, dataclasses, textwrap, argparse, string, struct, hashlib, base64, glob
import fnmatch, copy, heapq, bisect, decimal, fractions, statistics, operator, contextlib, enum
import urllib.parse, zipfile, gzip, tarfile, difflib, pprint, uuid, locale, codecs, unicodedata
import importlib.metadata  # (importlib.invalidate_caches, which every run calls, imports it)
`);
// the Python half (jsapi/python/*.py, as jsapi/python.js holds it), compiled and run once here
py.runPython(RUNNER);
py.runPython(SUBPROCESS);
// the modules of ours the core hands Pyodide (assets.PyodideModules, as
// JSON on stdin), made as ensureModules makes them
const make = py.globals.get("_wasmsand_module");
for (const m of JSON.parse(fs.readFileSync(0, "utf8"))) make(m.Name, m.Source, m.Then);
make.destroy();
py.globals.set("_wasmsand_setup", setupKey());
const snap = py.makeMemorySnapshot();
// "wsnap1", total length, page size, count, the indexes of the pages that
// are not all zero (u32 LE each), then those pages
const PAGE = 4096;
const pages = [];
for (let i = 0; i * PAGE < snap.length; i++) {
  const p = snap.subarray(i * PAGE, Math.min((i + 1) * PAGE, snap.length));
  if (p.some((b) => b !== 0)) pages.push(i);
}
const head = Buffer.alloc(6 + 12 + 4 * pages.length);
head.write("wsnap1", 0, "latin1");
head.writeUInt32LE(snap.length, 6);
head.writeUInt32LE(PAGE, 10);
head.writeUInt32LE(pages.length, 14);
pages.forEach((p, i) => head.writeUInt32LE(p, 18 + 4 * i));
fs.writeFileSync(out, Buffer.concat([head, ...pages.map((i) => snap.subarray(i * PAGE, Math.min((i + 1) * PAGE, snap.length)))]));
