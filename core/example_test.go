package core_test

import (
	"context"
	"fmt"

	"github.com/wasmsand/wasmsand/core"
)

func Example() {
	ctx := context.Background()
	sb, err := core.New(ctx, core.Options{})
	if err != nil {
		panic(err)
	}
	defer sb.Close()

	res, _ := sb.Run(ctx, `cd /tmp && printf 'b\na\n' > list && while read -r x; do echo "item $x"; done < list`, core.RunOptions{})
	fmt.Print(string(res.Stdout))
	fmt.Println("exit", res.ExitCode, "cwd", sb.Cwd())
	// Output:
	// item b
	// item a
	// exit 0 cwd /tmp
}

func ExampleSandbox_Fork() {
	ctx := context.Background()
	sb, _ := core.New(ctx, core.Options{})
	defer sb.Close()
	_ = sb.WriteFile("/home/user/state", []byte("parent\n"), 0)

	child, _ := sb.Fork(ctx) // O(1): copy-on-write files, same cwd and variables
	defer child.Close()
	_ = child.WriteFile("/home/user/state", []byte("child\n"), 0)

	p, _ := sb.ReadFile("/home/user/state")
	c, _ := child.ReadFile("/home/user/state")
	fmt.Print(string(p), string(c))
	// Output:
	// parent
	// child
}

func ExampleSandbox_Snapshot() {
	ctx := context.Background()
	sb, _ := core.New(ctx, core.Options{})
	defer sb.Close()
	snap := sb.Snapshot()
	sb.Run(ctx, "echo oops > /home/user/file", core.RunOptions{})
	_ = sb.Restore(snap)
	_, err := sb.ReadFile("/home/user/file")
	fmt.Println(core.ErrorCode(err))
	// Output: not_found
}

func ExampleSandbox_Run_limits() {
	ctx := context.Background()
	sb, _ := core.New(ctx, core.Options{OutputLimit: 1 << 10})
	defer sb.Close()
	res, _ := sb.Run(ctx, "while :; do echo flood; done", core.RunOptions{})
	fmt.Println("truncated:", res.Truncated, "exit:", res.ExitCode)
	// Output: truncated: true exit: 141
}
