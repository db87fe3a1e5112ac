package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/wasmsand/wasmsand/core"
)

// userlandBench is issue 16's: git over a 1,000-file tree (add + commit,
// then diff after editing 100 files), tar czf of that tree, gawk and perl,
// beside the native tools in the same run; and the sizes of the userland assets.
func userlandBench(ctx context.Context) {
	fmt.Println()
	tools := openAssets(ctx, "userland", "")
	if tools == nil {
		return
	}
	have := map[string]bool{}
	for _, c := range tools.Commands() {
		have[c] = true
	}
	// A tree of 1,000 small files in 10 directories.
	const mkTree = `mkdir -p t && cd t && for d in 0 1 2 3 4 5 6 7 8 9; do mkdir d$d; for i in $(seq 100); do printf 'file %s %s\nline two\n' $d $i > d$d/f$i.txt; done; done`
	const edit = `for i in $(seq 10); do for d in 0 1 2 3 4 5 6 7 8 9; do echo changed >> d$d/f$i.txt; done; done`
	gitEnv := `export GIT_AUTHOR_NAME=Bench GIT_AUTHOR_EMAIL=b@example.com GIT_COMMITTER_NAME=Bench GIT_COMMITTER_EMAIL=b@example.com HOME=/tmp/gh; mkdir -p $HOME; `

	sb, err := core.New(ctx, core.Options{Programs: tools, Timeout: 10 * time.Minute, FSLimitMB: 512})
	check(err)
	defer sb.Close()
	run := sandboxRunner(ctx, sb, "userland")
	tmp, err := os.MkdirTemp("", "wasmsand-bench-userland")
	check(err)
	defer os.RemoveAll(tmp)
	nat := nativeRunner(tmp)
	run("cd /tmp && " + mkTree)()
	nat(mkTree)()

	// timed runs each on a fresh copy of the tree (the copy not timed)
	fresh := func(do func(string) func(), prep, timed string, n int) time.Duration {
		var total time.Duration
		for i := 0; i < n; i++ {
			do(prep)()
			t0 := time.Now()
			do(timed)()
			total += time.Since(t0)
		}
		return total / time.Duration(n)
	}
	var rows []row
	if have["git"] && exec.Command("git", "--version").Run() == nil {
		prep := "cd /tmp && rm -rf r && cp -r t r"
		timed := gitEnv + "cd /tmp/r && git init -q && git add -A && git commit -q -m initial"
		nprep := "rm -rf r && cp -r t r"
		ntimed := gitEnv + "cd r && git init -q && git add -A && git commit -q -m initial"
		rows = append(rows, row{"git init + add -A + commit (1,000 files)", fresh(run, prep, timed, 3), fresh(nat, nprep, ntimed, 3), "≤ 3×", ""})
		run("cd /tmp/r && " + edit)()
		nat("cd r && " + edit)()
		rows = append(rows, row{"git diff (100 files edited)", per(5, run(gitEnv+"cd /tmp/r && git diff >/dev/null")),
			per(5, nat(gitEnv+"cd r && git diff >/dev/null")), "≤ 3×", ""})
		rows = append(rows, row{"git status", per(5, run(gitEnv+"cd /tmp/r && git status >/dev/null")),
			per(5, nat(gitEnv+"cd r && git status >/dev/null")), "", ""})
	} else {
		fmt.Println("userland: git skipped (no git asset, or no native git)")
	}
	rows = append(rows, row{"tar czf (1,000 files)", per(3, run("cd /tmp && tar czf t.tgz t")), per(3, nat("tar czf t.tgz t")), "", ""})
	if have["gawk"] {
		const prog = `gawk 'BEGIN { for (i = 0; i < 300000; i++) s += length(sprintf("%d", i)); print s }'`
		rows = append(rows, row{"gawk 300k-iteration sprintf loop", per(3, run(prog)), per(3, nat(prog)), "", ""})
	}
	if have["perl"] && exec.Command("perl", "-e1").Run() == nil {
		// issue 36's perl: start, the interpreter's loop (asyncify's cost
		// shows here), a -lane pass over 200,000 lines, -pi over the tree
		const lines = `perl -e 'print "k$_ $_ text\n" for 1..200000' > nums.txt`
		run("cd /tmp && " + lines)()
		nat(lines)()
		rows = append(rows, row{"perl -e 'print 1' (start)", per(10, run(`perl -e 'print 1' >/dev/null`)), per(10, nat(`perl -e 'print 1' >/dev/null`)), "", ""})
		const loop = `perl -e 'my $s = 0; for my $i (1..1000000) { $s += length("x$i") } print "$s\n"' >/dev/null`
		rows = append(rows, row{"perl 1M-iteration string loop", per(3, run(loop)), per(3, nat(loop)), "", ""})
		const lane = `perl -lane '$s += $F[1]; END { print $s }' nums.txt >/dev/null`
		rows = append(rows, row{"perl -lane over 200,000 lines", per(3, run("cd /tmp && "+lane)), per(3, nat(lane)), "", ""})
		rows = append(rows, row{"perl -pi -e s/// (1,000 files)", per(3, run(`cd /tmp && perl -pi -e 's/line/LINE/' t/d*/f*.txt`)),
			per(3, nat(`perl -pi -e 's/line/LINE/' t/d*/f*.txt`)), "", ""})
	}
	fmt.Printf("%-42s %12s %12s %8s  %s\n", "userland (native: Debian's tools)", "wasmsand", "native", "ratio", "target")
	for _, r := range rows {
		fmt.Printf("%-42s %12s %12s %8s  %s\n", r.name, r.ours.Round(100*time.Microsecond), r.native.Round(100*time.Microsecond),
			fmt.Sprintf("%.2f×", float64(r.ours)/float64(r.native)), r.target)
	}
	fmt.Println()
	fmt.Printf("%-12s %12s %12s\n", "asset", "size", "gzip -9")
	for _, name := range []string{"git.wasm", "gawk.wasm", "make.wasm", "tar.wasm", "gzip.wasm", "perl.wasm"} {
		b, err := os.ReadFile(filepath.Join(assetsDir(), name))
		if err != nil {
			fmt.Printf("%-12s %12s\n", name, "not built")
			continue
		}
		var z bytes.Buffer
		w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
		w.Write(b)
		w.Close()
		fmt.Printf("%-12s %9d KB %9d KB\n", name, len(b)/1024, z.Len()/1024)
	}
}
