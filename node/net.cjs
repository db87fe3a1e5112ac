// The Node network helper: a thread of its own that makes the HTTP requests
// of the sandboxes in a core's worker thread. That thread cannot await
// (a run holds it), so it posts a request here and sleeps on a shared
// counter until the answer is posted back (node/worker.cjs, httpBridge).
// The Go bridge has judged the URL and the addresses its name resolves to;
// the connection goes to the address it judged (lookup is pinned), so a
// name cannot resolve to another address in between. No proxy settings of
// the host apply; redirects are not followed (each hop is the bridge's).
"use strict";
const { workerData } = require("worker_threads");
const dns = require("dns");
const http = require("http");
const https = require("https");

const { port, counter } = workerData;

port.on("message", async ({ id, op, arg }) => {
  let answer;
  try {
    answer = op === "lookup" ? await lookup(arg) : await request(arg);
  } catch (e) {
    answer = { error: { kind: "connect", message: String((e && e.message) || e) } };
  }
  port.postMessage({ id, answer }, answer.body ? [answer.body.buffer] : []);
  Atomics.add(counter, 0, 1);
  Atomics.notify(counter, 0);
});

async function lookup(host) {
  try {
    const all = await dns.promises.lookup(host, { all: true, verbatim: true });
    return { addresses: all.map((a) => a.address) };
  } catch (e) {
    return { error: { kind: "resolve", message: e.code || String(e.message) } };
  }
}

function request(a) {
  return new Promise((resolve) => {
    const u = new URL(a.url);
    const headers = {};
    for (const [k, v] of a.headers) (headers[k] = headers[k] || []).push(v);
    const family = a.address.includes(":") ? 6 : 4;
    const opts = {
      method: a.method, headers, agent: false, timeout: a.timeoutMs,
      lookup: a.address ? (_h, o, cb) => (o && o.all ? cb(null, [{ address: a.address, family }]) : cb(null, a.address, family)) : undefined,
    };
    let done = false;
    const finish = (x) => { if (!done) { done = true; clearTimeout(timer); resolve(x); } };
    const timer = setTimeout(() => { req.destroy(); finish({ error: { kind: "timeout", message: "timed out" } }); }, a.timeoutMs);
    const req = (u.protocol === "https:" ? https : http).request(u, opts, (res) => {
      const chunks = [];
      let n = 0;
      res.on("data", (c) => {
        chunks.push(c);
        n += c.length;
        if (n >= a.maxBytes) res.destroy(); // (the bridge reports it too large)
      });
      const end = () => {
        const body = new Uint8Array(Buffer.concat(chunks).subarray(0, a.maxBytes));
        const hs = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          // (the connection is this helper's, one per request: its
          // "Connection: close" is not the server's to show)
          if (!/^(connection|keep-alive)$/i.test(res.rawHeaders[i])) hs.push([res.rawHeaders[i], res.rawHeaders[i + 1]]);
        }
        finish({ status: res.statusCode, statusText: res.statusMessage, headers: hs, body, url: a.url });
      };
      res.on("end", end);
      res.on("close", end);
      res.on("error", end);
    });
    req.on("timeout", () => { req.destroy(); finish({ error: { kind: "timeout", message: "timed out" } }); });
    req.on("error", (e) => {
      const message = e.code === "ECONNREFUSED" ? "Connection refused" : e.code === "ECONNRESET" ? "Connection reset by peer" : e.message;
      finish({ error: { kind: e.code === "ENOTFOUND" ? "resolve" : "connect", message } });
    });
    req.end(a.body ? Buffer.from(a.body) : undefined);
  });
}
