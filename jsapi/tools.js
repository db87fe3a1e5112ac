// createSandboxTools gives a Sandbox to an LLM framework: the tools bash,
// readFile and writeFile, in the shape bash-tool users know, with their
// definitions for OpenAI function calling, Anthropic tool use and the
// Vercel AI SDK. The definitions are the Go package tools' (scripts/npm
// writes them in as __WASMSAND_TOOLS__); results are sized for a model:
// long outputs are cut in the middle, with a marker saying how much.
import { Code } from "./protocol.js";

const DEFS = typeof __WASMSAND_TOOLS__ === "object" ? __WASMSAND_TOOLS__ : null;

// trim leaves out the middle of a long text, as llmtools.Trim does in Go.
export function trim(text, max) {
  const b = new TextEncoder().encode(text);
  if (b.length <= max) return text;
  let head = max >> 1;
  const tail = max - head;
  const nl = b.lastIndexOf(10, head - 1);
  if (nl >= head >> 1) head = nl + 1;
  while (head > 0 && (b[head] & 0xc0) === 0x80) head--;
  let t = b.length - tail;
  const nl2 = b.indexOf(10, t);
  if (nl2 >= 0 && nl2 - t < tail >> 1) t = nl2 + 1;
  while (t < b.length && (b[t] & 0xc0) === 0x80) t++;
  const dec = new TextDecoder();
  return `${dec.decode(b.subarray(0, head))}[... ${t - head} bytes left out of ${b.length} ...]\n${dec.decode(b.subarray(t))}`;
}

// aiSchema is the AI SDK's jsonSchema(schema): the SDK takes an object with
// this marker, jsonSchema and validate as a schema (anything else it calls
// as a lazy schema). The arguments are checked by execute instead.
function aiSchema(schema) {
  return { [Symbol.for("vercel.ai.schema")]: true, _type: undefined, jsonSchema: schema, validate: undefined };
}

export function createSandboxTools(sandbox, { maxOutput = 30000 } = {}) {
  if (!DEFS) throw new Error("createSandboxTools: this build has no tool definitions (scripts/npm writes them)");
  // execute runs a model's call; a failure the model should see is in .error
  async function execute(name, args = {}) {
    if (typeof args === "string") {
      try { args = JSON.parse(args); } catch (e) { return { exitCode: 2, error: "the arguments are not JSON: " + e.message }; }
    }
    try {
      switch (name) {
        case "bash": {
          if (!args.command || !String(args.command).trim()) return { exitCode: 2, error: "command is required" };
          const r = await sandbox.run(String(args.command));
          return { stdout: trim(r.stdout, maxOutput), stderr: trim(r.stderr, maxOutput), exitCode: r.exitCode };
        }
        case "readFile":
          if (!args.path) return { exitCode: 2, error: "path is required" };
          return { content: trim(await sandbox.readFile(String(args.path), "utf8"), maxOutput), exitCode: 0 };
        case "writeFile":
          if (!args.path || typeof args.content !== "string") return { exitCode: 2, error: "path and content are required" };
          await sandbox.writeFile(String(args.path), args.content);
          return { content: `wrote ${new TextEncoder().encode(args.content).length} bytes to ${args.path}`, exitCode: 0 };
      }
      return { exitCode: 2, error: `no tool "${name}" (bash, readFile, writeFile)` };
    } catch (e) {
      if (e && e.code && e.code !== Code.closed && e.code !== Code.internal) return { exitCode: 1, error: e.message.replace(/^wasmsand: /, "") };
      throw e;
    }
  }
  // the AI SDK's own tool shape: its inputSchema is what the SDK's
  // jsonSchema() makes (an object marked with Symbol.for("vercel.ai.schema")),
  // so that tools go to generateText/streamText as they are, with no import
  // of the SDK here
  const tools = {};
  for (const [name, d] of Object.entries(DEFS.vercel)) {
    tools[name] = { description: d.description, inputSchema: aiSchema(d.inputSchema), execute: (args) => execute(name, args) };
  }
  return { tools, execute, openai: DEFS.openai, anthropic: DEFS.anthropic };
}
