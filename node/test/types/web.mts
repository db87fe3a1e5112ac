// The browser entry's types.
import { Sandbox, KEPT_KEY } from "wasmsand/web/index.js";

const sb = await Sandbox.create({ workerUrl: new URL("https://example.com/worker.js"), coreStateUrl: "" });
const key: string = KEPT_KEY;
void [sb, key];
