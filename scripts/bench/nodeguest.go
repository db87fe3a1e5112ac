package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/wasmsand/wasmsand/core"
)

// nodeGuestBench is issue 37's: the sandbox's `node` (QuickJS with the Node
// layer) beside the real node in the same run: start in a warm sandbox,
// require of a 200-file package, a CPU-bound loop, a 10 MB JSON round trip,
// an I/O-bound script (1,000 small files written and read back).
func nodeGuestBench(ctx context.Context) {
	fmt.Println()
	tools := openAssets(ctx, "node-guest", "node")
	if tools == nil {
		return
	}
	if exec.Command("node", "-e", "0").Run() != nil {
		fmt.Println("node-guest: skipped: no native node to compare with")
		return
	}
	sb, err := core.New(ctx, core.Options{Programs: tools, Timeout: 10 * time.Minute, FSLimitMB: 512, MemoryLimitMB: 512})
	check(err)
	defer sb.Close()
	run := sandboxRunner(ctx, sb, "node-guest")
	tmp, err := os.MkdirTemp("", "wasmsand-bench-node")
	check(err)
	defer os.RemoveAll(tmp)
	nat := nativeRunner(tmp, "HOME="+tmp)
	// a package of 200 modules that require each other in a chain, and a 10 MB JSON maker
	const mkPkg = `mkdir -p node_modules/big/lib && cd node_modules/big && echo '{"name":"big","main":"lib/m0.js"}' > package.json && ` +
		`for i in $(seq 0 198); do echo "exports.v = $i + require('./m$((i+1)).js').v;" > lib/m$i.js; done && echo 'exports.v = 199;' > lib/m199.js`
	run("cd /tmp && " + mkPkg)()
	nat(mkPkg)()

	var rows []row
	rows = append(rows, row{"node -e 'console.log(1)' (warm)", per(20, run(`node -e 'console.log(1)' >/dev/null`)), per(10, nat(`node -e 'console.log(1)' >/dev/null`)), "≤ 30 ms", ""})
	const req = `node -e 'console.log(require("big").v)' >/dev/null`
	rows = append(rows, row{"require of a 200-file package", per(5, run("cd /tmp && "+req)), per(5, nat(req)), "≤ 3× (I/O)", ""})
	const cpu = `node -e 'let s = 0; for (let i = 0; i < 3e6; i++) s += i % 7; console.log(s)' >/dev/null`
	rows = append(rows, row{"CPU: 3M-iteration loop", per(3, run(cpu)), per(3, nat(cpu)), "(recorded)", ""})
	const fib = `node -e 'const f = (n) => n < 2 ? n : f(n - 1) + f(n - 2); console.log(f(25))' >/dev/null`
	rows = append(rows, row{"CPU: fib(25)", per(3, run(fib)), per(3, nat(fib)), "(recorded)", ""})
	const js = `node -e 'const a = []; for (let i = 0; i < 100000; i++) a.push({ id: i, name: "item" + i, tags: ["x", "y"], v: i / 3 }); const s = JSON.stringify(a); const b = JSON.parse(s); console.log(s.length, b.length)' >/dev/null`
	rows = append(rows, row{"JSON round trip of ~10 MB", per(3, run(js)), per(3, nat(js)), "(recorded)", ""})
	const io = `node -e 'const fs = require("fs"); fs.mkdirSync("io", { recursive: true }); for (let i = 0; i < 1000; i++) fs.writeFileSync("io/f" + i, "line " + i + "\n"); let n = 0; for (const f of fs.readdirSync("io")) n += fs.readFileSync("io/" + f, "utf8").length; console.log(n)' >/dev/null`
	rows = append(rows, row{"I/O: write + read 1,000 files", per(3, run("cd /tmp && "+io)), per(3, nat(io)), "≤ 3×", ""})
	fmt.Printf("%-42s %12s %12s %8s  %s\n", "node-guest (native: node "+nodeVersion()+")", "wasmsand", "native", "ratio", "target")
	for _, r := range rows {
		fmt.Printf("%-42s %12s %12s %8s  %s\n", r.name, r.ours.Round(100*time.Microsecond), r.native.Round(100*time.Microsecond),
			fmt.Sprintf("%.2f×", float64(r.ours)/float64(r.native)), r.target)
	}
	if b, err := os.ReadFile(filepath.Join(assetsDir(), "quickjs.wasm")); err == nil {
		fmt.Printf("quickjs.wasm: %d KB\n", len(b)/1024)
	}
}

func nodeVersion() string {
	out, err := exec.Command("node", "--version").Output()
	if err != nil {
		return "?"
	}
	return string(out[:len(out)-1])
}
