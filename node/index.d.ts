/** One event (see CreateOptions.onEvent); which fields are set depends on kind. */
export interface SandboxEvent {
  time: string;
  kind: "run_start" | "run_end" | "process_start" | "process_exit" | "output" | "network" | "limit";
  stream?: "stdout" | "stderr";
  data?: string; // (output: base64)
  run?: number;
  script?: string;
  pid?: number;
  argv?: string[];
  status?: number;
  duration_ms?: number;
  timed_out?: boolean;
  truncated?: boolean;
  reason?: string;
  /** network: the request (its URL without user information), whether the policy allowed it,
   *  by which rule (or why not: reason), the answer's status and the bytes read from it. */
  method?: string;
  url?: string;
  allowed?: boolean;
  rule?: string;
  http_status?: number;
  bytes?: number;
  /** limit: which limit was met: "timeout", "output", "output_flood", "memory", "processes". */
  limit?: string;
}

/** Options of Sandbox.create. */
export interface CreateOptions {
  /** Memory limit per guest program, in MB (default 256). */
  memoryLimitMb?: number;
  /** Default timeout of a run, in ms (default 30000). */
  timeoutMs?: number;
  /** Total bytes of files, in MB (default 256). */
  fsLimitMb?: number;
  /** Processes alive at once (default 64). */
  maxProcesses?: number;
  /** Bytes of output kept per stream per run (default 16 MiB). */
  outputLimit?: number;
  /** The most a pipeline stage hands on to the next, in MB (default 64): on this engine stages run
   *  one after another, so a stage's whole output is held; past it the writer gets EPIPE and, when
   *  the next stage reads everything, a "wasmsand: ... input was cut" line on its stderr. */
  pipeBufferMb?: number;
  /** What python3 is: "pyodide" (default), Pyodide's CPython 3.14 in the same worker, over the
   *  same files, loaded before the first run that names python (~1 s from the package's snapshot;
   *  asked for by name, it starts loading once the worker has been quiet for a second after the sandbox is made) and reused after; or "wasi",
   *  CPython 3.11 as a WASI program like every other command (as natively: no packages). */
  python?: "wasi" | "pyodide";
  /** With python: "pyodide", where packages come from: a URL or (Node) a directory holding Pyodide's
   *  distribution (its pyodide-lock.json's wheels) or wheels of your own (`name-version-*.whl`).
   *  Default: Pyodide's CDN for its version; "none": no loading. A run's imports (in its command
   *  line and the scripts it names) are loaded, with their dependencies, before it starts. */
  pythonIndex?: string;
  /** Added to the sandbox's default environment (the host's is never visible). */
  env?: Record<string, string>;
  /** Files to create, by path (relative paths are under /home/user). */
  files?: Record<string, string | Uint8Array>;
  /** Where the files persist: loaded now, saved after each run and on save().
   *  Node: a host directory holding vfs.state (the format of `wasmsand run --save DIR`).
   *  Browser: a name; the state is kept in IndexedDB (two slots, so a tab closed in the
   *  middle of a save leaves the previous state loadable). Forks are not persisted. */
  persist?: string;
  /** Node: where the guest programs are (default: the package's assets/). */
  assetsDir?: string;
  /** Where the guest programs are. Browser: a URL (default: assets/ beside the package's
   *  web/ directory). Node: a file: URL or a path (the same as assetsDir). */
  assetsUrl?: string | URL;
  /** Browser: URL of a served copy of the package's directory (the one holding web/, assets/,
   *  pyodide/ and wasmsand.wasm), for apps whose bundler does not emit the files that
   *  `new URL("./file", import.meta.url)` names (esbuild): the worker, the core, the programs and
   *  Pyodide are loaded from there. Vite and webpack need none: they emit the files and the
   *  package finds them where they were put. coreUrl, workerUrl, assetsUrl and pyodideUrl win
   *  over it. */
  baseUrl?: string | URL;
  /** Browser: URL of the core (default: wasmsand.wasm beside the package's web/ directory). */
  coreUrl?: string | URL;
  /** Browser: URL of the package's web/worker.js, the Web Worker that runs the core (default:
   *  worker.js beside web/index.js). */
  workerUrl?: string | URL;
  /** Browser: URL of the core's recorded start, which a first visit puts back instead of
   *  starting the core (default: the package's wasmsand.browser.init when coreUrl is not given,
   *  else none; "" for none). A start recorded on another core or in another environment is
   *  refused and the core starts as usual. */
  coreStateUrl?: string | URL;
  /** Browser: URL of Pyodide's files, for python: "pyodide" (default: pyodide/ beside the package's
   *  web/ directory). */
  pyodideUrl?: string | URL;
  /** URL prefixes that GET and HEAD may reach (as the CLI's --allow-net): curl, wget and python's
   *  http.client/urllib go through the sandbox's network bridge, deny by default. Private,
   *  loopback and link-local addresses stay refused unless a rule names the address itself.
   *  Node checks the address each name resolves to and connects there; a browser cannot see
   *  DNS (its own CORS rules apply on top), and follows redirects itself: the URL it ends at
   *  must be allowed too. */
  allowNet?: string[];
  /** A policy document (wasmsand's YAML format; as text, or the same as an object): network
   *  rules and budgets, secrets, environment, resources, capabilities. Options given here
   *  explicitly win over its limits. Host mounts: use mount() instead. */
  policy?: string | object;
  /** A policy profile by name instead: "restrictive", "standard" or "permissive". */
  profile?: "restrictive" | "standard" | "permissive";
  /** The values of the secrets the policy declares, by name: sent only to their hosts, never
   *  visible inside the sandbox, and redacted from what comes back. */
  secrets?: Record<string, string>;
  /** What happens in the sandbox, as it happens: runs (start, end with status and duration),
   *  processes (argv, pid, exit status), network requests (allowed or not, rule, status, bytes). A fork's events reach the handler of its parent. */
  onEvent?: (e: SandboxEvent) => void;
  /** Progress of what loads: in a browser each guest program fetched, by the byte (`cached` when
   *  it came from the Cache API); in both, Pyodide ("pyodide", and its snapshot by the byte in a
   *  browser) and each Python package (its wheel's file name), 0 of 1 then 1 of 1. Called for
   *  what this sandbox's own calls (and its forks') load, though sandboxes of one worker share
   *  what it has loaded. */
  onProgress?: (p: { asset: string; loaded: number; total: number; cached?: boolean }) => void;
}

