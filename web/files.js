// FILES: the package's files a page may load (the core, its recorded start,
// the guest programs, Pyodide's files), by their path in the package → URL.
// scripts/npm bundles into web/index.js a version of this module written
// with one literal new URL("../PATH", import.meta.url) per file: the form
// Vite and webpack follow, so an app's build emits every file and names
// each by the URL it emitted it at. Unbundled (here) it is null, and the
// URLs are derived from web/index.js's own.
export const FILES = null;
