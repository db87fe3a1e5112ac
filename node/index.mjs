import m from "./index.cjs";
export const { Sandbox, SandboxError } = m;
export default m;
