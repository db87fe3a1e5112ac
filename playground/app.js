// The wasmsand playground: terminals (xterm.js) on sandboxes that live in this page's
// Web Worker — the workspace's own, kept in IndexedDB, and forks of it in tabs — a file
// tree that follows what commands do, an editor and previews, uploads and downloads,
// snapshots, named workspaces. Everything runs in the browser.
import { Sandbox } from "./web/index.js";
import { workspace, first, onProgress } from "./boot.js";
import { Terminal } from "./vendor/xterm.mjs";
import { FitAddon } from "./vendor/addon-fit.mjs";

const $ = (id) => document.getElementById(id);
const HOME = "/home/user";
const store = {
  get: (k, d) => { try { return JSON.parse(localStorage.getItem("wasmsand-playground:" + k)) ?? d; } catch { return d; } },
  set: (k, v) => localStorage.setItem("wasmsand-playground:" + k, JSON.stringify(v)),
};
const history = store.get("history", []);
let dark = store.get("dark", matchMedia("(prefers-color-scheme: dark)").matches);
const themes = {
  dark: { background: "#1e1e1e", foreground: "#e6e6e6", cursor: "#e6e6e6" },
  light: { background: "#fafafa", foreground: "#1e1e1e", cursor: "#1e1e1e", selectionBackground: "#b4d5fe" },
};
const visible = (s) => s.replace(/\x1b\[[0-9;]*m/g, "").length;
function setStatus(s) { $("status").textContent = s; }

// whether the next prompt says that a reload allows typing into commands (see the end)
const isolation = { say: false, said: false };
const sessions = [];
let current = null; // the session shown

// A Session is one terminal on one sandbox: the workspace's (persisted) or a fork.
class Session {
  constructor(name, sb, persisted) {
    this.name = name;
    this.sb = sb;
    this.persisted = persisted;
    this.cwd = HOME;
    this.running = null; // the AbortController of the command running
    this.line = "";
    this.cursor = 0;
    this.shownRow = 0; // the cursor's row, counted from the prompt's (the line may wrap)
    this.histIndex = history.length;
    this.pasted = []; // lines waiting to run (a paste of several lines)
    this.typeahead = ""; // what was typed while a command ran and it did not read
    this.stdin = null; // the running command's input, where it can be streamed: {queue, line, closed, deliver}
    this.echoedCtrlC = false; // the running command's Ctrl-C was echoed (see interrupt)
    this.busy = false; // from a line's submission to the next prompt
    this.el = document.createElement("div");
    this.el.className = "term";
    $("terminals").append(this.el);
    this.term = new Terminal({ convertEol: true, cursorBlink: true, fontSize: 14, scrollback: 5000,
      fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace", screenReaderMode: true,
      theme: dark ? themes.dark : themes.light });
    this.fit = new FitAddon();
    this.term.loadAddon(this.fit);
    this.term.open(this.el);
    this.term.onData((d) => this.input(d));
    new ResizeObserver(() => { if (!this.el.hidden) this.fit.fit(); }).observe(this.el);
    this.tab = document.createElement("button");
    this.tab.className = "tab";
    this.tab.setAttribute("role", "tab");
    this.tab.textContent = name;
    this.tab.onclick = () => show(this);
    $("tabs").append(this.tab);
  }

  promptText() {
    const c = this.cwd === HOME ? "~" : this.cwd.startsWith(HOME + "/") ? "~" + this.cwd.slice(HOME.length) : this.cwd;
    return `\x1b[1;32muser@${this.persisted ? "sandbox" : this.name}\x1b[0m:\x1b[1;34m${c}\x1b[0m$ `;
  }

  // rowCol is where offset n of the prompt and line sits (after a full last row xterm
  // keeps the cursor on its last column until the next character: "pending wrap").
  rowCol(n, atEnd) {
    const cols = this.term.cols;
    if (atEnd && n > 0 && n % cols === 0) return [n / cols - 1, cols - 1];
    return [Math.floor(n / cols), n % cols];
  }

  redraw() {
    const t = this.term, plen = visible(this.promptText());
    t.write("\r" + (this.shownRow > 0 ? `\x1b[${this.shownRow}A` : "") + "\x1b[J" + this.promptText() + this.line);
    const end = plen + this.line.length, target = plen + this.cursor;
    const [endRow] = this.rowCol(end, true);
    const [row, col] = this.rowCol(target, target === end);
    if (endRow > row) t.write(`\x1b[${endRow - row}A`);
    t.write("\r" + (col > 0 ? `\x1b[${col}C` : ""));
    this.shownRow = row;
  }

  prompt() {
    this.line = "";
    this.cursor = 0;
    this.shownRow = 0;
    this.busy = false;
    if (isolation.say) {
      isolation.say = false;
      this.term.write("\x1b[2m(reload the page once to type into running commands, such as read or python3)\x1b[0m\r\n");
    }
    this.term.write(this.promptText());
    if (this.pasted.length) {
      this.submit(this.pasted.shift());
    } else if (this.typeahead) {
      const t = this.typeahead;
      this.typeahead = "";
      this.input(t);
    }
  }

  async submit(cmd) {
    this.busy = true; // (until the next prompt: the run, then the tree and the directory)
    this.line = cmd;
    this.cursor = cmd.length;
    this.redraw();
    this.term.write("\r\n");
    if (cmd.trim() === "") return this.prompt();
    if (history[history.length - 1] !== cmd) history.push(cmd);
    if (history.length > 500) history.splice(0, history.length - 500);
    store.set("history", history);
    this.histIndex = history.length;
    await this.run(cmd);
    this.prompt();
  }

  async run(cmd) {
    const t = this.term;
    this.ran = true;
    if (/(^|[^\w.-])(python3?|pip3?)([^\w.-]|$)/.test(cmd)) store.set("python", true); // (boot.js preloads it next time)
    this.running = new AbortController();
    setStatus("running…");
    // With SharedArrayBuffer (the service worker's headers) what is typed goes to
    // the command as it runs, a line at a time as it asks for them (a pull stream),
    // as a terminal's does: `cat`, `read`, a REPL; what it never asks for is the
    // shell's next input (type-ahead). Without it the command gets no input and
    // typing waits for the prompt.
    let stdin, res;
    if (typeof SharedArrayBuffer === "function") {
      const st = this.stdin = { queue: [], line: "", closed: false, deliver: null };
      stdin = new ReadableStream({
        pull: (c) => new Promise((resolve) => {
          st.deliver = () => {
            if (st.queue.length) c.enqueue(st.queue.shift());
            else if (st.closed) c.close();
            else return;
            st.deliver = null;
            resolve();
          };
          st.deliver();
        }),
      }, { highWaterMark: 0 });
    }
    try {
      res = await this.sb.run(cmd, {
        signal: this.running.signal,
        env: { COLUMNS: String(t.cols), LINES: String(t.rows), TERM: "xterm-256color" },
        stdin, terminal: !!stdin,
        // a terminal's command runs until it ends or Ctrl-C stops it (python3, cat, a
        // REPL); without shared memory Ctrl-C must restart the worker, so the
        // sandbox's own limit (30 s) stands
        timeoutMs: stdin ? 3600000 : undefined,
        onStdout: (s) => t.write(s),
        onStderr: (s) => t.write(s),
      });
      setStatus(res.exitCode ? `exit status ${res.exitCode}` : "");
    } catch (e) {
      if (e.code === "canceled") {
        t.write(this.echoedCtrlC ? "\r\n" : "^C\r\n");
        setStatus("interrupted");
      } else if (e.code === "closed" && this.running.signal.aborted) {
        // Without SharedArrayBuffer (a first visit, before the service worker adds
        // the headers that allow it) stopping a command ends the sandbox's worker.
        t.write("^C\r\n");
        await this.restart();
        setStatus("interrupted");
      } else {
        t.write(`\x1b[31mwasmsand: ${e.message}\x1b[0m\r\n`);
        setStatus("error");
      }
    } finally {
      this.running = null;
      this.echoedCtrlC = false;
      const st = this.stdin;
      this.stdin = null;
      if (st) this.typeahead = ((res && res.unreadStdin) || "") + st.queue.join("") + st.line + this.typeahead;
    }
    await this.syncCwd();
    if (this === current) await refreshTree();
  }

  // restart starts the workspace's sandbox again from its saved files (a fork is lost).
  async restart() {
    const dir = this.cwd;
    if (!this.persisted) {
      this.term.write("\x1b[2m(this fork ended with its worker)\x1b[0m\r\n");
      return;
    }
    this.term.write("\x1b[2m(the sandbox restarted: its files are as the last command left them)\x1b[0m\r\n");
    this.sb = await Sandbox.create({ persist: "playground-" + workspace, onProgress: progress });
    await this.sb.run("cd " + JSON.stringify(dir) + " 2>/dev/null").catch(() => {});
  }

  async syncCwd() {
    try { this.cwd = (await this.sb.run('printf %s "$PWD"')).stdout || this.cwd; } catch { /* (kept) */ }
  }

  input(data) {
    if (this.busy) {
      // Ctrl-C stops the command; anything else typed meanwhile goes to its input,
      // or without one is kept for the next prompt, as a terminal's type-ahead
      if (data === "\x03") this.interrupt(); else if (this.stdin) this.typeToCommand(data); else this.typeahead += data;
      return;
    }
    if (data.length > 1 && /[\r\n]/.test(data)) { // a paste of several lines
      const lines = data.replace(/\r\n?/g, "\n").split("\n");
      const last = lines.pop();
      const first = this.line.slice(0, this.cursor) + lines.shift() + this.line.slice(this.cursor);
      this.pasted.push(...lines);
      if (last) this.pasted.push(last);
      this.submit(first);
      return;
    }
    const l = this.line, c = this.cursor;
    switch (data) {
      case "\r": this.submit(l); return;
      case "\x7f": case "\b": if (c > 0) { this.line = l.slice(0, c - 1) + l.slice(c); this.cursor--; this.redraw(); } return;
      case "\x1b[3~": if (c < l.length) { this.line = l.slice(0, c) + l.slice(c + 1); this.redraw(); } return;
      case "\x1b[D": if (c > 0) { this.cursor--; this.redraw(); } return;
      case "\x1b[C": if (c < l.length) { this.cursor++; this.redraw(); } return;
      case "\x1b[H": case "\x01": this.cursor = 0; this.redraw(); return;
      case "\x1b[F": case "\x05": this.cursor = l.length; this.redraw(); return;
      case "\x0b": this.line = l.slice(0, c); this.redraw(); return; // Ctrl-K
      case "\x15": this.line = l.slice(c); this.cursor = 0; this.redraw(); return; // Ctrl-U
      case "\x1b[A":
        if (this.histIndex > 0) { this.line = history[--this.histIndex]; this.cursor = this.line.length; this.redraw(); }
        return;
      case "\x1b[B":
        if (this.histIndex < history.length) { this.line = history[++this.histIndex] ?? ""; this.cursor = this.line.length; this.redraw(); }
        return;
      case "\x03": this.term.write("^C\r\n"); this.prompt(); return;
      case "\x0c": this.term.clear(); this.shownRow = 0; this.redraw(); return;
    }
    if (data >= " " && !data.startsWith("\x1b")) {
      this.line = l.slice(0, c) + data + l.slice(c);
      this.cursor += data.length;
      this.redraw();
    }
  }

  // interrupt is Ctrl-C while a command runs, a terminal's SIGINT: a program that
  // handles it goes on (python3's interpreter: KeyboardInterrupt, back to >>>), and
  // the line being typed is dropped; any other command is stopped.
  async interrupt() {
    const running = this.running;
    if (!running) return;
    if (this.stdin) {
      this.term.write("^C");
      this.stdin.line = "";
      this.echoedCtrlC = true;
      if (await this.sb.interrupt()) return;
    }
    if (this.running === running) running.abort();
  }

  // typeToCommand is a terminal's line discipline (canonical mode) for the running
  // command's input: what is typed is echoed and edited on its line, Enter sends the
  // line, Ctrl-D sends what is on it, or on an empty line ends the input.
  typeToCommand(data) {
    if (data.startsWith("\x1b")) return; // (keys that move: nothing to move through here)
    const t = this.term, st = this.stdin;
    const send = (text) => { st.queue.push(text); if (st.deliver) st.deliver(); };
    const chars = [...data.replace(/\r\n?/g, "\r")];
    for (let i = 0; i < chars.length; i++) {
      const ch = chars[i];
      if (st.closed) { this.typeahead += chars.slice(i).join(""); return; } // (after the end of input: the shell's)
      if (ch === "\r" || ch === "\n") {
        t.write("\r\n");
        send(st.line + "\n");
        st.line = "";
      } else if (ch === "\x04") {
        if (st.line) send(st.line);
        else { st.closed = true; if (st.deliver) st.deliver(); }
        st.line = "";
      } else if (ch === "\x7f" || ch === "\b") {
        if (st.line) { st.line = st.line.slice(0, -1); t.write("\b \b"); }
      } else if (ch === "\x15") {
        t.write("\b \b".repeat(st.line.length));
        st.line = "";
      } else if (ch >= " ") {
        st.line += ch;
        t.write(ch);
      }
    }
  }
}

function show(s) {
  current = s;
  for (const x of sessions) {
    x.el.hidden = x !== s;
    x.tab.setAttribute("aria-selected", String(x === s));
  }
  s.fit.fit();
  s.term.focus();
  closeEditor();
  refreshTree();
}

// -- file tree --
// Directories open or closed by the user, kept per workspace; others are open, but for
// hidden ones (.cache, .local: pip's and python's), whose contents are rarely wanted.
const openState = new Map(Object.entries(store.get("tree-open:" + workspace, {})));
const isOpen = (path, name) => openState.get(path) ?? !name.startsWith(".");
function setOpen(path, open) {
  openState.set(path, open);
  store.set("tree-open:" + workspace, Object.fromEntries(openState));
  refreshTree();
}

async function refreshTree() {
  const s = current;
  if (!s.sb) return; // (still starting)
  const items = [];
  async function walk(dir, depth) {
    if (depth > 6 || items.length > 2000) return;
    let ents;
    try { ents = await s.sb.listDir(dir); } catch { return; }
    ents.sort((a, b) => (b.type === "directory") - (a.type === "directory") || a.name.localeCompare(b.name));
    for (const e of ents) {
      const p = dir + "/" + e.name;
      const dirItem = e.type === "directory";
      const open = dirItem && isOpen(p, e.name);
      items.push({ path: p, name: e.name, dir: dirItem, open, depth, size: e.size });
      if (open) await walk(p, depth + 1); // (a closed directory is not even listed)
    }
  }
  await walk(HOME, 0);
  if (s !== current) return;
  const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest("#tree li");
  const keep = focused ? focused.dataset.path : null;
  $("tree").replaceChildren(...items.map((it) => {
    const li = document.createElement("li");
    li.className = it.dir ? "dir" : "file";
    li.textContent = it.name;
    li.title = it.path + (it.dir ? "" : ` (${it.size} bytes)`);
    li.style.paddingLeft = (0.6 + it.depth * 0.9) + "em";
    li.setAttribute("role", "treeitem");
    li.setAttribute("aria-level", String(it.depth + 1));
    li.tabIndex = -1;
    li.dataset.path = it.path;
    if (it.dir) {
      li.setAttribute("aria-expanded", String(it.open));
      li.onclick = () => setOpen(it.path, !it.open);
    } else {
      li.onclick = () => openFile(it.path);
    }
    return li;
  }));
  if (keep) { // (a refresh keeps the keyboard's place in the tree)
    const li = [...$("tree").children].find((x) => x.dataset.path === keep);
    (li || $("tree")).focus();
  }
}
$("refresh").onclick = refreshTree;
// The tree's keys, as a tree view's: Up/Down move, Right opens a directory (or goes
// into it), Left closes it (or goes to its parent), Enter opens a file or toggles.
$("tree").addEventListener("keydown", (e) => {
  const lis = [...$("tree").children];
  const i = lis.indexOf(document.activeElement);
  const li = lis[i];
  if (e.key === "ArrowDown" || e.key === "ArrowUp") {
    const next = lis[Math.max(0, Math.min(lis.length - 1, i + (e.key === "ArrowDown" ? 1 : -1)))];
    if (next) next.focus();
  } else if (e.key === "ArrowRight" && li && li.classList.contains("dir")) {
    if (li.getAttribute("aria-expanded") === "true") { if (lis[i + 1]) lis[i + 1].focus(); } else setOpen(li.dataset.path, true);
  } else if (e.key === "ArrowLeft" && li) {
    if (li.getAttribute("aria-expanded") === "true") setOpen(li.dataset.path, false);
    else {
      const parent = li.dataset.path.slice(0, li.dataset.path.lastIndexOf("/"));
      const up = lis.find((x) => x.dataset.path === parent);
      if (up) up.focus();
    }
  } else if (e.key === "Enter" && li) {
    li.click();
  } else {
    return;
  }
  e.preventDefault();
});

// -- editor, previews, downloads --
const images = { ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".svg": "image/svg+xml", ".webp": "image/webp" };
let editing = null;
async function openFile(p) {
  const ext = p.slice(p.lastIndexOf(".")).toLowerCase();
  $("editor-pane").hidden = false;
  $("editor-path").textContent = p;
  editing = p;
  const img = images[ext];
  $("preview").hidden = !img;
  $("editor").hidden = !!img;
  $("editor-save").hidden = !!img;
  if (img) {
    const b = await current.sb.readFile(p);
    $("preview").src = URL.createObjectURL(new Blob([b], { type: img }));
    $("preview").alt = p;
  } else {
    $("editor").value = await current.sb.readFile(p, { encoding: "utf8" });
    $("editor").focus();
  }
  current.fit.fit();
}
async function saveFile() {
  if (!editing) return;
  await current.sb.writeFile(editing, $("editor").value);
  if (current.persisted) await current.sb.save();
  setStatus("saved " + editing);
  await refreshTree();
}
function closeEditor() {
  $("editor-pane").hidden = true;
  editing = null;
}
function download(name, bytes, type) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([bytes], { type }));
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}
$("editor-save").onclick = saveFile;
$("editor").addEventListener("keydown", (e) => {
  if ((e.ctrlKey || e.metaKey) && e.key === "s") { e.preventDefault(); saveFile(); }
});
document.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && !$("editor-pane").hidden) { closeEditor(); current.fit.fit(); current.term.focus(); }
});
$("editor-close").onclick = () => { closeEditor(); current.fit.fit(); current.term.focus(); };
$("editor-download").onclick = async () => {
  if (editing) download(editing.slice(editing.lastIndexOf("/") + 1), await current.sb.readFile(editing), "application/octet-stream");
};
$("download-home").onclick = async () => {
  setStatus("packing the home directory…");
  const r = await current.sb.run("tar czf /tmp/.home.tar.gz -C /home user");
  if (r.exitCode) { setStatus("tar failed: " + r.stderr); return; }
  download(`${workspace}-home.tar.gz`, await current.sb.readFile("/tmp/.home.tar.gz"), "application/gzip");
  await current.sb.remove("/tmp/.home.tar.gz");
  setStatus("downloaded the home directory");
};

