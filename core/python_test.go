package core_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/core/assetsrc"
	"github.com/wasmsand/wasmsand/platform/hostdir"
)

// pythonTools opens the assets built by `make assets` when they provide
// python3. Without them the Python tests skip, until `make build` depends on
// the assets: from then on a missing python3 is a failure.
func pythonTools(t *testing.T) *core.AssetPrograms {
	t.Helper()
	dir := assetsrc.Default()
	if dir == "" {
		d, _ := filepath.Abs("../build/assets")
		if _, err := os.Stat(filepath.Join(d, assetsrc.ManifestName)); err == nil {
			dir = d
		}
	}
	missing := func(why string) {
		if makeBuildNeedsAssets() {
			t.Fatalf("python3: %s: run `make assets` (or set WASMSAND_ASSETS)", why)
		}
		t.Skipf("python3: %s yet (`make assets` builds it)", why)
	}
	if dir == "" {
		missing("no guest programs in build/assets")
	}
	tools, err := assetsrc.Open(context.Background(), dir)
	require.NoError(t, err)
	if !slices.Contains(tools.Commands(), "python3") {
		missing("the assets in " + dir + " have no python3")
	}
	return tools
}

// makeBuildNeedsAssets: the Makefile's build target depends on assets.
func makeBuildNeedsAssets() bool {
	data, err := os.ReadFile("../Makefile")
	if err != nil {
		return false
	}
	for _, l := range strings.Split(string(data), "\n") {
		if deps, ok := strings.CutPrefix(l, "build:"); ok {
			return slices.Contains(strings.Fields(deps), "assets")
		}
	}
	return false
}

func newPythonSandbox(t *testing.T, tools *core.AssetPrograms, opt core.Options) *core.Sandbox {
	t.Helper()
	opt.Programs = tools
	if opt.Timeout == 0 {
		opt.Timeout = 2 * time.Minute // the first run compiles python3.wasm
	}
	sb, err := core.New(context.Background(), opt)
	require.NoError(t, err)
	t.Cleanup(func() { sb.Close() })
	return sb
}

type pyCase struct {
	name, script, stdin string
	stdout              string // exact
	stderr              string // substring ("" = must be empty)
	code                int
}

func runPyCases(t *testing.T, sb *core.Sandbox, cases []pyCase) {
	t.Helper()
	ctx := context.Background()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := sb.Run(ctx, c.script, core.RunOptions{Stdin: strings.NewReader(c.stdin), Cwd: "/home/user"})
			require.NoError(t, err)
			assert.Equal(t, c.stdout, string(res.Stdout), "stdout")
			if c.stderr == "" {
				assert.Empty(t, string(res.Stderr), "stderr")
			} else {
				assert.Contains(t, string(res.Stderr), c.stderr, "stderr")
			}
			assert.Equal(t, c.code, res.ExitCode, "exit code; stderr: %s", res.Stderr)
		})
	}
}

