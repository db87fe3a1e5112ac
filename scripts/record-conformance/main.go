// Command record-conformance records the expected results of the conformance
// suite (testdata/conformance) from the host's real bash 5.2 and GNU tools:
//
//	go run ./scripts/record-conformance            # every group
//	go run ./scripts/record-conformance grep sed   # some groups
//
// It needs root (Linux namespaces) and installs missing reference tools with
// apt-get. Each case runs:
//   - in fresh mount, pid and network namespaces (no network: curl/wget fail
//     as they would offline; ps sees only the case's processes), except
//     that the network group's cases find conformance.NetHandler on the
//     namespace's loopback at conformance.NetAddr;
//   - with private tmpfs on /home (holding an empty /home/user/case, the
//     cwd), /tmp and /usr/local/bin, so absolute paths are the sandbox's
//     (/home/user/case, HOME=/home/user) and nothing of the host leaks in;
//     /usr/local/bin holds only awk -> gawk (GNU awk; Debian's default awk is
//     mawk) and fd -> fdfind (Debian's name for fd);
//   - as uid/gid 1000 (the sandbox user's ids) with umask 022, stdin
//     /dev/null, and only this environment: PATH=/usr/local/bin:/usr/bin:/bin
//     LC_ALL=C.UTF-8 LANG=C.UTF-8 TZ=UTC HOME=/home/user USER=user
//     LOGNAME=user SHELL=/bin/bash TERM=xterm-256color;
//   - as `bash -c SCRIPT` (so $0 is "bash").
//
// Every case is run twice; a case whose results differ is reported as
// nondeterministic and nothing is written for its group.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/wasmsand/wasmsand/conformance"
)

// setup runs as root inside the new namespaces, then drops to uid 1000.
const setup = `set -e
if [ -n "$2" ]; then
  # the network group: its server (this program, -serve-net, started
  # before /tmp, where go run keeps it, is hidden) on the namespace's own
  # loopback
  ip link set lo up
  "$2" -serve-net &
  for i in $(seq 100); do bash -c ': </dev/tcp/127.0.0.1/18765' 2>/dev/null && break; sleep 0.05; done
fi
mount -t tmpfs -o mode=755 tmpfs /home
mount -t tmpfs -o mode=755 tmpfs /usr/local/bin
if [ -n "$3" ]; then
  # a case that runs TypeScript: node is this program (nodeShim), which
  # strips the types with esbuild, as Node 22.6+ would, and runs Node
  cp "$3" /usr/local/bin/node
fi
mount -t tmpfs -o mode=1777 tmpfs /tmp
ln -s /usr/bin/gawk /usr/local/bin/awk
ln -s /usr/bin/fdfind /usr/local/bin/fd
mkdir -p /home/user/case
chown -R 1000:1000 /home/user
cd /home/user/case
umask 022
exec setpriv --reuid=1000 --regid=1000 --clear-groups env -i \
  PATH=/usr/local/bin:/usr/bin:/bin LC_ALL=C.UTF-8 LANG=C.UTF-8 TZ=UTC \
  HOME=/home/user USER=user LOGNAME=user SHELL=/bin/bash TERM=xterm-256color \
  bash -c "$1"
`

// tools the cases use, by the Debian package that provides them.
var packages = map[string]string{
	"gawk": "gawk", "jq": "jq", "sqlite3": "sqlite3", "bc": "bc", "zip": "zip",
	"unzip": "unzip", "xxd": "xxd", "tree": "tree", "file": "file", "bzip2": "bzip2",
	"xz": "xz-utils", "patch": "patch", "hexdump": "bsdextrautils", "column": "bsdextrautils",
	"curl": "curl", "wget": "wget", "less": "less", "more": "util-linux", "clear": "ncurses-bin",
	"ps": "procps", "pgrep": "procps", "top": "procps", "free": "procps", "setpriv": "util-linux", "unshare": "util-linux", "timeout": "coreutils",
	"diff": "diffutils", "find": "findutils", "xargs": "findutils", "grep": "grep",
	"sed": "sed", "tar": "tar", "gzip": "gzip", "hostname": "hostname", "which": "debianutils",
	"ip": "iproute2", "rg": "ripgrep", "fdfind": "fd-find", // (fd: /usr/local/bin/fd, see setup)
}

