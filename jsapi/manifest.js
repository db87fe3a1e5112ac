// The asset manifest as the core's init takes it (cmd/wasmsand-js, manifestOf),
// shared by jsapi/worker.js and the tests that start a core as the worker does.

// runtimeManifest is the manifest as JSON.parse reads it, which the core
// takes as it is (many times quicker than Go's decoder under GOOS=js); the
// bytes, for the core to report, when JSON.parse refuses them.
//
// An asset's file list goes as one string, filesTable (a line per file:
// path, file, sha256, size, tab-separated), which the core reads in one
// call instead of about ten per file: the recorded start (coreinit.js)
// replays every call the core's init made, and perl's ~800 library files
// had made that 18,000 calls. A list with a field that does not fit a line
// (or of the wrong type) stays a list, for the core to report as before.
export function runtimeManifest(bytes) {
  let m;
  try {
    m = JSON.parse(new TextDecoder().decode(bytes));
  } catch (_) {
    return bytes;
  }
  for (const a of Array.isArray(m && m.assets) ? m.assets : []) {
    if (a && Array.isArray(a.files) && a.files.every(tableRow)) {
      a.filesTable = a.files.map((f) => `${f.path}\t${f.file}\t${f.sha256}\t${f.size}`).join("\n");
      delete a.files;
    }
  }
  return m;
}

const tableField = (s) => typeof s === "string" && !/[\t\n]/.test(s);
const tableRow = (f) => f !== null && typeof f === "object" && tableField(f.path) && tableField(f.file) &&
  tableField(f.sha256) && Number.isSafeInteger(f.size);