/** Options of Sandbox.run. */
export interface RunOptions {
  /** The run's standard input: all of it (a string or bytes), or a stream that programs
   *  read as it comes (a ReadableStream or an async iterable of strings or bytes; its end is
   *  the end of input; it is read when a program waits for input, and what the run did not
   *  read stays in it, or comes back in the result's unreadStdin). A stream
   *  needs SharedArrayBuffer: Node, or a cross-origin isolated page (else "invalid_argument"). */
  stdin?: string | Uint8Array | ReadableStream<string | Uint8Array> | AsyncIterable<string | Uint8Array>;
  /** Programs see a terminal (isatty): on a streamed stdin (a REPL starts, `read -p` prompts),
   *  and on stdout and stderr when they are streamed (onStdout/onStderr: `ls` writes columns,
   *  colours with --color=auto, output is line-buffered). */
  terminal?: boolean;
  /** Added to the environment for this run only. */
  env?: Record<string, string>;
  /** Working directory for this run only. */
  cwd?: string;
  timeoutMs?: number;
  /** Run on a copy of the shell state (variables, cwd): files written are kept. */
  stateless?: boolean;
  /** Run the command as one script (`bash -c`): the EXIT trap fires at its end. */
  script?: boolean;
  /** $0 and the name in the shell's messages (default "bash"). */
  name?: string;
  /** Stops the run when aborted: the promise rejects with code "canceled" and the sandbox
   *  goes on. Where there is no SharedArrayBuffer (a browser page without COOP/COEP headers)
   *  the worker must end instead: every sandbox of that worker rejects with "closed". */
  signal?: AbortSignal;
  /** "buffer": stdout and stderr as Uint8Array instead of UTF-8 strings. */
  encoding?: "utf8" | "buffer";
  /** Called with the run's output as it is produced (the shell's and every program's that
   *  writes to the run's own stdout/stderr; a pipeline's earlier stages hand theirs on when
   *  they exit, as stages run one after another on this engine). */
  onStdout?: (chunk: string | Uint8Array) => void;
  onStderr?: (chunk: string | Uint8Array) => void;
}

export interface RunResult<Out = string> {
  exitCode: number;
  stdout: Out;
  stderr: Out;
  executionTimeMs: number;
  /** Output went past outputLimit and was cut. */
  truncated: boolean;
  /** The run was killed at its timeout (exitCode 124). */
  timedOut: boolean;
  /** The shell ran `exit`: an interactive front end ends here (the sandbox itself goes on). */
  exited: boolean;
  /** With a streamed stdin: what the run took from the stream and did not read (a stream
   *  is read on demand, when a program waits for input; the rest stays in the stream, whose
   *  lock is released when the run ends, so the next run can go on reading it). */
  unreadStdin?: Out;
}

export interface FileInfo {
  name: string;
  type: "file" | "directory" | "symlink" | "fifo" | "other";
  size: number;
  mode: number;
  mtimeMs: number;
}

export interface Snapshot {
  readonly id: string;
}

/** An error of the sandbox; code is stable (the Go API's core.Code). */
export class SandboxError extends Error {
  readonly code:
    | "not_found" | "exists" | "not_a_directory" | "is_a_directory" | "not_empty"
    | "permission_denied" | "read_only" | "no_space" | "invalid_argument" | "invalid_module"
    | "timeout" | "canceled" | "too_many_processes" | "closed" | "host_path" | "corrupt_state" | "storage"
    | "internal";
}

