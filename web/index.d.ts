// The browser entry's types (wasmsand/web/index.js, the package's "browser"
// export): the same API as in Node, over a Web Worker. Options that only
// a browser reads (coreUrl, coreStateUrl, workerUrl, pyodideUrl, a persist
// name) are in CreateOptions.
export * from "../index.mjs";
export { default } from "../index.mjs";

/** The Cache API key prefix under which a page keeps the compiled core. */
export declare const KEPT_KEY: string;
