// Type-checked by `make test-types` (tsc --noEmit, strict, nodenext)
// against the built package's declarations and the AI SDK's: what a
// TypeScript user writes compiles as is.
import { generateText, stepCountIs } from "ai";
import { Sandbox, SandboxError, createSandboxTools, type RunResult, type Snapshot } from "wasmsand";
import def from "wasmsand";

const sb: Sandbox = await Sandbox.create({ timeoutMs: 10_000, files: { "a.txt": "x" }, allowNet: ["https://example.com/"] });
const r: RunResult = await sb.run("cat a.txt", { stdin: "", onStdout: (s) => void s });
const bytes: RunResult<Uint8Array> = await sb.run("cat a.txt", { encoding: "buffer" });
const code: number = r.exitCode + bytes.stdout.length;
const more: boolean = await sb.incomplete("for i in 1; do");
const snap: Snapshot = await sb.snapshot();
const id: string = snap.id;
await sb.restore(snap);
const t = createSandboxTools(sb);
declare const model: Parameters<typeof generateText>[0]["model"];
await generateText({ model, tools: t.tools, prompt: "ls", stopWhen: stepCountIs(2) });
const fn: string = t.openai[0].function.name + t.anthropic[0].name;
const err: SandboxError | undefined = undefined;
void def.Sandbox; void def.createSandboxTools;
void [code, more, id, fn, err];
