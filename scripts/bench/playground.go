package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
)

// playgroundBench: the playground's load in headless Chromium (playground/test/bench.mjs):
// the prompt with empty and warm caches, the first ls, the bytes before the first
// command beside just-bash's browser bundle.
func playgroundBench(context.Context) {
	fmt.Println()
	if _, err := os.Stat("build/playground/index.html"); err != nil {
		fmt.Println("playground: skipped: no build/playground (make playground)")
		return
	}
	cmd := exec.Command("node", "playground/test/bench.mjs", "build/playground")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Println("playground: failed:", err)
	}
}
