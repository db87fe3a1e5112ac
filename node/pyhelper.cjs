// A python helper thread (jsapi/pyremote.js): a Pyodide of its own, for the
// python3 runs the core's worker thread cannot take in its own (not loaded
// yet, or busy). The core's thread sleeps while this one loads Pyodide, then
// serves the host calls of the run this one makes.
"use strict";
const { workerData } = require("worker_threads");
const { installPython } = require("../jsapi/python.js"); // bundled in by scripts/npm
const { serveHelper, ended } = require("../jsapi/pyremote.js");
const { nodePython } = require("./pyodide.cjs");

// (an Atomics.waitAsync does not keep a Node thread alive: between runs
// it would end as idle)
setInterval(() => {}, 1 << 30);
process.on("exit", () => ended(workerData.toCore));
installPython(nodePython(workerData.dir));
serveHelper({ python: globalThis.__wasmsandPython, toCore: workerData.toCore, toHelper: workerData.toHelper, abortFlag: workerData.abortFlag });