// -- uploads: files dropped on the page go to the current directory --
async function upload(files) {
  for (const f of files) {
    const p = current.cwd + "/" + f.name;
    await current.sb.writeFile(p, new Uint8Array(await f.arrayBuffer()));
    setStatus("uploaded " + p);
  }
  if (current.persisted) await current.sb.save();
  await refreshTree();
}
document.addEventListener("dragover", (e) => { e.preventDefault(); document.body.classList.add("dropping"); });
document.addEventListener("dragleave", () => document.body.classList.remove("dropping"));
document.addEventListener("drop", (e) => {
  e.preventDefault();
  document.body.classList.remove("dropping");
  if (e.dataTransfer && e.dataTransfer.files.length) upload([...e.dataTransfer.files]);
});
$("upload").onclick = () => $("upload-input").click();
$("upload-input").onchange = () => upload([...$("upload-input").files]);

// -- snapshots and forks --
let nSnap = 0, nFork = 0;
$("snapshot").onclick = async () => {
  const s = current;
  const snap = await s.sb.snapshot();
  const n = ++nSnap;
  const name = (window.prompt("name of the snapshot", `#${n} ${new Date().toLocaleTimeString()}`) || "").trim() ||
    `#${n} ${new Date().toLocaleTimeString()}`;
  const li = document.createElement("li");
  const label = document.createElement("span");
  label.textContent = name;
  label.title = "a snapshot of " + s.name;
  const restore = document.createElement("button");
  restore.textContent = "restore";
  restore.onclick = async () => {
    await s.sb.restore(snap);
    if (s.persisted) await s.sb.save();
    setStatus(`restored snapshot ${name}`);
    show(s);
  };
  const fork = document.createElement("button");
  fork.textContent = "fork";
  fork.title = "a second terminal on a copy of this snapshot";
  fork.onclick = async () => {
    const f = await s.sb.fork(); // (the fork starts from the current state, then goes back to the snapshot)
    await f.restore(snap);
    openFork(f);
  };
  li.append(label, " ", restore, " ", fork);
  $("snapshots").append(li);
  setStatus(`snapshot ${name} taken`);
};
$("fork").onclick = async () => openFork(await current.sb.fork());
async function openFork(sb) {
  const s = new Session(`fork${++nFork}`, sb, false);
  s.cwd = current.cwd;
  await s.syncCwd();
  sessions.push(s);
  show(s);
  s.term.write("\x1b[2mA fork: a copy-on-write copy of the files and the shell, in a terminal of its own; not kept after a reload.\x1b[0m\r\n");
  s.prompt();
}

