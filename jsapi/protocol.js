// The worker protocol: every message between a sandbox's host side (the
// page, or Node's main thread: jsapi/sandbox.js's CoreClient, started by
// node/index.cjs or web/index.js) and the worker holding its core
// (jsapi/worker.js, in node/worker.cjs or web/worker.js). Its one
// definition: senders build messages with the functions below, receivers
// tell them apart with kindOf.
//
// kind      made by           direction       message
// call      call              host → worker   {seq, method, args}
// answer    answer, failure   worker → host   {seq, value, error}: error is undefined or
//                                             {code, message} (Code; the core's codes are
//                                             the Go API's core.Code, passed on as they are)
// output    output            worker → host   {seq, stream: "stdout"|"stderr", data}: a
//                                             streamed run's chunk, before its answer
//                                             (data, a Uint8Array, is transferred)
// event     event             worker → host   {seq: 0, event: {id, ...}}: an event of
//                                             sandbox id (create's onEvent)
// progress  progress          worker → host   {seq: 0, progress: {asset, loaded, total,
//                                             cached?}}: what loads
// fatal     fatal             worker → host   {seq: 0, fatal: message}: the core stopped
//                                             (every call in flight fails)
//
// seq numbers a call from 1 (the CoreClient counts); its answer and output
// carry it, and 0 marks a note that answers no call. method is one of the
// core's (globalThis.__wasmsandCore, cmd/wasmsand-js/main.go) and args are
// its arguments: plain values (strings, numbers, Uint8Arrays), create's and
// run's options as JSON text; the worker looks into the few that CREATE and
// RUN place.
//
// Abort is no message: a run stopped while it holds the worker's thread
// could not read one. Where shared memory exists the host makes an abort
// flag (abortFlag(): an Int32Array of one element, given to the worker with
// its platform's first message), a run that may be aborted names its own
// seq as its options' abortKey, and abort(flag, seq) stores that seq in the
// flag, which the core polls (cmd/wasmsand-js: abortFlag). Without shared
// memory the host ends the worker instead.
//
// Platform messages carry no seq; each passes between one platform's two
// halves only, and is sent before (init) or beside the calls:
// kind      made by           direction       message
// init      init              host → worker   Node: {init: {module}}, the compiled core
//                                             (node/index.cjs, scripts/npm/core-init.mjs);
//                                             browser: {init: {coreUrl, assetsUrl,
//                                             pyodideUrl, abortFlag, coreSha256,
//                                             pyodideOwn}} (web/index.js)
// module    coreModule        host → worker   {module}: the core the page compiled, or
//                                             null (browser)
// kept      keptStart         host → worker   {kept}: the core's recorded start the page
//                                             read (an ArrayBuffer, transferred), or null
//                                             (browser)
// state     recordedState     worker → host   {state}: a start the worker recorded, for
//                                             the page to keep (a Uint8Array,
//                                             transferred; browser)
// started   started           worker → host   {started: "restored"|"started"} (browser)
// recorded  recorded          worker → script {recorded: bytes, error}: a start recorded
//                                             for scripts/npm/core-init.mjs (Node)
// pyHelper  pyHelper          worker → worker {pyHelper: {toCore, toHelper, abortFlag,
//                                             pyodideUrl, pyodideOwn, files}}: the first
//                                             message to a Web Worker started from the
//                                             package's worker script as a python helper
//                                             (jsapi/pyremote.js; browser)

/** The kinds of message, as kindOf tells them. */
export const Kind = Object.freeze({
  call: "call", answer: "answer", output: "output",
  event: "event", progress: "progress", fatal: "fatal",
  init: "init", module: "module", kept: "kept", state: "state", started: "started", recorded: "recorded",
  pyHelper: "pyHelper",
});

/** The codes of the errors the JS halves make themselves (SandboxError.code);
 *  the core's other codes pass through (node/index.d.ts lists them all). */
export const Code = Object.freeze({
  internal: "internal",
  invalidArgument: "invalid_argument",
  closed: "closed",
  canceled: "canceled",
  storage: "storage",
});

// kindOf(m): the kind of a message, one of Kind (a call for anything else).
// The notes come first, as the host has always looked for them.
export function kindOf(m) {
  if (m.progress) return Kind.progress;
  if (m.event) return Kind.event;
  if (m.fatal) return Kind.fatal;
  if (m.init) return Kind.init;
  if ("module" in m) return Kind.module;
  if ("kept" in m) return Kind.kept;
  if (m.state) return Kind.state;
  if (m.started) return Kind.started;
  if ("recorded" in m) return Kind.recorded;
  if (m.pyHelper) return Kind.pyHelper;
  if ("method" in m) return Kind.call;
  if (m.stream) return Kind.output;
  return Kind.answer;
}

// The calls and their answers.
export const call = (seq, method, args) => ({ seq, method, args });
// answer: the core's result, {value, error} (error undefined when it succeeded)
export const answer = (seq, value, error) => ({ seq, value, error });
export const failure = (seq, code, message) => ({ seq, error: { code, message } });
export const output = (seq, stream, data) => ({ seq, stream, data });

// The notes (seq 0).
export const event = (id, ev) => ({ seq: 0, event: { id, ...ev } });
export const progress = (p) => ({ seq: 0, progress: p });
export const fatal = (message) => ({ seq: 0, fatal: message });

// The platform messages.
export const init = (value) => ({ init: value });
export const coreModule = (module) => ({ module });
export const keptStart = (bytes) => ({ kept: bytes });
export const recordedState = (bytes) => ({ state: bytes });
export const started = (how) => ({ started: how });
export const recorded = (length, error) => ({ recorded: length, error });
export const pyHelper = (value) => ({ pyHelper: value });

// Where the worker looks into a call's arguments, by position (see
// callArgs); the others go to the core as they are.
//   create(options: JSON text, state?: Uint8Array, files?: {path: Uint8Array})
//   run(id, command, options: JSON text, stdin, streaming)
// run's stdin is undefined, bytes, or stdinPipe(sab): a streamed stdin
// (jsapi/stdin.js), which the worker turns into a reader; streaming true asks
// for output messages, which the worker sends from a callback in its place.
export const CREATE = Object.freeze({ options: 0, state: 1, files: 2 });
export const RUN = Object.freeze({ id: 0, command: 1, options: 2, stdin: 3, streaming: 4 });

// callArgs(layout, fields) → the arguments array: each of layout's fields
// at its position.
export function callArgs(layout, fields) {
  const args = new Array(Object.keys(layout).length);
  for (const [name, at] of Object.entries(layout)) args[at] = fields[name];
  return args;
}

export const stdinPipe = (sab) => ({ stdinPipe: sab });
// pipeOf(stdin) → the streamed stdin's shared memory, or null
export const pipeOf = (stdin) => (stdin && stdin.stdinPipe) || null;

// abortFlag() → the flag a host's calls are aborted through, or null where
// there is no shared memory; abort(flag, seq) aborts call seq.
export function abortFlag() {
  return typeof SharedArrayBuffer === "function" && typeof Atomics === "object"
    ? new Int32Array(new SharedArrayBuffer(4)) : null;
}
export function abort(flag, seq) {
  Atomics.store(flag, 0, seq);
}