/** A sandbox: a bash session over its own files, with coreutils and python3 as WebAssembly. */
export class Sandbox {
  static create(options?: CreateOptions): Promise<Sandbox>;
  /** How many workers sandboxes are spread over: each worker holds one core with many
   *  sandboxes, which run one at a time; different workers run in parallel. Default: the
   *  machine's cores in Node, 1 in a page. Sandboxes made before keep their worker.
   *  baseUrl: the browser's CreateOptions.baseUrl for every create that gives none. */
  static configure(options: { workers?: number; baseUrl?: string | URL }): void;
  /** The workers and their load: how many sandboxes each holds and how many calls wait in
   *  its queue (a long run holds up only the sandboxes of its own worker). */
  static stats(): {
    workers: { sandboxes: number; queued: number; closed: boolean }[];
    idleWorkers: number;
    maxWorkers: number;
  };
  run(command: string, options?: RunOptions & { encoding?: "utf8" }): Promise<RunResult>;
  run(command: string, options: RunOptions & { encoding: "buffer" }): Promise<RunResult<Uint8Array>>;
  /** Ctrl-C for the running command, as a terminal's SIGINT: a program that handles it
   *  (python3's interactive interpreter: KeyboardInterrupt) goes on, and this resolves true;
   *  false when none took it within 300 ms (then stop the run with its `signal`). Only a run
   *  with a streamed stdin can be interrupted. */
  interrupt(): Promise<boolean>;
  /** Whether script needs more lines to be complete commands (an open quote, block or
   *  here-document), as an interactive shell asks for them with its PS2 prompt. */
  incomplete(script: string): Promise<boolean>;
  readFile(path: string): Promise<Uint8Array>;
  readFile(path: string, options: "utf8" | { encoding: "utf8" }): Promise<string>;
  writeFile(path: string, data: string | Uint8Array | ArrayBuffer, options?: { mode?: number }): Promise<void>;
  listDir(path?: string): Promise<FileInfo[]>;
  stat(path: string): Promise<FileInfo>;
  remove(path: string, options?: { recursive?: boolean }): Promise<void>;
  mkdir(path: string, options?: { mode?: number }): Promise<void>;
  /** Node: a host directory at `dir` in the sandbox, confined to it (no "..", absolute or
   *  escaping symlink reaches outside); read-only with {readOnly: true}. Mounts are not
   *  part of snapshots or saved state. Rejects with "invalid_argument" in a browser. */
  mount(hostDir: string, dir: string, options?: { readOnly?: boolean }): Promise<void>;
  snapshot(): Promise<Snapshot>;
  restore(snapshot: Snapshot): Promise<void>;
  fork(): Promise<Sandbox>;
  /** The files as one byte array; with persist, also saved there. */
  save(): Promise<Uint8Array>;
  destroy(): Promise<void>;
}

declare const _default: { Sandbox: typeof Sandbox; SandboxError: typeof SandboxError; createSandboxTools: typeof createSandboxTools };
export default _default;

/** A tool's result, as the model gets it (long outputs cut in the middle, with a marker). */
export interface SandboxToolResult {
  stdout?: string;
  stderr?: string;
  exitCode: number;
  /** readFile: the text; writeFile: what was written. */
  content?: string;
  /** A call that could not be made (bad arguments, no such file), for the model to read. */
  error?: string;
}

/** A tool as the Vercel AI SDK takes it (its `Tool`): `inputSchema` is what the SDK's
 *  `jsonSchema()` makes, so `generateText({ tools: createSandboxTools(sb).tools })` works as is. */
export interface SandboxAITool {
  description: string;
  /** The AI SDK's schema object (marked with Symbol.for("vercel.ai.schema")); its JSON Schema
   *  is `inputSchema.jsonSchema`. Typed loosely so that no import of the SDK is needed. */
  inputSchema: any;
  execute(args: any, options?: any): Promise<SandboxToolResult>;
}

/** An OpenAI Chat Completions function tool. */
export interface OpenAITool {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown>; strict?: boolean };
}

/** An Anthropic Messages API tool. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

/** The sandbox as LLM tools: bash, readFile, writeFile (the shape bash-tool users know).
 *  - `tools`: for the Vercel AI SDK: `generateText({ model, tools })` as they are;
 *  - `openai`: Chat Completions `tools`; `anthropic`: Messages API `tools`;
 *  - `execute(name, args)`: run a model's call (args as an object or its JSON text). */
export function createSandboxTools(sandbox: Sandbox, options?: { maxOutput?: number }): {
  tools: Record<"bash" | "readFile" | "writeFile", SandboxAITool>;
  openai: OpenAITool[];
  anthropic: AnthropicTool[];
  execute(name: string, args: object | string): Promise<SandboxToolResult>;
};