// -- workspaces, reset, theme --
const workspaces = store.get("workspaces", ["default"]);
if (!workspaces.includes(workspace)) workspaces.push(workspace);
$("workspace").replaceChildren(...workspaces.map((w) => {
  const o = document.createElement("option");
  o.value = o.textContent = w;
  o.selected = w === workspace;
  return o;
}));
$("workspace").onchange = () => { store.set("workspace", $("workspace").value); location.hash = ""; location.reload(); };
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
  const s = sessions[0];
  await s.sb.run("find /home/user -mindepth 1 -delete; cd /home/user");
  await s.sb.save();
  s.term.clear();
  s.cwd = HOME;
  show(s);
  setStatus("reset");
};
function applyTheme() {
  document.documentElement.classList.toggle("dark", dark);
  $("theme").setAttribute("aria-pressed", String(dark));
  for (const s of sessions) s.term.options.theme = dark ? themes.dark : themes.light;
}
$("theme").onclick = () => { dark = !dark; store.set("dark", dark); applyTheme(); };

// -- start --
// The downloads under way show as one bar (python's files come four at a time): each
// stays counted until the last of them has finished.
const downloads = new Map(); // asset → {loaded, total}
function progress(p) {
  if (!p || !p.asset) return;
  const total = p.total || 0;
  if (p.cached) downloads.delete(p.asset);
  else downloads.set(p.asset, { loaded: p.loaded, total, done: total > 0 && p.loaded >= total });
  const all = [...downloads.values()];
  if (all.every((d) => d.done)) downloads.clear();
  $("progress").hidden = downloads.size === 0;
  if (downloads.size === 0) return;
  const sum = (k) => all.reduce((n, d) => n + d[k], 0);
  // (the largest first; "pyodide", of total 1, marks its start after its files)
  const names = [...downloads.keys()].filter((a) => !downloads.get(a).done)
    .sort((a, b) => downloads.get(b).total - downloads.get(a).total);
  const label = names.length > 1 ? `${names[0]} and ${names.length - 1} more` : names[0];
  $("progress-bar").max = sum("total") || 1;
  $("progress-bar").value = sum("loaded");
  $("progress-text").textContent = downloads.get(names[0]).total <= 1 ? `${label}: starting…`
    : `${label}: ${(sum("loaded") / 1e6).toFixed(1)}${sum("total") ? " / " + (sum("total") / 1e6).toFixed(1) : ""} MB`;
}

