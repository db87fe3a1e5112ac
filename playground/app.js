// The wasmsand playground: a terminal (xterm.js) on a sandbox that lives in this
// page's Web Worker, a file tree beside it that follows what commands do, an editor,
// snapshots, and named workspaces kept in IndexedDB. Everything runs in the browser.
import { Sandbox } from "./web/index.js";
import { Terminal } from "./vendor/xterm.mjs";
import { FitAddon } from "./vendor/addon-fit.mjs";

const $ = (id) => document.getElementById(id);
const HOME = "/home/user";
const store = {
  get: (k, d) => { try { return JSON.parse(localStorage.getItem("wasmsand-playground:" + k)) ?? d; } catch { return d; } },
  set: (k, v) => localStorage.setItem("wasmsand-playground:" + k, JSON.stringify(v)),
};

let sb = null;
let cwd = HOME;
let running = null; // the AbortController of the command running
let line = "", cursor = 0;
const history = store.get("history", []);
let histIndex = history.length;
const pasted = []; // lines waiting to run (a paste of several lines)
const snapshots = [];

// -- theme --
function applyTheme(dark) {
  document.documentElement.classList.toggle("dark", dark);
  $("theme").setAttribute("aria-pressed", String(dark));
  if (term) term.options.theme = dark ? { background: "#1e1e1e", foreground: "#e6e6e6", cursor: "#e6e6e6" }
    : { background: "#fafafa", foreground: "#1e1e1e", cursor: "#1e1e1e", selectionBackground: "#b4d5fe" };
}
let dark = store.get("dark", matchMedia("(prefers-color-scheme: dark)").matches);

