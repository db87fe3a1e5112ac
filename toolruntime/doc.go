// Package toolruntime is a tool runtime over NATS: the design's Secure Tool
// Runtime, whose wire protocol (JSON-RPC 2.0 over Solace topics), manifest,
// three timeouts and artifact layout it keeps, with NATS for Solace and the
// sandbox for bubblewrap (RATIONALE.md says what it took and what it
// changed; "the design" in this package means that brief). Agents publish
// JSON-RPC 2.0 invocations on a tool's subject; workers (Worker), sharing
// each tool's subscription in a queue group, run every invocation in a fresh
// wasmsand sandbox under the tool's profile, with artifacts passed by
// reference (Store), and answer on the request's reply subject; Client is
// the agent's side. NATS runs embedded in the worker (EmbeddedServer) or as
// an external cluster.
package toolruntime
