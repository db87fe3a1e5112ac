// The Web Worker that holds a wasmsand core (GOOS=js) in the browser, the
// counterpart of node/worker.cjs (jsapi/worker.js does the work). Guest
// programs are fetched with synchronous requests (allowed in workers) from
// the assets URL and checked by the core against the manifest's sha256.
import "wasm_exec"; // Go's lib/wasm/wasm_exec.js (scripts/npm aliases it): globalThis.Go
import { startCore, serve } from "../jsapi/worker.js";

let base = "";

function fetchSync(url) {
  const xhr = new XMLHttpRequest();
  xhr.open("GET", url, false);
  xhr.responseType = "arraybuffer"; // (allowed for synchronous requests in workers)
  xhr.send();
  if (xhr.status !== 200) return { error: `GET ${url}: ${xhr.status}` };
  return new Uint8Array(xhr.response);
}

function fetchAsset(name) {
  const clean = name.split("/").filter((p) => p && p !== "." && p !== "..").join("/");
  try {
    const r = fetchSync(base + clean);
    if (!r.error) postMessage({ seq: 0, progress: { asset: clean, loaded: r.length, total: r.length } });
    return r;
  } catch (e) {
    return { error: String(e && e.message || e) };
  }
}

let handler = null;
const early = [];

onmessage = ({ data }) => {
  if (data.init) {
    const { coreUrl, assetsUrl, abortFlag } = data.init;
    base = assetsUrl.endsWith("/") ? assetsUrl : assetsUrl + "/";
    const corePromise = startCore({
      instantiate: (imports) => WebAssembly.instantiateStreaming(fetch(coreUrl), imports),
      fetchAsset,
      abortFlag,
      onFatal: (msg) => postMessage({ seq: 0, fatal: msg }),
    });
    corePromise.catch(() => {});
    handler = serve(corePromise, (msg, transfer) => postMessage(msg, transfer));
    for (const m of early.splice(0)) handler(m);
    return;
  }
  if (handler) handler(data);
  else early.push(data);
};
