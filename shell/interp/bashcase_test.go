package interp

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bashCase is one script run in a fresh shell (testRunner: cwd and $HOME
// /home/user, no programs outside the shell) with the stdout, stderr and
// exit status real bash 5.2 gives for it as `bash -c SCRIPT`.
type bashCase struct {
	name   string
	src    string
	out    string // stdout, exactly
	err    string // stderr, exactly ("" = nothing on stderr)
	status int
	stdin  string
	// files are created before the run, relative to /home/user; a name
	// ending in "/" is a directory.
	files map[string]string
	// wantFiles are the contents files must have after the run (relative
	// to /home/user); "<absent>" means the file must not exist.
	wantFiles map[string]string
	// skip names how our interpreter differs from bash on this case: the
	// expectation above is bash's, the case is skipped here.
	skip string
}

const absent = "<absent>"

// runBashCases runs each case as a subtest. With INTERP_BASH set to a bash
// 5.2 binary, each case also runs under it (from a scratch directory laid
// out like the sandbox's /home/user, whose path is removed from bash's
// output) and its expectation is checked against real bash: the way the
// expectations in these files were verified, and are to be after an edit:
//
//	INTERP_BASH=/bin/bash go test ./shell/interp/
//
// Skipped cases are checked against bash too.
func runBashCases(t *testing.T, cases []bashCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if bash := os.Getenv("INTERP_BASH"); bash != "" {
				checkAgainstBash(t, bash, tc)
			}
			if tc.skip != "" {
				t.Skip("differs from bash: " + tc.skip)
			}
			out, errOut, st, fsys := runOneCase(t, tc)
			assert.Equal(t, tc.out, out, "stdout of %q", tc.src)
			assert.Equal(t, tc.err, errOut, "stderr of %q", tc.src)
			assert.Equal(t, tc.status, st, "status of %q", tc.src)
			for _, name := range caseFileNames(tc.wantFiles) {
				want := tc.wantFiles[name]
				data, err := fsys(name)
				if want == absent {
					assert.Error(t, err, "%s should not exist after %q", name, tc.src)
					continue
				}
				if assert.NoError(t, err, "reading %s after %q", name, tc.src) {
					assert.Equal(t, want, string(data), "content of %s after %q", name, tc.src)
				}
			}
		})
	}
}

// runOneCase runs one case in a fresh testRunner and returns its outputs and
// a reader of the VFS (paths relative to /home/user).
func runOneCase(t *testing.T, tc bashCase) (string, string, int, func(string) ([]byte, error)) {
	r, out, errb := testRunner(t)
	fsys := r.cfg.FS
	home := "/home/user/"
	for _, name := range caseFileNames(tc.files) {
		if strings.HasSuffix(name, "/") {
			require.NoError(t, fsys.MkdirAll(home+name, 0o755))
			continue
		}
		if d := filepath.Dir(name); d != "." {
			require.NoError(t, fsys.MkdirAll(home+d, 0o755))
		}
		require.NoError(t, fsys.WriteFile(home+name, []byte(tc.files[name]), 0o644))
	}
	if tc.stdin != "" {
		r.SetStdio(strings.NewReader(tc.stdin), out, errb)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	st := r.Run(ctx, tc.src, RunOpts{Script: true})
	read := func(name string) ([]byte, error) { return fsys.ReadFile(home + name) }
	return out.String(), errb.String(), st, read
}

// checkAgainstBash runs the case under real bash and requires the
// expectation to be what it printed.
func checkAgainstBash(t *testing.T, bash string, tc bashCase) {
	t.Helper()
	root := t.TempDir()
	home := filepath.Join(root, "home", "user")
	require.NoError(t, os.MkdirAll(home, 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(root, "tmp"), 0o777))
	for _, name := range caseFileNames(tc.files) {
		p := filepath.Join(home, name)
		if strings.HasSuffix(name, "/") {
			require.NoError(t, os.MkdirAll(p, 0o755))
			continue
		}
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(tc.files[name]), 0o644))
	}
	cmd := exec.Command(bash, "-c", tc.src)
	cmd.Args[0] = "bash" // $0 and the name in messages, as in the sandbox
	cmd.Dir = home
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + home, "LC_ALL=C.UTF-8", "TZ=UTC"}
	cmd.Stdin = strings.NewReader(tc.stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	st := 0
	if err := cmd.Run(); err != nil {
		ee, ok := err.(*exec.ExitError)
		require.True(t, ok, "running bash: %v", err)
		st = ee.ExitCode()
	}
	clean := func(s string) string { return strings.ReplaceAll(s, root, "") }
	if o, e := clean(out.String()), clean(errb.String()); o != tc.out || e != tc.err || st != tc.status {
		t.Errorf("real bash differs from the expectation of %q:\n\tout: %q,\n\terr: %q,\n\tstatus: %d,", tc.src, o, e, st)
	}
	for _, name := range caseFileNames(tc.wantFiles) {
		data, err := os.ReadFile(filepath.Join(home, name))
		if tc.wantFiles[name] == absent {
			assert.Error(t, err, "bash: %s should not exist", name)
			continue
		}
		if assert.NoError(t, err, "bash: reading %s", name) {
			assert.Equal(t, tc.wantFiles[name], string(data), "bash: content of %s", name)
		}
	}
}

func caseFileNames(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
