// Package commands is the home of the sandbox's commands written in Go, one
// package per command family; core puts them in the one command table
// (shell.Commands) beside the shell's own (bash, sh, which) and the
// WebAssembly programs:
//
//   - curl: curl, wget and wasmsand-http over the network bridge, and their
//     offline stand-ins
//   - procps: ps, pgrep, pkill, top and free over the process table (procfs)
//   - text: column and less
//   - pyodide: python3 and pip as Pyodide (GOOS=js only)
//
// A command family may import shell and the layers below it, never core.
package commands
