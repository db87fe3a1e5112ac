package native

// Differential tests: the same guest runs on wazero's built-in WASI (over a host temp dir
// mounted as "/") and on ours (over a vfs with the same tree); stdout, stderr, exit code
// and the resulting tree must match.

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Where wazero departs from Linux, we follow Linux. Each deviation is recorded here as
// test → {wazero's line, our line}.
var linuxDeviations = map[string][][2]string{
	// Linux: a regular file in the middle of a path is ENOTDIR.
	"mkdir": {{"mkdir a.txt/x                -> -1 ENOENT", "mkdir a.txt/x                -> -1 ENOTDIR"}},
	// Linux: writing an fd opened read-only (here a directory) is EBADF.
	"errors": {{"write dir fd                 -> -1 EISDIR", "write dir fd                 -> -1 EBADF"}},
}

func TestDifferentialFS(t *testing.T) {
	wasm := cGuest(t, "fsops")
	for _, name := range []string{"readwrite", "seek", "readdir", "stat", "mkdir", "rename", "symlink", "errors", "cwd"} {
		t.Run(name, func(t *testing.T) {
			root := hostTree(t, fsTree)
			fsys := vfsTree(t, fsTree)
			o := runOpt{args: []string{"fsops", name}}
			want := runWazero(t, wasm, root, o)
			require.NoError(t, want.err)
			got := runOurs(t, wasm, fsys, o)
			require.NoError(t, got.err)
			for _, d := range linuxDeviations[name] {
				require.Contains(t, want.stdout, d[0]+"\n", "recorded deviation no longer seen")
				want.stdout = strings.Replace(want.stdout, d[0]+"\n", d[1]+"\n", 1)
			}
			assert.Equal(t, want.stdout, got.stdout)
			assert.Equal(t, want.stderr, got.stderr)
			assert.Equal(t, want.code, got.code)
			for _, dir := range []string{"/data", "/tmp"} {
				assert.Equal(t, dumpHost(t, root, dir), dumpVFS(t, fsys, dir), "tree %s after the run", dir)
			}
			if t.Failed() {
				t.Logf("wazero stdout:\n%s", want.stdout)
			}
		})
	}
}

func TestDifferentialMisc(t *testing.T) {
	now := fmt.Sprint(time.Now().Unix())
	for _, tc := range []struct {
		name  string
		guest string
		args  []string
		env   []string
		stdin string
	}{
		{"args", "args", []string{"args", "x", "", "with space", "ünïcödé"}, []string{"A=1", "EMPTY=", "B=x=y"}, ""},
		{"no args env", "args", []string{"args"}, nil, ""},
		{"clock", "clock", []string{"clock", now}, nil, ""},
		{"random", "random", []string{"random"}, nil, ""},
		{"cat", "cat", []string{"cat"}, nil, strings.Repeat("some input\n", 5000)},
		{"cat empty", "cat", []string{"cat"}, nil, ""},
		{"exit 3", "exitcode", []string{"exitcode", "3"}, nil, ""},
		{"exit 0", "exitcode", []string{"exitcode", "0"}, nil, ""},
		{"hello", "hello", []string{"hello"}, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wasm := cGuest(t, tc.guest)
			o := runOpt{args: tc.args, env: tc.env}
			if tc.stdin != "" {
				o.stdin = strings.NewReader(tc.stdin)
			}
			want := runWazero(t, wasm, hostTree(t, fsTree), o)
			require.NoError(t, want.err)
			if tc.stdin != "" {
				o.stdin = strings.NewReader(tc.stdin)
			}
			got := runOurs(t, wasm, vfsTree(t, fsTree), o)
			require.NoError(t, got.err)
			assert.Equal(t, want.stdout, got.stdout)
			assert.Equal(t, want.stderr, got.stderr)
			assert.Equal(t, want.code, got.code)
		})
	}
}

func TestDifferentialGoGuest(t *testing.T) {
	wasm := goGuest(t, "fsgo")
	root := hostTree(t, fsTree)
	fsys := vfsTree(t, fsTree)
	o := runOpt{args: []string{"fsgo", "arg"}, env: []string{"GREETING=hi", "PWD=/data"}}
	want := runWazero(t, wasm, root, o)
	require.NoError(t, want.err)
	got := runOurs(t, wasm, fsys, o)
	require.NoError(t, got.err)
	assert.Equal(t, want.stdout, got.stdout)
	assert.Equal(t, want.stderr, got.stderr)
	assert.Equal(t, want.code, got.code)
	assert.Equal(t, dumpHost(t, root, "/data"), dumpVFS(t, fsys, "/data"))
}
