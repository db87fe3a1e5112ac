// The Web Worker that holds a wasmsand core (GOOS=js) in the browser, the
// counterpart of node/worker.cjs: index.js sends it {seq, method, args}, it
// calls the core's method synchronously and answers {seq, value} or
// {seq, error}. Guest programs are fetched with synchronous requests (allowed
// in workers) from the assets URL, and checked by the core against the
// manifest's sha256.
import "wasm_exec"; // Go's lib/wasm/wasm_exec.js (scripts/npm aliases it): globalThis.Go
import "../platform/js/host.js"; // globalThis.wasmsandInstallHost

let core = null;
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

async function start(coreUrl, assetsUrl) {
  base = assetsUrl.endsWith("/") ? assetsUrl : assetsUrl + "/";
  const go = new Go();
  go.argv = ["wasmsand"];
  go.env = {};
  globalThis.wasmsandInstallHost(go);
  const ready = new Promise((resolve) => { globalThis.__wasmsandCoreReady = resolve; });
  const { instance } = await WebAssembly.instantiateStreaming(fetch(coreUrl), go.importObject);
  go.run(instance).catch((e) => postMessage({ seq: 0, fatal: String(e) }));
  await ready;
  const c = globalThis.__wasmsandCore;
  const manifest = fetchAsset("manifest.json");
  if (manifest.error) throw new Error("wasmsand: assets: " + manifest.error);
  const r = c.init(manifest, fetchAsset);
  if (r.error) throw new Error("wasmsand: assets: " + r.error.message);
  return c;
}

let corePromise = null;

onmessage = async ({ data: { seq, method, args, init } }) => {
  if (init) {
    corePromise = start(init.coreUrl, init.assetsUrl);
    corePromise.catch(() => {});
    return;
  }
  try {
    core = await corePromise;
  } catch (e) {
    postMessage({ seq, error: { code: "internal", message: String(e && e.message || e) } });
    return;
  }
  if (method === "run" && args.length > 4 && args[4] === true) {
    args[4] = (stream, data) => postMessage({ seq, stream, data }, [data.buffer]);
  }
  const res = core[method](...args);
  const transfer = [];
  const v = res.value;
  if (v instanceof Uint8Array) transfer.push(v.buffer);
  else if (v && v.stdout instanceof Uint8Array) transfer.push(v.stdout.buffer, v.stderr.buffer);
  postMessage({ seq, value: v, error: res.error }, transfer);
};
