// wasmsand in the browser: the Sandbox on the page is a thin proxy to a Web
// Worker (web/worker.js) that holds the core and runs every guest. The API
// is jsapi/sandbox.js, the Node package's (node/index.d.ts); no
// SharedArrayBuffer or special headers are needed (with them, an aborted
// run stops without ending its worker). persist: a name; the files are
// kept in IndexedDB (by the core, platform/js/idbstate).
import { CoreClient, SandboxError, defineSandbox } from "../jsapi/sandbox.js";

const here = new URL(".", import.meta.url);

export const Sandbox = defineSandbox({
  newCore(opts) {
    const worker = new Worker(opts.workerUrl || new URL("worker.js", here), { type: "module" });
    const core = new CoreClient({
      post: (m) => worker.postMessage(m),
      terminate: () => worker.terminate(),
    }, { onProgress: opts.onProgress });
    worker.onmessage = ({ data }) => core.receive(data);
    worker.onerror = (e) => core.failAll(new SandboxError("internal", "wasmsand core: " + (e.message || e)));
    worker.postMessage({ init: {
      coreUrl: String(opts.coreUrl || new URL("../wasmsand.wasm", here)),
      assetsUrl: String(opts.assetsUrl || new URL("../assets/", here)),
      abortFlag: core.abortFlag,
    } });
    return core;
  },

  persist(core, name) {
    name = String(name);
    return {
      async load() { return (await core.call("persistLoad", name)) || undefined; },
      async sync(id) { await core.call("persistSave", id, name); },
    };
  },
});

export { SandboxError };
export default { Sandbox, SandboxError };