// versions recorded in the expected files, to know what a recording is from.
var versionPkgs = []string{"bash", "coreutils", "grep", "sed", "gawk", "findutils", "diffutils",
	"patch", "tar", "gzip", "bzip2", "xz-utils", "zip", "unzip", "jq", "sqlite3", "bc",
	"xxd", "tree", "file", "bsdextrautils", "util-linux", "procps", "ncurses-bin", "curl", "wget",
	"ripgrep", "fd-find", "nodejs"}

const caseTimeout = 30 * time.Second

func main() {
	if filepath.Base(os.Args[0]) == "node" {
		os.Exit(nodeShim(os.Args[1:]))
	}
	suite := flag.String("suite", "testdata/conformance", "suite directory")
	jobs := flag.Int("j", 2*runtime.NumCPU(), "cases run at once")
	install := flag.Bool("install", true, "apt-get install missing reference tools")
	serveNet := flag.Bool("serve-net", false, "serve the network group's server (inside a case's namespace)")
	flag.Parse()
	if *serveNet {
		fmt.Fprintln(os.Stderr, http.ListenAndServe(conformance.NetAddr, conformance.NetHandler()))
		os.Exit(1)
	}
	if err := run(*suite, *jobs, *install, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "record-conformance:", err)
		os.Exit(1)
	}
}

func run(suite string, jobs int, install bool, only []string) error {
	if os.Geteuid() != 0 {
		return errors.New("must run as root (it uses mount/pid/net namespaces and drops to uid 1000)")
	}
	if err := checkTools(install); err != nil {
		return err
	}
	out, err := exec.Command("bash", "--version").Output()
	if err != nil || !bytes.Contains(out, []byte("version 5.2")) {
		return fmt.Errorf("need bash 5.2, have %q", firstLine(out))
	}
	recorder := versions()
	groups, err := conformance.Groups(suite)
	if err != nil {
		return err
	}
	if len(only) > 0 {
		groups = only
	}
	failed := false
	for _, g := range groups {
		cases, err := conformance.LoadCases(suite, g)
		if err != nil {
			return err
		}
		start := time.Now()
		recs, bad := recordGroup(cases, jobs)
		if len(bad) > 0 {
			failed = true
			for _, b := range bad {
				fmt.Fprintln(os.Stderr, "  ", b)
			}
			fmt.Fprintf(os.Stderr, "%s: not written (%d problems)\n", g, len(bad))
			continue
		}
		f := &conformance.ExpectedFile{
			Comment:  "Recorded by scripts/record-conformance from cases/" + g + ".txt; do not edit.",
			Recorder: recorder,
			Cases:    recs,
		}
		data, err := f.Encode()
		if err != nil {
			return err
		}
		if err := os.WriteFile(conformance.ExpectedPath(suite, g), data, 0o644); err != nil {
			return err
		}
		fmt.Printf("%s: %d cases recorded in %v\n", g, len(recs), time.Since(start).Round(time.Millisecond))
	}
	if failed {
		return errors.New("some groups were not recorded")
	}
	return nil
}

// recordGroup runs every case twice, concurrently.
func recordGroup(cases []conformance.Case, jobs int) ([]conformance.Recorded, []string) {
	recs := make([]conformance.Recorded, len(cases))
	probs := make([]string, len(cases))
	sem := make(chan struct{}, max(jobs, 1))
	var wg sync.WaitGroup
	for i, c := range cases {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			server := ""
			if c.Group == conformance.NetGroup {
				server, _ = os.Executable()
			}
			shim := ""
			if strings.Contains(c.Script, ".ts") {
				shim, _ = os.Executable()
			}
			r1, err1 := runCase(c.Script, server, shim)
			r2, err2 := runCase(c.Script, server, shim)
			switch {
			case err1 != nil:
				probs[i] = fmt.Sprintf("%s: %v", c.ID(), err1)
			case err2 != nil:
				probs[i] = fmt.Sprintf("%s: %v", c.ID(), err2)
			case r1 != r2:
				probs[i] = fmt.Sprintf("%s: nondeterministic:\n%s", c.ID(), describeDiff(r1, r2))
			}
			recs[i] = conformance.NewRecorded(c, r1)
		}()
	}
	wg.Wait()
	var bad []string
	for _, p := range probs {
		if p != "" {
			bad = append(bad, p)
		}
	}
	return recs, bad
}

