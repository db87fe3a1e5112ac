// The npm package as an app developer builds it: an app that does
// `import { Sandbox } from "wasmsand"`, built with Vite (vite build, and
// the dev server), webpack 5 and esbuild with only the configuration the
// README states, served, and run in headless Chromium: a shell pipeline,
// a guest program fetched on demand and python3 (Pyodide) must give their
// output. Usage: node web/test/bundlers.mjs build/npm [vite|vite-dev|webpack|esbuild...]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { serve, launch } from "./harness.mjs";

const pkg = path.resolve(process.argv[2] || "build/npm");
const only = process.argv.slice(3);
const work = fs.mkdtempSync(path.join(os.tmpdir(), "wasmsand-bundlers-"));

// The app: what the README's browser sample does, plus python3 and a
// program that is fetched in the middle of the run (sort, named only by a
// script). esbuild's app also sets baseUrl (the README's step for it).
const app = (esbuild) => `import { Sandbox } from "wasmsand";
${esbuild ? 'Sandbox.configure({ baseUrl: "/wasmsand/" });\n' : ""}const out = document.getElementById("out");
(async () => {
  try {
    const sb = await Sandbox.create({ files: { "s.sh": "printf '%s\\\\n' b c a | sort\\n" } });
    const r = await sb.run("echo hello | tr a-z A-Z; bash s.sh; python3 -c 'import json; print(json.dumps([6*7]))'");
    out.textContent = JSON.stringify({ ok: true, exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr });
  } catch (e) {
    out.textContent = JSON.stringify({ ok: false, error: String(e && e.message || e) });
  }
})();
`;
const html = (script, module = true) => `<!doctype html><meta charset="utf-8"><title>app</title>
<pre id="out"></pre><script ${module ? 'type="module" ' : ""}src="${script}"></script>
`;
const want = "HELLO\na\nb\nc\n[42]\n";

// makeApp writes an app directory with the package installed in its
// node_modules (copied, as npm install does: a link outside the app's
// root is what Vite's dev server refuses to serve).
function makeApp(name, esbuild = false) {
  const dir = path.join(work, name);
  fs.mkdirSync(path.join(dir, "node_modules"), { recursive: true });
  fs.cpSync(pkg, path.join(dir, "node_modules", "wasmsand"), { recursive: true });
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name, private: true, type: "module" }));
  fs.writeFileSync(path.join(dir, "main.js"), app(esbuild));
  fs.writeFileSync(path.join(dir, "index.html"), html("./main.js"));
  return dir;
}

const builds = {
  // vite build, then the dist directory on a static server
  async vite() {
    const dir = makeApp("vite");
    const { build } = await import("vite");
    await build({ root: dir, logLevel: "warn", configFile: false, build: { outDir: path.join(dir, "dist") } });
    return staticSite(path.join(dir, "dist"));
  },
  // vite's dev server, on the app's sources
  async "vite-dev"() {
    const dir = makeApp("vite-dev");
    const { createServer } = await import("vite");
    const server = await createServer({ root: dir, logLevel: "warn", configFile: false,
      server: { host: "127.0.0.1", port: 0, strictPort: false, hmr: false } });
    await server.listen();
    const addr = server.httpServer.address();
    return { url: `http://127.0.0.1:${addr.port}/`, close: () => server.close() };
  },
  // webpack 5 in production mode, no loaders or plugins
  async webpack() {
    const dir = makeApp("webpack");
    const { default: webpack } = await import("webpack");
    const dist = path.join(dir, "dist");
    const stats = await new Promise((resolve, reject) => webpack({
      mode: "production", context: dir, entry: "./main.js",
      output: { path: dist, filename: "main.js", publicPath: "auto" },
      performance: { hints: false },
    }, (err, s) => (err ? reject(err) : resolve(s))));
    if (stats.hasErrors()) throw new Error(stats.toString({ all: false, errors: true }));
    fs.writeFileSync(path.join(dist, "index.html"), html("./main.js", false));
    return staticSite(dist);
  },
  // esbuild, which does not emit what new URL(…, import.meta.url) names:
  // the package's directory is served as it is, and baseUrl says where
  async esbuild() {
    const dir = makeApp("esbuild", true);
    const esbuild = await import("esbuild");
    const dist = path.join(dir, "dist");
    await esbuild.build({ entryPoints: [path.join(dir, "main.js")], bundle: true, format: "esm",
      outdir: dist, logLevel: "warning", absWorkingDir: dir });
    fs.cpSync(path.join(dir, "node_modules", "wasmsand"), path.join(dist, "wasmsand"), { recursive: true });
    fs.writeFileSync(path.join(dist, "index.html"), html("./main.js"));
    return staticSite(dist);
  },
};

async function staticSite(dist) {
  const s = await serve(dist, fs.readFileSync(path.join(dist, "index.html"), "utf8"));
  return { url: s.base, close: s.close };
}

const browser = await launch();
const failures = [];
try {
  for (const name of Object.keys(builds).filter((n) => only.length === 0 || only.includes(n))) {
    const t0 = Date.now();
    let site = null;
    const context = await browser.newContext(); // (a clean Cache API and HTTP cache for each)
    try {
      site = await builds[name]();
      const built = Date.now() - t0;
      const page = await context.newPage();
      const log = [];
      page.on("console", (m) => log.push(m.text()));
      page.on("pageerror", (e) => log.push(String(e)));
      await page.goto(site.url);
      await page.waitForFunction(() => document.getElementById("out").textContent !== "", null, { timeout: 120000 });
      const got = JSON.parse(await page.textContent("#out"));
      if (!got.ok || got.stdout !== want || got.exitCode !== 0) {
        failures.push(`${name}: ${JSON.stringify(got)}\n  console: ${log.join("\n  ")}`);
      } else {
        console.log(`bundlers: ${name} ok (built in ${built} ms, ran in ${Date.now() - t0 - built} ms)`);
      }
    } catch (e) {
      failures.push(`${name}: ${e && e.stack || e}`);
    } finally {
      await context.close();
      if (site) await site.close();
    }
  }
} finally {
  await browser.close();
  fs.rmSync(work, { recursive: true, force: true });
}
if (failures.length) {
  console.error("bundlers: FAIL\n" + failures.join("\n"));
  process.exit(1);
}
