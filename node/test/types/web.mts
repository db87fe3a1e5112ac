// The browser entry's types.
import { Sandbox, KEPT_KEY } from "wasmsand/web/index.js";
import { Sandbox as Default } from "wasmsand";

const sb = await Sandbox.create({ workerUrl: new URL("https://example.com/worker.js"), coreStateUrl: "" });
// a served copy of the package (esbuild), once for every create, or for one
Sandbox.configure({ baseUrl: "/wasmsand/", workers: 2 });
const other = await Default.create({ baseUrl: new URL("https://example.com/wasmsand/"), pyodideUrl: "https://example.com/py/" });
const key: string = KEPT_KEY;
void [sb, other, key];