func describeDiff(a, b conformance.Result) string {
	var s strings.Builder
	if a.Status != b.Status {
		fmt.Fprintf(&s, "    status %d vs %d\n", a.Status, b.Status)
	}
	if a.Stdout != b.Stdout {
		fmt.Fprintf(&s, "    stdout %q\n        vs %q\n", a.Stdout, b.Stdout)
	}
	if a.Stderr != b.Stderr {
		fmt.Fprintf(&s, "    stderr %q\n        vs %q\n", a.Stderr, b.Stderr)
	}
	return s.String()
}

// capWriter keeps the first max bytes.
type capWriter struct {
	buf bytes.Buffer
	max int
}

func (w *capWriter) Write(p []byte) (int, error) {
	if room := w.max - w.buf.Len(); room > 0 {
		w.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// runCase runs a script; server, when set, is this program, started as
// the network group's server in the case's namespace; shim, when set, is
// this program too, installed as the case's node (nodeShim).
func runCase(script, server, shim string) (conformance.Result, error) {
	ctx, cancel := context.WithTimeout(context.Background(), caseTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "unshare", "--mount", "--net", "--pid", "--fork", "--kill-child",
		"--mount-proc", "--propagation", "private", "--", "/bin/sh", "-c", setup, "sh", script, server, shim)
	// The case's stdout and stderr are pipes owned by uid 1000, so that it
	// may reopen them as /dev/stdout and /dev/stderr.
	var stdout, stderr capWriter
	stdout.max, stderr.max = 4<<20, 4<<20
	var copies sync.WaitGroup
	pipe := func(c *capWriter) (*os.File, error) {
		r, w, err := os.Pipe()
		if err != nil {
			return nil, err
		}
		if err := syscall.Fchown(int(w.Fd()), 1000, 1000); err != nil {
			r.Close()
			w.Close()
			return nil, err
		}
		copies.Add(1)
		go func() {
			defer copies.Done()
			defer r.Close()
			_, _ = io.Copy(c, r)
		}()
		return w, nil
	}
	outW, err := pipe(&stdout)
	if err != nil {
		return conformance.Result{}, err
	}
	defer outW.Close()
	errW, err := pipe(&stderr)
	if err != nil {
		return conformance.Result{}, err
	}
	defer errW.Close()
	cmd.Stdout, cmd.Stderr = outW, errW
	cmd.Stdin = nil // /dev/null
	cmd.Dir = "/"
	err = cmd.Start()
	// Our copies of the write ends must be closed for the reads to end.
	outW.Close()
	errW.Close()
	if err == nil {
		err = cmd.Wait()
	}
	copies.Wait()
	res := conformance.Result{Stdout: stdout.buf.String(), Stderr: stderr.buf.String()}
	if ctx.Err() != nil {
		return res, fmt.Errorf("timed out after %v", caseTimeout)
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee) && ee.Exited():
		res.Status = ee.ExitCode()
	default:
		return res, fmt.Errorf("run: %v (stderr %q)", err, res.Stderr)
	}
	return res, nil
}

func checkTools(install bool) error {
	var missing []string
	seen := map[string]bool{}
	for tool, pkg := range packages {
		if _, err := exec.LookPath(tool); err != nil && !seen[pkg] {
			seen[pkg] = true
			missing = append(missing, pkg)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	if !install {
		return fmt.Errorf("missing reference tools (packages %s)", strings.Join(missing, " "))
	}
	// Installing gawk makes it Debian's /usr/bin/awk; the cases get it through
	// /usr/local/bin instead, so put the machine's choice back.
	awkBefore, _ := filepath.EvalSymlinks("/usr/bin/awk")
	fmt.Println("installing", strings.Join(missing, " "))
	cmd := exec.Command("apt-get", append([]string{"install", "-y", "--no-install-recommends"}, missing...)...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("apt-get install %s: %v (try apt-get update first)", strings.Join(missing, " "), err)
	}
	if awkAfter, _ := filepath.EvalSymlinks("/usr/bin/awk"); awkBefore != "" && awkAfter != awkBefore {
		_ = exec.Command("update-alternatives", "--set", "awk", awkBefore).Run()
	}
	return nil
}

func versions() string {
	out, _ := exec.Command("dpkg-query", append([]string{"-W", "-f", "${Package} ${Version}\\n"}, versionPkgs...)...).Output()
	return strings.Join(strings.Split(strings.TrimSpace(string(out)), "\n"), "; ")
}

func firstLine(b []byte) string {
	s, _, _ := strings.Cut(string(b), "\n")
	return s
}
