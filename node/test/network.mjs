// The network bridge in the packed package (Node): curl, wget and python3
// (Pyodide, and the WASI CPython) reach a server this test starts on
// 127.0.0.1 through Sandbox.create's allowNet/policy, and nothing else.
import assert from "node:assert";
import http from "node:http";
import { Sandbox } from "wasmsand";

const server = http.createServer((req, res) => {
  let body = "";
  req.on("data", (c) => (body += c));
  req.on("end", () => {
    if (req.url === "/redirect") { res.writeHead(302, { Location: "/hello" }); return res.end(); }
    if (req.url === "/to-private") { res.writeHead(302, { Location: "http://10.0.0.1/" }); return res.end(); }
    if (req.url === "/hello") { res.setHeader("X-Kind", "greeting"); return res.end(`hello from ${req.method}\n`); }
    if (req.url.startsWith("/echo")) return res.end(`${req.method} ${req.url} ${req.headers["x-test"] || ""} ${req.headers.authorization || ""} ${JSON.stringify(body)}`);
    res.writeHead(404);
    res.end("nope\n");
  });
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const base = `http://127.0.0.1:${server.address().port}`;
const closed = http.createServer();
await new Promise((ok) => closed.listen(0, "127.0.0.1", ok));
const refused = `http://127.0.0.1:${closed.address().port}`;
await new Promise((ok) => closed.close(ok));

const eq = (got, want, what) => assert.deepStrictEqual(got, want, what + ": " + JSON.stringify(got));
const events = [];
const sb = await Sandbox.create({
  allowNet: [base + "/", refused + "/"],
  policy: { network: { allow: [{ url: base + "/echo", methods: ["GET", "POST"] }] } },
  onEvent: (e) => { if (e.kind === "network") events.push(e); },
});
const run = async (cmd) => {
  const r = await sb.run(cmd);
  return { code: r.exitCode, out: r.stdout, err: r.stderr };
};

let r = await run(`curl -s ${base}/hello; wget -qO- ${base}/hello; curl -sL -w '%{http_code}\\n' ${base}/redirect`);
eq(r, { code: 0, out: "hello from GET\nhello from GET\nhello from GET\n200\n", err: "" }, "curl and wget");
r = await run(`curl -s -d a=1 -H 'X-Test: t' -u me:pw ${base}/echo`);
eq(r, { code: 0, out: `POST /echo t Basic bWU6cHc= "a=1"`, err: "" }, "curl POST under the policy's rule");
r = await run(`curl -sS -X POST ${base}/hello; echo $?`);
eq(r.out, "7\n", "POST outside the rules");
assert.match(r.err, /blocked by the sandbox's network policy \(no rule allows POST/);
r = await run(`curl -sS http://example.com/; echo $?; curl -sS http://169.254.169.254/; echo $?; curl -sSL ${base}/to-private; echo $?`);
eq(r.out, "7\n7\n7\n", "other hosts, metadata, a redirect to a private address");
r = await run(`curl -sS ${refused}/; echo $?`);
eq(r.out, "7\n", "refused");
assert.match(r.err, /Couldn.t connect to server/);

// python3 (Pyodide): urllib and http.client through the same bridge
r = await run(`python3 -c '
import urllib.request as u, urllib.error as e, http.client as h
r = u.urlopen("${base}/hello"); print(r.status, r.headers["X-Kind"], r.read())
print(u.urlopen(u.Request("${base}/echo", data=b"x=1", headers={"X-Test": "py"})).read().decode())
print(u.urlopen("${base}/redirect").read())
try: u.urlopen("${base}/nope")
except e.HTTPError as x: print(x.code)
try: u.urlopen("http://example.com/")
except e.URLError as x: print(type(x.reason).__name__)
try: u.urlopen("${refused}/")
except e.URLError as x: print(type(x.reason).__name__, x.reason.strerror)
c = h.HTTPConnection("127.0.0.1", ${server.address().port}); c.request("GET", "/echo?q=2"); print(c.getresponse().read())
'`);
eq(r, { code: 0, err: "", out: `200 greeting b'hello from GET\\n'
POST /echo py  "x=1"
b'hello from GET\\n'
404
PermissionError
ConnectionRefusedError Connection refused
b'GET /echo?q=2   ""'
` }, "python3 (Pyodide) urllib and http.client");

// requests (Debian's 2.28 over urllib3 1.26, from make deps), imported from the working
// directory: urllib3 makes its own sockets, which the bridge replaces as it loads
{
  const fs = await import("node:fs");
  const path = await import("node:path");
  const dist = "/usr/lib/python3/dist-packages";
  const files = {};
  const add = (rel) => {
    const p = path.join(dist, rel);
    if (fs.statSync(p).isDirectory()) {
      for (const f of fs.readdirSync(p)) if (f !== "__pycache__") add(path.join(rel, f));
    } else if (rel.endsWith(".py")) files["/home/user/pylib/" + rel] = fs.readFileSync(p);
  };
  for (const p of ["requests", "urllib3", "idna", "certifi", "charset_normalizer", "chardet", "six.py"]) add(p);
  const rq = await Sandbox.create({ python: "pyodide", pythonIndex: "none", files, allowNet: [base + "/"],
    policy: { network: { allow: [{ url: base + "/echo", methods: ["GET", "POST"] }] } } });
  const x = await rq.run(`cd /home/user/pylib && python3 -c '
import requests
r = requests.get("${base}/hello"); print(r.status_code, r.headers["X-Kind"], r.text, end="")
print(requests.post("${base}/echo", data={"a": "1"}).text)
try: requests.get("http://example.com/")
except requests.exceptions.ConnectionError as e: print("refused:", "network policy" in str(e))
'`);
  eq({ code: x.exitCode, out: x.stdout, err: x.stderr }, { code: 0, err: "", out: `200 greeting hello from GET
POST /echo   "a=1"
refused: True
` }, "requests (Pyodide)");
  await rq.destroy();
}

// the WASI CPython too
const wasi = await Sandbox.create({ python: "wasi", allowNet: [base + "/"] });
const w = await wasi.run(`python3 -c 'import urllib.request as u; print(u.urlopen("${base}/hello").read())'`);
eq({ code: w.exitCode, out: w.stdout, err: w.stderr }, { code: 0, out: "b'hello from GET\\n'\n", err: "" }, "python3 (WASI) urllib");
await wasi.destroy();

// events: every request, allowed or not
assert.ok(events.some((e) => e.allowed && e.method === "GET" && e.url === base + "/hello" && e.http_status === 200), "an allowed request's event");
assert.ok(events.some((e) => !e.allowed && e.url === "http://example.com/"), "a refused request's event");

// no network unless asked for; bad policies are refused with the field
const off = await Sandbox.create({});
r = await off.run(`curl -sS ${base}/hello; echo $?`);
eq(r.stdout, "7\n", "no network by default");
await off.destroy();
await assert.rejects(Sandbox.create({ policy: "network:\n  allow:\n    - url: ftp://x/\n" }), /ftp/, "a bad rule");
await assert.rejects(Sandbox.create({ policy: "netwerk: {}\n" }), /line 1: field netwerk not found/, "an unknown field");
await assert.rejects(Sandbox.create({ secrets: { TOKEN: "0123456789" } }), /a policy must say where each secret may be sent/, "a secret without a policy");

await sb.destroy();
server.close();
console.log("network: ok");
