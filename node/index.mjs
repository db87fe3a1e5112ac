import m from "./index.cjs";
export const { Sandbox, SandboxError, createSandboxTools } = m;
export default m;