// -- terminal --
const term = new Terminal({ convertEol: true, cursorBlink: true, fontSize: 14, scrollback: 5000,
  fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace", screenReaderMode: true });
const fit = new FitAddon();
term.loadAddon(fit);
term.open($("terminal"));
applyTheme(dark);
fit.fit();
new ResizeObserver(() => fit.fit()).observe($("terminal"));

const prettyCwd = () => cwd === HOME ? "~" : cwd.startsWith(HOME + "/") ? "~" + cwd.slice(HOME.length) : cwd;
const promptText = () => `\x1b[1;32muser@sandbox\x1b[0m:\x1b[1;34m${prettyCwd()}\x1b[0m$ `;
const visible = (s) => s.replace(/\x1b\[[0-9;]*m/g, "").length;

// The line being edited may wrap over several rows: shownRow is the row of the cursor,
// counted from the prompt's, so that a redraw can go back to the prompt.
let shownRow = 0;
// rowCol is where offset n of the prompt and line sits (after a full last row xterm
// keeps the cursor on its last column until the next character: "pending wrap").
function rowCol(n, atEnd) {
  const cols = term.cols;
  if (atEnd && n > 0 && n % cols === 0) return [n / cols - 1, cols - 1];
  return [Math.floor(n / cols), n % cols];
}

function redraw() {
  const plen = visible(promptText());
  term.write("\r" + (shownRow > 0 ? `\x1b[${shownRow}A` : "") + "\x1b[J" + promptText() + line);
  const end = plen + line.length;
  const target = plen + cursor;
  const [endRow] = rowCol(end, true);
  const [row, col] = rowCol(target, target === end);
  if (endRow > row) term.write(`\x1b[${endRow - row}A`);
  term.write("\r" + (col > 0 ? `\x1b[${col}C` : ""));
  shownRow = row;
}

function prompt() {
  line = "";
  cursor = 0;
  shownRow = 0;
  term.write(promptText());
  if (pasted.length) submit(pasted.shift());
}

function setStatus(s) { $("status").textContent = s; }

async function submit(cmd) {
  line = cmd;
  cursor = cmd.length;
  redraw();
  term.write("\r\n");
  if (cmd.trim() === "") return prompt();
  if (history[history.length - 1] !== cmd) history.push(cmd);
  if (history.length > 500) history.splice(0, history.length - 500);
  store.set("history", history);
  histIndex = history.length;
  await run(cmd);
  prompt();
}

async function run(cmd) {
  running = new AbortController();
  setStatus("running…");
  try {
    const res = await sb.run(cmd, {
      signal: running.signal,
      env: { COLUMNS: String(term.cols), LINES: String(term.rows), TERM: "xterm-256color" },
      onStdout: (s) => term.write(s),
      onStderr: (s) => term.write(s),
    });
    setStatus(res.exitCode ? `exit status ${res.exitCode}` : "");
  } catch (e) {
    if (e.code === "canceled") {
      term.write("^C\r\n");
      setStatus("interrupted");
    } else if (e.code === "closed" && running.signal.aborted) {
      // Without SharedArrayBuffer (a first visit, before the service worker adds the
      // headers that allow it) stopping a command ends the sandbox's worker: start
      // again from the files as the last command left them.
      term.write("^C\r\n\x1b[2m(the sandbox restarted: its files are as the last command left them)\x1b[0m\r\n");
      const dir = cwd;
      sb = await Sandbox.create({ persist: "playground-" + workspace, onProgress: progress });
      await sb.run("cd " + JSON.stringify(dir) + " 2>/dev/null").catch(() => {});
      setStatus("interrupted");
    } else {
      term.write(`\x1b[31mwasmsand: ${e.message}\x1b[0m\r\n`);
      setStatus("error");
    }
  } finally {
    running = null;
  }
  try {
    cwd = (await sb.run('printf %s "$PWD"')).stdout || cwd;
  } catch { /* (the prompt keeps the last one) */ }
  await refreshTree();
}

term.onData((data) => {
  if (running) {
    if (data === "\x03") running.abort();
    return;
  }
  if (!sb) return;
  if (data.length > 1 && /[\r\n]/.test(data)) { // a paste of several lines
    const lines = data.replace(/\r\n?/g, "\n").split("\n");
    const last = lines.pop();
    const first = line.slice(0, cursor) + lines.shift();
    pasted.push(...lines);
    line = first + line.slice(cursor);
    cursor = line.length;
    submit(line);
    if (last) pasted.push(last);
    return;
  }
  switch (data) {
    case "\r": submit(line); return;
    case "\x7f": case "\b":
      if (cursor > 0) { line = line.slice(0, cursor - 1) + line.slice(cursor); cursor--; redraw(); }
      return;
    case "\x1b[3~": if (cursor < line.length) { line = line.slice(0, cursor) + line.slice(cursor + 1); redraw(); } return;
    case "\x1b[D": if (cursor > 0) { cursor--; redraw(); } return;
    case "\x1b[C": if (cursor < line.length) { cursor++; redraw(); } return;
    case "\x1b[H": case "\x01": cursor = 0; redraw(); return;
    case "\x1b[F": case "\x05": cursor = line.length; redraw(); return;
    case "\x0b": line = line.slice(0, cursor); redraw(); return; // Ctrl-K
    case "\x15": line = line.slice(cursor); cursor = 0; redraw(); return; // Ctrl-U
    case "\x1b[A":
      if (histIndex > 0) { histIndex--; line = history[histIndex]; cursor = line.length; redraw(); }
      return;
    case "\x1b[B":
      if (histIndex < history.length) { histIndex++; line = history[histIndex] ?? ""; cursor = line.length; redraw(); }
      return;
    case "\x03": term.write("^C\r\n"); prompt(); return;
    case "\x0c": term.clear(); shownRow = 0; redraw(); return;
  }
  if (data >= " " && !data.startsWith("\x1b")) {
    line = line.slice(0, cursor) + data + line.slice(cursor);
    cursor += data.length;
    redraw();
  }
});

// -- file tree --
async function refreshTree() {
  const root = $("tree");
  const items = [];
  async function walk(dir, depth) {
    if (depth > 6 || items.length > 2000) return;
    let ents;
    try { ents = await sb.listDir(dir); } catch { return; }
    ents.sort((a, b) => (b.type === "directory") - (a.type === "directory") || a.name.localeCompare(b.name));
    for (const e of ents) {
      const p = dir + "/" + e.name;
      items.push({ path: p, name: e.name, dir: e.type === "directory", depth, size: e.size });
      if (e.type === "directory") await walk(p, depth + 1);
    }
  }
  await walk(HOME, 0);
  root.replaceChildren(...items.map((it) => {
    const li = document.createElement("li");
    li.className = it.dir ? "dir" : "file";
    li.textContent = it.name;
    li.title = it.path + (it.dir ? "" : ` (${it.size} bytes)`);
    li.style.paddingLeft = (0.6 + it.depth * 0.9) + "em";
    li.setAttribute("role", "treeitem");
    li.tabIndex = -1;
    li.dataset.path = it.path;
    if (!it.dir) li.onclick = () => openFile(it.path);
    return li;
  }));
}
$("refresh").onclick = refreshTree;
$("tree").addEventListener("keydown", (e) => {
  const lis = [...$("tree").children];
  const i = lis.indexOf(document.activeElement);
  if (e.key === "ArrowDown" || e.key === "ArrowUp") {
    const next = lis[Math.max(0, Math.min(lis.length - 1, i + (e.key === "ArrowDown" ? 1 : -1)))];
    if (next) next.focus();
    e.preventDefault();
  } else if (e.key === "Enter" && i >= 0) {
    lis[i].click();
  }
});

// -- editor and previews --
const images = { ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".svg": "image/svg+xml", ".webp": "image/webp" };
let editing = null;
async function openFile(p) {
  const ext = p.slice(p.lastIndexOf(".")).toLowerCase();
  $("editor-pane").hidden = false;
  $("editor-path").textContent = p;
  editing = p;
  if (images[ext]) {
    const b = await sb.readFile(p);
    $("preview").src = URL.createObjectURL(new Blob([b], { type: images[ext] }));
    $("preview").alt = p;
    $("preview").hidden = false;
    $("editor").hidden = true;
    $("editor-save").hidden = true;
  } else {
    $("editor").value = await sb.readFile(p, { encoding: "utf8" });
    $("preview").hidden = true;
    $("editor").hidden = false;
    $("editor-save").hidden = false;
    $("editor").focus();
  }
  fit.fit();
}
async function saveFile() {
  if (!editing) return;
  await sb.writeFile(editing, $("editor").value);
  await sb.save();
  setStatus("saved " + editing);
  await refreshTree();
}
$("editor-save").onclick = saveFile;
$("editor").addEventListener("keydown", (e) => {
  if ((e.ctrlKey || e.metaKey) && e.key === "s") { e.preventDefault(); saveFile(); }
});
$("editor-close").onclick = () => { $("editor-pane").hidden = true; editing = null; fit.fit(); term.focus(); };

// -- snapshots --
$("snapshot").onclick = async () => {
  const snap = await sb.snapshot();
  const n = snapshots.push({ snap, at: new Date() });
  const li = document.createElement("li");
  li.textContent = `#${n} ${snapshots[n - 1].at.toLocaleTimeString()}`;
  li.title = "restore this snapshot";
  li.tabIndex = 0;
  li.onclick = async () => {
    await sb.restore(snap);
    await sb.save();
    setStatus(`restored snapshot #${n}`);
    await refreshTree();
  };
  li.onkeydown = (e) => { if (e.key === "Enter") li.onclick(); };
  $("snapshots").append(li);
  setStatus(`snapshot #${n} taken`);
};

// -- workspaces --
const workspaces = store.get("workspaces", ["default"]);
let workspace = store.get("workspace", "default");
if (!workspaces.includes(workspace)) workspaces.push(workspace);
function fillWorkspaces() {
  $("workspace").replaceChildren(...workspaces.map((w) => {
    const o = document.createElement("option");
    o.value = o.textContent = w;
    o.selected = w === workspace;
    return o;
  }));
}
$("workspace").onchange = () => { store.set("workspace", $("workspace").value); location.reload(); };
$("new-workspace").onclick = () => {
  const name = (prompt("name of the new workspace") || "").trim();
  if (!name || workspaces.includes(name)) return;
  workspaces.push(name);
  store.set("workspaces", workspaces);
  store.set("workspace", name);
  location.reload();
};
$("reset").onclick = async () => {
  if (!confirm(`Empty the workspace "${workspace}"?`)) return;
  await sb.run("find /home/user -mindepth 1 -delete; cd /home/user");
  await sb.save();
  term.clear();
  cwd = HOME;
  await refreshTree();
  setStatus("reset");
};
$("theme").onclick = () => { dark = !dark; store.set("dark", dark); applyTheme(dark); };

// -- start --
function progress(p) {
  if (!p || !p.asset) return;
  const total = p.total || 0;
  $("progress").hidden = p.cached || (total && p.loaded >= total);
  $("progress-bar").max = total || 1;
  $("progress-bar").value = p.loaded;
  $("progress-text").textContent = `${p.asset}: ${(p.loaded / 1e6).toFixed(1)}${total ? " / " + (total / 1e6).toFixed(1) : ""} MB`;
}

async function start() {
  fillWorkspaces();
  setStatus("starting…");
  term.write("wasmsand: bash, coreutils and python3 as WebAssembly, in this page.\r\n");
  try {
    sb = await Sandbox.create({ persist: "playground-" + workspace, onProgress: progress });
  } catch (e) {
    term.write(`\x1b[31mwasmsand could not start: ${e.message}\x1b[0m\r\n`);
    setStatus("could not start");
    return;
  }
  try { cwd = (await sb.run('printf %s "$PWD"')).stdout || HOME; } catch { /* */ }
  setStatus("");
  await refreshTree();
  // #run=COMMAND (URL-encoded) runs a command once the sandbox is up
  const m = /(?:^|&)run=([^&]*)/.exec(location.hash.slice(1));
  if (m) pasted.push(decodeURIComponent(m[1]));
  prompt();
  term.focus();
  window.wasmsandPlayground = { ready: true, get sandbox() { return sb; }, term, isolated: self.crossOriginIsolated };
}

if ("serviceWorker" in navigator && location.protocol !== "file:") {
  navigator.serviceWorker.register("sw.js").catch(() => {});
}
start();