func TestPythonInvocation(t *testing.T) {
	tools := pythonTools(t)
	sb := newPythonSandbox(t, tools, core.Options{Env: map[string]string{"GREETING": "hi"}})
	require.NoError(t, sb.WriteFile("/home/user/prog.py",
		[]byte("import sys\nprint('script', sys.argv)\nsys.exit(int(sys.argv[1]) if len(sys.argv) > 1 else 0)\n"), 0o644))
	runPyCases(t, sb, []pyCase{
		{name: "-c", script: `python3 -c 'print(1)'`, stdout: "1\n"},
		{name: "python alias", script: `python -c 'import sys; print(sys.version_info[:2])'`, stdout: "(3, 11)\n"},
		{name: "argv env cwd", script: `cd /tmp && X=42 python3 -c 'import os, sys; print(sys.argv[1:], os.environ["X"], os.environ["GREETING"], os.getcwd())' a 'b c'`,
			stdout: "['a', 'b c'] 42 hi /tmp\n"},
		{name: "script path", script: `python3 prog.py 0 && python3 /home/user/prog.py 3`,
			stdout: "script ['prog.py', '0']\nscript ['/home/user/prog.py', '3']\n", code: 3},
		{name: "program on stdin", script: `python3`, stdin: "import sys\nprint(sum(range(10)), sys.stdin.isatty())\n", stdout: "45 False\n"},
		{name: "dash reads stdin", script: `echo 'import sys; print(sys.argv)' | python3 - x y`, stdout: "['-', 'x', 'y']\n"},
		{name: "-m json.tool", script: `echo '{"b": [1, 2], "a": null}' | python3 -m json.tool --sort-keys`,
			stdout: "{\n    \"a\": null,\n    \"b\": [\n        1,\n        2\n    ]\n}\n"},
		{name: "stdout and stderr apart", script: `python3 -c 'import sys; print("out"); print("err", file=sys.stderr)' 2>/dev/null`, stdout: "out\n"},
		{name: "stderr alone", script: `python3 -c 'import sys; print("out"); print("err", file=sys.stderr)' >/dev/null`, stderr: "err\n"},
		{name: "sys.exit(n)", script: `python3 -c 'import sys; sys.exit(7)'`, code: 7},
		{name: "sys.exit(msg)", script: `python3 -c 'import sys; sys.exit("bad input")'`, stderr: "bad input\n", code: 1},
		{name: "traceback", script: `python3 -c 'def f(): raise ValueError("boom")
f()'`, stderr: "Traceback (most recent call last):\n  File \"<string>\", line 2, in <module>\n  File \"<string>\", line 1, in f\nValueError: boom\n", code: 1},
		{name: "syntax error", script: `python3 -c 'print(('`, stderr: "SyntaxError", code: 1},
		{name: "missing script", script: `python3 nope.py`, stderr: "python3: can't open file '/home/user/nope.py': [Errno 2] No such file or directory\n", code: 2},
		{name: "sys.executable", script: `python3 -c 'import sys; print(sys.executable, sys.prefix)'`, stdout: "/usr/bin/python3 /usr/lib/wasmsand/python\n"},
		{name: "pip", script: `pip install requests`, stdout: "Collecting requests\n", stderr: "ERROR: the sandbox has no network: it needs a network policy that allows the package index", code: 1},
		{name: "python3 -m pip", script: `python3 -m pip install requests`, stdout: "Collecting requests\n", stderr: "ERROR: the sandbox has no network", code: 1},
	})
}

func TestPythonStdlib(t *testing.T) {
	tools := pythonTools(t)
	sb := newPythonSandbox(t, tools, core.Options{})
	runPyCases(t, sb, []pyCase{
		{name: "files", script: `cd /tmp && python3 -c '
import os
os.makedirs("d/sub", exist_ok=True)
with open("d/a.txt", "w") as f: f.write("hello\n")
os.rename("d/a.txt", "d/b.txt")
with open("d/b.txt", "a") as f: f.write("more\n")
print(sorted(os.listdir("d")), os.stat("d/b.txt").st_size, open("d/b.txt").read().split())
os.chmod("d/b.txt", 0o600)
print(oct(os.stat("d/b.txt").st_mode & 0o777), os.path.isdir("d/sub"), os.path.exists("nope"))
' && cat d/b.txt`, stdout: "['b.txt', 'sub'] 11 ['hello', 'more']\n0o600 True False\nhello\nmore\n"},
		// (minutes before lib-csv-sniffer-linear.patch: an untrusted CSV could hang
		// the sandbox; the sandbox's timeout would end this case)
		{name: "csv sniffer on a column of quoted lines", script: `python3 -c '
import csv
sample = "\"abcdefghijklmnopqrstuvwxyz\"\n" * 10000
try:
    csv.Sniffer().sniff(sample, delimiters=",:|\t")
except csv.Error as e:
    print(e)
print(csv.Sniffer().sniff("a,\"b,c\",d\n1,\"2,\"\"x\"\"\",3\n").doublequote)
'`, stdout: "Could not determine delimiter\nTrue\n"},
		{name: "csv json", script: `python3 -c '
import csv, io, json
rows = list(csv.DictReader(io.StringIO("name,n\nx,1\n\"y, z\",2\n")))
print(json.dumps(rows, sort_keys=True))
w = csv.writer(__import__("sys").stdout, lineterminator="\n"); w.writerow(["a,b", 3])
'`, stdout: "[{\"n\": \"1\", \"name\": \"x\"}, {\"n\": \"2\", \"name\": \"y, z\"}]\n\"a,b\",3\n"},
		{name: "sqlite3 file", script: `cd /tmp && python3 -c '
import sqlite3
db = sqlite3.connect("t.db")
db.execute("create table t(a integer, b text)")
db.executemany("insert into t values (?, ?)", [(1, "x"), (2, "y")])
db.commit(); db.close()
db = sqlite3.connect("t.db")
print(db.execute("select sum(a), group_concat(b) from t").fetchone(), sqlite3.sqlite_version)
' && test -s t.db && echo db-file`, stdout: "(3, 'x,y') 3.40.1\ndb-file\n"},
		{name: "c modules", script: `python3 -c '
import zlib, hashlib, decimal, datetime, math, struct, unicodedata, binascii, bisect, heapq, array, pickle, select, socket, xml.etree.ElementTree as ET
print(zlib.decompress(zlib.compress(b"abc" * 100)) == b"abc" * 100, hashlib.sha256(b"x").hexdigest()[:8], hashlib.md5(b"x").hexdigest()[:8], hashlib.blake2b(b"x").hexdigest()[:8])
print(decimal.Decimal("1.10") + decimal.Decimal("2.205"), datetime.date(2024, 2, 29).isoformat(), math.isqrt(10**20), struct.pack("<I", 1).hex(), unicodedata.name("é"))
print(ET.fromstring("<a><b>t</b></a>").find("b").text, pickle.loads(pickle.dumps({"k": [1]})))
'`, stdout: "True 2d711642 9dd4e461 0909377a\n3.305 2024-02-29 10000000000 01000000 LATIN SMALL LETTER E WITH ACUTE\nt {'k': [1]}\n"},
		{name: "tarfile gzip bz2 xz", script: `cd /tmp && echo data > f && python3 -c '
import tarfile, bz2, lzma
for mode in ("gz", "bz2", "xz"):
    with tarfile.open("a." + mode, "w:" + mode) as t: t.add("f")
    print(mode, tarfile.open("a." + mode).getnames())
print(bz2.decompress(bz2.compress(b"b" * 100)) == b"b" * 100, lzma.decompress(lzma.compress(b"x")))
'`, stdout: "gz ['f']\nbz2 ['f']\nxz ['f']\nTrue b'x'\n"},
		{name: "errno numbers are Linux's", script: `python3 -c '
import errno, os
print(errno.ENOENT, errno.EACCES, errno.errorcode[2], os.strerror(2))
try:
    open("/nope")
except FileNotFoundError as e:
    print(e.errno, e)
print(type(OSError(errno.EEXIST, "x")).__name__)
'`, stdout: "2 13 ENOENT No such file or directory\n2 [Errno 2] No such file or directory: '/nope'\nFileExistsError\n"},
	})
}

