package curl

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/wasmsand/wasmsand/shell"
)

// Offline are curl and wget for a sandbox without a network policy.
func Offline() []shell.Command {
	return []shell.Command{
		{Name: "curl", Run: noNetwork("curl", 7, "-s", "--silent")},
		{Name: "wget", Run: noNetwork("wget", 4, "-q", "--quiet")},
	}
}

// noNetwork stands in for a network client until the sandbox has a network
// policy: a clear error and the client's own status for a failed connection.
// quiet lists the options that silence errors (curl's -S brings them back).
func noNetwork(name string, status int, quiet ...string) func(context.Context, *shell.Session, *shell.ExecRequest) int {
	return func(ctx context.Context, _ *shell.Session, req *shell.ExecRequest) int {
		silent, showErrors := false, false
		for _, a := range req.Argv[1:] {
			switch {
			case a == "--version" || a == "-V":
				fmt.Fprintf(req.Stdout, "%s (wasmsand): network is disabled\n", name)
				return 0
			case a == "--show-error":
				showErrors = true
			case slices.Contains(quiet, a):
				silent = true
			case len(a) > 1 && a[0] == '-' && a[1] != '-':
				// combined short options such as -sS, -qO
				silent = silent || strings.ContainsRune(a[1:], rune(quiet[0][1]))
				showErrors = showErrors || (name == "curl" && strings.ContainsRune(a[1:], 'S'))
			}
		}
		if silent && !showErrors {
			return status
		}
		fmt.Fprintf(req.Stderr, "%s: network is disabled in this sandbox (no network policy allows it)\n", name)
		return status
	}
}
