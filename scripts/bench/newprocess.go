package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// newProcessBench: each command as its own `wasmsand run -c` process, alone
// (WASMSAND_DAEMON=0) and handing its work to a resident daemon (its default, as
// agent frameworks that call a CLI per tool call run it), beside the native
// command as its own process, median of 7 after one warm-up (the on-disk
// compile cache warm); and what --load/--save of a 10 MB state add.
func newProcessBench(ctx context.Context) {
	fmt.Println()
	src := assetsDir()
	if src == "" {
		fmt.Println("new process: skipped: no assets (run `make assets`)")
		return
	}
	dir, err := os.MkdirTemp("", "wasmsand-bench-cli-")
	check(err)
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "wasmsand")
	build := exec.Command("go", "build", "-o", bin, "./cmd/wasmsand")
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	check(build.Run())
	sock := filepath.Join(dir, "daemon.sock")
	daemonEnv := []string{"WASMSAND_DAEMON_SOCKET=" + sock, "WASMSAND_DAEMON_IDLE=20s"}
	noDaemon := []string{"WASMSAND_DAEMON=0"} // (run's default hands work to a daemon)
	extraEnv := noDaemon
	median := func(name string, args ...string) time.Duration {
		var ts []time.Duration
		for i := 0; i < 8; i++ {
			cmd := exec.Command(name, args...)
			cmd.Env = append(append(os.Environ(), "WASMSAND_ASSETS="+src), extraEnv...)
			t0 := time.Now()
			if out, err := cmd.CombinedOutput(); err != nil {
				fail("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
			}
			if i > 0 {
				ts = append(ts, time.Since(t0))
			}
		}
		sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })
		return ts[len(ts)/2]
	}
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/1e6) }
	fmt.Printf("%-32s %12s %14s %12s %8s  %s\n", "new process (median of 7)", "wasmsand run", "with daemon", "native", "ratio", "target")
	for _, c := range []struct{ script, native, target string }{
		{"true", "true", "≤ 10 ms"},
		{"grep -c x /dev/null; true", "grep -c x /dev/null; true", "≤ 10 ms"},
		{"cat /dev/null", "cat /dev/null", "≤ 10 ms"},
		{"sort /dev/null", "sort /dev/null", "≤ 10 ms"},
		{"jq -n 1", "jq -n 1", "≤ 10 ms"},
		{"python3 -c pass", "python3.11 -c pass", "≤ 30 ms"},
	} {
		ours := median(bin, "run", "-c", c.script)
		extraEnv = daemonEnv
		warm := median(bin, "run", "-c", c.script)
		extraEnv = noDaemon
		nat, ratio := "-", "-"
		if c.native != "" {
			if _, err := exec.LookPath(strings.Fields(c.native)[0]); err == nil {
				n := median("bash", "-c", c.native)
				nat, ratio = ms(n), fmt.Sprintf("%.1f×", float64(warm)/float64(n))
			}
		}
		fmt.Printf("%-32s %12s %14s %12s %8s  %s\n", c.script, ms(ours), ms(warm), nat, ratio, c.target)
	}
	// --load + --save of a 10 MB state beside the same run without them
	state := filepath.Join(dir, "state")
	cmd := exec.Command(bin, "run", "--save", state, "-c", "head -c 10000000 /dev/urandom > big")
	cmd.Env = append(os.Environ(), "WASMSAND_ASSETS="+src, "WASMSAND_DAEMON=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		fail("making a 10 MB state: %v\n%s", err, out)
	}
	plain := median(bin, "run", "-c", "true")
	loaded := median(bin, "run", "--load", state, "--save", state, "-c", "true")
	extraEnv = daemonEnv
	plainD := median(bin, "run", "-c", "true")
	loadedD := median(bin, "run", "--load", state, "--save", state, "-c", "true")
	extraEnv = noDaemon
	fmt.Printf("%-32s %12s %14s %12s %8s  %s\n", "--load + --save, 10 MB state", "+"+ms(loaded-plain), "+"+ms(loadedD-plainD), "", "", "≤ +20 ms")
	// the same when the run writes a file (the state is saved again)
	written := median(bin, "run", "--load", state, "--save", state, "-c", "echo $RANDOM > r")
	extraEnv = daemonEnv
	writtenD := median(bin, "run", "--load", state, "--save", state, "-c", "echo $RANDOM > r")
	extraEnv = noDaemon
	fmt.Printf("%-32s %12s %14s %12s %8s  %s\n", "  … when the run writes a file", "+"+ms(written-plain), "+"+ms(writtenD-plainD), "", "", "≤ +20 ms")
	fmt.Println("(wasmsand run: WASMSAND_DAEMON=0; with daemon: run's default for pipes, a warm daemon; ratio = with the daemon / native; both sides are new processes)")
	// the bench's daemon ends once idle; its socket goes with dir
}
