// boot.js starts the workspace's sandbox as early as the page can: index.html loads it
// as an async module, which runs as soon as it and the core's loader have arrived,
// while the terminal's code is still loading. app.js takes what it started.
import { Sandbox } from "./web/index.js";

export const workspace = (() => {
  try { return JSON.parse(localStorage.getItem("wasmsand-playground:workspace")) ?? "default"; } catch { return "default"; }
})();

// progress reports each download (the core's, then the programs') to whoever
// listens: app.js, once it runs, hears the last report made before it.
const listeners = new Set();
let last = null;
export function onProgress(f) {
  listeners.add(f);
  if (last) f(last);
  return () => listeners.delete(f);
}
export function progress(p) {
  last = p;
  for (const f of listeners) f(p);
}

// Someone who ran python here before finds Pyodide loaded again once the page is
// quiet (python: "pyodide" preloads it; its files are in the Cache API by then), so
// that their first python3 does not wait ~1.5 s for it. app.js sets the key.
const pythonUser = (() => { try { return localStorage.getItem("wasmsand-playground:python") === "true"; } catch { return false; } })();
export const first = Sandbox.create({ persist: "playground-" + workspace, onProgress: progress, ...(pythonUser ? { python: "pyodide" } : {}) });
first.catch(() => {}); // (app.js reports it)