// A URL can bring a ready state: #run=COMMAND runs a command, #manifest=URL fetches
// {"files": {"path": "text"}, "run": "command"} (paths relative to the home directory).
async function fromURL(s) {
  const params = new URLSearchParams(location.hash.slice(1));
  const m = params.get("manifest");
  if (m) {
    try {
      const doc = await (await fetch(m)).json();
      for (const [p, text] of Object.entries(doc.files || {})) {
        await s.sb.writeFile(p.startsWith("/") ? p : HOME + "/" + p, String(text));
      }
      if (doc.run) s.pasted.push(String(doc.run));
      await s.sb.save();
    } catch (e) {
      s.term.write(`\x1b[31mmanifest ${m}: ${e.message}\x1b[0m\r\n`);
    }
  }
  if (params.get("run")) s.pasted.push(params.get("run"));
}

async function start() {
  applyTheme();
  setStatus("starting…");
  const buttons = [...document.querySelectorAll("header button, #refresh")];
  for (const b of buttons) b.disabled = true; // (until there is a sandbox to act on)
  // the core started first (boot.js) and the terminal is built meanwhile; what is typed
  // before the sandbox is ready waits for its first prompt, as type-ahead
  onProgress(progress);
  const s = new Session(workspace, null, true);
  s.busy = true;
  sessions.push(s);
  s.term.write("wasmsand: bash, coreutils and python3 as WebAssembly, in this page.\r\n");
  show(s);
  try {
    s.sb = await first;
  } catch (e) {
    s.term.write(`\x1b[31mwasmsand could not start: ${e.message}\x1b[0m\r\n`);
    setStatus("could not start");
    return;
  }
  for (const b of buttons) b.disabled = false;
  refreshTree(); // (a new sandbox starts in the home directory: only files are kept)
  await fromURL(s);
  setStatus("");
  s.prompt();
  warmUp(s);
  window.wasmsandPlayground = { ready: true, get sandbox() { return current.sb; }, get term() { return current.term; },
    sessions, isolated: self.crossOriginIsolated };
}