func TestPythonSubprocess(t *testing.T) {
	tools := pythonTools(t)
	sb := newPythonSandbox(t, tools, core.Options{})
	runPyCases(t, sb, []pyCase{
		{name: "run capture", script: `cd /tmp && python3 -c '
import subprocess
r = subprocess.run(["echo", "hi there"], capture_output=True, text=True)
print(repr(r.stdout), r.returncode)
r = subprocess.run("echo out; echo err >&2; exit 3", shell=True, capture_output=True)
print(r.stdout, r.stderr, r.returncode)
'`, stdout: "'hi there\\n' 0\nb'out\\n' b'err\\n' 3\n"},
		{name: "check_output call", script: `python3 -c '
import subprocess
print(subprocess.check_output("printf \"%s\\n\" $PWD", shell=True, cwd="/tmp", text=True).strip())
print(subprocess.call(["sh", "-c", "exit 5"]))
try:
    subprocess.check_call(["false"])
except subprocess.CalledProcessError as e:
    print("CalledProcessError", e.returncode)
'`, stdout: "/tmp\n5\nCalledProcessError 1\n"},
		{name: "popen pipes", script: `python3 -c '
import subprocess
p = subprocess.Popen(["sort"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
out, _ = p.communicate("b\na\nc\n")
print(out.split(), p.returncode)
p = subprocess.Popen("cat; echo done >&2", shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
out, _ = p.communicate(b"x" * 200000)
print(len(out), out[-5:], p.wait())
'`, stdout: "['a', 'b', 'c'] 0\n200005 b'done\\n' 0\n"},
		{name: "inherits stdout", script: `python3 -c '
import subprocess, sys
print("before", flush=True)
subprocess.run(["echo", "child"])
print("after")
'`, stdout: "before\nchild\nafter\n"},
		{name: "environment passed", script: `python3 -c '
import os, subprocess
os.environ["FROM_PY"] = "yes"
print(subprocess.run("echo $FROM_PY $ONLY", shell=True, capture_output=True, text=True).stdout.strip())
print(subprocess.run("echo $FROM_PY $ONLY", shell=True, env={"ONLY": "1", "PATH": "/bin"}, capture_output=True, text=True).stdout.strip())
'`, stdout: "yes\n1\n"},
		{name: "not found", script: `python3 -c '
import subprocess
try:
    subprocess.run(["no-such-cmd"])
except FileNotFoundError as e:
    print("FileNotFoundError", e.filename)
'`, stdout: "FileNotFoundError no-such-cmd\n"},
		{name: "os.system popen", script: `cd /tmp && python3 -c '
import os
print(os.system("exit 2") >> 8, os.waitstatus_to_exitcode(os.system("true")))
print(os.popen("echo popen; pwd").read().split())
'`, stdout: "2 0\n['popen', '/tmp']\n"},
		{name: "python child", script: `python3 -c '
import subprocess, sys
print(subprocess.run([sys.executable, "-c", "print(6*7)"], capture_output=True, text=True).stdout.strip())
'`, stdout: "42\n"},
		{name: "poll and wait timeout", script: `python3 -c '
import os, subprocess, time
p = subprocess.Popen(["sleep", "0.5"])
print(p.poll())
try:
    p.wait(timeout=0.05)
except subprocess.TimeoutExpired as e:
    print("TimeoutExpired", e.timeout)
print(p.wait(), p.poll())
q = subprocess.Popen(["sh", "-c", "exit 4"])
deadline = time.monotonic() + 20
while q.poll() is None and time.monotonic() < deadline:
    time.sleep(0.01)
print(q.returncode)
r = subprocess.Popen(["sleep", "0.5"])
print(os.waitpid(r.pid, os.WNOHANG))
pid, st = os.waitpid(r.pid, 0)
print(pid == r.pid, os.waitstatus_to_exitcode(st))
'`, stdout: "None\nTimeoutExpired 0.05\n0 0\n4\n(0, 0)\nTrue 0\n"},
	})
}

