// go test -exec for GOOS=js: Go's wasm_exec_node.js with the JS half of the
// engine (host.js) installed. usage: node go_js_exec.js prog.wasm [args]
"use strict";
const path = require("path");
const { execFileSync } = require("child_process");
globalThis.require = require;
globalThis.fs = require("fs");
globalThis.path = path;
// IndexedDB for platform/js/idbstate's test: npm's fake-indexeddb (a dev dependency)
try { require("fake-indexeddb/auto"); } catch { /* not installed: that test skips */ }
const goroot = process.env.GOROOT || execFileSync("go", ["env", "GOROOT"]).toString().trim();
require(path.join(goroot, "lib", "wasm", "wasm_exec.js"));
const { install } = require(path.join(__dirname, "..", "host.js"));
const go = new Go();
go.argv = process.argv.slice(2);
go.env = Object.assign({ TMPDIR: require("os").tmpdir() }, process.env);
// as jsapi/worker.js runs the core (quick host calls; platform/js/host.go)
go.env.GODEBUG = [process.env.GODEBUG, "gcshrinkstackoff=1"].filter(Boolean).join(",");
go.exit = process.exit;
install(go);
WebAssembly.instantiate(fs.readFileSync(process.argv[2]), go.importObject).then((result) => {
  process.on("exit", (code) => {
    if (code === 0 && !go.exited) {
      go._pendingEvent = { id: 0 };
      go._resume();
    }
  });
  return go.run(result.instance);
}).catch((err) => {
  console.error(err);
  process.exit(1);
});
