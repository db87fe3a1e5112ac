// Command readme is README.md's Go sample, kept compiling and running: the
// lines between the README markers below are the README's ```go block,
// byte for byte (readme_test.go checks it, and runs this program). Run it
// from the repository's root, after `make assets`.
package main

import (
	"context"
	"fmt"

	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/core/assetsrc"
)

func main() {
	ctx := context.Background()
	// README go begin
	programs, _ := assetsrc.Open(ctx, "build/assets")        // the guest programs (make assets)
	sb, _ := core.New(ctx, core.Options{Programs: programs}) // MemoryLimitMB 256, Timeout 30s, FSLimitMB 256, MaxProcesses 64
	res, _ := sb.Run(ctx, "echo hi > f; cat f | wc -l; python3 -c 'print(6*7)'", core.RunOptions{})
	fmt.Print(string(res.Stdout), res.ExitCode)
	snap := sb.Snapshot()
	child, _ := sb.Fork(ctx)
	sb.Restore(snap)
	// README go end
	fmt.Println()
	defer sb.Close()
	defer child.Close()
}