func TestPythonMount(t *testing.T) {
	tools := pythonTools(t)
	sb := newPythonSandbox(t, tools, core.Options{})
	host := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(host, "in.txt"), []byte("from host\n"), 0o644))
	fsys, err := hostdir.New(host)
	require.NoError(t, err)
	require.NoError(t, sb.Mount("/mnt/host", fsys, false))
	runPyCases(t, sb, []pyCase{{name: "mount", script: `python3 -c '
import os
print(open("/mnt/host/in.txt").read().strip(), os.listdir("/mnt/host"))
with open("/mnt/host/out.txt", "w") as f: f.write("from python\n")
os.rename("/mnt/host/out.txt", "/mnt/host/out2.txt")
print(os.stat("/mnt/host/out2.txt").st_size)
'`, stdout: "from host ['in.txt']\n12\n"}})
	data, err := os.ReadFile(filepath.Join(host, "out2.txt"))
	require.NoError(t, err)
	assert.Equal(t, "from python\n", string(data))
}

func TestPythonLimits(t *testing.T) {
	tools := pythonTools(t)
	ctx := context.Background()
	// Warm the compiled module so the timeout below measures the loop.
	sb := newPythonSandbox(t, tools, core.Options{MemoryLimitMB: 128, OutputLimit: 1 << 20})
	res, err := sb.Run(ctx, `python3 -c pass`, core.RunOptions{})
	require.NoError(t, err)
	require.Equal(t, 0, res.ExitCode, "%s", res.Stderr)

	t.Run("timeout kills a busy loop", func(t *testing.T) {
		res, err := sb.Run(ctx, `python3 -c 'while True: pass'`, core.RunOptions{Timeout: 2 * time.Second})
		require.NoError(t, err)
		assert.True(t, res.TimedOut)
		assert.Equal(t, 124, res.ExitCode)
	})
	t.Run("memory limit", func(t *testing.T) {
		res, err := sb.Run(ctx, `python3 -c 'x = bytearray(200 << 20); print(len(x))'`, core.RunOptions{})
		require.NoError(t, err)
		assert.NotEqual(t, 0, res.ExitCode)
		assert.Empty(t, string(res.Stdout))
		assert.Contains(t, string(res.Stderr), "MemoryError")
	})
	t.Run("output cap", func(t *testing.T) {
		res, err := sb.Run(ctx, `python3 -c 'import sys
for i in range(100000): sys.stdout.write("x" * 99 + "\n")'`, core.RunOptions{})
		require.NoError(t, err)
		assert.True(t, res.Truncated)
		assert.LessOrEqual(t, len(res.Stdout), (1<<20)+200)
	})
	t.Run("deep recursion is a RecursionError", func(t *testing.T) {
		res, err := sb.Run(ctx, `python3 -c '
import sys
def f(n): return f(n + 1)
try:
    f(0)
except RecursionError:
    print("RecursionError", sys.getrecursionlimit())
'`, core.RunOptions{})
		require.NoError(t, err)
		assert.Equal(t, "RecursionError 1000\n", string(res.Stdout), "%s", res.Stderr)
	})
}