// warmUp runs a program once in a throwaway fork while the page is idle, before the first
// command: the first run of a program (coreutils fetched and instrumented, the core's path
// for running one compiled by the browser) is then not paid by the first command typed.
// Nothing of it shows in the workspace (a fork; forks are not persisted).
function warmUp(s) {
  const go = async () => {
    if (s.ran) return;
    let f = null;
    try {
      f = await s.sb.fork();
      await f.run("ls / > /dev/null");
    } catch { /* (offline, or the worker restarted: the first command pays it) */ } finally {
      if (f) f.destroy().catch(() => {});
    }
  };
  // (a second after the prompt: a command typed at once would wait for it instead)
  setTimeout(() => {
    if (typeof requestIdleCallback === "function") requestIdleCallback(go, { timeout: 3000 });
    else go();
  }, 1000);
}

addEventListener("offline", () => setStatus("offline: programs not used here before cannot be fetched"));
addEventListener("online", () => setStatus("online"));

// The service worker keeps the site for the next visit and for offline use; it is
// registered once the sandbox is up, so that its first caching does not slow the start.
// A first visit is not cross-origin isolated (a static server sends no such headers; the
// service worker adds them from the next load on), so a command cannot be typed into
// (that needs SharedArrayBuffer): once the worker controls the page, the next prompt says
// a reload gives it.
start().finally(() => {
  if ("serviceWorker" in navigator && location.protocol !== "file:") {
    if (!self.crossOriginIsolated) {
      navigator.serviceWorker.addEventListener("controllerchange", () => { isolation.say = !isolation.said; isolation.said = true; });
    }
    navigator.serviceWorker.register("sw.js").catch(() => {});
  }
});
