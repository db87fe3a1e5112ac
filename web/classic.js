// webpack 5 starts `new Worker(new URL(…), { type: "module" })` as a
// classic worker unless told otherwise, and Pyodide refuses to load in one
// (it would load its module script with importScripts; this worker hands
// it the module itself, imported with import(), which classic workers have
// too). So where importScripts works, it is made to throw as it does in a
// module worker, before Pyodide's loader (bundled into the worker, which
// looks when it is evaluated) is evaluated: this module is imported first.
if (typeof globalThis.importScripts === "function") {
  try {
    globalThis.importScripts("data:text/javascript,");
    globalThis.importScripts = () => {
      throw new TypeError("importScripts is not available in this worker");
    };
    globalThis.__wasmsandClassicWorker = true; // (a python helper is started as one too)
  } catch {
    // a module worker
  }
}