// The compiled module is shared by every sandbox of the process: a second
// sandbox's first python3 run does not compile it again (it takes a fraction
// of the first run's time when that one had to compile).
func TestPythonModuleShared(t *testing.T) {
	tools := pythonTools(t)
	ctx := context.Background()
	for i := 0; i < 2; i++ {
		sb := newPythonSandbox(t, tools, core.Options{})
		res, err := sb.Run(ctx, `python3 -c 'print("ok")'`, core.RunOptions{})
		require.NoError(t, err)
		assert.Equal(t, "ok\n", string(res.Stdout), "%s", res.Stderr)
	}
}

// A REPL starts when stdin is a terminal: prompts on stderr, results on stdout.
func TestPythonREPL(t *testing.T) {
	tools := pythonTools(t)
	sb := newPythonSandbox(t, tools, core.Options{})
	r, w, err := os.Pipe()
	require.NoError(t, err)
	go func() {
		w.WriteString("x = 6\nprint(x * 7)\nx + 1\n")
		w.Close()
	}()
	defer r.Close()
	var out, errb bytes.Buffer
	res, err := sb.Run(context.Background(), "python3", core.RunOptions{Stdin: r, Stdout: &out, Stderr: &errb, Terminal: true})
	require.NoError(t, err)
	assert.Equal(t, 0, res.ExitCode)
	assert.Equal(t, "42\n7\n", out.String())
	assert.Contains(t, errb.String(), ">>> ")
	assert.Contains(t, errb.String(), "Python 3.11")
}

