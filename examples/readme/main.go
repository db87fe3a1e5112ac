// Command readme is README.md's Go sample, kept compiling and running: from
// "package main" on, this file is the README's ```go block byte for byte
// (readme_test.go checks it, and runs this program). Run it from the
// repository's root, after `make assets`.
package main

import (
	"context"
	"fmt"

	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/core/assetsrc"
)

func main() {
	ctx := context.Background()
	programs, err := assetsrc.Open(ctx, "build/assets") // the guest programs (make assets)
	if err != nil {
		panic(err)
	}
	sb, err := core.New(ctx, core.Options{Programs: programs}) // MemoryLimitMB 256, Timeout 30s, FSLimitMB 256, MaxProcesses 64
	if err != nil {
		panic(err)
	}
	defer sb.Close()
	res, _ := sb.Run(ctx, "echo hi > f; cat f | wc -l; python3 -c 'print(6*7)'", core.RunOptions{})
	fmt.Printf("%s(exit %d)\n", res.Stdout, res.ExitCode)

	snap := sb.Snapshot()    // copy-on-write: cheap
	child, _ := sb.Fork(ctx) // a new sandbox with the same files and shell state
	defer child.Close()
	sb.Restore(snap)
}
