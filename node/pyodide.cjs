// Pyodide as Node loads it, for jsapi/python.js's installPython: from the
// package's pyodide/ directory (dir/pyodide), starting from the memory
// snapshot scripts/npm wrote there. Shared by the core's worker thread
// (worker.cjs) and the python helper thread (pyhelper.cjs).
"use strict";
const fs = require("fs");
const path = require("path");
const { pathToFileURL, fileURLToPath } = require("url");
const { readSnapshot } = require("../jsapi/python.js");

// nodePython(dir, progress) → installPython's options, or null when the
// package has no Pyodide.
exports.nodePython = function nodePython(dir, progress) {
  const pyodideDir = path.join(dir, "pyodide");
  if (!fs.existsSync(path.join(pyodideDir, "pyodide.mjs"))) return null;
  return {
    indexURL: pyodideDir + path.sep,
    loadPyodide: async (opts) => (await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href)).loadPyodide(opts),
    listIndex: (index) => {
      if (/^[a-z][a-z0-9+.-]+:/i.test(index) && !index.startsWith("file:")) return null;
      try {
        return fs.readdirSync(index.startsWith("file:") ? fileURLToPath(index) : index);
      } catch (_) {
        return null;
      }
    },
    progress,
    loadAsm: async () => (await import(pathToFileURL(path.join(pyodideDir, "pyodide.asm.mjs")).href)).default,
    snapshot: async () => {
      const f = path.join(pyodideDir, "snapshot.bin");
      if (!fs.existsSync(f)) return null;
      const fd = fs.openSync(f, "r");
      try {
        return readSnapshot((dst, off, len, pos) => {
          for (let done = 0; done < len;) {
            const n = fs.readSync(fd, dst, off + done, len - done, pos + done);
            if (n === 0) throw new Error("snapshot: short file");
            done += n;
          }
        }, () => fs.closeSync(fd));
      } catch (e) {
        fs.closeSync(fd);
        throw e;
      }
    },
  };
};