// python3 starts from a pre-initialized image (assets/python/preinit.c): what
// a program sees must be what a cold start gives it. PYTHONHASHSEED (any
// PYTHON* variable the image cannot honour) forces a cold start to compare with.
func TestPythonPreinit(t *testing.T) {
	tools := pythonTools(t)
	sb := newPythonSandbox(t, tools, core.Options{})
	ctx := context.Background()
	const probe = `import sys, os, site, _wasmsand
print("resumed" if _wasmsand.resumed() else "cold")
env = {k: v for k, v in os.environ.items() if k != "PYTHONHASHSEED"}
for k, v in [
    ("argv", sys.argv), ("orig_argv", sys.orig_argv), ("path", sys.path),
    ("executable", (sys.executable, sys._base_executable, sys.prefix, sys.exec_prefix, sys._stdlib_dir)),
    ("flags", sys.flags), ("bytecode", sys.dont_write_bytecode), ("warn", (sys.warnoptions, sys._xoptions)),
    ("cwd", os.getcwd()), ("env", sorted(env.items())), ("environb", len(os.environb) == len(os.environ)),
    ("encodings", (sys.getfilesystemencoding(), sys.getfilesystemencodeerrors(), sys.getdefaultencoding())),
    ("streams", [(f.name, f.encoding, f.errors, f.line_buffering, f.write_through, f.isatty(), f.fileno(),
                  f.mode, type(f.buffer).__name__, f is g) for f, g in
                 [(sys.stdin, sys.__stdin__), (sys.stdout, sys.__stdout__), (sys.stderr, sys.__stderr__)]]),
    ("site", (site.ENABLE_USER_SITE, site.USER_BASE, site.USER_SITE)),
    ("modules", sorted(sys.modules)), ("sitecustomize", getattr(sys, "customized", False)),
    ("main", sorted(k for k in vars(sys.modules["__main__"]) if k.startswith("__"))),
]:
    print(k, v)
`
	require.NoError(t, sb.WriteFile("/home/user/probe.py", []byte(probe), 0o644))
	require.NoError(t, sb.WriteFile("/home/user/lib/probemod.py", []byte("import probe\n"), 0o644))
	require.NoError(t, sb.WriteFile("/home/user/lib/sitecustomize.py", []byte("import sys\nsys.customized = True\n"), 0o644))

	for _, c := range []struct{ name, cmd string }{
		{"script", "python3 probe.py a 'b c'"},
		{"-c", `python3 -c "$(cat probe.py)" x`},
		{"-m with PYTHONPATH", "PYTHONPATH=lib:/nope python3 -m probemod"},
		{"python, -u -B", "python -u -B probe.py"},
		{"stdin", "python3 - y < probe.py"},
		{"env and cwd", "cd /tmp && FOO=bar TZ=Europe/Paris python3 /home/user/probe.py"},
	} {
		t.Run(c.name, func(t *testing.T) {
			warm, err := sb.Run(ctx, c.cmd, core.RunOptions{Cwd: "/home/user"})
			require.NoError(t, err)
			cold, err := sb.Run(ctx, "export PYTHONHASHSEED=random; "+c.cmd, core.RunOptions{Cwd: "/home/user"})
			require.NoError(t, err)
			require.Equal(t, 0, warm.ExitCode, "%s", warm.Stderr)
			require.Equal(t, 0, cold.ExitCode, "%s", cold.Stderr)
			w, _ := strings.CutPrefix(string(warm.Stdout), "resumed\n")
			k, _ := strings.CutPrefix(string(cold.Stdout), "cold\n")
			assert.True(t, strings.HasPrefix(string(warm.Stdout), "resumed\n"), "not resumed: %s", warm.Stdout)
			assert.True(t, strings.HasPrefix(string(cold.Stdout), "cold\n"), "not cold: %s", cold.Stdout)
			assert.Equal(t, k, w)
		})
	}

	t.Run("what the image cannot honour starts cold", func(t *testing.T) {
		for _, cmd := range []string{
			"python3 -S -c 'import _wasmsand; print(_wasmsand.resumed())'",
			"python3 -X utf8 -c 'import _wasmsand; print(_wasmsand.resumed())'",
			"LANG=C python3 -c 'import _wasmsand, sys; print(_wasmsand.resumed(), sys.flags.utf8_mode)'",
			"PYTHONHOME=/elsewhere python3 -c 'import _wasmsand; print(_wasmsand.resumed())' 2>/dev/null; echo $?",
		} {
			res, err := sb.Run(ctx, cmd, core.RunOptions{})
			require.NoError(t, err)
			assert.NotContains(t, string(res.Stdout), "True", "%s: %s", cmd, res.Stderr)
		}
	})

	t.Run("every run has its own randomness", func(t *testing.T) {
		seen := map[string]bool{}
		for i := 0; i < 3; i++ {
			res, err := sb.Run(ctx, `python3 -c 'import random, os; print(random.random(), os.urandom(8).hex())'`, core.RunOptions{})
			require.NoError(t, err)
			assert.False(t, seen[string(res.Stdout)], "repeated: %s", res.Stdout)
			seen[string(res.Stdout)] = true
		}
	})

	t.Run("one sandbox's files never reach another's python", func(t *testing.T) {
		a := newPythonSandbox(t, tools, core.Options{})
		b := newPythonSandbox(t, tools, core.Options{})
		require.NoError(t, a.WriteFile("/home/user/lib/sitecustomize.py", []byte("print('customized')\n"), 0o644))
		for _, c := range []struct {
			sb   *core.Sandbox
			want string
		}{{a, "customized\nok\n"}, {b, "ok\n"}, {a, "customized\nok\n"}} {
			res, err := c.sb.Run(ctx, `PYTHONPATH=/home/user/lib python3 -c 'print("ok")'`, core.RunOptions{})
			require.NoError(t, err)
			assert.Equal(t, c.want, string(res.Stdout), "%s", res.Stderr)
		}
	})
}

// ttyBuffer is an output that says it is a terminal (RunOptions.Terminal).
type ttyBuffer struct{ bytes.Buffer }

func (*ttyBuffer) IsTerminal() bool { return true }

// Programs writing straight to a terminal output see a tty; through a pipe
// or a redirection they do not.
func TestTerminalOutput(t *testing.T) {
	tools := pythonTools(t)
	sb := newPythonSandbox(t, tools, core.Options{})
	const probe = `python3 -c 'import sys; print(sys.stdout.isatty(), sys.stderr.isatty(), sys.stdout.line_buffering)'`
	for _, c := range []struct{ script, want string }{
		{probe, "True True True\n"},
		{probe + " | cat", "False True False\n"},
		{probe + " 2>/dev/null", "True False True\n"},
	} {
		var out, errb ttyBuffer
		_, err := sb.Run(context.Background(), c.script, core.RunOptions{Stdout: &out, Stderr: &errb})
		require.NoError(t, err)
		assert.Equal(t, c.want, out.String(), "%s: %s", c.script, errb.String())
	}
	res, err := sb.Run(context.Background(), probe, core.RunOptions{})
	require.NoError(t, err)
	assert.Equal(t, "False False False\n", string(res.Stdout))
}
