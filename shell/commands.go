package shell

import (
	"context"
	"slices"
)

// A Command is a program the sandbox offers by name. Its /bin and /usr/bin
// entries hold "#!wasmsand NAME" (see vfs.NewDefault); running one looks
// NAME up in the session's Commands. Bash's own builtins (cd, echo, ...) are
// not Commands: they live in the interpreter, as in bash.
type Command struct {
	Name string
	// Run runs the command without a WebAssembly module of its own: Go code
	// of the shell, or a runtime the platform hosts (Pyodide in the JS
	// build). Nil for a WebAssembly program, which Config.Exec runs with
	// ExecRequest.Program set to Name.
	Run func(ctx context.Context, s *Session, req *ExecRequest) int
}

// Commands is a sandbox's one command table: the shell resolves command entries
// through it and the sandbox makes its /bin and /usr/bin entries from its
// names, so `which`, `type` and `ls /usr/bin` all see what it holds.
type Commands struct {
	byName map[string]Command
	names  []string
}

// NewCommands builds a table from lists of commands; for a name given
// twice, the later entry wins (a platform's runtime over a WebAssembly
// program of the same name).
func NewCommands(lists ...[]Command) *Commands {
	c := &Commands{byName: map[string]Command{}}
	for _, l := range lists {
		for _, cmd := range l {
			if _, ok := c.byName[cmd.Name]; !ok {
				c.names = append(c.names, cmd.Name)
			}
			c.byName[cmd.Name] = cmd
		}
	}
	return c
}

// Lookup finds a command by name.
func (c *Commands) Lookup(name string) (Command, bool) {
	cmd, ok := c.byName[name]
	return cmd, ok
}

// Names lists the commands in the order they were first given.
func (c *Commands) Names() []string { return slices.Clone(c.names) }

// Programs are WebAssembly programs by name, for NewCommands.
func Programs(names []string) []Command {
	cmds := make([]Command, len(names))
	for i, n := range names {
		cmds[i] = Command{Name: n}
	}
	return cmds
}

// ShellCommands are the commands that are the shell itself (bash, sh) or
// need its command lookup (which); other commands written in Go live under
// commands/.
func ShellCommands() []Command {
	return []Command{
		{Name: "bash", Run: runShell},
		{Name: "sh", Run: runShell},
		{Name: "which", Run: runWhich},
	}
}
