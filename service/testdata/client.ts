// A TypeScript client of the HTTP service written against the types that
// openapi-typescript generates from our OpenAPI document (make
// lint-openapi): the calls the Go tests make (create, run, files,
// snapshot, restore, fork, delete) must compile with the generated types.
import type { components, paths } from "./schema.js";

type Json<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  requestBody?: { content: { "application/json": infer B } };
} ? B : never;
type Ok<P extends keyof paths, M extends keyof paths[P], S extends number> = paths[P][M] extends {
  responses: { [K in S]: { content: { "application/json": infer R } } };
} ? R : never;
type ErrorBody = components["schemas"]["ErrorBody"];

export class Client {
  constructor(private base: string, private token?: string) {}

  private async call<T>(method: string, path: string, body?: unknown, raw?: Blob): Promise<T> {
    const headers: Record<string, string> = {};
    if (this.token) headers.Authorization = "Bearer " + this.token;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const res = await fetch(this.base + path, { method, headers, body: raw ?? (body === undefined ? undefined : JSON.stringify(body)) });
    if (!res.ok) {
      const e = (await res.json()) as ErrorBody;
      throw new Error(`${e.code}: ${e.message}`);
    }
    return (res.status === 204 ? undefined : await res.json()) as T;
  }

  create(req: Json<"/v1/sessions", "post"> = {}) {
    return this.call<Ok<"/v1/sessions", "post", 201>>("POST", "/v1/sessions", req);
  }
  list() {
    return this.call<Ok<"/v1/sessions", "get", 200>>("GET", "/v1/sessions");
  }
  run(id: string, req: Json<"/v1/sessions/{id}/run", "post">) {
    return this.call<Ok<"/v1/sessions/{id}/run", "post", 200>>("POST", `/v1/sessions/${id}/run`, req);
  }
  put(id: string, path: string, data: Blob) {
    return this.call<Ok<"/v1/sessions/{id}/files", "put", 200>>("PUT", `/v1/sessions/${id}/files?path=${encodeURIComponent(path)}`, undefined, data);
  }
  list_dir(id: string, path: string) {
    return this.call<components["schemas"]["Listing"]>("GET", `/v1/sessions/${id}/files?path=${encodeURIComponent(path)}`);
  }
  snapshot(id: string) {
    return this.call<Ok<"/v1/sessions/{id}/snapshots", "post", 201>>("POST", `/v1/sessions/${id}/snapshots`);
  }
  restore(id: string, req: Json<"/v1/sessions/{id}/restore", "post">) {
    return this.call<void>("POST", `/v1/sessions/${id}/restore`, req);
  }
  fork(id: string) {
    return this.call<Ok<"/v1/sessions/{id}/fork", "post", 201>>("POST", `/v1/sessions/${id}/fork`);
  }
  remove(id: string) {
    return this.call<void>("DELETE", `/v1/sessions/${id}`);
  }
}

export async function example(c: Client): Promise<number> {
  const s = await c.create({ timeout_ms: 10_000, env: { A: "1" } });
  const id: string = s.id;
  const r = await c.run(id, { command: "echo $A > f; cat f", timeout_ms: 5000 });
  const code: number = r.exit_code;
  const out: string = r.stdout + r.stderr;
  const truncated: boolean = r.truncated || r.timed_out;
  const w = await c.put(id, "data.csv", new Blob(["a,1\n"]));
  const n: number = w.bytes_written;
  const ls = await c.list_dir(id, ".");
  const names: string[] = ls.entries.map((e) => e.name + e.type);
  const snap = await c.snapshot(id);
  await c.restore(id, { snapshot_id: snap.snapshot_id });
  const child = await c.fork(id);
  const sessions = (await c.list()).sessions.map((x) => x.id + x.cwd);
  await c.remove(child.id);
  await c.remove(id);
  void [out, truncated, n, names, sessions];
  return code;
}
