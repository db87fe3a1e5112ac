// createSandboxTools' tools handed to the Vercel AI SDK as they are: a mock
// model (the SDK's own MockLanguageModelV4) calls the bash tool, the SDK
// runs it in the sandbox, and the model's second step sees its output.
// Run from the repository's root: node node/test/aisdk.mjs build/npm
import assert from "node:assert";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV4 } from "ai/test";

const pkg = path.resolve(process.argv[2] || "build/npm");
const { Sandbox, createSandboxTools } = await import(pathToFileURL(path.join(pkg, "index.mjs")).href);

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const sb = await Sandbox.create({ files: { "data.csv": "b,2\na,1\n" } });
try {
  const seen = [];
  const model = new MockLanguageModelV4({
    doGenerate: async (opts) => {
      seen.push(opts);
      if (seen.length === 1) {
        return {
          content: [{ type: "tool-call", toolCallId: "c1", toolName: "bash", input: JSON.stringify({ command: "sort data.csv | cut -d, -f1" }) }],
          finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage, warnings: [],
        };
      }
      return { content: [{ type: "text", text: "done" }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
    },
  });
  const { tools } = createSandboxTools(sb);
  const res = await generateText({ model, tools, prompt: "sort the file", stopWhen: stepCountIs(3) });
  assert.strictEqual(res.text, "done");
  // the model was offered the three tools with their JSON schemas
  const offered = seen[0].tools.map((t) => [t.name, t.inputSchema.required]);
  assert.deepStrictEqual(offered, [["bash", ["command"]], ["readFile", ["path"]], ["writeFile", ["path", "content"]]]);
  // the SDK ran the call in the sandbox and gave the model its result
  const results = res.steps[0].toolResults;
  assert.strictEqual(results.length, 1);
  assert.deepStrictEqual(results[0].output, { stdout: "a\nb\n", stderr: "", exitCode: 0 });
  assert.match(JSON.stringify(seen[1].prompt), /"tool-result".*"stdout":"a\\nb\\n"/);
  console.log("ai sdk: ok (generateText with createSandboxTools(sb).tools as they are: a mock model called bash, the sandbox ran it)");
} finally {
  await sb.destroy();
}
